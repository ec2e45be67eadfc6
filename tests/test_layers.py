"""The layers at run time: importing anything outside the UI leaves Textual unloaded.

The import-linter contracts in pyproject.toml (``lint-imports``, run by ``make lint``) check
the imports written in the code; this checks what really gets loaded, in a fresh interpreter
per layer, so an import hidden from the static graph (``importlib``, a plugin) is caught too.
The layers are found by scanning the package: a new module or folder is covered without
editing this file.
"""

from __future__ import annotations

import pkgutil
import subprocess
import sys

import pytest

import tenxeval_tui
from tests.waiting import scaled

# The UI, the only part of the package allowed to load Textual. Everything else is a layer
# that must run headless (the CLI's `run`/`validate`, the worker's child process, CI).
UI_MODULES = {
    "tenxeval_tui.app",  # the Textual App
    "tenxeval_tui.screens",  # Textual screens
    "tenxeval_tui.widgets",  # Textual widgets
}

# Imports the given module, and every submodule when it is a package, in order, and prints
# the first whose import loaded Textual (nothing when none did).
PROBE = """
import importlib, pkgutil, sys

def first_loading_textual(name):
    module = importlib.import_module(name)
    if "textual" in sys.modules:
        return name
    for info in pkgutil.walk_packages(getattr(module, "__path__", []), name + "."):
        if info.name.endswith(".__main__"):  # runs the command when imported
            continue
        importlib.import_module(info.name)
        if "textual" in sys.modules:
            return info.name
    return ""

print(first_loading_textual(sys.argv[1]))
"""


def top_level_modules() -> list[str]:
    """The package's top-level modules and folders, as dotted names."""
    return sorted(
        info.name for info in pkgutil.iter_modules(tenxeval_tui.__path__, "tenxeval_tui.")
    )


def headless_layers() -> list[str]:
    return [name for name in top_level_modules() if name not in UI_MODULES]


def module_loading_textual(name: str) -> str:
    """Which module (``name`` or one under it) loads Textual in a fresh interpreter; ``""``."""
    done = subprocess.run(
        [sys.executable, "-c", PROBE, name], capture_output=True, text=True, timeout=scaled(120)
    )
    assert done.returncode == 0, f"importing {name} failed:\n{done.stderr}"
    return done.stdout.strip()


@pytest.mark.parametrize("name", headless_layers())
def test_layer_runs_without_textual(name: str) -> None:
    culprit = module_loading_textual(name)
    assert culprit == "", (
        f"importing {culprit} loads textual: UI code belongs in screens/ or widgets/ "
        "(or add the module to UI_MODULES in tests/test_layers.py if it really is UI)"
    )


def test_the_scan_finds_the_layers_and_the_ui() -> None:
    layers = headless_layers()
    assert {
        "tenxeval_tui.evaluation",
        "tenxeval_tui.cli",
        "tenxeval_tui.authoring",
        "tenxeval_tui.runs",
    } <= set(layers)
    # A stale entry (a UI module renamed or moved) would silently stop meaning anything.
    assert set(top_level_modules()) >= UI_MODULES


def test_the_probe_sees_textual_loaded_by_the_ui() -> None:
    assert module_loading_textual("tenxeval_tui.app") == "tenxeval_tui.app"
    assert module_loading_textual("tenxeval_tui.widgets").startswith("tenxeval_tui.widgets")
