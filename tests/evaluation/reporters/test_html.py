"""HTMLReporter without a browser: one offline file, escaped data, include_* switches."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tenxeval_tui.evaluation import EvalReport, HTMLReporter, ReporterConfig, ReporterManager
from tenxeval_tui.evaluation.reporters.html import script_json

from .reports import XSS_RESPONSE, mixed_report, weather_case

DATA_BLOCK = re.compile(r'<script type="application/json" id="case-data">(.*?)</script>', re.S)


def embedded_cases(html: str) -> list[dict]:
    match = DATA_BLOCK.search(html)
    assert match, "no embedded case data"
    return json.loads(match.group(1))


def test_one_self_contained_file_with_inline_css_js_and_svg():
    html = HTMLReporter().render(mixed_report())
    assert html.startswith("<!DOCTYPE html>")
    assert "<style>" in html and ":root" in html  # the CSS file, inlined
    assert "function renderCase" in html  # the JS file, inlined
    assert '<svg class="chart"' in html
    assert not re.search(r"<(link|script)[^>]+(href|src)=", html)
    assert "Content-Security-Policy" in html and "default-src 'none'" in html


def test_csp_hashes_match_the_inlined_script_and_style():
    import base64
    import hashlib

    html = HTMLReporter().render(mixed_report())
    script = re.search(r"<script>(.*?)</script>", html, re.S).group(1)
    style = re.search(r"<style>(.*?)</style>", html, re.S).group(1)
    for body in (script, style):
        digest = base64.b64encode(hashlib.sha256(body.encode()).digest()).decode()
        assert f"'sha256-{digest}'" in html


def test_summary_header_and_rows():
    html = HTMLReporter().render(mixed_report())
    assert "<h1>Weather Agent</h1>" in html
    assert '<span class="num" id="total-cases">4</span>' in html
    assert '<span class="num" id="pass-rate">50.0%</span>' in html
    assert '<span id="count" aria-live="polite">4 of 4 cases</span>' in html
    assert [c["status"] for c in embedded_cases(html)] == ["passed", "passed", "failed", "error"]


def test_the_title_and_heading_show_control_characters_inert():
    report = mixed_report()
    report.eval_set_name = "\x1b]0;pwned\x07Weather\u202e"
    html = HTMLReporter().render(report)
    assert "<title>␛]0;pwned␇Weather⟦U+202E⟧ · evaluation report</title>" in html
    assert "<h1>␛]0;pwned␇Weather⟦U+202E⟧</h1>" in html
    assert "\x1b" not in html and "\x07" not in html and "\u202e" not in html


def test_embedded_data_cannot_close_its_script_block():
    report = mixed_report()
    report.results[0].actual_response = XSS_RESPONSE + "</SCRIPT ><!--<script>"
    html = HTMLReporter().render(report)
    block = DATA_BLOCK.search(html).group(1)
    assert "<" not in block and ">" not in block and "&" not in block
    assert embedded_cases(html)[0]["response"] == XSS_RESPONSE + "</SCRIPT ><!--<script>"
    assert script_json({"a": "</script>&"}) == '{"a":"\\u003c/script\\u003e\\u0026"}'


def test_case_view_has_query_expected_and_trajectories():
    cases = embedded_cases(HTMLReporter().render(mixed_report()))
    tokyo = cases[2]
    assert tokyo["status"] == "failed"
    assert tokyo["turns"][0]["user"] == "What's the weather in Tokyo?"
    assert tokyo["response"] == "The weather in Osaka is rainy."
    assert tokyo["expected"] == "It is sunny in Tokyo."
    assert tokyo["expected_tools"] == [{"name": "get_weather", "args": '{"location":"Tokyo"}'}]
    assert tokyo["tools"][0]["result"] == "sunny, 21C"
    rouge = tokyo["criteria"][1]
    assert (rouge["score"], rouge["threshold"], rouge["passed"]) == (0.2, 0.5, False)
    assert rouge["reason"] == "The answer names the wrong city."
    assert cases[3]["error"] == "TimeoutError: case took longer than 30s"


def test_multi_turn_cases_show_every_turn():
    case = weather_case("mt")
    case.turn_results = [
        {"turn_index": 0, "user_input": "Hi", "agent_response": "Hello!"},  # 10xGraph's keys
        {"turn_index": 1, "user_content": "Weather?", "response": "Sunny.", "tool_calls": []},
        {"turn_index": 2, "user_content": "Sure?", "response": case.actual_response},
    ]
    cases = embedded_cases(HTMLReporter().render(EvalReport.create("mt", [case])))
    assert cases[0]["turns"] == [
        {"user": "Hi", "agent": "Hello!"},
        {"user": "Weather?", "agent": "Sunny."},
        {"user": "Sure?"},  # the final reply is the case's response, not stored twice
    ]
    assert cases[0]["response"] == case.actual_response
    # with no criterion holding it, the last turn's expected reply is the expected response
    case.criterion_results = []
    case.turn_results[2]["expected_response"] = "Yes, sunny."
    cases = embedded_cases(HTMLReporter().render(EvalReport.create("mt", [case])))
    assert cases[0]["expected"] == "Yes, sunny."


@pytest.mark.parametrize(
    ("flag", "absent"),
    [
        ("include_details", "The answer names the wrong city."),
        ("include_trajectory", "expected_tools"),
        ("include_node_responses", "node_responses"),
        ("include_actual_response", "The weather in Osaka is rainy."),
        ("include_tool_call_details", "sunny, 21C"),
    ],
)
def test_include_switches_leave_parts_out(flag, absent):
    full = HTMLReporter().render(mixed_report())
    lean = HTMLReporter(**{flag: False}).render(mixed_report())
    assert absent in json.dumps(embedded_cases(full))
    assert absent not in json.dumps(embedded_cases(lean))
    assert len(embedded_cases(lean)) == 4


def test_combined_report_cases_name_their_eval_set():
    a = mixed_report("set-a", "A")
    b = EvalReport.create("set-b", [weather_case("rome", city="Rome")], "B")
    cases = embedded_cases(HTMLReporter().render(EvalReport.combine([a, b])))
    assert [c["set"] for c in cases] == ["set-a"] * 4 + ["set-b"]


def test_very_long_text_is_cut_in_html_but_kept_in_json(tmp_path):
    report = EvalReport.create("long", [weather_case("l", response="x" * 50_000)])
    cases = embedded_cases(HTMLReporter().render(report))
    assert len(cases[0]["response"]) < 9_000
    assert "more characters in the JSON report" in cases[0]["response"]


def test_empty_report_renders():
    html = HTMLReporter().render(EvalReport.create("empty", []))
    assert "This report has no cases." in html and "No criteria were scored." in html


def test_templates_are_package_files():
    from importlib import resources

    folder = resources.files("tenxeval_tui.evaluation.reporters") / "templates"
    names = {p.name for p in folder.iterdir()}
    assert {"report.html.j2", "report.css", "report.js"} <= names


def test_manager_html_follows_config(tmp_path):
    config = ReporterConfig(console=False, json_report=False, include_actual_response=False)
    out = ReporterManager(config).run_all(mixed_report(), output_dir=tmp_path)
    html = Path(out.html_path or "").read_text(encoding="utf-8")
    assert "Osaka" not in html


def test_every_turns_reply_shows_the_last_one_aside_when_it_is_the_final_response() -> None:
    from tenxeval_tui.evaluation import EvalCaseResult

    turns = [
        {"turn_index": 0, "user_content": "Can you help?", "response": "Sure."},
        {"turn_index": 1, "user_content": "Really?", "response": "Sure."},
    ]
    case = EvalCaseResult(eval_id="t", passed=True, actual_response="Sure.", turn_results=turns)
    (shown,) = embedded_cases(HTMLReporter().render(EvalReport.create("s", [case])))
    assert [turn.get("agent") for turn in shown["turns"]] == ["Sure.", None]


def test_past_max_cases_the_page_lists_that_many_failing_first_and_says_so():
    report = mixed_report()  # passed, passed, failed, error
    html = HTMLReporter(max_cases=3).render(report)
    assert [c["status"] for c in embedded_cases(html)] == ["passed", "failed", "error"]
    assert '<span id="count" aria-live="polite">3 of 3 cases</span>' in html
    assert "This page lists 3 of the 4 cases" in html
    assert '<span class="num" id="total-cases">4</span>' in html  # the summary counts all

    two = HTMLReporter(max_cases=2).render(report)
    assert [c["status"] for c in embedded_cases(two)] == ["failed", "error"]


def test_within_max_cases_every_case_is_listed_without_a_note():
    html = HTMLReporter(max_cases=4).render(mixed_report())
    assert len(embedded_cases(html)) == 4
    assert "This page lists" not in html


@pytest.fixture
def fresh_environment():
    """The page's jinja2 environment made anew before and after the test (it is made once
    a process, with the cache folder of that moment)."""
    from tenxeval_tui.evaluation.reporters import html

    html._environment.cache_clear()
    yield
    html._environment.cache_clear()


def test_the_page_template_is_compiled_once_and_kept_for_the_next_process(
    tmp_path, monkeypatch, fresh_environment
):
    """Compiling it took 17 ms of every run's parent (issue #38): the next process loads
    the compiled code from the cache folder and makes the same page."""
    import jinja2

    from tenxeval_tui.evaluation.reporters import html

    monkeypatch.setenv("TENXEVAL_CACHE_DIR", str(tmp_path / "cache"))
    report = mixed_report()
    compiled = HTMLReporter().render(report)
    assert [p.suffix for p in (tmp_path / "cache/templates").iterdir()] == [".cache"]
    html._environment.cache_clear()  # as in the next process

    def compile_again(*args, **kwargs):
        raise AssertionError("the template was compiled again")

    monkeypatch.setattr(jinja2.Environment, "compile", compile_again)
    assert HTMLReporter().render(report) == compiled


def test_a_cache_folder_that_cannot_be_written_costs_only_the_compile(
    tmp_path, monkeypatch, fresh_environment
):
    (tmp_path / "cache").write_text("a file where the folder would be")
    monkeypatch.setenv("TENXEVAL_CACHE_DIR", str(tmp_path / "cache"))
    html = HTMLReporter().render(mixed_report())
    assert html.startswith("<!DOCTYPE html>") and "function renderCase" in html


def test_compiled_code_in_a_folder_others_may_write_to_is_not_run(
    tmp_path, monkeypatch, fresh_environment
):
    """The cache's files are code jinja2 runs: a templates folder another user could
    write to is not read (the page is compiled instead), and the folder is made private."""
    import os

    import jinja2

    from tenxeval_tui.evaluation.reporters import html

    monkeypatch.setenv("TENXEVAL_CACHE_DIR", str(tmp_path / "cache"))
    report = mixed_report()
    compiled = HTMLReporter().render(report)
    folder = tmp_path / "cache/templates"
    assert folder.stat().st_mode & 0o777 == 0o700
    folder.chmod(0o777)
    html._environment.cache_clear()
    compiles = []
    compile_once = jinja2.Environment.compile

    def counted(self, *args, **kwargs):
        compiles.append(args)
        return compile_once(self, *args, **kwargs)

    monkeypatch.setattr(jinja2.Environment, "compile", counted)
    assert HTMLReporter().render(report) == compiled
    assert compiles, "the code of a folder others may write to was loaded"
    os.chmod(folder, 0o700)
