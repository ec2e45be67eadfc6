"""A run's case ids held compactly (results/id_places.py): the list of the same ids, and
each id's place as the dict it replaces finds it."""

from __future__ import annotations

import random

import pytest

from tenxeval_tui.evaluation.results.id_places import BLOCK, IdList, IdPlaces


def _dict_place(ids: list[str], eval_id: str) -> int:
    """What a reader of the journal found before: the dict of every id's place."""
    position = {eval_id: i for i, eval_id in enumerate(ids)}
    return position.get(eval_id, len(position))


@pytest.mark.parametrize("count", [0, 1, BLOCK - 1, BLOCK, 2 * BLOCK + 5])
def test_the_ids_read_as_the_list_of_them(count: int) -> None:
    ids = [f"case-{i}" * (i % 3) for i in range(count)]  # an empty id among them
    held = IdList(ids)
    assert len(held) == count
    assert list(held) == ids
    assert held == ids
    assert [held[i] for i in range(count)] == ids
    assert [held[-i] for i in range(1, count + 1)] == [ids[-i] for i in range(1, count + 1)]
    assert held[3:-2:3] == ids[3:-2:3]
    with pytest.raises(IndexError):
        held[count]
    with pytest.raises(IndexError):
        held[-count - 1]


def test_ids_appended_after_are_read_too() -> None:
    held = IdList(["a", "b"])
    held.append("é" * 5)
    assert held == ["a", "b", "é" * 5]
    assert held != ["a", "b"]
    assert (held == "ab") is False  # a string is no list of ids


@pytest.mark.parametrize("seed", range(6))
def test_each_place_is_the_one_the_dict_of_places_found(seed: int) -> None:
    rng = random.Random(seed)
    count = rng.choice([0, 1, 7, 300, BLOCK + 40])
    pool = [f"c{i}" for i in range(max(1, count * rng.choice([1, 2])))]
    ids = [rng.choice(pool) if rng.random() < 0.3 else f"c{i}" for i in range(count)]
    places = IdPlaces(IdList(ids))
    assert places.distinct == len(set(ids))
    for eval_id in [*ids, *pool, "absent", ""]:  # listed once, listed twice, not listed
        assert places.place(eval_id) == _dict_place(ids, eval_id), eval_id


def test_an_id_listed_twice_is_at_its_last_place_and_a_missing_one_after_the_rest() -> None:
    places = IdPlaces(IdList(["a", "b", "a", "c", "b"]))
    assert [places.place(i) for i in ("a", "b", "c")] == [2, 4, 3]
    assert places.place("z") == 3  # the distinct ids, not the listed ones


def test_ids_whose_hashes_meet_are_told_apart() -> None:
    class SameHash(str):
        __slots__ = ()

        def __hash__(self) -> int:
            return 5

    ids = [SameHash(f"x{i}") for i in range(20)]
    places = IdPlaces(ids)
    assert [places.place(SameHash(f"x{i}")) for i in range(20)] == list(range(20))
    assert places.place(SameHash("y")) == 20
