"""The run session as a library: a plan and its options run to one report and an exit code
with no argparse and no printing (what ``tenxeval-tui run`` calls), in a real worker child
on the offline sample agent."""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

import pytest

from tenxeval_tui.evaluation import EvalCase, EvalConfig, EvalSet
from tenxeval_tui.evaluation.dataset.selection import CaseSelection
from tenxeval_tui.evaluation.observers import RunObserver
from tenxeval_tui.runs.display import SilentDisplay
from tenxeval_tui.runs.outcome import EXIT_FAILED, EXIT_OK, Published
from tenxeval_tui.runs.passes import rerun_only
from tenxeval_tui.runs.plan import RunPlan
from tenxeval_tui.runs.problems import RunProblem
from tenxeval_tui.runs.session import RunSession, SessionOptions

ROOT = Path(__file__).resolve().parents[2]
AGENT = "sample_evals.plain_agent:support_agent"


class Recording(SilentDisplay):
    """A display that keeps what the session told it."""

    def __init__(self) -> None:
        self.notes: list[str] = []
        self.totals: list[int] = []
        self.shown: list[Published] = []

    def note(self, text: str) -> None:
        self.notes.append(text)

    @contextmanager
    def progress(self, total: int) -> Iterator[Sequence[RunObserver]]:
        self.totals.append(total)
        yield []

    def published(self, published: Published, config: EvalConfig) -> None:
        self.shown.append(published)


def plan_for(tmp_path: Path, *, tags: tuple[str, ...] = ()) -> RunPlan:
    config = EvalConfig.default()
    config.reporter.output_dir = str(tmp_path / "out")
    config.reporter.html = False
    return RunPlan(
        agent=AGENT,
        eval_sets=[ROOT / "sample_evals/plain_agent.evalset.json"],
        selection=CaseSelection(tags=tags),
        config=config,
        search_path=ROOT,
    )


def test_a_session_runs_its_plan_to_one_report_and_an_exit_code(tmp_path: Path) -> None:
    display = Recording()
    outcome = RunSession(plan_for(tmp_path, tags=("smoke",)), SessionOptions(), display).run()
    assert outcome.exit_code == EXIT_OK
    assert display.totals == [2]  # one pass of the two smoke cases
    assert outcome.published is not None and display.shown == [outcome.published]
    (report,) = [Path(f) for f in outcome.published.files if f.endswith(".json")]
    data = json.loads(report.read_text())
    assert sorted(r["eval_id"] for r in data["results"]) == ["greeting", "order_a100"]
    assert not list((tmp_path / "out").glob("run-*.journal.jsonl"))  # written: dropped


def test_the_options_judge_the_outcome(tmp_path: Path) -> None:
    plan = plan_for(tmp_path)
    strict = RunSession(plan, SessionOptions(threshold=1.0)).run()
    assert strict.exit_code == EXIT_FAILED  # the sample set has failing and erroring cases
    assert strict.published is not None and not strict.published.passed


def test_a_resume_journal_that_is_missing_is_a_run_problem(tmp_path: Path) -> None:
    options = SessionOptions(resume=tmp_path / "nope.jsonl")
    with pytest.raises(RunProblem, match=r"nope\.jsonl: journal not found"):
        RunSession(plan_for(tmp_path), options).run()


def test_rerun_only_groups_cases_by_their_file_in_the_order_given(tmp_path: Path) -> None:
    files = {"one": tmp_path / "one.json", "two": tmp_path / "two.json"}
    cases = [("two", "x"), ("one", "b"), ("one", "a"), ("one", "b"), ("gone", "z")]
    assert rerun_only(cases, files) == {files["two"]: ["x"], files["one"]: ["b", "a"]}


def test_narrowed_to_runs_exactly_the_cases_given_by_id(tmp_path: Path) -> None:
    path = tmp_path / "s.evalset.json"
    eval_set = EvalSet(eval_set_id="s", eval_cases=[EvalCase.single_turn("a", "q", "r")])
    plan = RunPlan(agent="m:a", eval_sets=[path, tmp_path / "t.json"], limit=3)
    by_id = plan.narrowed_to([(path, eval_set)], by_id=True)
    assert by_id.eval_sets == [path] and by_id.only == {str(path): ["a"]}
    assert by_id.limit is None
    kept = plan.narrowed_to([(path, eval_set)], by_id=False)
    assert kept.only == {} and kept.limit == 3


def test_a_run_budget_gives_each_pass_what_is_left_by_the_evaluators_rule() -> None:
    from tenxeval_tui.evaluation.eval_result import EvalCaseResult, EvalReport
    from tenxeval_tui.runs.budget import RunBudget

    config = EvalConfig.default().model_copy(update={"max_cost": 4.5, "max_concurrency": 8})
    budget = RunBudget.of(config)
    assert budget is not None and budget.fits(5) == 5  # nothing known yet: as the evaluator
    costs = [1.0, 1.0, None]  # a case with no cost is an attempt all the same
    budget.add([EvalReport.create("s", [EvalCaseResult(eval_id=f"c{i}", passed=True,
                cost_usd=c) for i, c in enumerate(costs)])])  # fmt: skip
    assert (budget.spent, budget.attempts) == (2.0, 3)
    assert budget.fits(5) == 3  # $2.5 left at $0.67 a case
    narrowed = budget.pass_config(config, 5)
    assert narrowed.max_cost == 2.5 and narrowed.max_concurrency == 3
    assert budget.pass_config(config, 2).max_concurrency == 8  # both fit: as configured
    budget.add([EvalReport.create("s", [EvalCaseResult(eval_id="x", passed=True, cost_usd=2.6)])])
    assert budget.fits() == 0 and RunBudget.of(EvalConfig.default()) is None
