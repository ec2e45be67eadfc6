"""The HTML report in real headless Chromium: loads cleanly, expands, filters, never runs agent text."""

from __future__ import annotations

import base64
import re
from pathlib import Path

import pytest

from tenxeval_tui.evaluation import EvalReport, HTMLReporter

from .chromium import Chromium
from .reports import XSS_RESPONSE, mixed_report, weather_case


def hostile_report() -> EvalReport:
    """A report whose agent and eval-set text try to inject markup and script."""
    payload_case = weather_case(
        "xss", city="<img src=x onerror=window.__pwned=1>", response=XSS_RESPONSE, rouge=0.1
    )
    payload_case.name = '</summary><script>window.__pwned=1</script><b onmouseover="x">'
    payload_case.criterion_results[1].details["reason"] = "<script>window.__pwned=1</script>"
    report = mixed_report(eval_set_id="<svg onload=window.__pwned=1>")
    report.eval_set_name = "</title><script>window.__pwned=1</script>"
    return EvalReport.create(
        report.eval_set_id,
        [*report.results, payload_case],
        report.eval_set_name,
    )


def open_report(browser: Chromium, report: EvalReport, tmp_path: Path) -> Path:
    path = HTMLReporter().save(report, tmp_path / "report.html")
    browser.events.clear()
    browser.open(path)
    assert browser.evaluate("document.documentElement.dataset.ready") == "1"
    return path


def row(index: int) -> str:
    return f'details.case[data-i="{index}"]'


def visible_rows(browser: Chromium) -> list[str]:
    return browser.evaluate(
        "Array.from(document.querySelectorAll('details.case'))"
        ".filter(d => !d.hidden && d.offsetParent !== null)"
        ".map(d => d.querySelector('.nm').textContent)"
    )


def test_loads_without_console_errors_and_shows_summary(browser, tmp_path):
    open_report(browser, mixed_report(), tmp_path)
    browser.flush()
    assert browser.problems() == []
    assert browser.evaluate("document.getElementById('total-cases').textContent") == "4"
    assert browser.evaluate("document.getElementById('pass-rate').textContent") == "50.0%"
    bars = browser.evaluate(
        "Array.from(document.querySelectorAll('#criterion-chart g.criterion .label'))"
        ".map(t => t.textContent)"
    )
    assert bars == ["tool_trajectory_avg_score", "rouge_match"]
    assert browser.evaluate(
        "document.querySelector('#criterion-chart .bar.bad').getBBox().width"
    ) == pytest.approx(0.6333 * 360, abs=1)


def test_rows_show_status_name_failed_criteria_and_eval_set(browser, tmp_path):
    open_report(browser, mixed_report(), tmp_path)
    rows = browser.evaluate(
        "Array.from(document.querySelectorAll('details.case'))"
        ".map(d => [d.className, d.querySelector('summary').innerText.replace(/\\s+/g, ' ')])"
    )
    assert rows == [
        ["case passed", "PASSED London weather london 1.25s"],
        ["case passed", "PASSED Paris weather paris 1.25s"],
        ["case failed", "FAILED Tokyo weather tokyo rouge_match 1.25s"],
        ["case error", "ERROR Oslo weather broken 1.25s"],
    ]
    combined = EvalReport.combine(
        [mixed_report("set-a", "A"), EvalReport.create("set-b", [weather_case("rome")], "B")]
    )
    open_report(browser, combined, tmp_path)
    sets = browser.evaluate(
        "Array.from(document.querySelectorAll('details.case .set')).map(s => s.textContent)"
    )
    assert sets == ["set-a"] * 4 + ["set-b"]
    assert browser.problems() == []


def test_expanding_a_case_shows_its_detail(browser, tmp_path):
    open_report(browser, mixed_report(), tmp_path)
    assert browser.evaluate(f"document.querySelector('{row(2)} .body')") is None
    browser.click(f"{row(2)} > summary")
    browser.wait_for_js(f"document.querySelector('{row(2)} .body')", "case 2's detail")
    assert browser.evaluate(f"document.querySelector('{row(2)}').open") is True
    text = browser.evaluate(f"document.querySelector('{row(2)} .body').innerText")
    assert "What's the weather in Tokyo?" in text  # the query
    assert "The weather in Osaka is rainy." in text  # actual response
    assert "It is sunny in Tokyo." in text  # expected response
    assert "The answer names the wrong city." in text  # judge reasoning
    assert "0.20" in text and "0.50" in text  # score and threshold
    assert 'get_weather({"location":"Tokyo"})' in text  # expected and actual trajectory
    assert "MAIN → TOOL → MAIN" in text
    # collapsing and re-opening does not draw the detail twice
    browser.click(f"{row(2)} > summary")
    browser.wait_for_js(f"!document.querySelector('{row(2)}').open", "case 2 collapsed")
    browser.click(f"{row(2)} > summary")
    browser.wait_for_js(f"document.querySelector('{row(2)}').open", "case 2 open again")
    browser.flush()
    assert browser.evaluate(f"document.querySelectorAll('{row(2)} .body').length") == 1
    # a criterion's own "details" box opens inside the case without redrawing it
    browser.click(f"{row(2)} table.crit details > summary")
    browser.wait_for_js(f"document.querySelector('{row(2)} table.crit details').open", "the box")
    assert browser.evaluate(f"document.querySelector('{row(2)} table.crit details').open") is True
    assert "precision" not in text  # the rouge details are only in the box
    box = browser.evaluate(f"document.querySelector('{row(2)} table.crit details pre').innerText")
    assert box == '{"precision":0.2}'
    assert browser.evaluate(f"document.querySelectorAll('{row(2)} .body').length") == 1
    browser.click(f"{row(3)} > summary")
    browser.wait_for_js(f"document.querySelector('{row(3)} .body')", "case 3's detail")
    error_text = browser.evaluate(f"document.querySelector('{row(3)} .body').innerText")
    assert "TimeoutError: case took longer than 30s" in error_text
    assert browser.problems() == []


def test_failed_only_filter_and_search(browser, tmp_path):
    open_report(browser, mixed_report(), tmp_path)
    assert len(visible_rows(browser)) == 4
    browser.click("#failed-only")
    browser.wait_for_filter(failed_only=True)
    assert visible_rows(browser) == ["Tokyo weather", "Oslo weather"]
    assert browser.evaluate("document.getElementById('count').textContent") == "2 of 4 cases"
    browser.click("#failed-only")
    browser.wait_for_filter()
    assert len(visible_rows(browser)) == 4
    browser.type_text("#search", "osaka")  # matches the response text, not the name
    browser.wait_for_filter("osaka")
    assert visible_rows(browser) == ["Tokyo weather"]
    assert browser.problems() == []


def test_agent_payloads_are_shown_as_text_and_never_run(browser, tmp_path):
    path = open_report(browser, hostile_report(), tmp_path)
    html = path.read_text(encoding="utf-8")
    assert "<script>window.__pwned" not in html
    for raw in ("<img", "<svg onload", "<b onmouseover", "</title><script", "</summary><script"):
        assert raw not in html
    last = 4
    browser.click(f"{row(last)} > summary")
    browser.wait_for_js(f"document.querySelector('{row(last)} .body')", "the hostile case's detail")
    browser.click("#failed-only")
    browser.type_text("#search", "<script>")
    browser.wait_for_filter("<script>", failed_only=True)
    browser.flush()
    assert browser.evaluate("window.__pwned") is None
    body = browser.evaluate(f"document.querySelector('{row(last)} .body').textContent")
    assert "<script>window.__pwned = (window.__pwned || 0) + 1</script>" in body
    assert '<img src=x onerror="window.__pwned' in body
    assert "<script>window.__pwned=1</script>" in body  # the judge's reason
    label = browser.evaluate(f"document.querySelector('{row(last)} .nm').textContent")
    assert label.startswith("</summary><script>")
    assert browser.evaluate("document.title").startswith("</title><script>")
    assert (
        browser.evaluate("document.querySelectorAll('img, b[onmouseover], svg[onload]').length")
        == 0
    )
    assert browser.evaluate("document.scripts.length") == 2  # the data block and ours
    assert browser.problems() == []


def test_escaping_alone_keeps_payloads_inert_without_the_csp(browser, tmp_path):
    """The CSP is a second line: with it removed, nothing from the report runs either."""
    path = HTMLReporter().save(hostile_report(), tmp_path / "report.html")
    html = path.read_text(encoding="utf-8")
    without_csp = re.sub(r'<meta http-equiv="Content-Security-Policy"[^>]*>', "", html)
    assert without_csp != html
    bare = tmp_path / "no_csp.html"
    bare.write_text(without_csp, encoding="utf-8")
    browser.events.clear()
    browser.open(bare)
    assert browser.evaluate("document.documentElement.dataset.ready") == "1"
    for index in range(5):
        browser.click(f"{row(index)} > summary")
        browser.wait_for_js(f"document.querySelector('{row(index)} .body')", f"case {index} open")
    browser.type_text("#search", "pwned")
    browser.wait_for_filter("pwned")
    browser.flush()
    assert browser.evaluate("window.__pwned") is None
    assert browser.evaluate("document.querySelectorAll('img, [onerror], [onload]').length") == 0
    assert browser.problems() == []


def test_offline_single_file(browser, tmp_path):
    """No request leaves the page: no external URL in the file, the CSP forbids any."""
    path = open_report(browser, mixed_report(), tmp_path)
    html = path.read_text(encoding="utf-8")
    assert "http://" not in html and "https://" not in html.replace(
        'xmlns="http://www.w3.org/2000/svg"', ""
    )
    resources = browser.evaluate("performance.getEntriesByType('resource').map(e => e.name)")
    assert resources == []


def test_screenshot_renders_the_chart(browser, tmp_path):
    """The page paints (non-blank screenshot with the failing bar's red)."""
    open_report(browser, mixed_report(), tmp_path)
    shot = browser.send("Page.captureScreenshot", {"format": "png"})
    png = base64.b64decode(shot["data"])
    assert png.startswith(b"\x89PNG") and len(png) > 5_000
    (tmp_path / "report.png").write_bytes(png)
    colour = browser.evaluate(
        "getComputedStyle(document.querySelector('#criterion-chart .bar.bad')).fill"
    )
    assert colour in {"rgb(207, 34, 46)", "rgb(248, 81, 73)"}


def test_ten_thousand_cases_load_filter_and_expand(browser, tmp_path):
    """A 10,000-case report works in the browser (timings live in bench/reporters.py)."""
    cities = ["London", "Paris", "Tokyo", "Oslo", "Lima"]
    templates = {
        (city, failing): weather_case("t", city=city, rouge=0.2 if failing else 0.9)
        for city in cities
        for failing in (False, True)
    }
    results = [
        templates[cities[i % 5], i % 10 == 3].model_copy(update={"eval_id": f"case_{i:05d}"})
        for i in range(10_000)
    ]
    report = EvalReport.create("big", results, "Big")
    path = open_report(browser, report, tmp_path)
    assert path.stat().st_size < 30_000_000
    assert browser.evaluate("document.querySelectorAll('details.case').length") == 10_000
    browser.click("#failed-only")
    browser.wait_for_filter(failed_only=True)
    assert browser.evaluate("document.getElementById('count').textContent") == (
        "1000 of 10000 cases"
    )
    browser.type_text("#search", "case_09993")
    browser.wait_for_filter("case_09993", failed_only=True)
    assert visible_rows(browser) == ["Oslo weather"]
    browser.click(f"{row(9993)} > summary")
    browser.wait_for_js(f"document.querySelector('{row(9993)} .body')", "case 9993's detail")
    assert "case_09993" in browser.evaluate(
        f"document.querySelector('{row(9993)} .body').innerText"
    )
    assert browser.problems() == []


async def test_a_repeated_case_shows_its_rate_and_every_run(browser, tmp_path):
    from .test_repeat_reports import repeated_report

    report, agent = await repeated_report()
    open_report(browser, report, tmp_path)
    outcomes = agent.expected("question 0", 5)
    badge = browser.evaluate(f"document.querySelector('{row(0)} .runs').textContent")
    assert badge == f"{sum(outcomes)}/5"
    browser.click(f"{row(0)} > summary")
    browser.wait_for_js(f"document.querySelector('{row(0)} .body')", "case 0's detail")
    text = browser.evaluate(f"document.querySelector('{row(0)} .body').innerText")
    # headings are upper-cased by the style sheet, which innerText follows
    assert f"repeats: {sum(outcomes)} of 5 runs passed" in text.lower()
    for n, passed in enumerate(outcomes, start=1):
        assert f"#{n} {'passed' if passed else 'failed'}" in text
    assert browser.problems() == []
