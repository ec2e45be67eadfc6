"""The run worker: one evaluation in a child process, streamed as JSON lines on stdout.

The run screen starts ``python -m tenxeval_tui.worker REQUEST_JSON`` (a
:class:`RunRequest`), reads its stdout line by line and renders from it. The
worker loads the agent, runs the same :class:`EvaluationRunner` as the CLI over
the selected eval sets and cases, and writes:

- every observer call as :class:`JsonLinesObserver` writes it (``run_start``,
  ``case_start``, ``event``, ``case_end``, ``run_end``), except that ``case_end``
  results leave out their trajectories, messages and node details (every event is
  streamed already, and the reports and the journal keep the full results);
- ``worker_plan`` (``eval_sets``: each ``eval_set_id``, ``name`` and ``cases``, the
  ``[eval_id, name]`` pairs that will run) first, so the total is known when the run
  starts, not as each eval set begins;
- ``worker_error`` (``message``) when the agent, an eval set or the config cannot
  be loaded (exit status 3);
- ``worker_reports`` (``files``, ``html``, ``partial``) once the reports are written.

File descriptor 1 is kept for these lines alone: the agent's prints (and the console
reporter) go to stderr, which the screen shows when the worker dies. SIGTERM cancels
the run cleanly: finished cases are kept and the reports are written marked partial.
A run journal (:class:`RunJournal`) is kept when ``journal`` is given, so a worker
killed outright still leaves what finished.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sys
from collections.abc import Collection, Sequence
from pathlib import Path
from typing import Any, TextIO

from pydantic import BaseModel, Field

from tenxeval_tui.evaluation.config.eval_config import EvalConfig, ReporterConfig
from tenxeval_tui.evaluation.dataset.eval_set import EvalCase, EvalSet
from tenxeval_tui.evaluation.eval_result import PARTIAL_KEY, EvalCaseResult, EvalReport
from tenxeval_tui.evaluation.observers import JsonLinesObserver

ERROR_EXIT = 3


class RunRequest(BaseModel):
    """What to run: the agent, the eval sets and cases, and how."""

    agent: str = Field(description="The agent, as module:attribute.")
    agent_explicit: bool = Field(
        default=False, description="The agent wins over the eval sets' own (metadata.agent)."
    )
    eval_sets: list[Path]
    only: dict[str, list[str]] = Field(
        default_factory=dict,
        description="Eval set path -> the eval ids to run from it (sets not listed run whole).",
    )
    tags: list[str] = Field(default_factory=list, description="Run only cases with one of these.")
    concurrency: int | None = Field(default=None, ge=1)
    preset: str | None = None
    config_file: Path | None = None
    output_dir: Path | None = None
    journal: Path | None = None
    search_path: Path | None = Field(default=None, description="Put on sys.path first.")

    def command(self) -> list[str]:
        """The command line that runs this request in a child process."""
        return [sys.executable, "-m", "tenxeval_tui.worker", self.model_dump_json()]


def build_config(request: RunRequest) -> EvalConfig:
    """The config file (or the default), with the preset's criteria, concurrency and output dir."""
    from tenxeval_tui.evaluation.config.presets import preset_by_name

    config = EvalConfig.from_file(request.config_file) if request.config_file else EvalConfig()
    if request.preset:
        config.criteria = preset_by_name(request.preset).criteria
    elif not request.config_file:
        config = EvalConfig.default()
    if request.concurrency is not None:
        config.max_concurrency = request.concurrency
        config.parallel = True
    if request.output_dir is not None:
        config.reporter.output_dir = str(request.output_dir)
    return config


def is_selected(case: EvalCase, eval_ids: Collection[str] | None, tags: Collection[str]) -> bool:
    """Whether ``case`` is one of ``eval_ids`` (``None``: any) and carries one of ``tags``
    (none given: any)."""
    if eval_ids is not None and case.eval_id not in eval_ids:
        return False
    return not tags or any(tag in tags for tag in case.tags)


def select_cases(eval_set: EvalSet, path: Path, request: RunRequest) -> EvalSet:
    """``eval_set`` holding only the cases ``request`` selects (by id, then by tag)."""
    wanted = request.only.get(str(path))
    ids = set(wanted) if wanted is not None else None
    tags = set(request.tags)
    cases = [case for case in eval_set.eval_cases if is_selected(case, ids, tags)]
    return eval_set.model_copy(update={"eval_cases": cases})


def plan_line(eval_sets: Sequence[EvalSet]) -> dict[str, Any]:
    """The ``worker_plan`` line: every case the run will evaluate, before the first starts."""
    return {
        "type": "worker_plan",
        "eval_sets": [
            {
                "eval_set_id": eval_set.eval_set_id,
                "name": eval_set.name,
                "cases": [[case.eval_id, case.name] for case in eval_set.eval_cases],
            }
            for eval_set in eval_sets
        ],
    }


def write_run_reports(
    reports: Sequence[EvalReport], reporter: ReporterConfig, *, console: bool = True
) -> tuple[list[str], list[str]]:
    """Write ``reports`` with the configured reporters; returns (every file, the HTML files).

    ``console=False`` keeps the console reporter quiet (a UI process must not print).
    """
    from tenxeval_tui.evaluation.reporters import ReporterManager

    config = reporter if console else reporter.model_copy(update={"console": False})
    files: list[str] = []
    html: list[str] = []
    if not config.enabled:
        return files, html
    manager = ReporterManager(config)
    for report in reports:
        output = manager.run_all(report)
        files += output.generated_files
        if output.html_path:
            html.append(output.html_path)
    return files, html


# What the screen does not need from a streamed case result (the reports keep all of it):
# with thousands of steps these make a line of megabytes to decode in the UI.
BULKY_RESULT_FIELDS = frozenset(
    {
        "actual_trajectory",
        "actual_tool_calls",
        "messages",
        "node_responses",
        "node_visits",
        "node_details",
    }
)


class LeanJsonLinesObserver(JsonLinesObserver):
    """A :class:`JsonLinesObserver` whose ``case_end`` lines leave out the bulky fields."""

    def on_case_end(self, result: EvalCaseResult) -> None:
        lean = result.model_dump(mode="json", exclude=set(BULKY_RESULT_FIELDS))
        self._emit({"type": "case_end", "result": lean})


class _Lines:
    """Writes protocol lines to the stream that was stdout, one flushed line at a time."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream

    def write(self, text: str) -> None:
        self.stream.write(text)
        self.stream.flush()

    def emit(self, data: dict[str, Any]) -> None:
        self.write(json.dumps(data, default=str) + "\n")


def _protocol_stream() -> TextIO:
    """A private copy of fd 1 for the protocol; fd 1 itself (and sys.stdout) become stderr."""
    sys.stdout.flush()
    private = os.dup(1)
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    return os.fdopen(private, "w", encoding="utf-8", buffering=1 << 16)


async def run(request: RunRequest, out: _Lines) -> int:
    """Run ``request``, writing protocol lines through ``out``; returns the exit status."""
    from tenxeval_tui.evaluation.criteria import build_criteria
    from tenxeval_tui.evaluation.journal import RunJournal
    from tenxeval_tui.evaluation.observers import RunObserver
    from tenxeval_tui.evaluation.runner import EvaluationRunner
    from tenxeval_tui.evaluation.targets.loader import agent_spec_for, load_agent

    try:
        config = build_config(request)
        build_criteria(config)  # a criterion that cannot run (no judge set up) stops here
        eval_sets = [
            select_cases(EvalSet.from_file(path), path, request) for path in request.eval_sets
        ]
        out.emit(plan_line(eval_sets))
        # The run's agent is the default; an eval set naming its own runs with that one.
        evaluations = [
            (
                *load_agent(
                    agent_spec_for(eval_set, request.agent, explicit=request.agent_explicit),
                    cwd=request.search_path,
                ),
                eval_set,
            )
            for eval_set in eval_sets
        ]
    except Exception as exc:  # everything that stops a run from starting, told in one line
        out.emit({"type": "worker_error", "message": f"{type(exc).__name__}: {exc}"})
        return ERROR_EXIT
    observers: list[RunObserver] = [LeanJsonLinesObserver(out.write)]
    if request.journal is not None:
        observers.append(RunJournal(request.journal))
    runner = EvaluationRunner(config, observers=observers)
    loop = asyncio.get_running_loop()
    cancelled = False

    def cancel() -> None:
        nonlocal cancelled
        cancelled = True
        runner.cancel()

    loop.add_signal_handler(signal.SIGTERM, cancel)
    reporting = config.reporter.model_copy()
    config.reporter = config.reporter.model_copy(update={"enabled": False})
    reports = list((await runner.run(evaluations, config)).values())
    if cancelled:
        reports = [
            r
            if r.is_partial
            else r.model_copy(update={"metadata": {**r.metadata, PARTIAL_KEY: True}})
            for r in reports
        ]
    files, html = write_run_reports(reports, reporting)
    out.emit(
        {
            "type": "worker_reports",
            "files": files,
            "html": html,
            "partial": cancelled or any(r.is_partial for r in reports),
        }
    )
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m tenxeval_tui.worker REQUEST_JSON``."""
    args = list(sys.argv[1:] if argv is None else argv)
    out = _Lines(_protocol_stream())
    if len(args) != 1:
        out.emit({"type": "worker_error", "message": "usage: tenxeval_tui.worker REQUEST_JSON"})
        return ERROR_EXIT
    try:
        request = RunRequest.model_validate_json(args[0])
    except ValueError as exc:
        out.emit({"type": "worker_error", "message": f"bad run request: {exc}"})
        return ERROR_EXIT
    return asyncio.run(run(request, out))


if __name__ == "__main__":
    sys.exit(main())
