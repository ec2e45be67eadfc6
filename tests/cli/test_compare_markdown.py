"""`compare --format markdown`: a pull-request comment (the first test, with hostile text,
through the real console script; the second in-process through its entry point)."""

from __future__ import annotations

from pathlib import Path

from tenxeval_tui.browsing.markdown_summary import DETAILED, MAX_CHARS
from tenxeval_tui.evaluation import CriterionResult, EvalCaseResult, EvalReport, ToolCall
from tests.cli.conftest import InProcess
from tests.cli.test_run import cli

HOSTILE = "evil\x1b]52;c;aGk=\x07 **bold** <script>x</script> ```"


def _case(eval_id: str, passed: bool, reply: str, *, error: str | None = None) -> EvalCaseResult:
    if error is not None:
        return EvalCaseResult.failure(eval_id, error, name=eval_id.title())
    score = 0.9 if passed else 0.2
    result = EvalCaseResult.success(
        eval_id, [CriterionResult.success("rouge_match", score, 0.5)], name=eval_id.title(),
        actual_response=reply,
        actual_tool_calls=[ToolCall(name="get_weather", args={"city": eval_id})] if passed else [],
    )  # fmt: skip
    return result


def _report(path: Path, cases: list[EvalCaseResult], cost: float) -> Path:
    report = EvalReport.create("weather", cases, eval_set_name="Weather")
    report.summary.total_cost_usd = cost
    report.to_file(path)
    return path


def test_markdown_summary_of_a_regression(tmp_path: Path) -> None:
    _report(tmp_path / "base.json", [
        _case("london", True, "Sunny in London"), _case("paris", True, "Sunny in Paris"),
        _case("tokyo", False, "No idea"), _case("gone", True, "ok"),
    ], cost=0.0100)  # fmt: skip
    _report(tmp_path / "now.json", [
        _case("london", True, "Sunny in London"), _case("paris", False, f"Rain {HOSTILE}"),
        _case("tokyo", True, "Rain in Tokyo"), _case("oslo", False, "", error="Timeout"),
    ], cost=0.0125)  # fmt: skip
    done = cli(tmp_path, "compare", "base.json", "now.json", "--format", "markdown")
    assert done.returncode == 1, done.stderr  # a case regressed
    text = done.stdout
    assert text.startswith("### Eval Weather: 2/4 passed (50.0%), regressed\n")
    assert "| pass rate | 75.0% (3/4) | 50.0% (2/4) | -25.0 pts |" in text
    assert "| cost | $0.0100 | $0.0125 | +$0.0025 (+25%) |" in text
    assert "1 regressed, 1 fixed, 1 new, 1 removed" in text
    assert (
        "<details><summary>paris Paris: passed → failed (rouge_match 0.20 &lt; 0.50)</summary>"
        in text
    )
    assert "-Sunny in Paris" in text and "- tools: get_weather(city='paris')" in text
    assert "**Fixed (1):** `tokyo`" in text and "**New (1):** `oslo`" in text
    assert "**Removed (1):** `gone`" in text
    assert "\x1b" not in text and "\x07" not in text and "<script>" not in text.split("```diff")[0]
    fence = text.split("\n")[
        next(
            i for i, line in enumerate(text.split("\n")) if "diff" in line and line.startswith("`")
        )
    ]
    assert fence.startswith("````")  # longer than the backticks inside: they cannot close it


def test_many_regressions_fit_one_comment(tmp_path: Path, in_process: InProcess) -> None:
    long_reply = "word " * 2000
    _report(tmp_path / "base.json", [_case(f"c{i}", True, long_reply) for i in range(300)], 1.0)
    _report(
        tmp_path / "now.json", [_case(f"c{i}", False, long_reply + "!") for i in range(300)], 1.0
    )
    text = in_process(tmp_path, "compare", "base.json", "now.json", "--format", "markdown").stdout
    assert len(text) <= MAX_CHARS
    assert text.count("<details>") == DETAILED
    assert "**More regressed (290):**" in text and "and 260 more" in text
