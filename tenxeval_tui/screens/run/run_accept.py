"""Accept actual, from the run view: a finished case's reply, tool calls and node order
become its expectations in the eval set file.

The run view holds only a lean result of each case; the full one (trajectory, tool
calls with their args, node visits) and the time the run ended are read back from the
run's JSON report. The rest is the report browser's flow
(:func:`tenxeval_tui.screens.reports.accept_actual.accept_actual`): the diff and the
choice of parts, the write through the editor's document (``ctrl+z`` there undoes it),
the refusal when the file changed since the run.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any, NamedTuple

from textual.screen import Screen

from tenxeval_tui.evaluation.errors import EvalFileError
from tenxeval_tui.evaluation.eval_result import EvalCaseResult
from tenxeval_tui.runs.live_run import FINISHED, CaseStatus, LiveRun
from tenxeval_tui.screens.reports.accept_actual import accept_actual, accepted_run


class StoredResult(NamedTuple):
    """A case's full result as its run's report stores it."""

    result: EvalCaseResult
    title: str
    """The report's title (its eval set's name)."""
    timestamp: float
    """When the run ended (the report's timestamp)."""


def result_in_reports(reports: list[Path], lean: EvalCaseResult) -> StoredResult | None:
    """``lean``'s full result, from the first of ``reports`` that holds it; ``None`` when
    none does (or none can be read)."""
    from tenxeval_tui.browsing.report_document import ReportDocument

    for path in reports:
        try:
            document = ReportDocument.open(path)
            index = document.index_of(lean.eval_set_id, lean.eval_id)
            if index is not None:
                return StoredResult(document.case(index), document.title, document.timestamp)
        except (EvalFileError, OSError):
            continue
    return None


def can_accept(run: LiveRun | None, key: str | None, reports: dict[str, list[Path]]) -> bool:
    """Whether the case ``key`` of ``run`` can be accepted: the run is over and the case
    finished in a run whose reports were written."""
    if run is None or key is None or not run.done:
        return False
    state = run.cases.get(key)
    return (
        state is not None
        and state.result is not None
        and (state.status in FINISHED or state.status == CaseStatus.CARRIED)
        and bool(reports.get(key))
    )


async def accept_selected(
    screen: Screen[Any], run: LiveRun | None, key: str | None, reports: dict[str, list[Path]]
) -> bool:
    """Ask, then write what the case ``key`` of ``run`` did as its expectations (its full
    result from ``reports``, case key -> the JSON reports of the run that ran it); ``True``
    when the file was written. Must run in a worker (it waits for the dialog)."""
    if not can_accept(run, key, reports):
        return False
    assert run is not None and key is not None
    state = run.cases[key]
    assert state.result is not None
    found = await asyncio.to_thread(result_in_reports, reports[key], state.result)
    if found is None:
        screen.app.notify(
            f"No report of this run holds case {state.eval_id!r}: nothing to accept.",
            title="Not accepted",
            severity="warning",
            markup=False,
        )
        return False
    return await accept_actual(
        screen, accepted_run(found.result, None), state.eval_set_id, found.timestamp
    )


__all__ = ["StoredResult", "accept_selected", "can_accept", "result_in_reports"]
