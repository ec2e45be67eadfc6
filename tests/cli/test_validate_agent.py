"""``tenxeval-tui validate --agent``: the editor's agent warnings on the command line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tenxeval_tui.cli.main import main


def _break_first_call(path: Path) -> None:
    data = json.loads(path.read_text(encoding="utf-8"))
    data["eval_cases"][0]["conversation"][0]["expected_tool_trajectory"][0]["args"] = {
        "order_id": 100,
        "note": "x",
    }
    path.write_text(json.dumps(data, indent=2), encoding="utf-8")


def test_validate_agent_prints_each_warning_with_its_place(
    project: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(project)
    eval_set = project / "evals/plain.evalset.json"
    _break_first_call(eval_set)
    code = main(["validate", "--agent", "support_agent:support_agent", str(eval_set)])
    out = capsys.readouterr().out.splitlines()
    assert code == 0  # warnings, not failures
    text = eval_set.read_text(encoding="utf-8").splitlines()
    assert len(out) == 1, out
    where, message = out[0].split(": eval_cases", 1)
    line = int(where.split(":")[-2])
    assert '"args"' in text[line - 1]
    assert message == (
        "[0].conversation[0].expected_tool_trajectory[0].args: warning: "
        "order_id: expected string, got integer; "
        "unknown argument 'note' (parameters: order_id)"
    )


def test_validate_without_agent_checks_nothing_against_it(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    eval_set = project / "evals/plain.evalset.json"
    _break_first_call(eval_set)
    assert main(["validate", str(eval_set)]) == 0
    assert capsys.readouterr().out.strip() == f"{eval_set}: ok"


def test_an_agent_that_cannot_load_is_one_warning(
    project: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(project)
    eval_set = project / "evals/plain.evalset.json"
    assert main(["validate", "--agent", "nowhere:agent", str(eval_set)]) == 0
    assert capsys.readouterr().out.strip() == (
        f"{eval_set}: warning: agent 'nowhere:agent': module 'nowhere' not found "
        "(is the working folder right?)"
    )


def test_check_agent_uses_each_eval_sets_own_agent(
    project: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(project)
    eval_set = project / "evals/plain.evalset.json"
    data = json.loads(eval_set.read_text(encoding="utf-8"))
    data["metadata"]["agent"] = "support_agent:support_agent"
    eval_set.write_text(json.dumps(data, indent=2), encoding="utf-8")
    _break_first_call(eval_set)
    assert main(["validate", "--check-agent", str(eval_set)]) == 0
    out = capsys.readouterr().out
    assert "order_id: expected string, got integer" in out
    assert main(["validate", "--check-agent", str(project / "evals")]) == 0  # a folder too
    assert "order_id: expected string, got integer" in capsys.readouterr().out


def test_a_tools_section_naming_what_the_agent_lacks_is_warned_about_in_place(
    project: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(project)
    eval_set = project / "evals/plain.evalset.json"
    data = json.loads(eval_set.read_text(encoding="utf-8"))
    data["metadata"] = {"tools": {"fakes": {"refnud": "fakes:refund", "refund": "fakes:r"}}}
    data["eval_cases"][1]["metadata"] = {
        "tools": {
            "faults": [{"tool": "lookup_order", "timeout": True}, {"tool": "x", "timeout": True}],
            "ignore_args": ["lookup_order.stamp", "lookup_order.order_id", "stamp"],
        }
    }
    eval_set.write_text(json.dumps(data, indent=2), encoding="utf-8")
    code = main(["validate", "--agent", "support_agent:support_agent", str(eval_set)])
    out = capsys.readouterr().out.splitlines()
    assert code == 0  # warnings: a fake may stand for a tool on its way
    assert [line.split(": ", 1)[1] for line in out] == [
        "metadata.tools.fakes.refnud: warning: the agent has no tool 'refnud' (it has: "
        "lookup_order, refund)",
        "eval_cases[1].metadata.tools.faults[1].tool: warning: the agent has no tool 'x' "
        "(it has: lookup_order, refund)",
        "eval_cases[1].metadata.tools.ignore_args[0]: warning: lookup_order() has no "
        "parameter 'stamp' (it has: order_id)",
    ]
    text = eval_set.read_text(encoding="utf-8").splitlines()
    line = int(out[0].split(":")[1])
    assert '"refnud"' in text[line - 1]
