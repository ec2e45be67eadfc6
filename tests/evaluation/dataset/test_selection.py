"""CaseSelection: one way to choose cases by id and tag, for every front end."""

from __future__ import annotations

from pathlib import Path

import pytest

from tenxeval_tui.evaluation import EvalCase, EvalSet
from tenxeval_tui.evaluation.dataset.selection import CaseSelection
from tenxeval_tui.evaluation.testing import parametrize_eval_cases

ROOT = Path(__file__).resolve().parents[3]
WEATHER = ROOT / "sample_evals/weather_graph.evalset.json"


def cases() -> list[EvalCase]:
    tagged = {"a": ["smoke", "tools"], "b": ["tools"], "c": ["smoke"], "d": []}
    return [EvalCase.single_turn(i, "q", "r", tags=t) for i, t in tagged.items()]


def ids(selection: CaseSelection) -> list[str]:
    return [c.eval_id for c in selection.cases(cases())]


def test_the_empty_selection_selects_every_case_and_filters_nothing() -> None:
    assert ids(CaseSelection()) == ["a", "b", "c", "d"]
    assert not CaseSelection().filters
    assert CaseSelection(tags=("x",)).filters and CaseSelection(eval_ids=()).filters


def test_every_tag_or_one_of_them() -> None:
    assert ids(CaseSelection(tags=("smoke", "tools"))) == ["a"]
    assert ids(CaseSelection(tags=("smoke", "tools"), every_tag=False)) == ["a", "b", "c"]


def test_ids_and_tags_both_apply_in_file_order() -> None:
    assert ids(CaseSelection(eval_ids=("c", "a", "b"), tags=("smoke",))) == ["a", "c"]
    assert ids(CaseSelection(eval_ids=())) == []


def test_narrowed_keeps_only_ids_both_allow() -> None:
    base = CaseSelection(eval_ids=("a", "b"), tags=("tools",))
    assert ids(base.narrowed(["b", "c"])) == ["b"]
    assert base.narrowed(None) is base
    assert ids(CaseSelection().narrowed(["d"])) == ["d"]


def test_unknown_ids_and_a_round_trip_through_json() -> None:
    selection = CaseSelection(eval_ids=("z", "a", "y"), tags=("t",), every_tag=False)
    assert selection.unknown_ids(cases()) == ["y", "z"]
    assert CaseSelection.model_validate_json(selection.model_dump_json()) == selection


def test_filter_by_tags_is_the_every_tag_selection() -> None:
    eval_set = EvalSet(eval_set_id="s", eval_cases=cases())
    assert [c.eval_id for c in eval_set.filter_by_tags(["smoke"])] == ["a", "c"]


def parametrized_ids(decorator: object) -> list[str]:
    def test(eval_case: EvalCase) -> None: ...

    marked = decorator(test)  # type: ignore[operator]
    (mark,) = [m for m in marked.pytestmark if m.name == "parametrize"]
    return [case.eval_id for case in mark.args[1]]


def test_parametrize_eval_cases_selects_as_run_does() -> None:
    every = parametrized_ids(parametrize_eval_cases(str(WEATHER)))
    assert len(every) == 9
    smoke = parametrized_ids(parametrize_eval_cases(str(WEATHER), tags=["smoke", "tools"]))
    assert smoke == ["paris_weather"]
    chosen = parametrized_ids(parametrize_eval_cases(str(WEATHER), cases=["greeting", "off_topic"]))
    assert chosen == ["greeting", "off_topic"]


def test_parametrize_eval_cases_names_an_unknown_case() -> None:
    with pytest.raises(ValueError, match=r"weather_graph.evalset.json: no case 'nope'"):
        parametrize_eval_cases(str(WEATHER), cases=["nope"])
