"""Two calls the core makes upward, bound late by the package's front door.

A config checks a custom criterion's name against the criterion registry, and a report
shows itself in a notebook as the HTML reporter's page. But the criteria read configs and
the reporters read reports, so neither ``config`` nor ``eval_result`` may import them: the
core's import graph stays acyclic (the ``acyclic_siblings`` contracts of ``make lint``).
:mod:`tenxeval_tui.evaluation`, which Python imports before any module inside it, binds
these two to functions that import the registry or the reporter when first called.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from typing import Any


def _unbound(*_: Any) -> Any:
    raise RuntimeError("tenxeval_tui.evaluation has not bound its late calls")


criterion_names: Callable[[], Collection[str]] = _unbound
"""Every registered criterion's name, the built-ins loaded first."""

report_page: Callable[[Any], str] = _unbound
"""The page :class:`~tenxeval_tui.evaluation.reporters.html.HTMLReporter` renders of an
:class:`~tenxeval_tui.evaluation.eval_result.EvalReport`."""
