"""ReporterManager: which reporters run, where files land, how failures are contained."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from tenxeval_tui.evaluation import EvalReport, ReporterConfig, ReporterManager, ReporterOutput
from tenxeval_tui.evaluation.reporters.json import JSONReporter
from tenxeval_tui.evaluation.reporters.naming import sanitise_id

from .reports import mixed_report

ALL_FILES = {"json_report": True, "html": True, "junit_xml": True, "console": False}


def files_in(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


def test_defaults_write_console_json_and_html_but_not_junit(tmp_path, capsys):
    report = mixed_report()
    out = ReporterManager(ReporterConfig(output_dir=str(tmp_path))).run_all(report)
    assert out.console_output is True
    assert "weather" in capsys.readouterr().out.lower()
    assert out.json_path and out.json_path.endswith(".json")
    assert out.html_path and out.html_path.endswith(".html")
    assert out.junit_path is None
    assert out.generated_files == [out.json_path, out.html_path]
    assert not out.has_errors and out.errors == []
    assert sorted(files_in(tmp_path)) == sorted(Path(p).name for p in out.generated_files)


def test_disabled_returns_empty_output_and_writes_nothing(tmp_path, capsys):
    config = ReporterConfig(enabled=False, output_dir=str(tmp_path / "reports"), junit_xml=True)
    out = ReporterManager(config).run_all(mixed_report())
    assert out == ReporterOutput()
    assert not (tmp_path / "reports").exists()
    assert capsys.readouterr().out == ""


@pytest.mark.parametrize("flag", ["console", "json_report", "html", "junit_xml"])
def test_each_switch_controls_its_reporter(tmp_path, capsys, flag):
    on = ReporterConfig(output_dir=str(tmp_path / "on"), **{**ALL_FILES, flag: True})
    off = ReporterConfig(
        output_dir=str(tmp_path / "off"), **{**ALL_FILES, "console": True, flag: False}
    )
    out_on = ReporterManager(on).run_all(mixed_report())
    printed_on = capsys.readouterr().out
    out_off = ReporterManager(off).run_all(mixed_report())
    printed_off = capsys.readouterr().out
    attr = {
        "console": "console_output",
        "json_report": "json_path",
        "html": "html_path",
        "junit_xml": "junit_path",
    }[flag]
    assert getattr(out_on, attr)
    assert not getattr(out_off, attr)
    if flag == "console":
        assert "Tokyo weather" in printed_on and printed_off == ""
    else:
        assert len(out_on.generated_files) == 3 and len(out_off.generated_files) == 2


def test_file_names_are_id_and_timestamp_with_junit_suffix(tmp_path):
    report = mixed_report(eval_set_id="weather-agent")
    report.timestamp = 1_780_000_000.0  # fixed instant; the name uses local time
    from datetime import datetime

    stamp = datetime.fromtimestamp(report.timestamp).strftime("%Y%m%d_%H%M%S")
    out = ReporterManager(ReporterConfig(**ALL_FILES)).run_all(report, output_dir=tmp_path)
    assert Path(out.json_path or "").name == f"weather-agent_{stamp}.json"
    assert Path(out.html_path or "").name == f"weather-agent_{stamp}.html"
    assert Path(out.junit_path or "").name == f"weather-agent_{stamp}_junit.xml"


def test_without_timestamps_files_are_named_by_id_and_replaced(tmp_path):
    config = ReporterConfig(**ALL_FILES, timestamp_files=False)
    first = ReporterManager(config).run_all(mixed_report(), output_dir=tmp_path)
    assert files_in(tmp_path) == [
        "weather-agent.html",
        "weather-agent.json",
        "weather-agent_junit.xml",
    ]
    second_report = mixed_report()
    second_report.results = second_report.results[:1]
    second = ReporterManager(config).run_all(second_report, output_dir=tmp_path)
    assert second.json_path == first.json_path
    assert len(EvalReport.from_file(second.json_path or "").results) == 1


def test_two_runs_in_the_same_second_do_not_overwrite_each_other(tmp_path):
    config = ReporterConfig(**ALL_FILES)
    report = mixed_report()
    outs = [ReporterManager(config).run_all(report, output_dir=tmp_path) for _ in range(3)]
    paths = [p for out in outs for p in out.generated_files]
    assert len(set(paths)) == 9
    assert len(files_in(tmp_path)) == 9
    assert Path(outs[1].json_path or "").stem.endswith("_2")
    assert Path(outs[1].junit_path or "").name.endswith("_2_junit.xml")
    for out in outs:
        assert EvalReport.from_file(out.json_path or "").eval_set_id == "weather-agent"


def test_relative_output_dir_resolves_against_cwd_and_is_created(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    out = ReporterManager(ReporterConfig(output_dir="deep/er/reports", console=False)).run_all(
        mixed_report()
    )
    assert out.json_path is not None
    assert Path(out.json_path).is_absolute()
    assert Path(out.json_path).parent == tmp_path / "deep" / "er" / "reports"


def test_output_dir_argument_overrides_config(tmp_path):
    config = ReporterConfig(output_dir=str(tmp_path / "from_config"), console=False)
    out = ReporterManager(config).run_all(mixed_report(), output_dir=str(tmp_path / "given"))
    assert Path(out.json_path or "").parent == tmp_path / "given"
    assert not (tmp_path / "from_config").exists()


@pytest.mark.parametrize(
    "hostile_id",
    [
        "../../etc/x",
        "/etc/passwd",
        "a/b\\c",
        "nul\x00byte",
        "..",
        "",
        "x" * 300,
        "é" * 300,
        "con:*?<>|\n",
    ],
)
def test_hostile_ids_stay_inside_the_output_dir(tmp_path, hostile_id):
    out_dir = tmp_path / "reports"
    report = mixed_report(eval_set_id=hostile_id)
    out = ReporterManager(ReporterConfig(**ALL_FILES)).run_all(report, output_dir=out_dir)
    assert not out.has_errors, out.errors
    assert len(out.generated_files) == 3
    for path in out.generated_files:
        assert Path(path).resolve().parent == out_dir.resolve()
        assert len(Path(path).name.encode()) <= 255
    assert sorted(p.name for p in tmp_path.iterdir()) == ["reports"]
    assert EvalReport.from_file(out.json_path or "").eval_set_id == hostile_id


def test_sanitising_keeps_plain_ids_and_distinguishes_long_ones():
    assert sanitise_id("weather-agent_v2") == "weather-agent_v2"
    assert sanitise_id("weather agent.v2") == "weather_agent_v2"
    assert sanitise_id("../../etc/x") == "______etc_x"
    assert sanitise_id("") == "eval"
    assert sanitise_id("a" * 300 + "1") != sanitise_id("a" * 300 + "2")


def test_one_failing_reporter_does_not_stop_the_others(tmp_path, monkeypatch, caplog, capsys):
    def explode(self, report):
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(JSONReporter, "render_bytes", explode)
    monkeypatch.setattr(JSONReporter, "render_parts", explode)  # what save writes
    config = ReporterConfig(**{**ALL_FILES, "console": True})
    with caplog.at_level(logging.ERROR, logger="tenxeval_tui.evaluation.reporters"):
        out = ReporterManager(config).run_all(mixed_report(), output_dir=tmp_path)
    assert out.has_errors
    assert out.errors == [("JSONReporter", "RuntimeError: disk on fire")]
    assert out.json_path is None
    assert out.console_output and out.html_path and out.junit_path
    assert "Tokyo weather" in capsys.readouterr().out
    # no empty placeholder left behind for the reporter that failed
    assert not list(tmp_path.glob("*.json"))
    assert any(
        r.name == "tenxeval_tui.evaluation.reporters" and "JSONReporter" in r.getMessage()
        for r in caplog.records
    )


def test_failing_console_is_recorded_and_files_still_written(tmp_path, monkeypatch):
    from tenxeval_tui.evaluation.reporters.console import ConsoleReporter

    def explode(self, report):
        raise ValueError("terminal gone")

    monkeypatch.setattr(ConsoleReporter, "print", explode)
    out = ReporterManager(ReporterConfig()).run_all(mixed_report(), output_dir=tmp_path)
    assert out.console_output is False
    assert out.errors == [("ConsoleReporter", "ValueError: terminal gone")]
    assert out.json_path and out.html_path


def test_unwritable_output_dir_is_an_error_not_an_exception(tmp_path, capsys):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    out = ReporterManager(ReporterConfig()).run_all(mixed_report(), output_dir=blocker / "sub")
    assert out.console_output  # the console still ran
    assert out.has_errors and out.errors[0][0] == "ReporterManager"
    assert out.generated_files == []


def test_run_order_is_console_json_html_junit(tmp_path, monkeypatch):
    calls: list[str] = []
    manager = ReporterManager(ReporterConfig(junit_xml=True))
    for attr in ("console_reporter", "json_reporter", "html_reporter", "junit_reporter"):
        original = getattr(manager, attr)

        def wrapped(original=original, attr=attr):
            calls.append(attr)
            return original()

        monkeypatch.setattr(manager, attr, wrapped)
    manager.run_all(mixed_report(), output_dir=tmp_path)
    assert calls == ["console_reporter", "json_reporter", "html_reporter", "junit_reporter"]


@pytest.mark.parametrize("verbose", [True, False])
def test_verbose_switch_reaches_the_console(tmp_path, capsys, verbose):
    config = ReporterConfig(verbose=verbose, json_report=False, html=False)
    ReporterManager(config).run_all(mixed_report(), output_dir=tmp_path)
    out = capsys.readouterr().out
    assert "Tokyo weather" in out
    assert ("London weather" in out) is verbose


def test_include_details_switch_reaches_every_file(tmp_path):
    config = ReporterConfig(console=False, junit_xml=True, include_details=False)
    out = ReporterManager(config).run_all(mixed_report(), output_dir=tmp_path)
    for path in out.generated_files:
        assert "The answer names the wrong city." not in Path(path).read_text(encoding="utf-8")
    on = ReporterManager(ReporterConfig(console=False, junit_xml=True)).run_all(
        mixed_report(), output_dir=tmp_path
    )
    for path in on.generated_files:
        assert "The answer names the wrong city." in Path(path).read_text(encoding="utf-8")
