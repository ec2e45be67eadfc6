"""The JSON report written in pieces is byte for byte the report written whole."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tenxeval_tui.evaluation import EvalReport, JSONReporter
from tenxeval_tui.evaluation.eval_result import EvalCaseResult
from tenxeval_tui.evaluation.execution.result import NodeResponseData
from tenxeval_tui.evaluation.repeats import aggregate_repeats
from tenxeval_tui.evaluation.results import json_stream
from tenxeval_tui.evaluation.results.json_stream import (
    json_array_text,
    json_object_text,
    report_json_parts,
)
from tenxeval_tui.evaluation.results.node_views import node_detail, node_response_dict
from tenxeval_tui.evaluation.token_usage import TokenUsage

from ..reporters.reports import mixed_report, weather_case


def whole(report: EvalReport, indent: int | None) -> bytes:
    return report.__pydantic_serializer__.to_json(report, indent=indent)


def flood_case(eval_id: str, steps: int) -> EvalCaseResult:
    """A case of ``steps`` node responses (some with messages, tokens, tool calls)."""
    result = weather_case(eval_id)
    nodes = [
        NodeResponseData(
            node_name=f"N{i % 3}",
            input_messages=[{"role": "user", "content": f"q{i} \u00e9\u2028"}] if i % 4 else [],
            response_text=f"step {i} \"quoted\"\n{{'a': [1]}}",
            has_tool_calls=i % 5 == 0,
            tool_call_names=["search"] if i % 5 == 0 else [],
            timestamp=1_700_000_000.125 + i,
            token_usage=TokenUsage(input_tokens=i, output_tokens=2) if i % 2 else TokenUsage(),
        )
        for i in range(steps)
    ]
    result.node_responses = [node_response_dict(n) for n in nodes]
    result.node_details = [node_detail(n) for n in nodes]
    result.node_visits = [n.node_name for n in nodes]
    result.actual_trajectory = result.actual_trajectory * (steps // 2 + 1)
    result.messages = [{"role": "user", "content": [{"type": "text", "text": "x"}]}] * 3
    return result


def reports() -> list[EvalReport]:
    mixed = mixed_report()
    repeated = aggregate_repeats([weather_case("r"), weather_case("r", error="boom")], 0.5)
    extra = flood_case("extra", 3)
    extra.cost_usd = 0.25
    extra.custom_note = {"nested": ["x", {"y": None}]}  # type: ignore[attr-defined]
    return [
        EvalReport.create(eval_set_id="empty", results=[]),
        mixed,
        EvalReport.create(eval_set_id="flood", results=[flood_case("big", 1_234)]),
        EvalReport.create(
            eval_set_id="several",
            results=[flood_case("a", 7), weather_case("plain"), repeated, extra],
            metadata={"partial": True, "note": "ünïcode"},
        ),
    ]


@pytest.mark.parametrize("indent", [2, None, 4])
@pytest.mark.parametrize("report", reports(), ids=lambda r: r.eval_set_id)
def test_the_pieces_make_the_whole(report: EvalReport, indent: int | None) -> None:
    pieces = list(report_json_parts(report, indent))
    assert b"".join(pieces) == whole(report, indent)


def test_a_big_case_comes_in_batches(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(json_stream, "BATCH", 100)
    report = EvalReport.create(eval_set_id="flood", results=[flood_case("big", 1_000)])
    pieces = list(report_json_parts(report, 2))
    assert b"".join(pieces) == whole(report, 2)
    assert len(pieces) > 30  # 4 lists of about 1,000 items, 100 at a time
    assert max(map(len, pieces)) < len(whole(report, 2)) / 8


def test_the_reporter_writes_the_same_file_and_falls_back_for_bad_text(tmp_path: Path) -> None:
    report = reports()[3]
    path = JSONReporter().save(report, tmp_path / "r.json")
    assert path.read_bytes() == whole(report, 2) + b"\n"
    assert EvalReport.model_validate_json(path.read_bytes()) == EvalReport.model_validate_json(
        whole(report, 2)
    )
    # A lone surrogate deep in a case's nodes: found part way, written whole and cleaned.
    broken = flood_case("bad", 40)
    broken.node_responses[30]["response_text"] = "bad \ud800"
    bad = EvalReport.create(eval_set_id="bad", results=[broken])
    path = JSONReporter().save(bad, tmp_path / "bad.json")
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["results"][0]["node_responses"][30]["response_text"] == "bad \ufffd"
    assert not list(tmp_path.glob(".*.tmp"))


@pytest.mark.parametrize("count", [0, 1, 7, 8, 9, 30])
def test_a_list_made_a_block_at_a_time_is_json_s_own_text(count: int) -> None:
    items = [[f"c{i}", 'naïve "quoted"\n' * (i % 2)] for i in range(count)]
    assert json_array_text(iter(items), block=8) == json.dumps(items)


@pytest.mark.parametrize("head", [{}, {"type": "run_start", "eval_set_id": 'é "x"'}])
def test_an_object_with_its_array_made_a_block_at_a_time_is_json_s_own_text(
    head: dict[str, str],
) -> None:
    ids = [f"c{i}" for i in range(1200)]
    assert json_object_text(head, "eval_ids", iter(ids)) == json.dumps({**head, "eval_ids": ids})
