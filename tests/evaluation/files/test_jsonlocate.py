"""Placing JSON paths in a text: every path answered in one scan, each at its value."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from tenxeval_tui.evaluation.files.jsonlocate import PathPart, locate, locate_many

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=5),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=4), inner, max_size=4)
    ),
    max_leaves=25,
)


def every_path(value: Any, prefix: tuple[PathPart, ...] = ()) -> list[tuple[PathPart, ...]]:
    paths = [prefix]
    items = (
        value.items()
        if isinstance(value, dict)
        else enumerate(value)
        if isinstance(value, list)
        else []
    )
    for part, child in items:
        paths += every_path(child, (*prefix, part))
    return paths


def at(value: Any, path: tuple[PathPart, ...]) -> Any:
    for part in path:
        value = value[part]
    return value


def offset_of(text: str, line: int, column: int) -> int:
    return sum(len(row) + 1 for row in text.split("\n")[: line - 1]) + column - 1


@settings(max_examples=150)
@given(value=JSON, indent=st.sampled_from([None, 0, 2]))
def test_each_path_points_at_its_own_value(value: Any, indent: int | None) -> None:
    text = json.dumps(value, indent=indent, ensure_ascii=False)
    paths = every_path(value)
    places = locate_many(text, paths)
    decoder = json.JSONDecoder()
    for path, (line, column) in zip(paths, places, strict=True):
        found, _ = decoder.raw_decode(text, offset_of(text, line, column))
        assert found == at(value, path)


def test_a_missing_part_points_at_the_deepest_part_that_exists() -> None:
    text = '{\n  "cases": [\n    {"id": 1},\n    {"id": 2}\n  ]\n}'
    assert locate(text, ["cases", 1, "name"]) == (4, 5)
    assert locate(text, ["cases", 7]) == (2, 12)
    assert locate(text, ["nothing", 0]) == (1, 1)
    assert locate(text, ["cases", "x"]) == (2, 12)  # a key asked of an array


def test_keys_with_escapes_and_repeated_keys() -> None:
    text = '{"a\\u00e9": 1, "k": 2, "k": 3}'
    assert locate(text, ["aé"]) == (1, 13)
    assert locate(text, ["k"]) == (1, 21)  # the first of a repeated key


def test_values_too_deep_for_the_c_scanner_are_skipped() -> None:
    deep = "[" * 50_000 + "]" * 50_000
    text = f'{{"deep": {deep}, "after": 1}}'
    assert locate(text, ["after"]) == (1, len(text) - 1)


def test_long_integers_are_skipped_without_conversion() -> None:
    text = '{"n": ' + "9" * 10_000 + ', "m": true}'
    assert locate(text, ["m"]) == (1, len(text) - 4)


def test_broken_text_gives_the_places_found_before_the_fault() -> None:
    assert locate_many('{"a": 1, "b": [1, oops', [["a"], ["b", 1]]) == [(1, 7), (1, 19)]
