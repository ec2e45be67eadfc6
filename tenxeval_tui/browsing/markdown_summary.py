"""A comparison of two runs as Markdown short enough for one pull-request comment.

``compare --format markdown`` prints it: the pass rates, the cost change, the counts of
cases by change, then each regressed case with what changed (its status, the criteria
it failed with their scores, its error, and a diff of its reply and tool calls from the
baseline run), then the fixed, new and removed cases by id. At most
:data:`DETAILED` regressions are detailed and the text is cut to :data:`MAX_CHARS`
(GitHub takes 65,536 characters in a comment). Text from reports is untrusted: it is
escaped for Markdown and HTML, put in code blocks whose fence it cannot close, and
made inert for a terminal. No UI.
"""

from __future__ import annotations

import difflib
import html
import re
from collections.abc import Sequence

from tenxeval_tui.evaluation.analysis.compare import CaseChange, CaseComparison, ReportComparison
from tenxeval_tui.evaluation.eval_result import EvalCaseResult, EvalReport
from tenxeval_tui.evaluation.inert import inert

DETAILED = 10
"""Regressed cases shown with their diffs; the others are listed by id."""
LISTED = 30
"""Cases listed by id per kind of change before "and N more"."""
DIFF_LINES = 12
"""Lines of a reply's diff shown per case."""
LINE_CHARS = 160
"""Characters of one diff line shown (a reply of one long line is cut)."""
MAX_CHARS = 60_000
_MARKDOWN_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!|<>~])")


def _text(value: str) -> str:
    """Untrusted text for Markdown prose: one line, inert, special characters escaped."""
    flat = inert(" ".join(value.split()))
    return _MARKDOWN_SPECIAL.sub(r"\\\1", flat)


def _code_block(lines: Sequence[str], language: str = "") -> str:
    body = inert("\n".join(lines), multiline=True)
    longest = max((len(m) for m in re.findall(r"`+", body)), default=0)
    fence = "`" * max(3, longest + 1)
    return f"{fence}{language}\n{body}\n{fence}"


def _pct(value: float) -> str:
    return f"{value:.1%}"


def _cost(report: EvalReport) -> float | None:
    return report.summary.total_cost_usd


def _cost_row(baseline: EvalReport, current: EvalReport) -> str:
    before, after = _cost(baseline), _cost(current)
    if before is None and after is None:
        return ""
    shown = [f"${v:.4f}" if v is not None else "-" for v in (before, after)]
    change = "-"
    if before is not None and after is not None:
        change = f"{'+' if after >= before else '-'}${abs(after - before):.4f}"
        if before:
            change += f" ({(after - before) / before:+.0%})"
    return f"| cost | {shown[0]} | {shown[1]} | {change} |"


def _reply_diff(before: EvalCaseResult | None, after: EvalCaseResult | None) -> list[str]:
    old = (before.actual_response if before else "").splitlines()
    new = (after.actual_response if after else "").splitlines()
    tools = [
        [
            f"{c.name}({', '.join(f'{k}={v!r}' for k, v in c.args.items())})"
            for c in r.actual_tool_calls
        ]
        if r is not None
        else []
        for r in (before, after)
    ]
    lines = list(
        difflib.unified_diff(old, new, "baseline reply", "current reply", lineterm="", n=1)
    )
    if tools[0] != tools[1]:
        lines += [
            f"- tools: {', '.join(tools[0]) or '(none)'}",
            f"+ tools: {', '.join(tools[1]) or '(none)'}",
        ]
    if len(lines) > DIFF_LINES:
        lines = [*lines[:DIFF_LINES], f"… {len(lines) - DIFF_LINES} more line(s)"]
    return [line if len(line) <= LINE_CHARS else line[: LINE_CHARS - 1] + "…" for line in lines]


def _why(result: EvalCaseResult | None) -> str:
    if result is None:
        return "not run"
    if result.error is not None:
        return f"error: {result.error[:200]}"
    failed = [f"{c.criterion} {c.score:.2f} < {c.threshold:.2f}" for c in result.failed_criteria]
    return "; ".join(failed) or result.status


def _regression(case: CaseComparison, baseline: EvalReport, current: EvalReport) -> list[str]:
    before = baseline.get_case_result(case.eval_id)
    after = current.get_case_result(case.eval_id)
    name = f" {case.name}" if case.name and case.name != case.eval_id else ""
    summary = html.escape(
        inert(
            f"{case.eval_id}{name}: {case.baseline_status} → {case.current_status} ({_why(after)})"
        ),
        quote=False,
    )
    lines = [f"<details><summary>{summary}</summary>", ""]
    diff = _reply_diff(before, after)
    lines += [
        _code_block(diff, "diff") if diff else "_(same reply and tool calls)_",
        "",
        "</details>",
    ]
    return lines


def _listed(title: str, cases: Sequence[CaseComparison]) -> list[str]:
    if not cases:
        return []
    ids = [f"`{_text(c.eval_id).replace('`', '')}`" for c in cases[:LISTED]]
    more = f" and {len(cases) - LISTED} more" if len(cases) > LISTED else ""
    return [f"**{title} ({len(cases)}):** {', '.join(ids)}{more}", ""]


def markdown_summary(
    baseline: EvalReport, current: EvalReport, comparison: ReportComparison
) -> str:
    """The comparison of ``current`` with ``baseline`` as one pull-request comment."""
    title = _text(current.eval_set_name or current.eval_set_id)
    s_before, s_after = baseline.summary, current.summary
    delta = (comparison.current_pass_rate - comparison.baseline_pass_rate) * 100
    verdict = "regressed" if comparison.has_regressions else "no regressions"
    lines = [
        f"### Eval {title}: {s_after.passed_cases}/{s_after.total_cases} passed "
        f"({_pct(comparison.current_pass_rate)}), {verdict}",
        "",
        "| | baseline | current | change |",
        "|---|---|---|---|",
        f"| pass rate | {_pct(comparison.baseline_pass_rate)} ({s_before.passed_cases}/"
        f"{s_before.total_cases}) | {_pct(comparison.current_pass_rate)} "
        f"({s_after.passed_cases}/{s_after.total_cases}) | {delta:+.1f} pts |",
    ]
    if cost := _cost_row(baseline, current):
        lines.append(cost)
    counts = comparison.counts()
    shown = [CaseChange.REGRESSED, CaseChange.FIXED, CaseChange.NEW, CaseChange.REMOVED]
    if counts[CaseChange.NOT_RUN]:
        shown.append(CaseChange.NOT_RUN)
    lines += [
        "| cases | | | "
        + ", ".join(f"{counts[c]} {c.value.replace('_', ' ')}" for c in shown)
        + " |",
        "",
    ]
    for side, selection in (
        ("baseline", comparison.baseline_selection),
        ("current", comparison.current_selection),
    ):
        if selection:
            lines += [
                f"_The {side} run is a selection ({_text(selection)}): the pass rates (the "
                f"change) are over the {comparison.pass_rate_cases} case(s) both runs ran._",
                "",
            ]
    if comparison.significance:
        lines += [f"_Regressions of repeated cases: {_text(comparison.significance)}._", ""]
    regressed = comparison.regressed
    if regressed:
        lines += [f"**Regressed ({len(regressed)}):**", ""]
        for case in regressed[:DETAILED]:
            lines += [*_regression(case, baseline, current), ""]
        lines += _listed("More regressed", regressed[DETAILED:])
    lines += _listed("Fixed", comparison.fixed)
    lines += _listed("New", comparison.new)
    lines += _listed("Removed", comparison.removed)
    text = "\n".join(lines).rstrip() + "\n"
    if len(text) > MAX_CHARS:
        cut = text.rfind("\n<details>", 0, MAX_CHARS - 200)
        text = text[: cut if cut > 0 else MAX_CHARS - 200] + "\n\n_(cut to fit one comment)_\n"
    return text


__all__ = ["DETAILED", "MAX_CHARS", "markdown_summary"]
