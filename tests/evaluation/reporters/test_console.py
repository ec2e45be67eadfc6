"""ConsoleReporter and print_report: content, verbosity, colour rules."""

from __future__ import annotations

import io
import re

import pytest

from tenxeval_tui.evaluation import ConsoleReporter, EvalReport, print_report

from .reports import mixed_report, weather_case

ANSI = re.compile(r"\x1b\[[0-9;]*m")


class FakeTTY(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_summary_criteria_and_failed_cases(capsys):
    print_report(mixed_report())
    out = capsys.readouterr().out
    assert "Weather Agent" in out
    assert "4 cases: 2 passed, 1 failed, 1 errored" in out
    assert "50.0%" in out
    assert re.search(r"rouge_match\s+0\.63\s+2/3\s+67%", out)
    assert "FAIL  Tokyo weather [tokyo]" in out
    assert "rouge_match 0.20 below threshold 0.50" in out
    assert "reason: The answer names the wrong city." in out
    assert "response: The weather in Osaka is rainy." in out
    assert "ERROR Oslo weather [broken]" in out
    assert "TimeoutError: case took longer than 30s" in out
    assert "London weather" not in out  # passed cases only when verbose
    assert "FAILED: 2 of 4 cases did not pass" in out


def test_verbose_lists_every_case_and_criterion(capsys):
    print_report(mixed_report(), verbose=True)
    out = capsys.readouterr().out
    assert "PASS  London weather" in out
    assert "tool_trajectory_avg_score 1.00 ok threshold 1.00" in out


def test_all_passing_report_says_so(capsys):
    print_report(EvalReport.create("ok", [weather_case("a")]))
    out = capsys.readouterr().out
    assert "PASSED: every case passed" in out
    assert "Failed cases" not in out


@pytest.mark.parametrize(
    ("metadata", "expected"),
    [
        ({"partial": True}, "INCOMPLETE: the 1 cases that ran passed"),
        (
            {"stopped_by": "max_cost", "not_run": ["b", "c"]},
            "INCOMPLETE: the 1 cases that ran passed; 2 not run",
        ),
    ],
)
def test_a_run_that_stopped_early_is_never_called_passed(capsys, metadata, expected):
    print_report(EvalReport.create("ok", [weather_case("a")], metadata=metadata))
    out = capsys.readouterr().out
    assert expected in out
    assert "PASSED" not in out


def test_no_colour_when_stdout_is_not_a_terminal(capsys, monkeypatch):
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.delenv("FORCE_COLOR", raising=False)
    print_report(mixed_report(), use_color=True)
    assert not ANSI.search(capsys.readouterr().out)


def test_colour_on_a_terminal_unless_no_color_or_disabled(monkeypatch):
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.delenv("FORCE_COLOR", raising=False)
    monkeypatch.setenv("TERM", "xterm-256color")
    tty = FakeTTY()
    ConsoleReporter(file=tty).print(mixed_report())
    assert ANSI.search(tty.getvalue())

    plain = FakeTTY()
    ConsoleReporter(file=plain, use_color=False).print(mixed_report())
    assert not ANSI.search(plain.getvalue())

    monkeypatch.setenv("NO_COLOR", "1")
    no_color = FakeTTY()
    ConsoleReporter(file=no_color).print(mixed_report())
    # NO_COLOR removes colour; bold and dim may stay (as the NO_COLOR convention allows)
    assert not re.search(r"\x1b\[[0-9;]*3[0-7]m|\x1b\[[0-9;]*38;", no_color.getvalue())
    assert "Tokyo weather" in no_color.getvalue()


def test_agent_text_is_not_read_as_rich_markup():
    report = EvalReport.create(
        "markup", [weather_case("m", response="[bold red]boom[/] [link=x]y", rouge=0.1)]
    )
    text = ConsoleReporter().render(report)
    assert "[bold red]boom[/] [link=x]y" in text


@pytest.mark.parametrize("flag", ["include_actual_response", "include_trajectory"])
def test_include_switches_hide_response_and_tools(flag):
    shown = ConsoleReporter(verbose=True).render(mixed_report())
    hidden = ConsoleReporter(verbose=True, **{flag: False}).render(mixed_report())
    marker = "response: " if flag == "include_actual_response" else "tools: get_weather"
    assert marker in shown
    assert marker not in hidden


def test_format_summary_is_plain_text():
    text = mixed_report().format_summary()
    assert "Pass rate: 50.0%" in text
    assert "tokyo" in text.lower() and "rouge_match=0.20<0.50" in text
    assert not ANSI.search(text)


def test_coloured_and_plain_output_say_the_same(monkeypatch):
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.delenv("FORCE_COLOR", raising=False)
    monkeypatch.setenv("TERM", "xterm-256color")
    tty, plain = FakeTTY(), io.StringIO()
    ConsoleReporter(file=tty, verbose=True, width=100).print(mixed_report())
    ConsoleReporter(file=plain, verbose=True, width=100).print(mixed_report())
    assert ANSI.search(tty.getvalue()) and not ANSI.search(plain.getvalue())
    coloured_lines = [line.rstrip() for line in ANSI.sub("", tty.getvalue()).splitlines()]
    plain_lines = [line.rstrip() for line in plain.getvalue().splitlines()]
    assert coloured_lines == plain_lines


def test_control_characters_in_agent_text_never_reach_the_terminal():
    case = weather_case("esc", response="ok\x1b[2J\x1b]0;owned\x07 done", rouge=0.1)
    case.name = "name\x1b[31m"
    case.criterion_results[1].details["reason"] = "why\x1b[1A\r"
    out = io.StringIO()
    report = EvalReport.create("set\x1b[5m", [case], "title\x1b]0;x\x07")
    ConsoleReporter(file=out, verbose=True).print(report)
    text = out.getvalue()
    assert "\x1b" not in text and "\x07" not in text and "\r" not in text
    # shown, not dropped: the reader sees that the agent sent escape sequences
    assert "response: ok␛[2J␛]0;owned␇ done" in text
    assert "name␛[31m" in text
    assert "reason: why␛[1A" in text


def test_a_reason_of_several_lines_shows_one_line_each_up_to_a_limit() -> None:
    from tenxeval_tui.evaluation.reporters.console import REASON_LINES

    report = mixed_report()
    failed = next(r for r in report.results if r.eval_id == "tokyo")
    lines = [f"expected #{i} t{i}: t{i} is never called" for i in range(1, 10)]
    failed.criterion_results[1].details["reason"] = "\n".join(["IN_ORDER match: ...", *lines])
    out = io.StringIO()
    ConsoleReporter(use_color=False, output=out).print(report)
    shown = out.getvalue().splitlines()
    start = next(i for i, line in enumerate(shown) if "reason: IN_ORDER match: ..." in line)
    assert [line.strip() for line in shown[start + 1 : start + REASON_LINES]] == lines[
        : REASON_LINES - 1
    ]
    assert shown[start + REASON_LINES].strip() == f"... ({10 - REASON_LINES} more lines)"
