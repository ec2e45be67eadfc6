"""`tenxeval-tui agreement`: judges against human labels, the table through the real console
script, the rest in-process through its entry point (the ``in_process`` fixture)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tenxeval_tui.browsing.labels import Label, append_label, reply_sha256
from tenxeval_tui.evaluation import CriterionConfig, CriterionResult, EvalConfig, EvalReport
from tenxeval_tui.evaluation.config.eval_config import CriteriaConfig
from tests.browsing.label_samples import (
    FIGURE_KEYS,
    JUDGED,
    human,
    judged_report,
    write_eval_set,
    write_report,
)
from tests.cli.conftest import InProcess
from tests.evaluation.criteria.judge_server import JudgeServer, Scripted, prompt_of, verdict

from .test_run import cli

JUDGE = [True] * 8 + [False] * 4
VERDICTS = ["pass"] * 5 + ["fail"] * 3 + ["pass"] + ["fail"] * 3  # pp 5, pf 3, fp 1, ff 3


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """An eval set, its report, and alice's labels of its judged criterion (kappa 1/3)
    and of two whole cases."""
    write_eval_set(tmp_path, len(JUDGE))
    write_report(tmp_path, judged_report(JUDGE))
    labels = tmp_path / "weather.labels.jsonl"
    for i, given in enumerate(VERDICTS):
        append_label(labels, human(f"c{i:02d}", given))  # type: ignore[arg-type]
    append_label(labels, human("c00", "pass", criterion=None))
    append_label(labels, human("c05", "fail", criterion=None))
    return tmp_path


REPORT = "weather-agent_20260520_142301.json"


def test_the_table_of_a_report_beside_its_eval_set(folder: Path) -> None:
    done = cli(folder, "agreement", REPORT)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    judged = next(line for line in lines if line.startswith(JUDGED))
    # 12 pairs, 66.7% raw agreement, kappa 0.33, TPR 5/6, TNR 3/6, confusion 5 3 1 3
    assert judged.split()[:4] == [JUDGED, "12", "66.7%", "0.33"]
    assert "83.3%" in judged and "50.0%" in judged and judged.split()[-4:] == ["5", "3", "1", "3"]
    assert "not yet meaningful" not in judged
    case = next(line for line in lines if line.startswith("case "))
    assert "(fewer than 10 pairs: not yet meaningful)" in case


def test_json_has_the_documented_shape_and_hand_computed_figures(
    folder: Path, in_process: InProcess
) -> None:
    done = in_process(folder, "agreement", REPORT, "--json")
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert set(data["criteria"]) == {JUDGED, "case"}
    judged = data["criteria"][JUDGED]
    assert list(judged) == FIGURE_KEYS
    assert judged["n"] == 12
    assert judged["kappa"] == pytest.approx(1 / 3)
    assert judged["agreement"] == pytest.approx(8 / 12)
    assert judged["tpr"] == pytest.approx(5 / 6) and judged["tnr"] == pytest.approx(0.5)
    assert judged["confusion"] == {"pass_pass": 5, "pass_fail": 3, "fail_pass": 1, "fail_fail": 3}
    assert judged["kappa_low"] < judged["kappa"] < judged["kappa_high"]
    # seeded: the same interval every time
    again = json.loads(in_process(folder, "agreement", REPORT, "--json").stdout)
    assert again == data


def test_min_kappa_gates_the_exit_code(folder: Path, in_process: InProcess) -> None:
    only_judged = folder / "judged.labels.jsonl"
    for i, given in enumerate(VERDICTS):
        append_label(only_judged, human(f"c{i:02d}", given))  # type: ignore[arg-type]
    passing = in_process(
        folder, "agreement", REPORT, "--labels", str(only_judged), "--min-kappa", "0.3"
    )
    assert passing.returncode == 0, passing.stderr
    assert "every kappa is at least 0.3" in passing.stdout
    failing = in_process(
        folder, "agreement", REPORT, "--labels", str(only_judged), "--min-kappa", "0.5"
    )
    assert failing.returncode == 1
    assert f"kappa below 0.5: {JUDGED} (0.33 [" in failing.stderr
    # the whole-case pairs have the judge passing both: kappa 0 misses any positive bar
    both = in_process(folder, "agreement", REPORT, "--min-kappa", "0.3")
    assert both.returncode == 1 and "case (0.00" in both.stderr


def test_an_undefined_kappa_fails_the_gate(tmp_path: Path, in_process: InProcess) -> None:
    write_eval_set(tmp_path, 3)
    write_report(tmp_path, judged_report([True, True, True]))
    for eval_id in ("c00", "c01", "c02"):
        append_label(tmp_path / "weather.labels.jsonl", human(eval_id, "pass"))
    done = in_process(tmp_path, "agreement", REPORT, "--min-kappa", "0", "--json")
    assert done.returncode == 1
    assert json.loads(done.stdout)["criteria"][JUDGED]["kappa"] is None
    assert "(undefined)" in done.stderr


def test_no_labels_at_all_is_nothing_to_gate_on(tmp_path: Path, in_process: InProcess) -> None:
    write_eval_set(tmp_path, 3)
    write_report(tmp_path, judged_report([True, False, True]))
    plain = in_process(tmp_path, "agreement", REPORT)
    assert plain.returncode == 0
    assert "nothing to measure yet" in plain.stdout
    gated = in_process(tmp_path, "agreement", REPORT, "--min-kappa", "0.5")
    assert gated.returncode == 1 and "no pairs to measure" in gated.stderr


def test_malformed_label_lines_are_named_and_skipped(folder: Path, in_process: InProcess) -> None:
    labels = folder / "weather.labels.jsonl"
    with labels.open("a", encoding="utf-8") as out:
        out.write('{"eval_id": "c00", "label": "pass"}\n')
        out.write("not json at all\n")
    done = in_process(folder, "agreement", REPORT, "--json")
    assert done.returncode == 0, done.stderr
    assert f"skipped {labels}:15: missing criterion, reviewer" in done.stderr
    assert f"skipped {labels}:16: not valid JSON" in done.stderr
    assert json.loads(done.stdout)["criteria"][JUDGED]["n"] == 12  # the rest all counted


@pytest.mark.parametrize(
    ("setup", "args", "message"),
    [
        (None, ["missing.json"], "cannot read report: missing.json: no such file"),
        ("broken", ["broken.json"], "broken.json:1:"),
        (None, [REPORT, "--labels", "nope.jsonl"], "--labels nope.jsonl: no such file"),
        ("no_eval_set", [REPORT], "no eval set with id 'weather-agent'"),
        (None, [REPORT, "--min-kappa", "2"], "is not between -1 and 1"),
    ],
)
def test_bad_input_exits_2_with_a_message_naming_it(
    folder: Path, setup: str | None, args: list[str], message: str, in_process: InProcess
) -> None:
    if setup == "broken":
        (folder / "broken.json").write_text("{not json")
    if setup == "no_eval_set":
        (folder / "weather.evalset.json").unlink()
    done = in_process(folder, "agreement", *args)
    assert done.returncode == 2
    assert message in done.stderr
    assert "Traceback" not in done.stderr


def test_labels_naming_control_characters_reach_the_terminal_inert(
    folder: Path, in_process: InProcess
) -> None:
    append_label(
        folder / "weather.labels.jsonl",
        human("c01", "pass", reviewer="\x1b[31mmallory"),
    )
    done = in_process(folder, "agreement", REPORT)
    assert done.returncode == 0, done.stderr
    assert "\x1b" not in done.stdout
    assert "mallory vs alice" in done.stdout  # the reviewers compared with each other


# --- a judge change tried against the labels (rescore, then agreement) ------------------

CASES = 12
RIGHT = {f"c{i:02d}" for i in range(6)}


def _lenient_report() -> EvalReport:
    """A run whose judge passed every reply, half of which are wrong."""
    report = judged_report([True] * CASES)
    config = EvalConfig(
        criteria=CriteriaConfig(
            llm_judge=CriterionConfig(threshold=0.5, judge_cache=False, num_samples=1)
        )
    )
    for result in report.results:
        reply = result.actual_response if result.eval_id in RIGHT else f"Rain in {result.eval_id}."
        result.actual_response = reply
        result.criterion_results = [
            CriterionResult.success("final_response_match_v2", 1.0, 0.5, {"reason": "looks fine"})
        ]
        result.passed = True
    rebuilt = EvalReport.create(
        report.eval_set_id, report.results, config_used=config.model_dump(mode="json")
    )
    rebuilt.timestamp = report.timestamp
    return rebuilt


def test_a_rescored_judge_is_measured_against_the_same_labels(
    tmp_path: Path, judge_env: JudgeServer, in_process: InProcess
) -> None:
    eval_set = write_eval_set(tmp_path, CASES)
    report = _lenient_report()
    path = write_report(tmp_path, report)
    labels = tmp_path / "weather.labels.jsonl"
    for result in report.results:
        append_label(
            labels,
            Label(
                eval_id=result.eval_id,
                criterion="final_response_match_v2",
                label="pass" if result.eval_id in RIGHT else "fail",
                reviewer="alice",
                report=path.name,
                reply_sha256=reply_sha256(result.actual_response),
            ),
        )

    def strict_judge(body: dict[str, object]) -> Scripted:
        return verdict("invalid" if "Rain in" in prompt_of(body) else "valid", "checked")

    judge_env.fallback = strict_judge
    before = in_process(tmp_path, "agreement", path.name, "--json", "--min-kappa", "0.8")
    assert before.returncode == 1  # the lenient judge: kappa 0
    assert json.loads(before.stdout)["criteria"]["final_response_match_v2"]["kappa"] == 0.0
    rescored = tmp_path / "strict.json"
    done = in_process(
        tmp_path, "rescore", path.name, "--eval-set", str(eval_set), "-o", str(rescored), "-q"
    )
    assert done.returncode in (0, 1), done.stderr
    assert len(judge_env.requests) == CASES  # the new judge ran; the agent did not
    after = in_process(tmp_path, "agreement", rescored.name, "--json", "--min-kappa", "0.8")
    assert after.returncode == 0, after.stderr
    figures = json.loads(after.stdout)["criteria"]["final_response_match_v2"]
    assert figures["kappa"] == 1.0 and figures["n"] == CASES
