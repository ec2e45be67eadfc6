"""A case as a transcript: from a finished result and from its live events, which agree."""

from __future__ import annotations

import io

from sample_evals.plain_agent import support_agent
from tenxeval_tui.evaluation import (
    EvalCase,
    EvalConfig,
    EvalSet,
    EvaluationRunner,
    JsonLinesObserver,
    create_eval_app,
    replay_json_lines,
)
from tenxeval_tui.evaluation.events import Event, EventModel, EventType
from tenxeval_tui.runs.live_run import LiveRun
from tenxeval_tui.runs.transcript import (
    LIVE_BLOCK_LIMIT,
    LIVE_TEXT_LIMIT,
    BlockKind,
    LiveTranscript,
    TranscriptBlock,
    result_transcript,
)

TURNS = [("Where is order A200?", None), ("Please refund that order", "Refund started.")]


def shape(blocks: list[TranscriptBlock]) -> list[tuple[str, str]]:
    return [(str(block.kind), block.title) for block in blocks]


async def test_a_two_turn_case_reads_in_order_and_live_agrees_with_the_report() -> None:
    case = EvalCase.multi_turn("refund", TURNS)
    eval_set = EvalSet(eval_set_id="s", name="S", eval_cases=[case])
    config = EvalConfig.model_validate(
        {"criteria": {"response_match_score": {"threshold": 0.9}}, "reporter": {"enabled": False}}
    )
    buffer = io.StringIO()
    app, collector = create_eval_app(support_agent)
    runner = EvaluationRunner(config, observers=[JsonLinesObserver(buffer.write)])
    reports = await runner.run([(app, collector, eval_set)])
    result = next(iter(reports.values())).results[0]

    blocks = result_transcript(result, case.get_final_expected_response())
    assert shape(blocks) == [
        ("user", "user"),
        ("model", "ROUTER"),
        ("tool", 'lookup_order(order_id="A200")'),
        ("model", "ANSWER"),
        ("user", "user"),
        ("model", "ROUTER"),
        ("tool", 'refund(order_id="A200", reason="customer request")'),
        ("model", "ANSWER"),
        ("expected", "expected reply"),
        (
            "verdict",
            "response_match_score  " + f"{result.criterion_results[0].score:.2f} / 0.90  ✗ failed",
        ),
    ]
    assert [b.body for b in blocks if b.kind == BlockKind.USER] == [t for t, _ in TURNS]
    assert blocks[1].body == "→ calls lookup_order"
    assert blocks[3].body == result.turn_results[0]["response"]
    assert blocks[7].body == result.actual_response
    assert blocks[8].body == "Refund started."
    assert blocks[9].failed and blocks[9].body  # the criterion's explanation

    # The same run, as the run view receives it line by line.
    live = LiveRun()
    replay_json_lines(buffer.getvalue().splitlines(), live)
    transcript = live.cases["s::refund"].transcript
    assert shape(list(transcript)) == shape(blocks)
    assert [b.body for b in transcript] == [b.body for b in blocks]


def test_a_failed_tool_call_and_an_agent_error_are_marked_failed() -> None:
    live = LiveTranscript()
    live.start(EvalCase.single_turn("c", "Weather?", "Sun."))
    live.add_event(
        EventModel(
            event=Event.TOOL_EXECUTION,
            event_type=EventType.END,
            node_name="tools",
            data={"function_name": "get_weather", "args": {"city": "Rome"}, "error": "timed out"},
        )
    )
    live.add_event(
        EventModel(event=Event.GRAPH_EXECUTION, event_type=EventType.ERROR, data={"error": "boom"})
    )
    assert [(b.kind, b.title, b.body, b.failed) for b in live] == [
        (BlockKind.USER, "user", "Weather?", False),
        (BlockKind.TOOL, 'get_weather(city="Rome")', "✗ timed out", True),
        (BlockKind.ERROR, "error", "boom", True),
    ]
    assert live.expected == "Sun."


def test_a_live_transcript_keeps_its_last_blocks_and_clips_long_texts() -> None:
    live = LiveTranscript()
    for i in range(LIVE_BLOCK_LIMIT + 5):
        live.add_event(
            EventModel(
                event=Event.NODE_EXECUTION,
                event_type=EventType.END,
                node_name=f"N{i}",
                data={"response_text": "x" * (LIVE_TEXT_LIMIT * 3)},
            )
        )
    assert len(live) == LIVE_BLOCK_LIMIT and live.dropped == 5
    assert live[0].title == "N5"
    assert len(live[0].body) < LIVE_TEXT_LIMIT + 40
    assert live[0].body.endswith("… (the rest is in the report)")


def test_a_simulated_users_message_is_shown_once() -> None:
    live = LiveTranscript()
    live.start(EvalCase.single_turn("c", "Hi", None))
    for turn, message in enumerate(["Hi", "And tomorrow?"]):
        live.add_event(
            EventModel(
                event=Event.GRAPH_EXECUTION,
                event_type=EventType.PROGRESS,
                data={"turn_index": turn, "simulated_user": True, "user_message": message},
            )
        )
    assert [b.body for b in live if b.kind == BlockKind.USER] == ["Hi", "And tomorrow?"]
