"""Helpers for writing agent evaluation tests (pytest or plain asyncio).

``create_eval_app`` and ``run_eval`` are the two entry points most tests need
(``run_eval_sync`` from synchronous code and notebooks)::

    app, collector = create_eval_app(build_my_graph())
    report = await run_eval(app, collector, "tests/fixtures/my_agent.evalset.json")
    assert report.summary.pass_rate == 1.0

For pytest: :func:`eval_test` (a decorator running an eval set on what an async
test returns), :func:`parametrize_eval_cases` (one test per case),
:func:`assert_eval_passed`, :func:`assert_criterion_passed`,
:class:`EvalTestCase`, :class:`EvalFixtures` and :class:`EvalPlugin`
(registered by :mod:`.pytest_plugin`, which the ``pytest11`` entry point loads).
"""

from __future__ import annotations

import asyncio
import functools
import inspect
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar, cast

from tenxeval_tui.evaluation.config.eval_config import EvalConfig, PassRule

# In the config's module (issue #38: `run` applies --repeat without importing this one).
from tenxeval_tui.evaluation.config.eval_config import with_repeats as with_repeats

# 10xGraph defines create_simple_eval_set in this module; ours builds it with the builder.
from tenxeval_tui.evaluation.dataset.builder import create_simple_eval_set as create_simple_eval_set
from tenxeval_tui.evaluation.dataset.eval_set import EvalSet
from tenxeval_tui.evaluation.dataset.selection import CaseSelection
from tenxeval_tui.evaluation.errors import EvalFileError
from tenxeval_tui.evaluation.eval_result import EvalReport
from tenxeval_tui.evaluation.isolation import AgentProcessDied


def create_eval_app(graph: Any, *, capture_all_events: bool = True) -> tuple[Any, Any]:
    """``(app, collector)`` ready for :class:`AgentEvaluator`.

    ``graph`` is an **uncompiled** 10xGraph ``StateGraph`` (compiled here with
    an in-memory checkpointer and the collector's callbacks, in a dependency
    container of its own so that other graphs of the process never interfere),
    or a plain agent: an async function ``(message, trace) -> reply`` or an
    object with ``ainvoke(message, trace)`` (see
    :mod:`tenxeval_tui.evaluation.targets.agent`). ``capture_all_events`` is
    forwarded to the :class:`TrajectoryCollector`. An already-compiled graph
    raises ``AttributeError``: pass the uncompiled graph.
    """
    from tenxeval_tui.evaluation.targets import make_eval_app

    return make_eval_app(graph, capture_all_events=capture_all_events)


async def run_eval(
    graph: Any,
    collector: Any,
    eval_set_path: str,
    config: EvalConfig | None = None,
    verbose: bool = False,
    *,
    repeats: int | None = None,
    pass_rule: PassRule | None = None,
    isolate: bool | None = None,
) -> EvalReport:
    """Evaluate ``graph`` (an app from :func:`create_eval_app`) on one eval set file.

    ``config`` defaults to ``EvalConfig.default()``. ``repeats`` and ``pass_rule``, when
    given, replace the config's (each case then runs ``repeats`` times unless its eval
    set or its own metadata says otherwise; see :mod:`.repeats`). Under pytest (with the
    plugin on), reports go only where ``--tenxeval-report-dir`` (or its ini key) says,
    and nowhere by default or with ``--tenxeval-no-reports``.

    ``isolate`` runs the agent in a forked child process (:mod:`.isolation`), so that
    its ``os._exit``, a segfault or a kill fail this call with
    :class:`~tenxeval_tui.evaluation.isolation.AgentProcessDied` (its ``report`` holds
    the cases that finished) instead of ending the process, and threads it leaves die
    with the child. ``None`` (the default): isolated under pytest unless
    ``--tenxeval-in-process`` (or ``tenxeval_isolate = false``) says otherwise,
    in-process elsewhere (scripts, notebooks). Platforms without ``fork`` (Windows) run
    in-process.
    """
    from tenxeval_tui.evaluation.agent_evaluator import AgentEvaluator

    chosen = with_repeats(config or EvalConfig.default(), repeats, pass_rule)
    settings = current_pytest_settings()
    if settings is not None:
        chosen = settings.apply(chosen)
    evaluator = AgentEvaluator(graph, collector, chosen)
    if not isolating(isolate):
        return await evaluator.evaluate(eval_set_path, verbose=verbose)
    from tenxeval_tui.evaluation.isolation import evaluate_in_child

    eval_set = EvalSet.from_file(eval_set_path)
    return await evaluate_in_child(evaluator, eval_set, verbose=verbose)


def isolating(isolate: bool | None) -> bool:
    """Whether a pytest helper runs the agent in a child process: ``isolate`` when given,
    else the pytest session's setting (off outside pytest); never where ``fork`` is
    missing or in such a child already."""
    from tenxeval_tui.evaluation.isolation import can_isolate

    if isolate is None:
        settings = current_pytest_settings()
        isolate = settings is not None and settings.isolate
    return isolate and can_isolate()


def run_eval_sync(
    graph: Any,
    collector: Any,
    eval_set_path: str,
    config: EvalConfig | None = None,
    verbose: bool = False,
    *,
    repeats: int | None = None,
    pass_rule: PassRule | None = None,
    isolate: bool | None = None,
) -> EvalReport:
    """:func:`run_eval` from synchronous code: a script, or a notebook cell.

    Jupyter runs its cells inside an event loop, where ``asyncio.run`` raises; there the
    evaluation runs on an event loop of its own in a helper thread while the cell waits
    (the same way as ``QuickEval.run_sync``). In a notebook, ``await run_eval(...)`` works
    too. ``isolate`` is :func:`run_eval`'s.
    """
    from tenxeval_tui.evaluation.syncrun import run_to_end

    return run_to_end(
        run_eval(
            graph,
            collector,
            eval_set_path,
            config,
            verbose,
            repeats=repeats,
            pass_rule=pass_rule,
            isolate=isolate,
        ),
        thread_name="run_eval_sync",
    )


@dataclass(eq=False)
class PytestSettings:
    """The plugin's options of one pytest session (``--tenxeval-*`` or their ini keys).

    Under pytest, reports are written only where ``report_dir`` says (never into the
    current folder by default) and not at all when ``no_reports`` is set.
    """

    report_dir: Path | None = None
    threshold: float | None = None
    no_reports: bool = False
    isolate: bool = True
    """The helpers run agents in a child process (``--tenxeval-in-process`` turns it off)."""
    item: Any = None
    """The pytest item running now (set by the plugin around each test call)."""

    def apply(self, config: EvalConfig) -> EvalConfig:
        """A copy of ``config`` whose reports go where this session says."""
        reporter = config.reporter.model_copy()
        if self.no_reports or self.report_dir is None:
            reporter.enabled = False
        else:
            reporter.output_dir = str(self.report_dir)
        return config.model_copy(update={"reporter": reporter})


_PYTEST_SESSIONS: list[PytestSettings] = []
"""A stack: pytester runs sessions inside sessions."""


def current_pytest_settings() -> PytestSettings | None:
    """The settings of the innermost pytest session running, if the plugin is on."""
    return _PYTEST_SESSIONS[-1] if _PYTEST_SESSIONS else None


def _record_scores(report: EvalReport) -> None:
    """Put the run's scores in the current pytest item's ``user_properties`` (junitxml)."""
    settings = current_pytest_settings()
    if settings is None or settings.item is None:
        return
    summary = report.summary
    props: list[tuple[str, object]] = [
        ("tenxeval.eval_set", report.eval_set_id),
        ("tenxeval.pass_rate", round(summary.pass_rate, 4)),
        ("tenxeval.passed_cases", summary.passed_cases),
        ("tenxeval.total_cases", summary.total_cases),
    ]
    if summary.repeat_stats is not None:
        props.append(("tenxeval.repeat_pass_rate", round(summary.repeat_stats.repeat_pass_rate, 4)))
        props.append(("tenxeval.flaky_cases", summary.repeat_stats.flaky_cases))
    for name, stats in summary.criterion_stats.items():
        props.append((f"tenxeval.{name}.avg_score", round(stats["avg_score"], 4)))
        props.append((f"tenxeval.{name}.pass_rate", round(stats["pass_rate"], 4)))
    settings.item.user_properties.extend(props)


# --- pytest helpers -----------------------------------------------------------
# pytest is imported where it is used: this module is part of the core, which
# must import without it.

_F = TypeVar("_F", bound=Callable[..., Any])

EVAL_FILE_PROBES = (
    "tests/fixtures/{name}.evalset.json",
    "tests/eval/{name}.evalset.json",
    "eval/{name}.evalset.json",
)
"""Where :func:`eval_test` looks for an eval set when none is named (relative to the
current folder, i.e. where pytest runs)."""


def _probe_eval_file(test_name: str) -> tuple[Path | None, list[str]]:
    name = test_name.removeprefix("test_")
    probed = [probe.format(name=name) for probe in EVAL_FILE_PROBES]
    found = next((Path(p) for p in probed if Path(p).is_file()), None)
    return found, probed


def _failure_lines(report: EvalReport) -> list[str]:
    lines: list[str] = []
    for result in report.failed_cases:
        label = result.eval_id if not result.name else f"{result.eval_id} ({result.name})"
        if result.repeat_stats is not None:
            rs = result.repeat_stats
            label += f" [{rs.passed_repeats}/{rs.repeats} runs passed]"
        if result.is_error:
            lines.append(f"  - {label}: ERROR {result.error}")
            continue
        failed = ", ".join(
            f"{cr.criterion} {cr.score:.2f} < {cr.threshold:.2f}" for cr in result.failed_criteria
        )
        lines.append(f"  - {label}: {failed or 'failed'}")
    return lines


def eval_test(
    eval_file: str | None = None,
    config: EvalConfig | None = None,
    threshold: float | None = None,
    *,
    repeats: int | None = None,
    pass_rule: PassRule | None = None,
    isolate: bool | None = None,
) -> Callable[[_F], _F]:
    """Decorator for an **async** test function that returns ``(graph, collector)``.

    The decorator runs the eval set on that pair (always verbose) and calls
    ``pytest.fail()`` listing every failed case when ``report.summary.pass_rate``
    is below ``threshold`` (when ``None``: ``--tenxeval-threshold``, else the
    ``tenxeval_threshold`` ini key, else 1.0). The test is marked ``eval``, and
    records the scores in its ``user_properties`` (``--junitxml``). With no ``eval_file``, the ``test_`` prefix is
    stripped from the function's name and ``tests/fixtures/{name}.evalset.json``,
    ``tests/eval/{name}.evalset.json`` and ``eval/{name}.evalset.json`` are
    probed (relative to the current folder); none existing fails with
    ``Eval file not found``. ``config`` defaults to ``EvalConfig.default()``.
    Returning ``None`` skips the test; returning anything that is not a 2-tuple
    fails it. ``repeats`` and ``pass_rule`` are passed to :func:`run_eval`: each case
    runs that many times and passes by the rule (the pass rate is then the share of
    cases that pass by it; the failure lists how many runs of each failed case passed).
    The agent runs in a child process as :func:`run_eval`'s ``isolate`` says: one that
    dies fails the test, naming how it ended, the case it was running and the cases
    that finished.
    """
    chosen = with_repeats(config, repeats, pass_rule) if config is not None else None
    if chosen is None and (repeats is not None or pass_rule is not None):
        chosen = with_repeats(EvalConfig.default(), repeats, pass_rule)

    def decorator(func: _F) -> _F:
        if not inspect.iscoroutinefunction(func):
            raise TypeError(
                f"eval_test decorates async test functions only: make {func.__name__} `async def`"
            )

        @functools.wraps(func)
        async def wrapper(*args: Any, **kwargs: Any) -> None:
            import pytest

            returned = await func(*args, **kwargs)
            if returned is None:
                pytest.skip(f"{func.__name__} returned None")
            if not (isinstance(returned, tuple) and len(returned) == 2):
                pytest.fail(
                    "eval_test decorated function must return (graph, collector) tuple\n"
                    f"({func.__name__} returned a {type(returned).__name__}; "
                    "return create_eval_app(build_graph()))",
                    pytrace=False,
                )
            graph, collector = returned
            if eval_file is not None:
                path = Path(eval_file)
                if not path.is_file():
                    pytest.fail(
                        f"Eval file not found\n({eval_file}, from {Path.cwd()})", pytrace=False
                    )
            else:
                found, probed = _probe_eval_file(func.__name__)
                if found is None:
                    pytest.fail(
                        f"Eval file not found\n(for {func.__name__}, probed {', '.join(probed)} "
                        f"from {Path.cwd()}; pass an explicit path: eval_test('path'))",
                        pytrace=False,
                    )
                path = found
            died: AgentProcessDied | None = None
            try:
                report = await run_eval(
                    graph, collector, str(path), chosen, verbose=True, isolate=isolate
                )
            except EvalFileError as exc:
                pytest.fail(f"Eval file {path} cannot be loaded:\n{exc}", pytrace=False)
            except AgentProcessDied as exc:
                died = exc
            if died is not None:  # failed out of the except block: one message, no chain
                _record_scores(died.report)
                pytest.fail(
                    "\n".join([f"{died} ({path}). Failed cases:", *_failure_lines(died.report)]),
                    pytrace=False,
                )
            _record_scores(report)
            summary = report.summary
            settings = current_pytest_settings()
            wanted = threshold
            if wanted is None:
                wanted = settings.threshold if settings and settings.threshold is not None else 1.0
            if summary.pass_rate < wanted:
                pytest.fail(
                    "\n".join(
                        [
                            f"Eval pass rate {summary.pass_rate:.1%} is below the threshold "
                            f"{wanted:.1%} ({summary.passed_cases}/{summary.total_cases} "
                            f"cases passed, {path}). Failed cases:",
                            *_failure_lines(report),
                        ]
                    ),
                    pytrace=False,
                )

        import pytest

        return cast(_F, pytest.mark.eval(_mark_asyncio(wrapper)))

    return decorator


def _mark_asyncio(test: Callable[..., Any]) -> Callable[..., Any]:
    """Mark ``test`` for pytest-asyncio when it is installed, so that an ``eval_test`` runs
    in its strict mode too (in auto mode the mark changes nothing). Without it, the test
    runs its own event loop: pytest alone cannot run an ``async def`` test."""
    try:
        import pytest
        import pytest_asyncio  # noqa: F401
    except ImportError:

        @functools.wraps(test)
        def run_in_own_loop(*args: Any, **kwargs: Any) -> None:
            asyncio.run(test(*args, **kwargs))

        return run_in_own_loop
    marked: Callable[..., Any] = pytest.mark.asyncio(test)
    return marked


def parametrize_eval_cases(
    eval_file: str,
    *,
    tags: Sequence[str] = (),
    cases: Sequence[str] | None = None,
    isolate: bool | None = None,
) -> Any:
    """``pytest.mark.parametrize("eval_case", cases, ids=[eval_id, ...])`` over an eval set.

    ``tags`` and ``cases`` select as ``tenxeval-tui run --tags/--case`` does (a
    :class:`~tenxeval_tui.evaluation.dataset.selection.CaseSelection`): only the cases
    carrying every one of ``tags`` and, when given, whose eval id is in ``cases`` (an id
    the file does not hold raises ``ValueError``). The file is loaded **at decoration
    time** (during test collection): a missing file raises ``FileNotFoundError`` then.
    The tests are marked ``eval``.

    The body of an ``async`` test runs in a child process as :func:`run_eval`'s
    ``isolate`` says (fixtures are set up here and used there, as the fork copies them;
    what the test changes in memory stays in the child): its exception fails the test as
    it would in-process, and the child's death fails it naming how it ended and the case.
    """
    import pytest

    eval_set = EvalSet.from_file(eval_file)
    selection = CaseSelection(eval_ids=None if cases is None else tuple(cases), tags=tuple(tags))
    if unknown := selection.unknown_ids(eval_set.eval_cases):
        raise ValueError(f"{eval_file}: no case {', '.join(map(repr, unknown))} in this eval set")
    chosen = selection.cases(eval_set.eval_cases)
    parametrize = pytest.mark.parametrize(
        "eval_case", chosen, ids=[case.eval_id for case in chosen]
    )

    def decorator(func: _F) -> _F:
        test = _in_child(func, isolate) if inspect.iscoroutinefunction(func) else func
        return cast(_F, pytest.mark.eval(parametrize(test)))

    return decorator


def _in_child(func: Callable[..., Any], isolate: bool | None) -> Callable[..., Any]:
    """``func`` (an async test of one ``eval_case``) run in a child process when isolating."""

    @functools.wraps(func)
    async def wrapper(*args: Any, **kwargs: Any) -> Any:
        if not isolating(isolate):
            return await func(*args, **kwargs)
        import pytest

        from tenxeval_tui.evaluation.isolation import call_in_child

        end = await call_in_child(lambda: func(*args, **kwargs))
        if isinstance(end.error, SystemExit | KeyboardInterrupt):
            # Raised here they would end the session: they fail this test only.
            told = "\n".join(getattr(end.error, "__notes__", []))
            pytest.fail(f"{type(end.error).__name__}: {end.error}\n{told}", pytrace=False)
        if end.error is not None:
            raise end.error
        if end.died:
            case = kwargs.get("eval_case")
            told = f" while it ran case {case.eval_id!r}" if case is not None else ""
            pytest.fail(f"the agent's process died ({end.how()}){told}", pytrace=False)
        return end.value

    return wrapper


def assert_eval_passed(report: EvalReport, min_pass_rate: float = 1.0) -> None:
    """``AssertionError`` listing the name (or id) of every failed case when
    ``report.summary.pass_rate < min_pass_rate``."""
    summary = report.summary
    if summary.pass_rate < min_pass_rate:
        names = ", ".join(r.name or r.eval_id for r in report.failed_cases)
        raise AssertionError(
            f"Eval pass rate {summary.pass_rate:.1%} is below {min_pass_rate:.1%} "
            f"({summary.passed_cases}/{summary.total_cases} passed). Failed cases: {names}"
        )


def assert_criterion_passed(report: EvalReport, criterion: str, min_score: float = 0.0) -> None:
    """Assert that ``criterion``'s ``avg_score`` in ``report.summary.criterion_stats`` is at
    least ``min_score``; ``AssertionError`` when the criterion is absent from the report.

    ``criterion`` is the criterion's ``name``, e.g. ``"tool_trajectory_avg_score"``.
    """
    stats = report.summary.criterion_stats.get(criterion)
    if stats is None:
        available = ", ".join(sorted(report.summary.criterion_stats)) or "none"
        raise AssertionError(
            f"Criterion '{criterion}' not found in report (criteria in it: {available})"
        )
    if stats["avg_score"] < min_score:
        raise AssertionError(
            f"Criterion '{criterion}' average score {stats['avg_score']:.3f} is below "
            f"{min_score:.3f} ({stats['passed']}/{stats['total']} passed)"
        )


@dataclass
class EvalTestCase:
    """Metadata describing a case in a pytest suite; runs nothing (not an ``EvalCase``)."""

    eval_id: str
    name: str = ""
    description: str = ""


@dataclass
class EvalFixtures:
    """Container for pytest fixtures (in ``conftest.py``).

    ``default_config`` is used when the evaluator factory is called without a config.
    """

    default_config: EvalConfig | None = None

    def evaluator_factory(self) -> Callable[..., Any]:
        """``factory(graph, collector, config=None) -> AgentEvaluator``; the config falls
        back to ``default_config``, then to ``EvalConfig.default()``."""
        from tenxeval_tui.evaluation.agent_evaluator import AgentEvaluator

        def factory(graph: Any, collector: Any, config: EvalConfig | None = None) -> Any:
            chosen = config or self.default_config or EvalConfig.default()
            return AgentEvaluator(graph, collector, chosen)

        return factory


class EvalPlugin:
    """Pytest plugin scaffold (registered for every session by the ``pytest11`` entry point).

    Both hooks do nothing; subclass it for custom collection behaviour.
    """

    def pytest_configure(self, config: Any) -> None:
        """Called once pytest is configured (no-op)."""

    def pytest_collection_modifyitems(self, session: Any, config: Any, items: list[Any]) -> None:
        """Called after collection (no-op)."""
