"""Loads the Pico firmware (hardware/firmware/) into CPython for the host tests.

On the Pico the firmware modules sit side by side at the top level (`import protocol`), so
they are loaded here the same way, by their own names, and then taken out of sys.modules
again: other tests may have top-level modules of the same names (config, protocol).
"""

from __future__ import annotations

import functools
import importlib
import sys
from pathlib import Path
from types import ModuleType, SimpleNamespace

FIRMWARE_DIR = Path(__file__).resolve().parents[2] / "hardware" / "firmware"
LOGIC_MODULES = ("protocol", "mfrc522", "iso14443", "hub", "config")
BOARD_MODULES = ("machine", "main")


def load(names: tuple[str, ...] = LOGIC_MODULES, extra: dict[str, ModuleType] | None = None):
    """Import the firmware modules `names` fresh; `extra` stands in for board modules."""
    touched = set(names) | set(LOGIC_MODULES) | set(BOARD_MODULES) | set(extra or {})
    saved = {name: sys.modules.pop(name) for name in touched if name in sys.modules}
    sys.modules.update(extra or {})
    sys.path.insert(0, str(FIRMWARE_DIR))
    try:
        modules = {name: importlib.import_module(name) for name in names}
    finally:
        sys.path.remove(str(FIRMWARE_DIR))
        for name in touched:
            sys.modules.pop(name, None)
        sys.modules.update(saved)
    return SimpleNamespace(**modules)


@functools.cache
def firmware() -> SimpleNamespace:
    """The logic modules, loaded once for the whole test session."""
    return load()
