"""The errors a tool call gets instead of running: a fault's, a replayed one, and the
error of a call that replay cannot answer."""

from __future__ import annotations

import builtins
import importlib
import sys
from typing import Any


class UnrecordedToolCall(LookupError):
    """Replay met a call its cassette does not hold (the case fails with this message)."""


class ToolFaultTimeout(TimeoutError):
    """A fault made this call time out."""


class ReplayedToolError(RuntimeError):
    """A recorded error whose class cannot be made again here (its module is not loaded,
    or it takes other arguments): its recorded type and message."""


def error_type_name(exc: BaseException) -> str:
    """How a cassette names ``exc``'s class: its bare name for a built-in one
    (``ValueError``), else ``module.QualName``."""
    cls = type(exc)
    if cls.__module__ == "builtins":
        return cls.__qualname__
    return f"{cls.__module__}.{cls.__qualname__}"


def error_message(exc: BaseException) -> str:
    """What makes ``exc`` again with :func:`make_error`: its one text argument as it was
    given (``KeyError('x')``'s ``x``, not its quoted ``str``), else its ``str``."""
    if len(exc.args) == 1 and isinstance(exc.args[0], str):
        return exc.args[0]
    return str(exc)


def _exception_class(name: str, *, importing: bool) -> type[BaseException] | None:
    parts = name.replace(":", ".").split(".")
    found: Any = getattr(builtins, name, None) if len(parts) == 1 else None
    # A dotted class name (Outer.Error) is tried from the longest module name down.
    for cut in range(len(parts) - 1, 0, -1):
        module_name = ".".join(parts[:cut])
        module = sys.modules.get(module_name)
        if module is None and importing:
            try:
                module = importlib.import_module(module_name)
            except ImportError:
                module = None
        if module is None:
            continue
        found = module
        for part in parts[cut:]:
            found = getattr(found, part, None)
        break
    if isinstance(found, type) and issubclass(found, BaseException):
        return found
    return None


def make_error(type_name: str, message: str, *, importing: bool = False) -> BaseException:
    """An error of class ``type_name`` (a built-in's name, ``module.Class`` or
    ``module:Class``) with ``message``; a :class:`ReplayedToolError` saying both when that
    class cannot be made. Replayed errors never import a module (``importing`` False): a
    cassette names classes the agent's own code has loaded."""
    cls = _exception_class(type_name, importing=importing)
    if cls is not None and issubclass(cls, Exception):
        try:
            return cls(message)
        except Exception:
            pass
    return ReplayedToolError(f"{type_name}: {message}" if message else type_name)


def check_error_type(type_name: str) -> str | None:
    """Why ``type_name`` names no exception class (``None`` when it does)."""
    if _exception_class(type_name, importing=True) is None:
        return f"{type_name!r} is no exception class (a built-in's name, or module:Class)"
    return None


def describe(value: Any) -> str:
    """A short form of a call's arguments for messages."""
    import json

    text = json.dumps(value, ensure_ascii=False, sort_keys=True, default=str)
    return text if len(text) <= 200 else text[:197] + "..."


__all__ = [
    "ReplayedToolError",
    "ToolFaultTimeout",
    "UnrecordedToolCall",
    "check_error_type",
    "describe",
    "error_message",
    "error_type_name",
    "make_error",
]
