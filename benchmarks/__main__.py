"""Runs every benchmark module and prints one table (also saved as JSON).

A benchmark module is `benchmarks/bench_<name>.py` with `run() -> list[Figure]`.
`python -m benchmarks engine hub` runs only those modules.
"""

from __future__ import annotations

import importlib
import json
import pkgutil
import platform
import sys
import time
from pathlib import Path

from benchmarks.figure import Figure

HERE = Path(__file__).parent
RESULTS = HERE / "results" / "latest.json"


def main(argv: list[str]) -> int:
    names = sorted(m.name for m in pkgutil.iter_modules([str(HERE)]) if m.name.startswith("bench_"))
    if argv:
        names = [n for n in names if n.removeprefix("bench_") in argv]
    figures: list[Figure] = []
    failed = []
    for name in names:
        started = time.perf_counter()
        module = importlib.import_module(f"benchmarks.{name}")
        try:
            figures.extend(module.run())
        except Exception as exc:  # one broken benchmark must not hide the others' figures
            failed.append(f"{name}: {exc!r}")
        print(f"# {name} done in {time.perf_counter() - started:.1f} s", file=sys.stderr)
    width = max([len(f.name) for f in figures] + [10])
    print(f"{'figure':<{width}}  {'value':>12}  {'unit':<10}  target")
    for f in figures:
        verdict = "" if f.target is None else f"{f.target_text()}  {'ok' if f.met() else 'MISSED'}"
        print(f"{f.name:<{width}}  {f.value:>12.4g}  {f.unit:<10}  {verdict}")
    for line in failed:
        print(f"FAILED {line}")
    RESULTS.parent.mkdir(exist_ok=True)
    RESULTS.write_text(
        json.dumps(
            {
                "machine": platform.platform(),
                "python": platform.python_version(),
                "when": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
                "figures": [f.to_json() for f in figures],
                "failed": failed,
            },
            indent=2,
        )
    )
    print(
        f"written to {RESULTS.relative_to(Path.cwd()) if RESULTS.is_relative_to(Path.cwd()) else RESULTS}"
    )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
