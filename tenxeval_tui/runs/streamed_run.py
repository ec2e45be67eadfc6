"""A ``run`` worker's evaluation with its eval sets streamed: cases built as they are about
to run, results kept by the journal alone (issue #38).

``tenxeval-tui run`` makes its reports from the run journal, so its worker need not hold
the cases nor their results: :func:`streamed_files` scans the plan's eval set files
(:mod:`~tenxeval_tui.runs.case_stream`: each case's id, name and tags kept, its repeat
count checked, no case built) and :class:`StreamedRunner` runs each eval set's selected
cases through :meth:`AgentEvaluator.evaluate_stream`, building every case of the file in
turn as the run goes (the selected ones run, all of them are hashed into the provenance's
``eval_set_sha256``, known when the file's last case has been read: the journal's
``run_end`` line has it). A case that does not build stops the run where it is, with
loading's words for it; its reports carry their summaries' counts and no results.

It applies when it can keep the whole run's behaviour (:func:`streams`): one worker (not
``--workers`` or Ray, whose drivers hand whole cases out), a journal and no reports of the
worker's own (the workbench's runs write theirs from the worker's results), no
``max_cost`` (which cases were not run is worked out from every result), no scenario file
(a few cases, run through the user simulator). Otherwise, and for a file the scan does not
read exactly, the worker loads the eval sets whole as before.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, cast

from tenxeval_tui.evaluation.agent_evaluator import AgentEvaluator
from tenxeval_tui.evaluation.case_control import StopMode
from tenxeval_tui.evaluation.config.eval_config import EvalConfig
from tenxeval_tui.evaluation.dataset.eval_set import EvalCase, EvalSet
from tenxeval_tui.evaluation.eval_result import EVAL_SET_HASH_KEY, EvalReport
from tenxeval_tui.evaluation.observers import RunObserver
from tenxeval_tui.evaluation.repeats import resolve_repeats
from tenxeval_tui.evaluation.simulators.scenario_sets import is_scenario_file
from tenxeval_tui.evaluation.tools.run import ToolRun
from tenxeval_tui.runs.case_scan import ScannedSet
from tenxeval_tui.runs.case_stream import HashingStream, ScannedFile, scan_eval_set
from tenxeval_tui.runs.plan import RunPlan


def streams(plan: RunPlan, config: EvalConfig) -> bool:
    """Whether the worker runs ``plan`` streamed (see the module)."""
    return (
        plan.journal is not None
        and not config.reporter.enabled
        and not plan.pooled
        and config.max_cost is None
        and not any(is_scenario_file(path) for path in plan.eval_sets)
    )


def streamed_files(plan: RunPlan, config: EvalConfig) -> list[tuple[Path, ScannedFile]] | None:
    """Each eval set file of ``plan`` scanned (its cases' repeats checked), or ``None`` when
    one of them is not read that way (the run loads them whole). ``OSError`` when a file
    cannot be read; ``ValueError`` for a case's bad repeat count."""

    def check(eval_set: EvalSet, case: EvalCase) -> None:
        resolve_repeats(config, eval_set, case)

    scanned: list[tuple[Path, ScannedFile]] = []
    for path in plan.eval_sets:
        found = scan_eval_set(path, check)
        if found is None:
            return None
        scanned.append((path, found))
    return scanned


class StreamedRunner:
    """Runs each ``(app, collector, scanned eval set)`` of a plan streamed, in turn (as
    :class:`~tenxeval_tui.evaluation.evaluator.EvaluationRunner` runs loaded ones): one
    :class:`AgentEvaluator` an eval set of ``chosen`` (each file with its selected cases,
    scanned), each case read from its file as it is about to run (``files``: what the scan
    found in each file). Each eval set's provenance gets its ``eval_set_sha256`` once its
    file has been read to the end. Stopping one case, ending its tool calls and cancelling
    are the runner's (the worker's commands reach them)."""

    def __init__(
        self,
        config: EvalConfig,
        chosen: Sequence[tuple[Path, ScannedSet]],
        files: Mapping[Path, ScannedFile],
        *,
        observers: Sequence[RunObserver],
        tools: ToolRun,
        provenances: Mapping[str, dict[str, Any]],
    ) -> None:
        self.config = config
        self.chosen = list(chosen)
        self.files = files
        self.observers = list(observers)
        self.tools = tools
        self.provenances = provenances
        self._current: AgentEvaluator | None = None
        self._current_set = ""
        self._cancelled = False

    async def run(self, evaluations: Sequence[tuple[Any, Any, EvalSet]]) -> list[EvalReport]:
        """Each evaluation's report (partial when cancelled; none for an eval set not
        started): ``evaluations`` are the agents of the eval sets of ``chosen``, in order."""
        reports: list[EvalReport] = []
        for (app, collector, eval_set), (path, scanned) in zip(
            evaluations, self.chosen, strict=True
        ):
            assert eval_set.eval_set_id == scanned.eval_set_id
            if self._cancelled:
                break
            evaluator = AgentEvaluator(
                app, collector, self.config, observers=self.observers, tools=self.tools
            )
            provenance = self.provenances.get(scanned.eval_set_id)
            found = self.files[path]
            every = scanned.eval_cases is found.scanned.eval_cases  # selected as they are
            cases = HashingStream(
                found,
                None if every else {case.eval_id for case in scanned.eval_cases},
                on_hash=None if provenance is None else _hash_into(provenance),
            )
            self._current, self._current_set = evaluator, scanned.eval_set_id
            try:
                reports.append(
                    await evaluator.evaluate_stream(
                        scanned,
                        cases,
                        # what observers read of the cases at the run's start: ids and names
                        cast(Sequence[EvalCase], scanned.eval_cases),
                        provenance=provenance,
                    )
                )
            except BaseException:
                if cases.failure is not None:  # told as it is, not in the evaluator's group
                    raise cases.failure from None
                raise
            finally:
                self._current = None
        return reports

    def _running(self, eval_set_id: str) -> AgentEvaluator | None:
        current = self._current
        return current if current is not None and self._current_set == eval_set_id else None

    def stop_case(self, eval_set_id: str, eval_id: str, mode: StopMode = StopMode.CANCEL) -> bool:
        """Stop one running case, the run going on; ``False`` when it is not running."""
        current = self._running(eval_set_id)
        return current is not None and current.stop_case(eval_id, mode)

    def end_tool_calls(self, eval_set_id: str, eval_id: str) -> list[str]:
        """End the tool calls in flight of one running case; their names."""
        current = self._running(eval_set_id)
        return current.end_tool_calls(eval_id) if current is not None else []

    def cancel(self) -> None:
        """No eval set starts after this one; its running cases are cancelled."""
        self._cancelled = True
        if self._current is not None:
            self._current.cancel()


def _hash_into(provenance: dict[str, Any]) -> Callable[[str], None]:
    def store(sha256: str) -> None:
        provenance[EVAL_SET_HASH_KEY] = sha256

    return store


__all__ = ["StreamedRunner", "streamed_files", "streams"]
