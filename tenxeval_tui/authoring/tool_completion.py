"""Completions of the tools dialog's fields (``metadata.tools``): fault kinds, error
classes, ignored argument keys from the agent's schema, JSON paths into the fakes'
state, and fakes as ``module:attr`` from the project's Python files.

Each function takes what a field holds and returns it completed (to accept with one
key), or ``None`` when there is nothing to add, as :mod:`.completion` does for the case
form. A fake's module is found among the ``.py`` files under the agent's folder and its
functions are read with :mod:`ast`: the editor never imports the user's code. No UI
import.
"""

from __future__ import annotations

import ast
import builtins
import json
import os
from pathlib import Path
from typing import Any

from tenxeval_tui.authoring.tool_section import FAULT_KINDS
from tenxeval_tui.evaluation.targets.schema import AgentSchema

_COMMON_ERRORS = (
    "ConnectionError",
    "TimeoutError",
    "PermissionError",
    "ValueError",
    "KeyError",
    "LookupError",
    "RuntimeError",
    "FileNotFoundError",
    "OSError",
)
"""Offered first: what a tool's failure usually is."""
_SKIPPED_FOLDERS = frozenset(
    {"__pycache__", "node_modules", "site-packages", "build", "dist", "venv", "env"}
)
MAX_MODULE_FILES = 5000
"""Python files looked at for fakes (a bigger tree completes from the first ones)."""


def _first(names: list[str] | tuple[str, ...], prefix: str) -> str | None:
    for name in names:
        if name.startswith(prefix) and name != prefix:
            return name
    return None


def error_class_names() -> list[str]:
    """The built-in exception classes, the common ones first."""
    rest = sorted(
        name
        for name, value in vars(builtins).items()
        if isinstance(value, type) and issubclass(value, Exception) and name not in _COMMON_ERRORS
    )
    return [*_COMMON_ERRORS, *rest]


def complete_fault_kind(text: str) -> str | None:
    """``ti`` -> ``timeout``: how a fault fails."""
    return _first(FAULT_KINDS, text) if text else None


def complete_error_class(text: str) -> str | None:
    """``Conn`` -> ``ConnectionError``: a built-in exception class."""
    return _first(error_class_names(), text) if text else None


def complete_ignored_arg(schema: AgentSchema | None, text: str) -> str | None:
    """The entry being typed (after the last comma) completed: a tool's name, then
    ``TOOL.KEY`` from its parameters; a bare ``KEY`` (every tool) from any tool's."""
    if schema is None or not text:
        return None
    _, _, last = text.rpartition(",")
    partial = last.lstrip()
    if not partial:
        return None
    tool, dot, key = partial.partition(".")
    if dot:
        spec = schema.tool(tool)
        found = _first(list(spec.properties), key) if spec is not None else None
        return None if found is None else text + found[len(key) :]
    keys = [name for spec in schema.tools for name in spec.properties]
    found = _first(schema.tool_names, partial) or _first(keys, partial)
    return None if found is None else text + found[len(partial) :]


def complete_state_path(state_text: str, text: str) -> str | None:
    """``$.ref`` -> ``$.refunds``: a JSON path's last name completed from the keys of the
    fakes' starting state (``state_text``, a JSON object), following dotted names."""
    if not text.startswith("$."):
        return "$." if text in ("", "$") and state_text.strip() else None
    try:
        node: Any = json.loads(state_text) if state_text.strip() else {}
    except ValueError:
        return None
    *parents, last = text[2:].split(".")
    for name in parents:
        node = node.get(name) if isinstance(node, dict) else None
    if not isinstance(node, dict):
        return None
    found = _first([str(key) for key in node], last)
    return None if found is None else text + found[len(last) :]


def _module_files(folder: Path) -> dict[str, Path]:
    """Dotted module name -> file, for the ``.py`` files under ``folder``."""
    found: dict[str, Path] = {}
    for root, folders, files in os.walk(folder):
        folders[:] = sorted(
            name for name in folders if not name.startswith(".") and name not in _SKIPPED_FOLDERS
        )
        base = Path(root).relative_to(folder)
        for name in sorted(files):
            if not name.endswith(".py") or len(found) >= MAX_MODULE_FILES:
                continue
            parts = [*base.parts, name[:-3]]
            if parts[-1] == "__init__":
                parts = parts[:-1]
            if parts and all(part.isidentifier() for part in parts):
                found[".".join(parts)] = Path(root) / name
        if len(found) >= MAX_MODULE_FILES:
            break
    return found


def _callables(path: Path) -> list[str]:
    """The top-level functions and classes a module's source defines (not imported)."""
    try:
        tree = ast.parse(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, SyntaxError, ValueError):
        return []
    kinds = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
    return [node.name for node in tree.body if isinstance(node, kinds)]


class FakeIndex:
    """The modules under an agent's folder and their functions, read once (from a
    thread: :meth:`read`), for completing a fake's ``module:attr``."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.modules: dict[str, Path] | None = None
        """Module name -> file; ``None`` until :meth:`read`."""
        self._callables: dict[str, list[str]] = {}

    def read(self) -> None:
        """List the folder's modules (a walk of its tree; call it off the UI thread)."""
        self.modules = _module_files(self.folder)

    def callables(self, module: str) -> list[str]:
        """The functions and classes module ``module`` defines (read once)."""
        if module not in self._callables:
            path = (self.modules or {}).get(module)
            self._callables[module] = _callables(path) if path is not None else []
        return self._callables[module]

    def complete(self, text: str) -> str | None:
        """``sample_evals.sup`` -> ``sample_evals.support_fakes``, then ``:`` and the
        module's functions: ``sample_evals.support_fakes:re`` -> ``...:refund``."""
        if not text or self.modules is None:
            return None
        module, colon, attr = text.partition(":")
        if colon:
            found = _first(self.callables(module), attr)
            return None if found is None else text + found[len(attr) :]
        if module in self.modules and self.callables(module):
            return text + ":"
        found = _first(sorted(self.modules), module)
        return None if found is None else found


__all__ = [
    "MAX_MODULE_FILES",
    "FakeIndex",
    "complete_error_class",
    "complete_fault_kind",
    "complete_ignored_arg",
    "complete_state_path",
    "error_class_names",
]
