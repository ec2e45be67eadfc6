"""The worker's eval sets read a case at a time (runs/json_stream.py, runs/case_stream.py):
the same values as the ``json`` module; the scan and then the stream of a file give the
same cases and content hash as loading it, each case built when the run takes it; whatever
they do not read exactly is left to loading."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tenxeval_tui.evaluation.dataset.eval_set import EvalCase, EvalSet
from tenxeval_tui.evaluation.errors import EvalFileError
from tenxeval_tui.evaluation.provenance.hashing import eval_set_sha256
from tenxeval_tui.runs import case_stream, json_stream
from tenxeval_tui.runs.case_scan import ScannedCase
from tenxeval_tui.runs.case_stream import Check, HashingStream, ScannedFile, scan_eval_set
from tenxeval_tui.runs.json_stream import CASE, NotStreamable, eval_set_items


def _case(eval_id: str, **extra: object) -> dict[str, object]:
    return {
        "eval_id": eval_id,
        "conversation": [
            {
                "user_content": {"role": "user", "content": f"hi {eval_id} \u00e9\u6f22"},
                "expected_final_response": {"role": "assistant", "content": "hello"},
            }
        ],
        **extra,
    }


def _write(tmp_path: Path, data: object, name: str = "s.evalset.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(data, indent=1, ensure_ascii=False), encoding="utf-8")
    return path


def _walk(path: Path, check: Check | None = None) -> tuple[ScannedFile, str | None] | None:
    """``path`` as a streamed run reads it: scanned (``None``: loaded whole instead), then
    every case streamed (raising loading's error for a case that does not build); the
    scan and the set's content hash (``None`` when the file's fields do not allow it)."""
    found = scan_eval_set(path, check)
    if found is None:
        return None
    stream = HashingStream(found, ())
    assert list(stream) == []
    return found, stream.sha256


def _items(path: Path) -> list[tuple[Any, Any]]:
    with path.open("rb") as handle:
        return list(eval_set_items(handle))


def test_the_items_are_the_json_module_s_values_across_any_window_size(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cases = [
        _case(f"c{i}", metadata={"n": 12345678901234567890 * i, "f": 1.5e-7}) for i in range(9)
    ]
    data = {"eval_set_id": "s", "name": "N", "eval_cases": cases, "metadata": {"k": [1, 2]}}
    path = _write(tmp_path, data)
    for chunk in (1, 2, 7, 64, 1 << 20):  # values cut at every place by the window's end
        monkeypatch.setattr(json_stream, "_CHUNK", chunk)
        items = _items(path)
        assert [v for k, v in items if k is CASE] == cases
        assert {k: v for k, v in items if k is not CASE} == {
            "eval_set_id": "s",
            "name": "N",
            "metadata": {"k": [1, 2]},
        }


@pytest.mark.parametrize(
    "text",
    [
        "not json",
        "[1, 2]",
        '{"eval_set_id": "s", "eval_cases": [{"eval_id": "a"}',  # cut short
        '{"eval_set_id": "s", "eval_cases": []} trailing',
        '{"eval_set_id": "s" "eval_cases": []}',  # no comma
        '\ufeff{"eval_set_id": "s", "eval_cases": []}',  # a byte order mark
        '{"eval_cases": [], "eval_cases": []}',  # two lists: loading keeps the later
        '{"eval_set_id": "s", "eval_cases": [{"eval_id": "a", "metadata": {"x": NaN}}]}',
        '{"eval_set_id": "s", "big": ' + "9" * 5000 + ', "eval_cases": []}',
    ],
)
def test_what_is_not_one_eval_set_object_is_not_streamable(tmp_path: Path, text: str) -> None:
    path = tmp_path / "bad.evalset.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(NotStreamable):
        _items(path)


def test_bytes_that_are_not_utf8_are_not_streamable(tmp_path: Path) -> None:
    path = tmp_path / "bad.evalset.json"
    path.write_bytes(b'{"eval_set_id": "s\xff", "eval_cases": []}')
    with pytest.raises(NotStreamable):
        _items(path)


@pytest.mark.parametrize(
    "data",
    [
        # pydantic's order: the set's metadata written after its cases
        {
            "eval_set_id": "s",
            "name": "N",
            "description": "D",
            "eval_cases": "CASES",
            "metadata": {"a": 1},
        },
        # hand-written: fields of the set's own and unknown ones after the cases
        {"eval_set_id": "s", "eval_cases": "CASES", "zeta": [1, {"b": 2}], "name": "N"},
        {"eval_set_id": "s", "description": "D", "eval_cases": "CASES"},
    ],
)
def test_the_scan_and_stream_keep_each_case_s_id_name_and_tags_and_hash_the_file_as_loading(
    tmp_path: Path, data: dict[str, Any]
) -> None:
    cases = [
        _case("a", name="first", tags=["x", "y"]),
        _case("b", metadata={"repeats": 2}),
        # a 10xGraph shorthand: a bare string message (loading expands it)
        {"eval_id": "c", "conversation": [{"user_content": "plain"}], "tags": ["y"]},
    ]
    path = _write(tmp_path, {k: cases if v == "CASES" else v for k, v in data.items()})

    walked = _walk(path)
    loaded = EvalSet.from_file(path)

    assert walked is not None
    found, sha256 = walked
    assert sha256 == eval_set_sha256(loaded)
    assert found.scanned.eval_cases == [
        ScannedCase(c.eval_id, c.name, tuple(c.tags)) for c in loaded.eval_cases
    ]
    head = found.scanned.model_dump(exclude={"eval_cases"})
    assert head == loaded.model_dump(exclude={"eval_cases"})


@pytest.mark.parametrize(
    "data",
    [
        {"name": "no id", "eval_cases": [_case("a")]},
        {"eval_cases": [_case("a")], "eval_set_id": "s"},  # its id after its cases
        {"eval_set_id": "s", "eval_cases": [_case("a"), _case("a")]},  # a repeated id
        {"eval_set_id": "s", "eval_cases": [_case("a"), "not a case"]},
        {"eval_set_id": "s", "eval_cases": []},
        {"eval_set_id": "s", "eval_cases": None},
        {"eval_set_id": 5, "eval_cases": [_case("a")]},
        # a field sorted before the cases (so hashed before them), written after them
        {"eval_set_id": "s", "eval_cases": [_case("a")], "description": "late"},
    ],
)
def test_what_the_scan_does_not_read_exactly_is_left_to_loading(
    tmp_path: Path, data: dict[str, Any]
) -> None:
    assert _walk(_write(tmp_path, data)) is None


def test_a_case_that_does_not_build_stops_the_stream_with_loading_s_error(
    tmp_path: Path,
) -> None:
    bad = {"eval_id": "b", "conversation": 3}
    path = _write(tmp_path, {"eval_set_id": "s", "eval_cases": [_case("a"), bad]})
    with pytest.raises(EvalFileError) as loading:
        EvalSet.from_file(path)

    with pytest.raises(EvalFileError) as streaming:
        _walk(path)

    assert str(streaming.value) == str(loading.value)


def test_the_scan_checks_every_case_with_the_set_it_belongs_to(tmp_path: Path) -> None:
    path = _write(tmp_path, {"eval_set_id": "s", "eval_cases": [_case("a"), _case("b")]})
    seen: list[tuple[str, str]] = []

    def check(eval_set: EvalSet, case: EvalCase) -> None:
        seen.append((eval_set.eval_set_id, case.eval_id))
        if case.eval_id == "b":
            raise ValueError("bad repeats in b")

    with pytest.raises(ValueError, match="bad repeats in b"):
        scan_eval_set(path, check)
    assert seen == [("s", "a"), ("s", "b")]


def test_the_wanted_cases_come_in_file_order_each_built_when_the_run_takes_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cases = [_case(f"c{i}") for i in range(10)]
    path = _write(tmp_path, {"eval_set_id": "s", "eval_cases": cases})
    built: list[str] = []
    real = case_stream.build_case

    def counting(data: Any) -> EvalCase:
        built.append(data["eval_id"])
        return real(data)

    monkeypatch.setattr(case_stream, "build_case", counting)
    found = scan_eval_set(path)
    assert found is not None and built == []  # the scan builds none
    stream = iter(HashingStream(found, {"c7", "c2", "c5"}))

    first = next(stream)
    # nothing built ahead of its turn (the others are built too: the file's hash has them)
    assert (first.eval_id, built) == ("c2", ["c0", "c1", "c2"])
    rest = list(stream)

    assert [c.eval_id for c in rest] == ["c5", "c7"]
    assert built == [f"c{i}" for i in range(10)]
    loaded = {c.eval_id: c for c in EvalSet.from_file(path).eval_cases}
    assert first.model_dump(exclude={"conversation": {0: {"invocation_id"}}}) == loaded[
        "c2"
    ].model_dump(exclude={"conversation": {0: {"invocation_id"}}})


async def _echo(message: str, trace: object) -> str:
    return message


async def test_a_streamed_case_is_hashed_once_and_its_result_holds_that_hash(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tenxeval_tui.evaluation import (
        AgentEvaluator,
        EvalCaseResult,
        EvalConfig,
        RunObserver,
        create_eval_app,
    )
    from tenxeval_tui.evaluation.eval_result import CASE_SHA256_KEY
    from tenxeval_tui.evaluation.provenance import hashing

    path = _write(tmp_path, {"eval_set_id": "s", "eval_cases": [_case(f"c{i}") for i in range(4)]})
    expected = {c.eval_id: hashing.case_sha256(c) for c in EvalSet.from_file(path).eval_cases}
    hashed: list[str] = []
    real = hashing.case_content

    def counting(case: EvalCase) -> dict[str, Any]:
        hashed.append(case.eval_id)
        return real(case)

    monkeypatch.setattr(hashing, "case_content", counting)
    monkeypatch.setattr(case_stream, "case_content", counting)
    found = scan_eval_set(path)
    assert found is not None
    stream = HashingStream(found, {"c1", "c3"})
    config = EvalConfig.model_validate({"criteria": {}, "reporter": {"enabled": False}})
    app, collector = create_eval_app(_echo)
    ended: list[EvalCaseResult] = []

    class Ends(RunObserver):
        def on_case_end(self, result: EvalCaseResult) -> None:
            ended.append(result)

    evaluator = AgentEvaluator(app, collector, config, observers=[Ends()])
    await evaluator.evaluate_stream(found.scanned, stream, found.scanned.eval_cases)

    assert sorted(hashed) == ["c0", "c1", "c2", "c3"]  # each once: for the set, then kept
    assert {r.eval_id: r.metadata[CASE_SHA256_KEY] for r in ended} == {
        "c1": expected["c1"],
        "c3": expected["c3"],
    }
    assert stream.sha256 == eval_set_sha256(EvalSet.from_file(path))


def test_a_noted_case_hash_is_taken_once_and_only_by_that_case() -> None:
    from tenxeval_tui.evaluation.canonical import canonical_json
    from tenxeval_tui.evaluation.provenance.hashing import (
        case_content,
        case_sha256,
        note_case_sha256,
        read_case_sha256,
    )

    case = EvalCase.single_turn("a", "hi", "hello")
    twin = case.model_copy(deep=True)
    note_case_sha256(case, canonical_json(case_content(case)))
    case.conversation[0].user_content.content = "changed after the read"
    assert read_case_sha256(twin) == case_sha256(twin)  # another object: hashed now
    # the noted one is the case as read; once taken, the case is hashed again
    assert read_case_sha256(case) == case_sha256(twin) != case_sha256(case)
    assert read_case_sha256(case) == case_sha256(case)
