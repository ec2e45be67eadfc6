"""Agent text UTF-8 cannot encode (a lone surrogate) still gets every report written."""

from __future__ import annotations

import io
import json
from pathlib import Path

from tenxeval_tui.evaluation import (
    CriterionResult,
    EvalCaseResult,
    EvalReport,
    ReporterConfig,
    ReporterManager,
    ToolCall,
)
from tenxeval_tui.evaluation.reporters.console import ConsoleReporter

LONE = json.loads('"Sunny \\ud83d"')  # as a JSON reply cut inside an emoji decodes


def report() -> EvalReport:
    case = EvalCaseResult(
        eval_id="paris",
        passed=False,  # the console shows the reply of a case that failed
        criterion_results=[CriterionResult.success("rouge_match", 0.2, 0.5)],
        actual_response=LONE,
        actual_tool_calls=[ToolCall(name="lookup", args={"city": LONE})],
    )
    return EvalReport.create("s", [case])


def test_every_format_is_written_with_a_replacement_character(tmp_path: Path) -> None:
    config = ReporterConfig(output_dir=str(tmp_path), junit_xml=True, console=False)
    output = ReporterManager(config).run_all(report())
    assert output.errors == []
    assert {Path(p).suffix for p in output.generated_files} == {".json", ".html", ".xml"}
    loaded = EvalReport.from_file(output.json_path or "")
    assert loaded.results[0].actual_response == "Sunny \ufffd"
    assert "Sunny \ufffd" in Path(output.html_path or "").read_text(encoding="utf-8")


def test_the_console_report_prints_it() -> None:
    raw = io.BytesIO()
    stream = io.TextIOWrapper(raw, encoding="utf-8")  # strict, as a terminal's is
    ConsoleReporter(verbose=True, file=stream, width=100).print(report())
    stream.flush()
    assert "Sunny \ufffd" in raw.getvalue().decode("utf-8")
