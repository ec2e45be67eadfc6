"""Accept actual, from the run view: a finished case's reply, tool calls and node order
become its expectations in the eval set file (``a``); or those of several cases at once
(``A``: the cases selected in the run's case table, else every case that failed on its
reply alone), through the report browser's batch flow
(:func:`~tenxeval_tui.screens.accept.batch.accept_batch`).

The run view holds only a lean result of each case; the full one (trajectory, tool
calls with their args, node visits) and the time the run ended are read back from the
run's JSON report. The rest is the report browser's flow
(:func:`tenxeval_tui.screens.accept.one_case.accept_actual`): the diff and the
choice of parts, the write through the editor's document (``ctrl+z`` there undoes it),
the refusal when the file changed since the run.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any, NamedTuple

from textual.screen import Screen

from tenxeval_tui.authoring.accept_many import only_reply_failed
from tenxeval_tui.evaluation.errors import EvalFileError
from tenxeval_tui.evaluation.eval_result import EvalCaseResult
from tenxeval_tui.evaluation.inert import quoted
from tenxeval_tui.runs.live_run import FINISHED, CaseState, CaseStatus, LiveRun
from tenxeval_tui.screens.accept.batch import Batch, accept_batch, refuse
from tenxeval_tui.screens.accept.one_case import accept_actual, accepted_run


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
            f"No report of this run holds case {quoted(state.eval_id)}: nothing to accept.",
            title="Not accepted",
            severity="warning",
            markup=False,
        )
        return False
    return await accept_actual(
        screen, accepted_run(found.result, None), state.eval_set_id, found.timestamp
    )


def stored_results(
    states: list[CaseState], reports: dict[str, list[Path]]
) -> dict[str, StoredResult]:
    """Case key -> its full result, for each of ``states`` that a report in ``reports``
    holds (each report is read once)."""
    from tenxeval_tui.browsing.report_document import ReportDocument

    opened: dict[Path, ReportDocument | None] = {}
    found: dict[str, StoredResult] = {}
    for state in states:
        for path in reports.get(state.key, []):
            if path not in opened:
                try:
                    opened[path] = ReportDocument.open(path)
                except (EvalFileError, OSError):
                    opened[path] = None
            document = opened[path]
            if document is None:
                continue
            try:
                index = document.index_of(state.eval_set_id, state.eval_id)
                result = None if index is None else document.case(index)
            except EvalFileError:
                continue
            if result is not None:
                found[state.key] = StoredResult(result, document.title, document.timestamp)
                break
    return found


def _finished(state: CaseState) -> bool:
    return state.result is not None and (
        state.status in FINISHED or state.status == CaseStatus.CARRIED
    )


async def accept_many_in_run(
    screen: Screen[Any], run: LiveRun | None, marked: list[str], reports: dict[str, list[Path]]
) -> bool:
    """Ask, then accept the actual of the cases ``marked`` (case keys) of ``run``, each
    with the parts the user chooses; with none marked, the reply of every case that failed
    on its reply alone. ``True`` when the file was written. Must run in a worker."""
    if run is None or not run.done:
        return refuse(screen, "The run is not over: accept once it has finished.")
    if run.crashed:
        return refuse(
            screen,
            f"The run errored ({run.worker_error or f'exit status {run.exit_code}'}): its "
            "results may not be those of the eval set as it is. Run it again, then accept.",
        )
    keys = marked or [k for k, s in run.cases.items() if s.status == CaseStatus.FAILED]
    states = [run.cases[k] for k in keys if k in run.cases]
    left_out = [
        (s.eval_id, f"it did not finish ({s.status.value})") for s in states if not _finished(s)
    ]
    states = [s for s in states if _finished(s)]
    found = await asyncio.to_thread(stored_results, states, reports)
    left_out += [
        (s.eval_id, "no report of this run holds it") for s in states if s.key not in found
    ]
    states = [s for s in states if s.key in found]
    if not marked:
        states = [s for s in states if only_reply_failed(found[s.key].result)]
        if not states:
            return refuse(screen, "No case of this run failed on its reply alone.")
    sets = sorted({s.eval_set_id for s in states})
    if len(sets) > 1:
        return refuse(
            screen,
            f"The cases are in {len(sets)} eval sets ({', '.join(sets)}): select the cases "
            "of one of them (space), then press A.",
        )
    if not states:
        return refuse(screen, "Nothing to accept:\n" + "\n".join(f"{i}: {w}" for i, w in left_out))
    batch = Batch(
        sets[0],
        [accepted_run(found[s.key].result, None) for s in states],
        min(found[s.key].timestamp for s in states),
        chosen=bool(marked),
        left_out=left_out,
    )
    return await accept_batch(screen, batch)


__all__ = [
    "StoredResult",
    "accept_many_in_run",
    "accept_selected",
    "can_accept",
    "result_in_reports",
    "stored_results",
]
