"""The interception point itself: faults, fakes, replay matching and its errors, recording
with secrets masked, on a plain agent in-process (AgentEvaluator with a ToolRun)."""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import Any

import pytest

from tenxeval_tui.evaluation import EvalCase, EvalConfig, EvalSet, Trace
from tenxeval_tui.evaluation.evaluator import AgentEvaluator
from tenxeval_tui.evaluation.targets import make_eval_app
from tenxeval_tui.evaluation.tools import (
    RecordedCall,
    ToolCallInfo,
    ToolRun,
    ToolSettings,
    read_cassette,
    write_case,
)
from tenxeval_tui.evaluation.tools.session import CaseTools
from tenxeval_tui.evaluation.tools.spec import ToolSpec

CALLS: list[tuple[str, dict[str, Any]]] = []
"""The real tool's calls (what the tests check no replay or fake reaches)."""


def search(query: str, stamp: str = "", token: str = "") -> dict[str, Any]:
    CALLS.append(("search", {"query": query, "stamp": stamp}))
    if query == "boom":
        raise KeyError("no such index")
    return {"hits": [query.upper()], "token": token}


async def agent(message: str, trace: Trace) -> str:
    """Searches once per word; a failed search is said, not raised."""
    replies = []
    for word in message.split():
        args = {"query": word, "stamp": f"t{len(CALLS)}", "token": "sk-live-0123456789abcdef"}
        try:
            found = await trace.tool("search", args, search)
        except Exception as exc:
            replies.append(f"{type(exc).__name__}: {exc}")
            continue
        replies.append(",".join(found["hits"]))
    trace.node("MAIN", response=" ".join(replies))
    return " ".join(replies)


def counter(call: ToolCallInfo, state: dict[str, Any]) -> dict[str, Any]:
    """A fake: counts its calls in the case's state."""
    state["count"] = state.get("count", 0) + 1
    state.setdefault("queries", []).append(call.args["query"])
    return {"hits": [f"{call.name}#{call.number}={state['count']}"]}


def fresh() -> None:
    CALLS.clear()


def eval_set(*cases: EvalCase, tools: dict[str, Any] | None = None) -> EvalSet:
    return EvalSet(eval_set_id="s", eval_cases=list(cases), metadata={"tools": tools or {}})


def case(eval_id: str, message: str, tools: dict[str, Any] | None = None) -> EvalCase:
    made = EvalCase.single_turn(eval_id, message, "")
    if tools:
        made.metadata["tools"] = tools
    return made


async def run(the_set: EvalSet, mode: str = "live", cassette: Path | None = None) -> dict[str, Any]:
    app, collector = make_eval_app(agent)
    config = EvalConfig.default()
    config.reporter.enabled = False
    tools = ToolRun(ToolSettings(mode=mode, cassette=cassette))  # type: ignore[arg-type]
    tools.add_eval_set(the_set)
    report = await AgentEvaluator(app, collector, config, tools=tools).evaluate(the_set)
    return {r.eval_id: r for r in report.results}


async def test_the_nth_call_fault_raises_times_out_or_returns_instead_of_the_tool() -> None:
    fresh()
    faults = [
        {"tool": "search", "call": 1, "raises": "ConnectionError", "message": "down"},
        {"tool": "search", "call": 2, "timeout": True},
        {"tool": "search", "call": 3, "returns": {"hits": ["FAKE"]}},
    ]
    results = await run(eval_set(case("c", "a b c d", {"faults": faults})))
    assert results["c"].actual_response == (
        "ConnectionError: down ToolFaultTimeout: search: the tool call timed out (fault on "
        "call 2) FAKE D"
    )
    assert [q for _, a in CALLS for q in [a["query"]]] == ["d"]  # only the 4th call ran
    assert [c.model_extra["mode"] for c in results["c"].actual_tool_calls] == (
        ["faked", "faked", "faked", "live"]
    )
    assert results["c"].metadata["tool_modes"] == {"faked": 3, "live": 1}


async def test_fakes_of_a_case_share_its_state_and_each_case_starts_from_the_sets() -> None:
    fresh()
    tools = {"fakes": {"search": f"{__name__}:counter"}, "state": {"count": 10}}
    results = await run(eval_set(case("one", "x y"), case("two", "z"), tools=tools))
    assert results["one"].actual_response == "search#1=11 search#2=12"
    assert results["two"].actual_response == "search#1=11"
    assert results["one"].metadata["tool_state"] == {"count": 12, "queries": ["x", "y"]}
    assert results["two"].metadata["tool_state"] == {"count": 11, "queries": ["z"]}
    assert CALLS == []


def _recorded(args: dict[str, Any], result: Any = None, tool: str = "search") -> RecordedCall:
    return RecordedCall("c", 1, tool, args, result)


async def _replay(
    spec: ToolSpec, recorded: list[RecordedCall], *calls: dict[str, Any]
) -> CaseTools:
    tools = CaseTools("c", spec, "replay", recorded=recorded, cassette=Path("c.tools.jsonl"))

    async def never() -> Any:
        raise AssertionError("replay ran the real tool")

    for args in calls:
        with contextlib.suppress(LookupError):
            await tools.call("search", args, never)
    return tools


async def test_replay_matches_ignoring_the_named_keys_and_names_the_nearest_call() -> None:
    recorded = [
        _recorded({"query": "a", "stamp": "1"}, 1),
        _recorded({"query": "b", "stamp": "2"}, 2),
    ]
    spec = ToolSpec(ignore_args=["search.stamp"])
    tools = await _replay(
        spec, recorded, {"query": "b", "stamp": "9"}, {"query": "a", "stamp": "8"}
    )
    assert tools.failure is None and tools.marks == {"replayed": 2}

    tools = await _replay(ToolSpec(), recorded, {"query": "b", "stamp": "9"})
    assert tools.failure == (
        'replay: the tool call search {"query": "b", "stamp": "9"} was not recorded; the '
        'nearest recorded call of case \'c\' is #1 search {"query": "b", "stamp": "2"}'
    )
    tools = await _replay(spec, recorded[:1], {"query": "a"}, {"query": "a"})
    assert tools.failure == (
        'replay: the tool call search {"query": "a"} was made once more than recorded (1 such '
        "call(s) in the cassette c.tools.jsonl, all replayed already)"
    )
    tools = await _replay(spec, [], {"query": "a"})
    assert tools.failure is not None
    assert "the cassette c.tools.jsonl has no calls of case 'c'" in tools.failure


async def test_the_failure_fails_the_case_even_when_the_agent_carries_on(tmp_path: Path) -> None:
    fresh()
    cassette = tmp_path / "s.tools.jsonl"
    write_case(cassette, "c", [RecordedCall("c", 1, "search", {"query": "zzz"}, {"hits": []})])
    results = await run(eval_set(case("c", "a")), "replay", cassette)
    result = results["c"]
    assert result.actual_response.startswith("UnrecordedToolCall: replay: the tool call search")
    assert result.error is not None and result.error.startswith("replay: the tool call search")
    assert result.metadata["error_info"]["error_type"] == "UnrecordedToolCall"
    assert CALLS == []


async def test_recording_masks_secrets_and_replays_errors_as_raised(tmp_path: Path) -> None:
    fresh()
    cassette = tmp_path / "s.tools.jsonl"
    the_set = eval_set(
        case("c", "ok boom"), tools={"redact": ["sk-live-[0-9a-f]+"], "ignore_args": ["stamp"]}
    )
    recorded = await run(the_set, "record", cassette)
    text = cassette.read_text()
    assert "sk-live" not in text and "[REDACTED]" in text
    calls = read_cassette(cassette)["c"]
    assert calls[0].args["token"] == "[REDACTED]"  # a key named like a secret
    assert calls[0].result == {"hits": ["OK"], "token": "[REDACTED]"}  # the pattern
    assert calls[1].error == {"type": "KeyError", "message": "no such index"}
    fresh()
    replayed = await run(the_set, "replay", cassette)
    assert CALLS == []
    assert replayed["c"].error is None
    assert replayed["c"].actual_response == recorded["c"].actual_response


@pytest.mark.parametrize("mode", ["record", "replay", "replay-or-record"])
async def test_a_set_run_from_no_file_needs_a_cassette_to_record_or_replay(mode: str) -> None:
    results = await run(eval_set(case("c", "a")), mode)
    assert results["c"].metadata["error_info"]["error_type"] == "ToolSpecError"
    assert "needs a cassette" in str(results["c"].error)


async def test_a_bad_tools_section_errs_its_case_naming_the_place() -> None:
    fresh()
    bad = {"faults": [{"tool": "search", "call": 1, "raises": "NoSuchError"}]}
    results = await run(eval_set(case("c", "a", bad), case("d", "b")))
    assert results["c"].error == (
        "eval set 's', case 'c': metadata.tools.faults[0].raises: 'NoSuchError' is no "
        "exception class (a built-in's name, or module:Class)"
    )
    assert results["d"].error is None and results["d"].actual_response == "B"


async def test_live_runs_without_tools_sections_leave_results_as_before() -> None:
    fresh()
    results = await run(EvalSet(eval_set_id="s", eval_cases=[case("c", "a")]))
    assert "tool_modes" not in results["c"].metadata
    assert results["c"].actual_tool_calls[0].model_extra == {}
    assert results["c"].actual_trajectory[-2].metadata == {}


ANSWERS: list[str] = []
"""What the real ``status`` tool answers, one a call."""


def status() -> str:
    return ANSWERS.pop(0)


async def status_agent(message: str, trace: Trace) -> str:
    reply = str(await trace.tool("status", {}, status))
    trace.node("MAIN", response=reply)
    return reply


async def run_repeats(mode: str, cassette: Path, pass_rule: Any) -> Any:
    app, collector = make_eval_app(status_agent)
    config = EvalConfig.model_validate(
        {"criteria": {"response_match": {"threshold": 1.0}}, "repeats": 3, "pass_rule": pass_rule}
    )
    config.reporter.enabled = False
    the_set = EvalSet(eval_set_id="s", eval_cases=[EvalCase.single_turn("c", "status?", "ok")])
    tools = ToolRun(ToolSettings(mode=mode, cassette=cassette))  # type: ignore[arg-type]
    tools.add_eval_set(the_set)
    report = await AgentEvaluator(app, collector, config, tools=tools).evaluate(the_set)
    return report.results[0]


@pytest.mark.parametrize(("pass_rule", "kept"), [("all", "bad"), (0.3, "ok")])
async def test_a_repeated_case_keeps_its_representative_repeats_calls(
    tmp_path: Path, pass_rule: Any, kept: str
) -> None:
    cassette = tmp_path / "s.tools.jsonl"
    ANSWERS[:] = ["bad", "ok", "bad"]  # only the second repeat passes
    recorded = await run_repeats("record", cassette, pass_rule)
    assert [r.actual_response for r in recorded.repeat_results] == ["bad", "ok", "bad"]
    # The case's outcome decides which repeat stands for it: the first failing one when it
    # fails (all must pass), the first passing one when it passes (30% must): its calls
    # are the case's lines, and each repeat of a replay gets them.
    assert [c.result for c in read_cassette(cassette)["c"]] == [kept]
    replayed = await run_repeats("replay", cassette, pass_rule)
    assert ANSWERS == []  # no real call
    assert [r.actual_response for r in replayed.repeat_results] == [kept] * 3
    assert replayed.passed is (kept == "ok")
