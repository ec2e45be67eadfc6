"""Shards: stable, disjoint parts of a run's cases that together cover every case."""

from __future__ import annotations

import os
import subprocess
import sys
from collections import Counter

import pytest

from tenxeval_tui.evaluation.dataset.selection import Shard

KEYS = [(f"set{s}", f"case-{i}") for s in range(3) for i in range(400)]


@pytest.mark.parametrize("count", [1, 2, 3, 4, 7])
def test_the_parts_are_disjoint_and_cover_every_case(count: int) -> None:
    parts = [Shard(index=k, count=count) for k in range(1, count + 1)]
    owners = Counter()
    for set_id, eval_id in KEYS:
        chosen = [p.index for p in parts if p.selects(set_id, eval_id)]
        assert len(chosen) == 1, (set_id, eval_id, chosen)
        owners[chosen[0]] += 1
    assert sum(owners.values()) == len(KEYS)
    # a hash spreads the cases: no part is empty or twice its share
    share = len(KEYS) / count
    assert all(0.5 * share < owners[k] < 1.5 * share for k in range(1, count + 1)), owners


def test_a_case_belongs_to_the_same_part_in_every_process() -> None:
    """Not Python's salted hash: another interpreter with another hash seed agrees."""
    here = [Shard(index=1, count=5).part_of(s, c) for s, c in KEYS[:50]]
    code = (
        "from tenxeval_tui.evaluation.dataset.selection import Shard\n"
        f"keys = {KEYS[:50]!r}\n"
        "print([Shard(index=1, count=5).part_of(s, c) for s, c in keys])"
    )
    env = {**os.environ, "PYTHONHASHSEED": "12345"}
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True
    )
    assert out.stdout.strip() == str(here)


def test_the_eval_set_id_counts_too() -> None:
    shard = Shard(index=1, count=2)
    parts = {shard.part_of(f"set{i}", "same-case") for i in range(40)}
    assert parts == {1, 2}


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("3", "is not K/N"),
        ("a/4", "is not K/N"),
        ("0/4", "K must be from 1 to N"),
        ("5/4", "K must be from 1 to N"),
        ("1/0", "K must be from 1 to N"),
        ("-1/4", "is not K/N"),
    ],
)
def test_a_bad_shard_says_what_is_wrong(text: str, problem: str) -> None:
    with pytest.raises(ValueError, match=problem):
        Shard.parse(text)


def test_parse_and_print_round_trip() -> None:
    shard = Shard.parse(" 2/4 ")
    assert (shard.index, shard.count, str(shard)) == (2, 4, "2/4")
