"""A result whose node views are pending (the run worker's) is written as the whole one is."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from pydantic_core import PydanticSerializationError

from tenxeval_tui.evaluation import EvalReport, HTMLReporter, JSONReporter
from tenxeval_tui.evaluation.eval_result import EvalCaseResult
from tenxeval_tui.evaluation.execution.result import NodeResponseData
from tenxeval_tui.evaluation.repeats import aggregate_repeats
from tenxeval_tui.evaluation.reporters.casedata import ViewOptions, case_view
from tenxeval_tui.evaluation.reporters.html import NODE_BATCH
from tenxeval_tui.evaluation.results.journal import RunJournal, read_journal_runs
from tenxeval_tui.evaluation.results.json_stream import case_json_parts
from tenxeval_tui.evaluation.results.node_views import (
    defer,
    fill,
    node_detail,
    node_response_dict,
    pending,
    views,
)
from tenxeval_tui.evaluation.token_usage import TokenUsage

from ..reporters.reports import weather_case

STEPS = NODE_BATCH * 2 + 37  # more than two batches of the writers


def nodes(count: int) -> list[NodeResponseData]:
    return [
        NodeResponseData(
            node_name=f"N{i % 3}",
            input_messages=[{"role": "user", "content": f"q{i} <b>&\u2028"}] if i % 4 else [],
            response_text=f'step {i} </script> "q"' if i % 7 else "the end",
            has_tool_calls=i % 5 == 0,
            tool_call_names=["search"] if i % 5 == 0 else [],
            timestamp=1_700_000_000.5 + i,
            token_usage=TokenUsage(input_tokens=i, output_tokens=2) if i % 2 else TokenUsage(),
        )
        for i in range(count)
    ]


def twins(eval_id: str, count: int) -> tuple[EvalCaseResult, EvalCaseResult]:
    """The same case twice: its node views pending, and made whole."""
    made = nodes(count)
    pending_one, whole = weather_case(eval_id), weather_case(eval_id)
    for one in (pending_one, whole):
        one.actual_response = "the end"
        one.node_visits = [n.node_name for n in made]
    defer(pending_one, list(made))
    whole.node_responses = [node_response_dict(n) for n in made]
    whole.node_details = [node_detail(n) for n in made]
    return pending_one, whole


def report_of(*results: EvalCaseResult) -> EvalReport:
    report = EvalReport.create(eval_set_id="flood", results=list(results))
    report.timestamp = 1_700_000_000.0
    return report


def test_a_pending_result_holds_its_nodes_not_their_views() -> None:
    deferred, whole = twins("c", 3)
    assert deferred.node_responses == [] and deferred.node_details == []
    assert pending(deferred) is not None and len(pending(deferred) or []) == 3
    assert list(views(deferred, "node_responses")) == whole.node_responses
    assert views(deferred, "node_details")[1:3] == whole.node_details[1:3]
    assert pending(whole) is None and views(whole, "node_details") is whole.node_details


def test_fill_makes_the_views_and_the_result_equals_its_whole_twin() -> None:
    deferred, whole = twins("c", 5)
    assert deferred != whole
    assert fill(deferred) is deferred
    assert deferred == whole and pending(deferred) is None
    assert fill(deferred) == whole  # a filled result stays as it is


@pytest.mark.parametrize("indent", [None, 2])
def test_the_json_report_of_a_pending_result_is_the_whole_ones_byte_for_byte(
    indent: int | None,
) -> None:
    deferred, whole = twins("big", STEPS)
    reporter = JSONReporter(indent=indent)
    written = b"".join(reporter.render_parts(report_of(deferred)))
    assert written == reporter.render_bytes(report_of(whole))
    assert pending(deferred) is not None  # written in pieces, never made whole


def test_a_json_report_that_leaves_data_out_fills_the_views_first() -> None:
    deferred, whole = twins("c", 9)
    reporter = JSONReporter(include_actual_response=False, include_tool_call_details=False)
    assert reporter.render(report_of(deferred)) == reporter.render(report_of(whole))
    node = json.loads(reporter.render(report_of(deferred)))["results"][0]["node_details"][0]
    assert "response_text" not in node


def test_the_journal_line_of_a_pending_result_is_the_whole_ones(tmp_path: Path) -> None:
    lines = []
    for name, result in zip(("pending", "whole"), twins("big", STEPS), strict=True):
        journal = RunJournal(tmp_path / f"{name}.jsonl")
        journal.on_case_end(result)
        lines.append(journal.path.read_bytes())
    assert lines[0] == lines[1]
    back = read_journal_runs(tmp_path / "pending.jsonl")[0].results[0]
    assert len(back.node_details) == STEPS and back.node_responses[3]["timestamp"] > 0


@pytest.mark.parametrize("count", [0, 1, 3])
def test_a_small_pending_case_is_written_whole_in_one_piece_and_left_pending(
    count: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    deferred, whole = twins("small", count)
    expected = EvalCaseResult.__pydantic_serializer__.to_json(whole, fallback=str)

    def no_copy(*args: object, **kwargs: object) -> None:
        raise AssertionError("a small case is serialised itself, not a copy of it")

    monkeypatch.setattr(EvalCaseResult, "model_copy", no_copy)  # a journal line a case
    assert list(case_json_parts(deferred, fallback=str)) == [expected]
    assert list(case_json_parts(whole, fallback=str)) == [expected]
    # The views were put in for the call only: the result holds its nodes, not their views.
    assert deferred.node_responses == [] and deferred.node_details == []
    assert len(pending(deferred) or []) == count


class NotedResult(EvalCaseResult):
    note: str = "kept"


def test_a_small_case_of_a_result_subclass_is_written_with_its_own_fields() -> None:
    deferred = NotedResult(**twins("small", 2)[0].__dict__)
    assert b'"note":"kept"' in b"".join(case_json_parts(deferred))


def test_a_small_pending_case_whose_text_cannot_be_written_is_left_as_it_was() -> None:
    deferred, _ = twins("small", 2)
    deferred.actual_response = "half an emoji \ud83d"
    with pytest.raises(PydanticSerializationError):
        list(case_json_parts(deferred))
    assert deferred.node_responses == [] and len(pending(deferred) or []) == 2


def test_a_repeated_case_writes_every_repeat_whole() -> None:
    first, first_whole = twins("r", 4)
    second, second_whole = twins("r", 6)
    first.metadata["repeat"], second.metadata["repeat"] = 0, 1
    first_whole.metadata["repeat"], second_whole.metadata["repeat"] = 0, 1
    deferred = aggregate_repeats([first, second])
    whole = aggregate_repeats([first_whole, second_whole])
    reporter = JSONReporter()
    assert b"".join(reporter.render_parts(report_of(deferred))) == reporter.render_bytes(
        report_of(whole)
    )


def test_the_html_report_of_a_pending_result_is_the_whole_ones() -> None:
    deferred, whole = twins("big", STEPS)
    plain, _ = twins("small", 2)
    fill(plain)
    reporter = HTMLReporter()
    page = b"".join(reporter.render_parts(report_of(deferred, plain))).decode("utf-8")
    assert page == reporter.render(report_of(whole, plain))
    block = page.split('<script type="application/json" id="case-data">')[1]
    data = json.loads(block.split("</script>")[0])
    assert data == [case_view(whole, ViewOptions()), case_view(plain, ViewOptions())]
    assert len(data[0]["node_responses"]) == STEPS
    assert "</script> " not in block.split("</script>")[0]  # still escaped in pieces


def test_forget_bulk_lets_a_pending_result_go(tmp_path: Path) -> None:
    from tenxeval_tui.runs.worker import ForgetBulk

    deferred, _ = twins("c", 3)
    RunJournal(tmp_path / "j.jsonl").on_case_end(deferred)
    ForgetBulk().on_case_end(deferred)
    assert pending(deferred) is None and deferred.node_visits == []


def test_a_journal_line_holding_a_line_separator_reads_back(tmp_path: Path) -> None:
    # pydantic writes U+2028 as it is inside a JSON string; str.splitlines cuts there.
    deferred, _ = twins("sep", 5)
    journal = RunJournal(tmp_path / "j.jsonl")
    journal.on_case_end(deferred)
    assert "\u2028" in journal.path.read_text(encoding="utf-8")
    back = read_journal_runs(journal.path)[0].results[0]
    assert back.node_responses[1]["input_messages"][0]["content"].endswith("&\u2028")
