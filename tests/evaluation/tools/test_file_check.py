"""`metadata.tools` sections checked where they are written: an eval set's and its cases',
a scenario file's and its scenarios'."""

from __future__ import annotations

import json
from pathlib import Path

from tenxeval_tui.evaluation.tools.file_check import tool_section_problems


def test_each_section_of_a_scenario_file_is_checked_in_place(tmp_path: Path) -> None:
    path = tmp_path / "w.scenarios.json"
    data = {
        "scenario_set_id": "w",
        "metadata": {"tools": {"redact": ["("]}},
        "scenarios": [
            {"scenario_id": "a", "metadata": {"tools": {"faults": [{"tool": "t"}]}}},
            {"scenario_id": "b", "metadata": {"tools": {"fakes": {"t": "m:f"}}}},
        ],
    }
    text = json.dumps(data, indent=1)
    path.write_text(text)
    problems = tool_section_problems(path)
    assert [(p.json_path, p.message) for p in problems] == [
        (
            "metadata.tools.redact",
            "redact pattern '(': missing ), unterminated subpattern at position 0",
        ),
        (
            "scenarios[0].metadata.tools.faults[0]",
            "a fault needs exactly one of raises, timeout (true) or returns",
        ),
    ]
    lines = text.splitlines()
    at = [p.line for p in problems]
    assert None not in at
    first, second = (line or 0 for line in at)
    assert lines[first - 1].strip() == '"redact": ['
    assert lines[second - 1].strip() == "{" and lines[second].strip() == '"tool": "t"'


def test_a_file_without_sections_or_not_json_has_no_such_problem(tmp_path: Path) -> None:
    path = tmp_path / "w.evalset.json"
    path.write_text('{"eval_set_id": "w", "eval_cases": [{"eval_id": "a", "metadata": {}}]}')
    assert tool_section_problems(path) == []
    assert tool_section_problems(path, "{not json") == []
    assert tool_section_problems(path, "[1, 2]") == []
