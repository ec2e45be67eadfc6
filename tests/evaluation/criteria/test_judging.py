"""The shared machinery of judged criteria: reply parsing, majority vote, the reply cache."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tenxeval_tui.evaluation import JudgeCache, JudgeReply, TokenUsage
from tenxeval_tui.evaluation.criteria.llm_base import (
    JudgeReplyError,
    Sample,
    majority,
    parse_json_reply,
)


@pytest.mark.parametrize(
    "text",
    [
        '{"verdict": "valid"}',
        '  ```json\n{"verdict": "valid"}\n```  ',
        '```\n{"verdict": "valid"}\n```',
        'Here you go: {"verdict": "valid"}. Done.',
    ],
)
def test_parse_finds_the_object(text: str) -> None:
    assert parse_json_reply(text) == {"verdict": "valid"}


@pytest.mark.parametrize(
    ("text", "problem"),
    [("", "no JSON object"), ("yes", "no JSON object"), ('"valid"', "not an object")],
)
def test_parse_rejects_what_is_not_an_object(text: str, problem: str) -> None:
    with pytest.raises(JudgeReplyError, match=problem):
        parse_json_reply(text)


@given(st.lists(st.booleans(), min_size=1, max_size=9))
def test_majority_needs_more_than_half(votes: list[bool]) -> None:
    samples = [Sample({"x": v}) for v in votes]
    decided, yes = majority(samples, ["x"])
    assert yes["x"] == sum(votes)
    assert decided["x"] is (sum(votes) > len(votes) - sum(votes))
    # flipping every vote flips the outcome, except on a tie, which is "no" both ways
    flipped, _ = majority([Sample({"x": not v}) for v in votes], ["x"])
    if 2 * sum(votes) == len(votes):
        assert decided["x"] is flipped["x"] is False
    else:
        assert flipped["x"] is not decided["x"]


def test_an_item_a_sample_left_out_counts_as_no() -> None:
    decided, yes = majority([Sample({"a": True}), Sample({}), Sample({"a": True})], ["a", "b"])
    assert decided == {"a": True, "b": False}
    assert yes == {"a": 2, "b": 0}


def test_cache_keys_differ_by_model_prompt_sample_and_temperature() -> None:
    base = JudgeCache.key("m", "p", 0, 0.0)
    assert base == JudgeCache.key("m", "p", 0, 0.0)
    others = {
        JudgeCache.key("n", "p", 0, 0.0),
        JudgeCache.key("m", "q", 0, 0.0),
        JudgeCache.key("m", "p", 1, 0.0),
        JudgeCache.key("m", "p", 0, 0.7),
    }
    assert base not in others and len(others) == 4


def test_cache_round_trip_and_a_corrupt_entry_is_a_miss(tmp_path: Path) -> None:
    cache = JudgeCache(tmp_path)
    key = JudgeCache.key("m", "p", 0)
    assert cache.get(key) is None
    cache.put(key, "m", JudgeReply("reply text", TokenUsage(input_tokens=5)))
    hit = cache.get(key)
    assert hit is not None
    assert (hit.text, hit.cached, hit.token_usage.total_tokens) == ("reply text", True, 0)
    (entry,) = tmp_path.rglob("*.json")
    entry.write_text("{not json", encoding="utf-8")
    assert cache.get(key) is None
