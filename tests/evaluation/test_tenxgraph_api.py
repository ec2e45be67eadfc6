"""Every public name and module path of 10xgraph 0.10.3's evaluation package resolves here.

The lists are read from the installed 10xgraph package itself (its ``__all__``
and the public classes and functions each module defines), so a name 10xGraph
has and we lack fails here. Skipped, with the reason, when the ``10xgraph``
extra is not installed.
"""

from __future__ import annotations

import importlib
import inspect
from types import ModuleType

import pytest

theirs_root = pytest.importorskip(
    "tenxgraph.qa.evaluation", reason="the 10xgraph extra is not installed"
)

OURS = "tenxeval_tui.evaluation"
THEIRS = "tenxgraph.qa.evaluation"

MODULE_PATHS = [
    "collectors",
    "collectors.event_collector",
    "collectors.publisher_callback",
    "collectors.trajectory_collector",
    "config",
    "config.criterion_config",
    "config.eval_config",
    "config.presets",
    "config.reporter_config",
    "config.types",
    "criteria",
    "criteria.base",
    "criteria.factual_accuracy",
    "criteria.hallucination",
    "criteria.llm_base",
    "criteria.llm_judge",
    "criteria.llm_utils",
    "criteria.response",
    "criteria.rubric",
    "criteria.safety",
    "criteria.simulation_goals",
    "criteria.trajectory",
    "dataset",
    "dataset.builder",
    "dataset.eval_set",
    "eval_result",
    "evaluator",
    "execution",
    "execution.result",
    "quick_eval",
    "reporters",
    "reporters.base",
    "reporters.console",
    "reporters.html",
    "reporters.json",
    "reporters.manager",
    "simulators",
    "simulators.user_simulator",
    "testing",
    "token_usage",
]


def public_names(module: ModuleType) -> set[str]:
    """``__all__``, or else the public classes and functions the module defines."""
    declared = getattr(module, "__all__", None)
    if declared is not None:
        return set(declared)
    return {
        name
        for name, value in vars(module).items()
        if not name.startswith("_")
        and (inspect.isclass(value) or inspect.isfunction(value))
        and value.__module__ == module.__name__
    }


def missing_in(path: str) -> set[str]:
    theirs = importlib.import_module(f"{THEIRS}.{path}")
    try:
        ours = importlib.import_module(f"{OURS}.{path}")
    except ImportError:
        return {f"<module {path}>"}
    return {name for name in public_names(theirs) if not hasattr(ours, name)}


def test_every_name_of_the_package_all_is_importable() -> None:
    ours = importlib.import_module(OURS)
    missing = {name for name in theirs_root.__all__ if not hasattr(ours, name)}
    assert missing == set()


@pytest.mark.parametrize("path", MODULE_PATHS)
def test_module_path_resolves_with_the_same_public_names(path: str) -> None:
    assert missing_in(path) == set()


def test_user_simulation_has_the_same_signatures() -> None:
    # Parameter names in order (defaults may differ where docs/how-to/from-10xgraph.md says so: the model).
    pairs = [
        ("simulators.user_simulator", "UserSimulator", "__init__"),
        ("simulators.user_simulator", "UserSimulator", "run"),
        ("simulators.user_simulator", "BatchSimulator", "__init__"),
        ("simulators.user_simulator", "BatchSimulator", "run_batch"),
        ("simulators.user_simulator", "BatchSimulator", "summary"),
    ]
    for path, cls, method in pairs:
        theirs = getattr(getattr(importlib.import_module(f"{THEIRS}.{path}"), cls), method)
        ours = getattr(getattr(importlib.import_module(f"{OURS}.{path}"), cls), method)
        their_names = [
            p.name
            for p in inspect.signature(theirs).parameters.values()
            if p.kind != p.KEYWORD_ONLY
        ]
        our_names = [
            p.name for p in inspect.signature(ours).parameters.values() if p.kind != p.KEYWORD_ONLY
        ]
        assert our_names == their_names, f"{cls}.{method}"
    for name in ("ConversationScenario", "SimulationResult"):
        theirs_model = getattr(theirs_root, name)
        ours_model = getattr(importlib.import_module(OURS), name)
        for field, info in theirs_model.model_fields.items():
            assert field in ours_model.model_fields, f"{name}.{field}"
            mine = plain(ours_model.model_fields[field].get_default(call_default_factory=True))
            wanted = plain(info.get_default(call_default_factory=True))
            if isinstance(wanted, dict) and isinstance(mine, dict):  # TokenUsage: ours has more
                mine = {key: mine.get(key) for key in wanted}
            assert mine == wanted, f"{name}.{field}"


def plain(value: object) -> object:
    """A default as data: a model or dataclass as its fields."""
    import dataclasses

    if hasattr(value, "model_dump"):
        return value.model_dump()
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return dataclasses.asdict(value)
    return value


def test_the_names_are_the_same_objects_as_the_package_exports() -> None:
    # A deep import and the package import give one class, not two look-alikes.
    from tenxeval_tui.evaluation import EvalSet, Invocation, QuickEval, TokenUsage
    from tenxeval_tui.evaluation.dataset.eval_set import EvalSet as DeepEvalSet
    from tenxeval_tui.evaluation.dataset.eval_set import Invocation as DeepInvocation
    from tenxeval_tui.evaluation.quick_eval import QuickEval as DeepQuickEval
    from tenxeval_tui.evaluation.token_usage import TokenUsage as DeepTokenUsage

    assert (EvalSet, Invocation, QuickEval, TokenUsage) == (
        DeepEvalSet,
        DeepInvocation,
        DeepQuickEval,
        DeepTokenUsage,
    )


def test_colors_disable_blanks_the_codes_and_turns_console_colour_off(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import io

    from tenxeval_tui.evaluation import Colors, EvalReport
    from tenxeval_tui.evaluation.reporters.console import _ANSI, ConsoleReporter

    for name, code in _ANSI.items():  # restored after the test: disable() is process-wide
        monkeypatch.setattr(Colors, name, code)
    report = EvalReport.create(eval_set_id="s", results=[])

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setenv("FORCE_COLOR", "1")
    coloured = Terminal()
    ConsoleReporter(file=coloured).print(report)
    assert "\x1b[" in coloured.getvalue()

    Colors.disable()
    assert Colors.RED == "" and Colors.RESET == "" and not Colors.enabled()
    plain = Terminal()
    ConsoleReporter(file=plain).print(report)
    assert "\x1b[" not in plain.getvalue()
    assert plain.getvalue().strip()
