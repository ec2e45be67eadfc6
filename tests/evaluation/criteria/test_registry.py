"""The criteria registry loads a built-in criterion's module on the first lookup of its
name: a run imports only the criteria it uses, and a user's class registered first
under a built-in name keeps it."""

from __future__ import annotations

import subprocess
import sys
import textwrap

from tenxeval_tui.evaluation.criteria import _BUILTINS, registered_criteria

CRITERIA = "tenxeval_tui.evaluation.criteria"


def in_a_fresh_interpreter(code: str) -> str:
    """What ``code`` prints, run by a Python that has imported nothing of ours yet."""
    done = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_each_built_in_module_registers_the_names_it_declares() -> None:
    registered: dict[str, set[str]] = {}
    for name, klass in registered_criteria().items():
        module = klass.__module__
        if module.startswith(f"{CRITERIA}."):
            registered.setdefault(module.removeprefix(f"{CRITERIA}."), set()).add(name)
    declared = {module: set(names) for module, names in _BUILTINS.items()}
    assert registered == declared


def test_the_default_criteria_load_only_their_own_modules() -> None:
    loaded = in_a_fresh_interpreter(
        f"""
        import sys
        from {CRITERIA} import build_criteria
        from tenxeval_tui.evaluation import EvalConfig
        built = build_criteria(EvalConfig.default())
        print(sorted(c.name for c in built))
        print(sorted(m.removeprefix("{CRITERIA}.") for m in sys.modules
                     if m.removeprefix("{CRITERIA}.") in {sorted(_BUILTINS)!r}))
        print("jsonpath_ng" in sys.modules)
        """
    ).splitlines()
    assert loaded == [
        "['response_match_score', 'tool_trajectory_avg_score']",
        "['response', 'trajectory']",
        "False",
    ]


def test_a_users_class_registered_first_keeps_a_built_in_name() -> None:
    shown = in_a_fresh_interpreter(
        f"""
        from {CRITERIA} import CRITERIA_REGISTRY, get_criterion_class, register_criterion
        from {CRITERIA}.base import BaseCriterion

        @register_criterion(name="exact_match")
        class Mine(BaseCriterion):
            async def evaluate(self, actual, expected): ...

        print(get_criterion_class("rouge_match").__module__)  # loads exact_match's module
        print(get_criterion_class("exact_match").__name__, CRITERIA_REGISTRY["exact_match"].__name__)
        print(len(CRITERIA_REGISTRY))
        """
    ).splitlines()
    assert shown == [f"{CRITERIA}.response", "Mine Mine", str(sum(map(len, _BUILTINS.values())))]
