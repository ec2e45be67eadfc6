"""``run --reuse``'s rules as a function of the earlier reports and this run's plan: which
cases take an earlier result, and why the others run."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tenxeval_tui.evaluation.config.eval_config import EvalConfig
from tenxeval_tui.evaluation.dataset.eval_set import EvalCase, EvalSet
from tenxeval_tui.evaluation.eval_result import (
    CASE_SHA256_KEY,
    PROVENANCE_KEY,
    RETRIED_KEY,
    EvalCaseResult,
    EvalReport,
)
from tenxeval_tui.evaluation.provenance import case_sha256, config_sha256
from tenxeval_tui.runs.reuse import (
    CASE_CHANGED,
    ERRORED,
    FAILED,
    NO_EARLIER,
    REUSED_CASES_KEY,
    REUSED_FROM_KEY,
    RUN_CHANGED,
    RUNS_DIFFER,
    earlier_reports,
    earlier_results,
    reuse_split,
    why_reused_none,
    with_reused_count,
)

CONFIG = EvalConfig.default()
SET_ID = "support"


def _case(eval_id: str, text: str = "hello", **metadata: Any) -> EvalCase:
    return EvalCase.model_validate(
        {
            "eval_id": eval_id,
            "conversation": [{"user_content": {"role": "user", "content": text}}],
            "metadata": metadata,
        }
    )


def _eval_set(*cases: EvalCase, **metadata: Any) -> EvalSet:
    return EvalSet(eval_set_id=SET_ID, eval_cases=list(cases), metadata=metadata)


def _provenance(agent: str | None = "agent-1", config: EvalConfig = CONFIG) -> dict[str, Any]:
    return {"agent_sha256": agent, "config_sha256": config_sha256(config), "judge_models": {}}


def _result(case: EvalCase, *, passed: bool = True, error: str | None = None) -> EvalCaseResult:
    return EvalCaseResult(
        eval_id=case.eval_id,
        passed=passed,
        error=error,
        metadata={CASE_SHA256_KEY: case_sha256(case), RETRIED_KEY: True},
    )


def _report(results: list[EvalCaseResult], provenance: dict[str, Any], at: float) -> EvalReport:
    report = EvalReport.create(
        eval_set_id=SET_ID, results=results, metadata={PROVENANCE_KEY: provenance}
    )
    return report.model_copy(update={"timestamp": at})


def _split(
    eval_set: EvalSet,
    reports: list[tuple[str, EvalReport]],
    provenance: dict[str, Any] | None = None,
    mode: Any = "all",
    config: EvalConfig = CONFIG,
) -> Any:
    newest_first = sorted(
        ((Path(name), r) for name, r in reports), key=lambda item: -item[1].timestamp
    )
    return reuse_split(
        [(Path("s.evalset.json"), eval_set)],
        {SET_ID: provenance or _provenance(config=config)},
        earlier_results(newest_first),
        config,
        mode,
    )


def test_an_unchanged_case_is_reused_and_an_edited_one_runs() -> None:
    same, edited, new = _case("same"), _case("edited"), _case("new")
    before = _report([_result(same), _result(edited, passed=False)], _provenance(), 1.0)
    now = _eval_set(same, _case("edited", "hello again"), new)
    split = _split(now, [("old.json", before)])
    assert split.count == 1
    [reused] = split.reused[0].results
    assert reused.eval_id == "same" and reused.metadata[REUSED_FROM_KEY] == "old.json"
    assert RETRIED_KEY not in reused.metadata  # it was not retried in this run
    assert [c.eval_id for c in split.todo[0][1].eval_cases] == ["edited", "new"]
    assert split.why_not == {(SET_ID, "edited"): CASE_CHANGED, (SET_ID, "new"): NO_EARLIER}
    assert split.reused[0].metadata[PROVENANCE_KEY] == _provenance()


def test_another_agent_or_config_reuses_nothing() -> None:
    case = _case("a")
    before = _report([_result(case)], _provenance(), 1.0)
    changed_agent = _split(_eval_set(case), [("r.json", before)], _provenance("agent-2"))
    assert changed_agent.count == 0 and changed_agent.why_not == {(SET_ID, "a"): RUN_CHANGED}
    stricter = CONFIG.model_copy(update={"timeout": 5.0})
    changed_config = _split(_eval_set(case), [("r.json", before)], config=stricter)
    assert changed_config.count == 0 and changed_config.why_not == {(SET_ID, "a"): RUN_CHANGED}
    # where reports go does not change a case's outcome: still reused
    elsewhere = CONFIG.model_copy(deep=True)
    elsewhere.reporter.output_dir = "elsewhere"
    assert _split(_eval_set(case), [("r.json", before)], config=elsewhere).count == 1


def test_errors_never_and_failures_only_without_passed() -> None:
    ok, failed, errored = _case("ok"), _case("failed"), _case("errored")
    before = _report(
        [_result(ok), _result(failed, passed=False), _result(errored, error="boom")],
        _provenance(),
        1.0,
    )
    every = _split(_eval_set(ok, failed, errored), [("r.json", before)])
    assert [r.eval_id for r in every.reused[0].results] == ["ok", "failed"]
    assert every.why_not == {(SET_ID, "errored"): ERRORED}
    passing = _split(_eval_set(ok, failed, errored), [("r.json", before)], mode="passed")
    assert [r.eval_id for r in passing.reused[0].results] == ["ok"]
    assert passing.why_not == {(SET_ID, "failed"): FAILED, (SET_ID, "errored"): ERRORED}


def test_only_the_newest_result_of_a_case_counts() -> None:
    case = _case("flaky")
    older_pass = _report([_result(case)], _provenance(), 1.0)
    newer_fail = _report([_result(case, passed=False)], _provenance(), 2.0)
    reports = [("old.json", older_pass), ("new.json", newer_fail)]
    assert _split(_eval_set(case), reports, mode="passed").why_not == {(SET_ID, "flaky"): FAILED}
    [reused] = _split(_eval_set(case), reports).reused[0].results
    assert not reused.passed and reused.metadata[REUSED_FROM_KEY] == "new.json"


def test_a_repeated_case_reuses_all_its_runs_or_none() -> None:
    case = _case("r", repeats=3)
    runs = [_result(case, passed=True) for _ in range(3)]
    whole = _result(case).model_copy(update={"repeat_results": runs})
    before = _report([whole], _provenance(), 1.0)
    assert _split(_eval_set(case), [("r.json", before)]).count == 1
    # one of its runs errored: it runs again, all of it
    broken = whole.model_copy(update={"repeat_results": [*runs[:2], _result(case, error="x")]})
    again = _split(_eval_set(case), [("r.json", _report([broken], _provenance(), 1.0))])
    assert again.why_not == {(SET_ID, "r"): ERRORED}
    # the eval set now asks for more runs than the result holds (the case is unchanged)
    plain = _case("p")
    once = _report([_result(plain)], _provenance(), 1.0)
    more = _split(_eval_set(plain, repeats=2), [("r.json", once)])
    assert more.why_not == {(SET_ID, "p"): RUNS_DIFFER}


def test_reports_without_provenance_or_case_hashes_match_nothing() -> None:
    case = _case("a")
    no_provenance = EvalReport.create(eval_set_id=SET_ID, results=[_result(case)])
    assert _split(_eval_set(case), [("r.json", no_provenance)]).why_not == {
        (SET_ID, "a"): RUN_CHANGED
    }
    bare = EvalCaseResult(eval_id="a", passed=True)
    no_hash = _report([bare], _provenance(), 1.0)
    assert _split(_eval_set(case), [("r.json", no_hash)]).why_not == {(SET_ID, "a"): NO_EARLIER}


def test_the_merged_report_keeps_file_order_and_counts_what_was_reused() -> None:
    first, second, third = _case("first"), _case("second"), _case("third")
    before = _report([_result(first), _result(third)], _provenance(), 1.0)
    split = _split(_eval_set(first, second, third), [("r.json", before)])
    ran = EvalReport.create(eval_set_id=SET_ID, results=[_result(second, passed=False)])
    [merged] = split.reports([ran])
    assert [r.eval_id for r in merged.results] == ["first", "second", "third"]
    assert not merged.is_partial
    counted = with_reused_count(merged)
    assert counted.metadata[REUSED_CASES_KEY] == 2
    assert with_reused_count(ran) is ran


def test_when_nothing_may_be_reused() -> None:
    assert why_reused_none(["a"], "live") is None
    assert "could not be hashed" in (why_reused_none(["a", None], "live") or "")
    assert "--tools replay" in (why_reused_none(["a"], "replay") or "")


def test_earlier_reports_reads_the_folder_newest_first(tmp_path: Path) -> None:
    case = _case("a")
    _report([_result(case)], _provenance(), 1.0).to_file(tmp_path / "old.json")
    _report([_result(case)], _provenance(), 2.0).to_file(tmp_path / "new.json")
    _eval_set(case).to_file(tmp_path / "x.evalset.json")
    (tmp_path / "config.json").write_text('{"criteria": {}}')  # not a report: left out
    (tmp_path / "broken.json").write_text("{")
    assert [p.name for p, _ in earlier_reports(tmp_path)] == ["new.json", "old.json"]
    assert earlier_reports(tmp_path / "absent") == []
