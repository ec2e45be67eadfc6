"""The run plan: one case selection for every front end, serialised for the worker child."""

from __future__ import annotations

from pathlib import Path

import pytest

from tenxeval_tui.evaluation import EvalCase, EvalConfig, EvalSet
from tenxeval_tui.evaluation.dataset.selection import CaseSelection
from tenxeval_tui.evaluation.errors import EvalFileError
from tenxeval_tui.runs.plan import RunPlan, selected_eval_sets


@pytest.fixture
def files(tmp_path: Path) -> list[Path]:
    tagged = {"a": ["smoke", "tools"], "b": ["tools"], "c": ["smoke"]}
    one = tmp_path / "one.evalset.json"
    EvalSet(
        eval_set_id="one",
        eval_cases=[EvalCase.single_turn(i, "q", "r", tags=t) for i, t in tagged.items()],
    ).to_file(one)
    two = tmp_path / "two.evalset.json"
    EvalSet(eval_set_id="two", eval_cases=[EvalCase.single_turn("x", "q", "r")]).to_file(two)
    return [one, two]


def chosen(plan: RunPlan) -> dict[str, list[str]]:
    return {s.eval_set_id: [c.eval_id for c in s.eval_cases] for _, s in selected_eval_sets(plan)}


def test_the_selection_applies_to_every_file_and_only_narrows_one(files: list[Path]) -> None:
    plan = RunPlan(agent="m:a", eval_sets=files)
    assert chosen(plan) == {"one": ["a", "b", "c"], "two": ["x"]}
    smoke = plan.model_copy(update={"selection": CaseSelection(tags=("smoke", "tools"))})
    assert chosen(smoke) == {"one": ["a"], "two": []}
    any_tag = CaseSelection(tags=("smoke", "tools"), every_tag=False)
    narrowed = plan.model_copy(update={"selection": any_tag, "only": {str(files[0]): ["b", "x"]}})
    assert chosen(narrowed) == {"one": ["b"], "two": []}


def test_rerunning_keeps_the_selection_and_runs_only_the_files_given(files: list[Path]) -> None:
    plan = RunPlan(agent="m:a", eval_sets=files, selection=CaseSelection(tags=("smoke",)))
    rerun = plan.rerunning({files[0]: ["a", "b"]})
    assert rerun.eval_sets == [files[0]] and rerun.selection == plan.selection
    assert chosen(rerun) == {"one": ["a"]}  # b is not tagged smoke


def test_a_plan_goes_to_the_worker_as_json_whole(files: list[Path], tmp_path: Path) -> None:
    config = EvalConfig.default()
    config.max_concurrency = 3
    plan = RunPlan(
        agent="m:a",
        eval_sets=files,
        selection=CaseSelection(eval_ids=("a",), tags=("smoke",), every_tag=False),
        only={str(files[1]): ["x"]},
        config=config,
        search_path=tmp_path,
        journal=tmp_path / "j.jsonl",
    )
    command = plan.command()
    assert command[1:3] == ["-m", "tenxeval_tui.runs.worker"]
    assert RunPlan.model_validate_json(command[3]) == plan
    assert plan.worker_env()["PYTHONPATH"].split(":")[0] == str(tmp_path)


def test_the_config_is_the_resolved_one_or_built_from_file_preset_and_options(
    tmp_path: Path,
) -> None:
    resolved = EvalConfig.default()
    resolved.max_concurrency = 7
    plan = RunPlan(agent="", eval_sets=[], config=resolved, preset="tool_usage", concurrency=2)
    assert plan.resolved_config().max_concurrency == 7  # the resolved config wins
    built = RunPlan(agent="", eval_sets=[], concurrency=2, output_dir=tmp_path).resolved_config()
    assert built.max_concurrency == 2 and built.parallel
    assert built.reporter.output_dir == str(tmp_path)


def test_a_file_that_does_not_load_is_named(tmp_path: Path) -> None:
    bad = tmp_path / "bad.evalset.json"
    bad.write_text('{"eval_set_id": "b", "eval_cases": [{"eval_id": 3}]}')
    with pytest.raises(EvalFileError, match=r"bad\.evalset\.json"):
        selected_eval_sets(RunPlan(agent="", eval_sets=[bad]))
