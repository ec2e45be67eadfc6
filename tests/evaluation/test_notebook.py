"""Notebook use: a report shows itself as HTML, and a synchronous run_eval works in a cell."""

from __future__ import annotations

import asyncio
import html
import re
from pathlib import Path

from sample_evals.weather_graph import build_graph
from tenxeval_tui.evaluation import (
    EvalCaseResult,
    EvalReport,
    HTMLReporter,
    create_eval_app,
    run_eval_sync,
)

WEATHER = Path(__file__).resolve().parents[2] / "sample_evals" / "weather_graph.evalset.json"
HOSTILE = '"><script>alert(1)</script><img src=x onerror=alert(2)>'


def _report() -> EvalReport:
    result = EvalCaseResult(eval_id="c1", passed=False, actual_response=HOSTILE)
    return EvalReport.create("weather<&>", [result])


def test_repr_html_is_the_html_report_in_a_sandboxed_iframe() -> None:
    report = _report()
    shown = report._repr_html_()
    match = re.fullmatch(r'<iframe ([^>]*) srcdoc="([^"]*)"></iframe>', shown, re.S)
    assert match is not None, shown[:300]
    assert 'sandbox="allow-scripts"' in match.group(1)  # no allow-same-origin
    # The iframe holds exactly the page the HTML reporter writes.
    page = html.unescape(match.group(2))
    expected = HTMLReporter().render(report)
    # The header shows the local time of the report, which both renders share.
    assert page == expected
    # Nothing of the agent's text reaches the notebook's own markup unescaped.
    assert "<script>alert" not in shown
    assert "<img" not in shown
    assert 'title="evaluation report weather&lt;&amp;&gt;"' in shown


def test_run_eval_sync_outside_an_event_loop() -> None:
    report = run_eval_sync(*create_eval_app(build_graph()), str(WEATHER))
    assert report.eval_set_id == "weather_graph"
    assert report.summary.total_cases == len(report.results) > 1
    assert report.summary.passed_cases > 0


async def test_run_eval_sync_inside_a_running_event_loop_as_in_a_notebook() -> None:
    loop = asyncio.get_running_loop()  # the situation of a Jupyter cell
    report = run_eval_sync(*create_eval_app(build_graph()), str(WEATHER))
    assert asyncio.get_running_loop() is loop
    assert report.summary.total_cases == len(report.results) > 1
    assert report.summary.passed_cases > 0
    assert any("Paris" in r.actual_response for r in report.results)
