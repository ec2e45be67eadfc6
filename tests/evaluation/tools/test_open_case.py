"""ToolRun.open_case: a live case whose eval set and metadata say nothing of its tools gets
no CaseTools, and no tool spec is built for it (every case of a plain run goes this way)."""

from __future__ import annotations

import pytest

from tenxeval_tui.evaluation import EvalCase, EvalSet
from tenxeval_tui.evaluation.tools import ToolRun, ToolSettings
from tenxeval_tui.evaluation.tools import run as tool_run


def test_a_live_case_without_tools_opens_none_and_builds_no_spec(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    tools = ToolRun(ToolSettings(mode="live"))
    tools.add_eval_set(EvalSet(eval_set_id="s", eval_cases=[], metadata={}))
    plain = EvalCase.single_turn("a", "hi", "")

    def no_spec(*_: object) -> None:
        raise AssertionError("a tool spec was built for a case that has none")

    monkeypatch.setattr(tool_run, "tool_spec", no_spec)
    assert tools.open_case("s", plain) is None
    assert tools.open_case("unknown set", plain) is None


def test_a_case_saying_something_of_its_tools_still_gets_them_or_its_error() -> None:
    tools = ToolRun(ToolSettings(mode="live"))
    tools.add_eval_set(EvalSet(eval_set_id="s", eval_cases=[], metadata={}))
    faulty = EvalCase.single_turn("b", "hi", "")
    faulty.metadata["tools"] = {"faults": [{"tool": "t", "call": 1, "raises": "KeyError"}]}
    opened = tools.open_case("s", faulty)
    assert opened is not None and opened.eval_id == "b"
    wrong = EvalCase.single_turn("c", "hi", "")
    wrong.metadata["tools"] = "fakes"
    with pytest.raises(tool_run.ToolSpecError, match=r"case 'c'.*metadata\.tools"):
        tools.open_case("s", wrong)
