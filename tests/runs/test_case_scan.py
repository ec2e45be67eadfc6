"""The run parent's light pass over its eval sets (runs/case_scan.py): the ids, names and
tags of the cases as loading gives them, without the cases; whatever it cannot read is
loaded whole, with loading's precise error."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tenxeval_tui.evaluation.dataset.eval_set import EvalSet
from tenxeval_tui.evaluation.dataset.selection import CaseSelection
from tenxeval_tui.evaluation.errors import EvalFileError
from tenxeval_tui.evaluation.simulators.scenario_sets import is_scenario_eval_set
from tenxeval_tui.runs.case_scan import (
    ScannedCase,
    ScannedCases,
    ScannedSet,
    SetScan,
    scan_run_file,
    scan_run_files,
)
from tenxeval_tui.runs.plan import RunPlan, select
from tenxeval_tui.runs.unknown_keys_stream import eval_set_key_problems


def _case(eval_id: str, **extra: object) -> dict[str, object]:
    return {
        "eval_id": eval_id,
        "conversation": [
            {
                "user_content": {"role": "user", "content": f"hi {eval_id}"},
                "expected_final_response": {"role": "assistant", "content": "hello"},
            }
        ],
        **extra,
    }


def _write(tmp_path: Path, data: object, name: str = "s.evalset.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def test_a_scan_holds_what_loading_gives_of_each_case_but_not_the_case(tmp_path: Path) -> None:
    cases = [
        _case("a", name="first", tags=["x", "y"]),
        _case("b"),
        _case("c", tags=["y"], metadata={"big": list(range(50))}),
    ]
    path = _write(tmp_path, {"eval_set_id": "s1", "name": "Set", "eval_cases": cases})

    scanned = scan_run_file(path)
    loaded = EvalSet.from_file(path)

    assert (scanned.eval_set_id, scanned.name) == ("s1", "Set")
    assert [tuple(c) for c in scanned.eval_cases] == [
        (c.eval_id, c.name, tuple(c.tags)) for c in loaded.eval_cases
    ]
    assert all(isinstance(c, ScannedCase) for c in scanned.eval_cases)


def test_the_set_s_fields_written_after_its_cases_are_found(tmp_path: Path) -> None:
    path = _write(tmp_path, {"eval_cases": [_case("a")], "name": "Late", "eval_set_id": "late"})

    scanned = scan_run_file(path)

    assert (scanned.eval_set_id, scanned.name) == ("late", "Late")
    assert [c.eval_id for c in scanned.eval_cases] == ["a"]


@pytest.mark.parametrize(
    "text",
    [
        '{"eval_set_id": "s", "eval_cases": [{"eval_id": "a"},, ]}',  # not JSON
        json.dumps({"eval_set_id": "s", "eval_cases": [_case("a"), _case("a")]}),  # duplicate
        json.dumps({"eval_set_id": "s", "eval_cases": [_case("a", tags="x")]}),  # wrong type
        json.dumps({"eval_set_id": 3, "eval_cases": [_case("a")]}),  # wrong type
    ],
    ids=["not-json", "duplicate-id", "tags-not-a-list", "set-id-not-a-string"],
)
def test_a_file_that_does_not_load_gives_loading_s_own_error(tmp_path: Path, text: str) -> None:
    path = tmp_path / "bad.evalset.json"
    path.write_text(text, encoding="utf-8")

    with pytest.raises(EvalFileError) as loading:
        EvalSet.from_file(path)
    with pytest.raises(EvalFileError) as scanning:
        scan_run_file(path)

    assert str(scanning.value) == str(loading.value)
    assert str(path) in str(scanning.value)


def test_a_file_the_scan_cannot_read_exactly_is_loaded_whole_then_scanned(
    tmp_path: Path,
) -> None:
    # no eval_id: the scan does not guess it; the file is loaded, the case named by its place
    path = _write(
        tmp_path,
        {
            "eval_set_id": "s",
            "metadata": {"m": 1},
            "eval_cases": [{"conversation": [], "tags": ["t"]}],
        },
    )

    scanned = scan_run_file(path)

    assert isinstance(scanned, ScannedSet)
    assert scanned.metadata == {"m": 1}
    (case,) = scanned.eval_cases
    assert isinstance(case, ScannedCase)
    # the same id at every load (runs/stable_ids.py), not one the model made up
    assert (case.eval_id, case.tags) == ("case-1", ("t",))


def test_a_scenario_file_is_loaded_whole_then_scanned(tmp_path: Path) -> None:
    path = tmp_path / "chat.scenarios.json"
    path.write_text(
        json.dumps(
            {
                "scenario_set_id": "chats",
                "scenarios": [
                    {"scenario_id": "a", "starting_prompt": "hi", "conversation_plan": "greet"}
                ],
            }
        ),
        encoding="utf-8",
    )

    scanned = scan_run_file(path)

    assert isinstance(scanned, ScannedSet)
    assert [c.eval_id for c in scanned.eval_cases] == ["a"]
    assert all(isinstance(c, ScannedCase) for c in scanned.eval_cases)
    assert is_scenario_eval_set(scanned)  # its metadata kept: the parent checks its user


def test_a_missing_file_is_file_not_found(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        scan_run_file(tmp_path / "gone.evalset.json")


def test_scanned_cases_read_back_as_the_list_they_hold() -> None:
    cases = [
        ScannedCase(f"id{i}" * (i % 3), "named" if i % 5 == 0 else "", ("t",) * (i % 2))
        for i in range(2500)  # over two blocks of joined ids, and part of a third
    ]
    held = ScannedCases(cases)
    assert len(held) == len(cases) and list(held) == cases and held == cases
    assert list(held.ids()) == [case.eval_id for case in cases]
    assert [held[i] for i in range(-len(cases), len(cases))] == cases + cases
    assert held[1000:1100:3] == cases[1000:1100:3]
    with pytest.raises(IndexError):
        held[len(cases)]


def test_a_run_of_every_case_keeps_the_scan_s_cases_and_a_narrowed_one_its_own(
    tmp_path: Path,
) -> None:
    cases = [_case(f"c{i}", tags=["even"] if i % 2 == 0 else []) for i in range(10)]
    path = _write(tmp_path, {"eval_set_id": "s", "eval_cases": cases})
    scanned = [(path, scan_run_file(path))]
    plan = RunPlan(agent="a:b", eval_sets=[path])

    ((_, every),) = select(plan, scanned)
    assert every.eval_cases is scanned[0][1].eval_cases  # no second list of them

    narrowings: list[tuple[dict[str, object], list[str]]] = [
        ({"selection": CaseSelection(tags=("even",))}, [f"c{i}" for i in range(0, 10, 2)]),
        ({"limit": 3}, ["c0", "c1", "c2"]),
        ({"selection": CaseSelection(tags=("even",)), "limit": 2}, ["c0", "c2"]),
    ]
    for narrowed, ids in narrowings:
        ((_, some),) = select(plan.model_copy(update=narrowed), scanned)
        assert [case.eval_id for case in some.eval_cases] == ids


def test_an_id_held_twice_is_found_however_far_apart() -> None:
    ids = [f"c{i}" for i in range(3000)]
    assert ScannedCases(ScannedCase(i, "", ()) for i in ids).repeated_id() is None
    twice = [*ids[:2500], "c7", *ids[2500:]]
    assert ScannedCases(ScannedCase(i, "", ()) for i in twice).repeated_id() == "c7"


def test_a_scanned_set_dumps_its_cases_as_the_list_they_stand_for(tmp_path: Path) -> None:
    path = _write(tmp_path, {"eval_set_id": "s", "eval_cases": [_case("a", tags=["t"])]})
    scanned = scan_run_file(path)
    as_list = scanned.model_copy(update={"eval_cases": list(scanned.eval_cases)})
    assert isinstance(scanned.eval_cases, ScannedCases)
    assert scanned.model_dump(mode="json") == as_list.model_dump(mode="json")
    assert scanned.model_dump(mode="json")["eval_cases"] == [["a", "", ["t"]]]


def test_the_key_check_s_pass_gives_the_scan_of_the_file_it_reads(tmp_path: Path) -> None:
    """`run`'s parent reads each eval set once for its unknown keys and its scan."""
    cases = [_case("a", name="first", tags=["x"]), _case("b", tagz=["typo"]), _case("c")]
    path = _write(tmp_path, {"eval_set_id": "s1", "name": "Set", "eval_cases": cases})

    scan = SetScan()
    problems = eval_set_key_problems(path, scan=scan)

    assert problems == eval_set_key_problems(path) and "'tagz'" in str(problems[0])
    assert scan.result() == scan_run_file(path)
    known = scan.result()
    assert known is not None
    other = _write(tmp_path, {"eval_set_id": "s2", "eval_cases": [_case("z")]}, "o.evalset.json")
    (first, got), (second, scanned) = scan_run_files([path, other], {path: known})
    assert (first, second) == (path, other)
    assert got is known  # not read again
    assert [c.eval_id for c in scanned.eval_cases] == ["z"]


@pytest.mark.parametrize(
    "data",
    [
        {"eval_set_id": "s", "eval_cases": [{"conversation": [], "tagz": []}]},  # no id
        {"eval_set_id": "s", "eval_cases": [_case("a"), _case("a")]},  # an id twice
        {"eval_cases": [_case("a")]},  # no eval_set_id: the model makes one
    ],
)
def test_a_file_the_key_check_s_pass_cannot_scan_is_left_to_the_scan(
    tmp_path: Path, data: dict[str, object]
) -> None:
    path = _write(tmp_path, data)
    scan = SetScan()
    problems = eval_set_key_problems(path, scan=scan)
    assert problems == eval_set_key_problems(path)
    assert scan.result() is None  # scan_run_file loads it whole: the same set or error
