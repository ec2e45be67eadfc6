"""The run worker: one evaluation in a child process, streamed as JSON lines on stdout.

The run screen starts ``python -m tenxeval_tui.runs.worker REQUEST_JSON`` (a
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
import contextlib
import json
import os
import signal
import sys
import traceback
from collections.abc import Callable, Collection, Sequence
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
    config: EvalConfig | None = Field(
        default=None,
        description="The config, resolved (the CLI's): wins over config_file, preset, "
        "concurrency and output_dir.",
    )
    criteria_modules: list[str] = Field(
        default_factory=list,
        description="Imported (search_path first) before the criteria are built.",
    )
    verbose: bool | None = Field(
        default=None,
        description="Logging: None leaves it as it is, False keeps only critical records, "
        "True shows INFO records on stderr.",
    )

    def command(self) -> list[str]:
        """The command line that runs this request in a child process."""
        return [sys.executable, "-m", "tenxeval_tui.runs.worker", self.model_dump_json()]


def build_config(request: RunRequest) -> EvalConfig:
    """The request's resolved config; or the config file (or the default), with the preset's
    criteria, concurrency and output dir."""
    from tenxeval_tui.evaluation.config.presets import preset_by_name

    if request.config is not None:
        return request.config.model_copy(deep=True)
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
    """Writes protocol lines to the stream that was stdout, one flushed line at a time.

    When the reader is gone (the UI or ``run`` was killed: a broken pipe), lines are
    dropped and ``on_broken`` is called once, to stop a run no one follows any more
    (the journal keeps what finished).
    """

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self.broken = False
        self.on_broken: Callable[[], None] | None = None

    def write(self, text: str) -> None:
        if self.broken:
            return
        try:
            self.stream.write(text)
            self.stream.flush()
        except (BrokenPipeError, ValueError):  # ValueError: written after a failed close
            self.broken = True
            if self.on_broken is not None:
                self.on_broken()

    def emit(self, data: dict[str, Any]) -> None:
        self.write(json.dumps(data, default=str) + "\n")


def _protocol_stream() -> TextIO:
    """A private copy of fd 1 for the protocol; fd 1 itself (and sys.stdout) become stderr."""
    sys.stdout.flush()
    private = os.dup(1)
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    return os.fdopen(private, "w", encoding="utf-8", buffering=1 << 16)


def load_agents(
    request: RunRequest, files_and_sets: Sequence[tuple[Path, EvalSet]]
) -> list[tuple[Any, Any, EvalSet]]:
    """``(app, collector, eval_set)`` for each eval set, each agent loaded once.

    The run's agent is the default; an eval set naming its own (``metadata.agent``) runs
    with that one. An :class:`AgentLoadError` of an eval set's own agent names its file.
    """
    from tenxeval_tui.evaluation.targets.loader import (
        EVAL_SET_AGENT_KEY,
        AgentLoadError,
        agent_spec_for,
        load_agent,
    )

    pairs: dict[str, tuple[Any, Any]] = {}
    evaluations: list[tuple[Any, Any, EvalSet]] = []
    for path, eval_set in files_and_sets:
        try:
            spec = agent_spec_for(eval_set, request.agent, explicit=request.agent_explicit)
            if spec not in pairs:
                # The events are streamed as they come (and journalled): the collector
                # need not keep each raw event of a case as well (a kB or so each).
                pairs[spec] = load_agent(spec, cwd=request.search_path, capture_all_events=False)
        except AgentLoadError as exc:
            if request.agent_explicit or EVAL_SET_AGENT_KEY not in eval_set.metadata:
                raise
            raise AgentLoadError(None, f"{path}: metadata.agent: {exc}") from None
        evaluations.append((*pairs[spec], eval_set))
    return evaluations


def set_up_logging(verbose: bool | None) -> None:
    """``verbose``: INFO records on stderr; ``False``: none but critical; ``None``: as it is."""
    import logging

    if verbose:
        logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    elif verbose is False:
        # Agents' frameworks log errors with tracebacks; the report already says what failed.
        logging.getLogger().addHandler(logging.NullHandler())
        logging.getLogger().setLevel(logging.CRITICAL)


async def run(request: RunRequest, out: _Lines) -> int:
    """Run ``request``, writing protocol lines through ``out``; returns the exit status."""
    from tenxeval_tui.evaluation.criteria import build_criteria
    from tenxeval_tui.evaluation.journal import RunJournal
    from tenxeval_tui.evaluation.observers import RunObserver
    from tenxeval_tui.evaluation.runner import EvaluationRunner
    from tenxeval_tui.evaluation.targets.loader import AgentLoadError
    from tenxeval_tui.runs.criteria_modules import import_criteria_modules

    try:
        import_criteria_modules(request.criteria_modules, request.search_path)
        config = build_config(request)
        build_criteria(config)  # a criterion that cannot run (no judge set up) stops here
        files_and_sets = [
            (path, select_cases(EvalSet.from_file(path), path, request))
            for path in request.eval_sets
        ]
        out.emit(plan_line([eval_set for _, eval_set in files_and_sets]))
        evaluations = load_agents(request, files_and_sets)
    except AgentLoadError as exc:
        out.emit({"type": "worker_error", "message": str(exc), "usage": True})
        return ERROR_EXIT
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

    def cancel_soon() -> None:  # a write may fail off the loop (a tool's thread)
        loop.call_soon_threadsafe(cancel)

    out.on_broken = cancel_soon
    loop.add_signal_handler(signal.SIGINT, cancel)  # Ctrl-C of a terminal's `run` reaches us too
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
    """``python -m tenxeval_tui.runs.worker REQUEST_JSON``."""
    args = list(sys.argv[1:] if argv is None else argv)
    out = _Lines(_protocol_stream())
    if len(args) != 1:
        out.emit(
            {"type": "worker_error", "message": "usage: tenxeval_tui.runs.worker REQUEST_JSON"}
        )
        return ERROR_EXIT
    try:
        # "@FILE": the request is in FILE (one argument is limited to 128 kB on Linux).
        raw = Path(args[0][1:]).read_text("utf-8") if args[0].startswith("@") else args[0]
        request = RunRequest.model_validate_json(raw)
    except (OSError, ValueError) as exc:
        out.emit({"type": "worker_error", "message": f"bad run request: {exc}"})
        return ERROR_EXIT
    set_up_logging(request.verbose)
    return asyncio.run(run(request, out))


def exit_now(code: int) -> None:
    """End the process with ``code`` now: stdio flushed, no wait for the threads an agent
    left running (a non-daemon thread would keep the worker alive for ever)."""
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(Exception):
            stream.flush()
    os._exit(code)


def _main_then_exit() -> None:
    try:
        code = main()
    except SystemExit as exc:  # escaped the run (raised where no case could catch it)
        code = exc.code if isinstance(exc.code, int) else 1
    except BaseException:
        traceback.print_exc()
        code = 1
    exit_now(code)


if __name__ == "__main__":
    _main_then_exit()
