"""Sharded plans and merging their reports (the CLI's path is in tests/cli/test_shard_merge.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tenxeval_tui.evaluation import EvalCase, EvalSet
from tenxeval_tui.evaluation.dataset.selection import Shard
from tenxeval_tui.evaluation.eval_result import EvalCaseResult, EvalReport
from tenxeval_tui.runs.plan import RunPlan, load_eval_sets, selected_eval_sets
from tenxeval_tui.runs.shards import MergeError, mark_shard, merge_reports, run_positions


@pytest.fixture
def files(tmp_path: Path) -> list[Path]:
    paths = []
    for name in ("one", "two"):
        path = tmp_path / f"{name}.evalset.json"
        cases = [EvalCase.single_turn(f"{name}-{i}", "q", "r") for i in range(30)]
        EvalSet(eval_set_id=name, eval_cases=cases).to_file(path)
        paths.append(path)
    return paths


def _ids(plan: RunPlan) -> list[tuple[str, str]]:
    return [(s.eval_set_id, c.eval_id) for _, s in selected_eval_sets(plan) for c in s.eval_cases]


def test_a_shard_is_taken_last_so_its_parts_make_the_limited_run(files: list[Path]) -> None:
    plan = RunPlan(agent="m:a", eval_sets=files, sample=25, seed=3)
    whole = _ids(plan)
    parts = [_ids(plan.model_copy(update={"shard": Shard(index=k, count=3)})) for k in (1, 2, 3)]
    assert sorted(parts[0] + parts[1] + parts[2]) == sorted(whole)
    assert len(set(parts[0] + parts[1] + parts[2])) == 25
    # each part keeps the run's order
    assert all(part == [key for key in whole if key in part] for part in parts)


def _report(plan: RunPlan, files: list[Path], passed: bool = True) -> EvalReport:
    results = [
        EvalCaseResult(eval_id=c.eval_id, passed=passed, metadata={"eval_set_id": s.eval_set_id})
        for _, s in selected_eval_sets(plan)
        for c in s.eval_cases
    ]
    report = EvalReport.create("combined_eval", results, config_used={"timeout": 5.0})
    return mark_shard(report, plan, run_positions(plan, load_eval_sets(files)))


def test_merging_puts_the_parts_in_run_order_and_refuses_mixed_splits(files: list[Path]) -> None:
    plan = RunPlan(agent="m:a", eval_sets=files)
    parts = [
        (f"p{k}.json", _report(plan.model_copy(update={"shard": Shard(index=k, count=2)}), files))
        for k in (2, 1)
    ]
    merged = merge_reports(parts)
    assert [(r.eval_set_id, r.eval_id) for r in merged.results] == _ids(plan)
    assert merged.summary.total_cases == 60 and not merged.is_partial
    odd = ("p3.json", _report(plan.model_copy(update={"shard": Shard(index=3, count=3)}), files))
    with pytest.raises(MergeError, match=r"different splits: p2.json \(of 2\), .*p3.json \(of 3\)"):
        merge_reports([*parts, odd])


def test_merging_ignores_how_the_parts_ran_but_not_what_they_scored(files: list[Path]) -> None:
    plan = RunPlan(agent="m:a", eval_sets=files)
    one = _report(plan.model_copy(update={"shard": Shard(index=1, count=2)}), files)
    two = _report(plan.model_copy(update={"shard": Shard(index=2, count=2)}), files)
    faster = two.model_copy(update={"config_used": {"timeout": 5.0, "max_concurrency": 16}})
    assert merge_reports([("a", one), ("b", faster)]).summary.total_cases == 60
    stricter = two.model_copy(update={"config_used": {"timeout": 1.0}})
    with pytest.raises(MergeError, match="b: was run with another config than a"):
        merge_reports([("a", one), ("b", stricter)])
