"""The shape of the code (docs/architecture.md), read from the sources with `ast`.

- `engine` imports nothing of ours; `hardware` imports nothing of `companion` or `engine`.
- `companion`'s wings are layers and every import points down (or stays in its layer):
  base (atomic, config, notify, settings) < board < game < show < daemon, selftest,
  publish, requests < sim, web < cli, commands.
- No import circle anywhere in our packages (a `TYPE_CHECKING` import counts: it is a
  dependency all the same).
- `companion/` itself holds only the entry modules and the wings, at most 8 plain modules.
Every import counts, also one inside a function (a late import is still a dependency), one
made with `importlib` (a module that loads modules by name depends on every module of ours
it names), and the packages a module's import runs on the way (importing `a.b.c` runs
`a/__init__.py` and `a/b/__init__.py`, whose own imports come along). Late imports are kept
to the commands (which load what they run when they run) and optional extras, and no module
names a type `Any` to hide what it is.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator, Mapping
from functools import cached_property
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("companion", "engine", "hardware")
#: MicroPython code for the hub's Pico: its own world (checked only for imports of ours)
FIRMWARE = ROOT / "hardware" / "firmware"

#: companion's layers, lowest first: a module may import its own layer and those below.
LAYERS: tuple[tuple[str, ...], ...] = (
    ("companion", "companion.atomic", "companion.config", "companion.notify", "companion.settings"),
    ("companion.board",),
    ("companion.game", "companion.enrolment", "companion.menu"),
    ("companion.show",),
    ("companion.daemon", "companion.selftest"),
    ("companion.sim", "companion.web"),
    ("companion.cli", "companion.commands"),
)
#: what `companion/` may hold: the modules and wings of LAYERS
TOP_LEVEL = {name.split(".")[1] for layer in LAYERS for name in layer if "." in name}


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def sources() -> dict[str, Path]:
    found = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            if FIRMWARE not in path.parents:
                found[module_name(path)] = path
    return found


MODULES = sources()


def ancestors(name: str) -> list[str]:
    """The packages `name` lies in, outermost first (`a.b.c` -> `a`, `a.b`)."""
    parts = name.split(".")
    return [".".join(parts[:n]) for n in range(1, len(parts))]


def loads_by_name(tree: ast.Module) -> bool:
    """Whether the module imports modules by name (`importlib.import_module`, `__import__`)."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            func = node.func
            called = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            if called in ("import_module", "__import__"):
                return True
    return False


def imports_of(name: str, path: Path) -> set[str]:
    """The modules of ours that `name` imports (relative imports resolved, `from package
    import module` read as the module), the packages each import runs on the way (but for
    `name`'s own, running already) and, for a module that loads modules by name, each module
    of ours it names in a string."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    tree = ast.parse(path.read_text(encoding="utf-8"))
    if loads_by_name(tree):
        found |= {
            node.value
            for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and node.value in MODULES and node.value != name
        }
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                base = ".".join([*up, *([base] if base else [])])
            targets = [
                f"{base}.{alias.name}" if f"{base}.{alias.name}" in MODULES else base
                for alias in node.names
            ]
        else:
            continue
        for target in targets:
            while target and target not in MODULES:  # `import a.b.c` of a name inside a.b
                target = target.rpartition(".")[0]
            if target and target != name:
                found.add(target)
    own = {*ancestors(name), name}
    for target in list(found):
        found |= {p for p in ancestors(target) if p in MODULES and p not in own}
    return found


class _Graph(Mapping[str, set[str]]):
    """Module -> the modules of ours it imports, walked on first use: every worker of
    `make test` collects this module, and the walk (a second of CPU) is only for the worker
    that runs its tests."""

    @cached_property
    def _edges(self) -> dict[str, set[str]]:
        return {name: imports_of(name, path) for name, path in MODULES.items()}

    def __getitem__(self, name: str) -> set[str]:
        return self._edges[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._edges)

    def __len__(self) -> int:
        return len(self._edges)


GRAPH = _Graph()


def layer(name: str) -> int | None:
    for number, names in enumerate(LAYERS):
        if any(name == n or name.startswith(n + ".") for n in names if n != "companion"):
            return number
    return 0 if name == "companion" else None


def test_the_engine_imports_nothing_of_ours():
    wrong = {
        (name, target)
        for name, targets in GRAPH.items()
        if name.split(".")[0] == "engine"
        for target in targets
        if target.split(".")[0] != "engine"
    }
    assert not wrong


def test_hardware_knows_nothing_of_the_game():
    wrong = {
        (name, target)
        for name, targets in GRAPH.items()
        if name.split(".")[0] == "hardware"
        for target in targets
        if target.split(".")[0] != "hardware"
    }
    for path in FIRMWARE.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = (
                [a.name for a in node.names]
                if isinstance(node, ast.Import)
                else [node.module or ""]
                if isinstance(node, ast.ImportFrom)
                else []
            )
            wrong |= {(path.name, n) for n in names if n.split(".")[0] in PACKAGES}
    assert not wrong


def test_every_companion_module_has_a_layer_and_the_top_level_only_entries_and_wings():
    unplaced = sorted(n for n in MODULES if n.startswith("companion") and layer(n) is None)
    assert not unplaced, "give each a layer here and in docs/architecture.md"
    top = {p.stem if p.suffix == ".py" else p.name for p in (ROOT / "companion").iterdir()}
    top -= {"__init__", "__pycache__"}
    assert top <= TOP_LEVEL, f"not an entry module nor a wing: {sorted(top - TOP_LEVEL)}"
    plain = sorted(p.stem for p in (ROOT / "companion").glob("*.py") if p.stem != "__init__")
    assert len(plain) <= 8, f"the top of companion/ holds {len(plain)} plain modules: {plain}"
    doc = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    missing = [name for name in sorted(TOP_LEVEL) if f"`{name}`" not in doc]
    assert not missing, "docs/architecture.md must show every wing and entry module"


def test_companion_imports_point_down_the_layers():
    upward = sorted(
        f"{name} (layer {layer(name)}) imports {target} (layer {layer(target)})"
        for name, targets in GRAPH.items()
        if name.startswith("companion")
        for target in targets
        if target.startswith("companion") and layer(target) > layer(name)  # type: ignore[operator]
    )
    assert not upward


def circles() -> list[frozenset[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[frozenset[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(GRAPH[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = set()
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.add(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(frozenset(component))

    for v in sorted(GRAPH):
        if v not in index:
            visit(v)
    return found


def test_no_import_circle():
    assert not [sorted(c) for c in circles()]


def test_the_walk_sees_imports_that_point_up_and_circles():
    """The checks can fail: the walk finds a known upward import and a known circle."""
    assert "companion.config" in GRAPH["companion.game.table"]
    assert layer("companion.game.table") > layer("companion.config")  # type: ignore[operator]
    assert "companion.game.view" in GRAPH["companion.game.table"]
    assert "engine.tiles" in GRAPH["engine.board"]
    assert "companion.commands.run" in GRAPH["companion.cli"], "importlib, by name"
    assert "companion.board" in GRAPH["companion.enrolment.session"], "a package on the way"
    assert "companion.enrolment" not in GRAPH["companion.enrolment.session"], "its own"


def late_imports(tree: ast.Module) -> list[ast.Import | ast.ImportFrom]:
    """The imports inside functions (not at the module's top, nor under `TYPE_CHECKING`)."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            found += [n for n in ast.walk(node) if isinstance(n, (ast.Import, ast.ImportFrom))]
    return found


#: late imports outside the commands, each with its reason
LATE = {
    ("companion.show.card", "fpdf"): "fpdf2 is an optional extra, for `make card` alone",
}


def test_late_imports_are_the_commands_own_and_optional_extras():
    """A command's `run` imports what it runs (a cheap `--help`, a fast start: see
    companion/commands/_common.py); anywhere else an import inside a function hides a
    dependency, unless it is an optional extra named in LATE."""
    found = set()
    for name, path in MODULES.items():
        if not name.startswith("companion") or name.startswith("companion.commands"):
            continue
        for node in late_imports(ast.parse(path.read_text(encoding="utf-8"))):
            modules = (
                [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module]
            )
            found |= {(name, str(module).split(".")[0]) for module in modules}
    assert found <= set(LATE), sorted(found - set(LATE))


def test_no_module_names_a_type_any():
    """`Daemon = Any` hid that the publisher reached into the daemon that imports it."""
    aliases = []
    for name, path in MODULES.items():
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            value = node.value if isinstance(node, ast.Assign) else None
            if isinstance(value, ast.Name) and value.id == "Any":
                aliases.append(f"{name}: {ast.unparse(node)}")
    assert not aliases


def test_one_spelling_in_code_enrol():
    """British, like "colour"; only the command keeps its name (`setup-companion enroll`)."""
    american = set()
    for name, path in MODULES.items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            words = {
                ast.FunctionDef: lambda n: n.name,
                ast.ClassDef: lambda n: n.name,
                ast.Attribute: lambda n: n.attr,
                ast.arg: lambda n: n.arg,
                ast.keyword: lambda n: n.arg or "",
            }
            word = words[type(node)](node) if type(node) in words else ""
            if isinstance(node, ast.Name) and node.id != "enroll":  # the command's module
                word = node.id
            if re.search(r"enroll(?!ed|ing)", word.lower()):  # enrolled: both spell it so
                american.add(f"{name}: {word}")
    assert not american
