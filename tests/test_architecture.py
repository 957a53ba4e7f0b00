"""The shape of the code (docs/architecture.md), read from the sources with `ast`.

- `engine` imports nothing of ours; `hardware` imports nothing of `companion` or `engine`.
- `companion`'s wings are layers and every import points down (or stays in its layer):
  base (atomic, config, notify, settings) < board < game < show < daemon, selftest,
  publish, requests < sim, web < cli, commands.
- No import circle anywhere in our packages (a `TYPE_CHECKING` import counts: it is a
  dependency all the same).
- `companion/` itself holds only the entry modules and the wings.
Every import counts, also one inside a function: a late import is still a dependency.
"""

from __future__ import annotations

import ast
import re
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


def imports_of(name: str, path: Path) -> set[str]:
    """The modules of ours that `name` imports (relative imports resolved, `from package
    import module` read as the module)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
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
    return found


GRAPH = {name: imports_of(name, path) for name, path in MODULES.items()}


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
