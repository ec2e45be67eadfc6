"""Reports of a run: console text, JSON, a self-contained HTML dashboard, JUnit XML, CSV
and JSON Lines.

``ReporterManager(config).run_all(report)`` writes every report a
:class:`~tenxeval_tui.evaluation.config.ReporterConfig` enables; each reporter
can also be used on its own.
"""

from __future__ import annotations

import importlib
from typing import Any

_EXPORTS: dict[str, str] = {
    "BaseReporter": "base",
    "Colors": "console",
    "ReporterManager": "manager",
    "ReporterOutput": "manager",
    "ConsoleReporter": "console",
    "print_report": "console",
    "JSONReporter": "json",
    "HTMLReporter": "html",
    "JUnitXMLReporter": "junit",
    "CsvReporter": "csv",
    "JsonlReporter": "jsonl",
    "REPORT_FORMATS": "files",
    "reporter_for_path": "files",
    "write_report": "files",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    module_name = _EXPORTS.get(name)
    if module_name is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{module_name}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_EXPORTS))
