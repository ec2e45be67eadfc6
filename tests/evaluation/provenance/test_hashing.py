"""Content hashes of cases, eval sets and configs: stable across layout, moved by content."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tenxeval_tui.evaluation import EvalCase, EvalConfig, EvalSet
from tenxeval_tui.evaluation.canonical import canonical_json
from tenxeval_tui.evaluation.config.criterion_config import CriterionConfig
from tenxeval_tui.evaluation.provenance import (
    case_fingerprint,
    case_sha256,
    config_sha256,
    eval_set_sha256,
    judge_models,
)

CASE = {
    "eval_id": "paris",
    "name": "Paris weather",
    "conversation": [
        {
            "user_content": {"role": "user", "content": "Weather in Paris?"},
            "expected_final_response": {"role": "assistant", "content": "Sunny"},
        }
    ],
    "tags": ["smoke"],
}


def _set_file(folder: Path, name: str, cases: list[dict[str, object]], indent: int | None) -> Path:
    path = folder / name
    path.write_text(json.dumps({"eval_set_id": "weather", "eval_cases": cases}, indent=indent))
    return path


def test_a_case_hashes_the_same_whatever_the_files_layout_and_key_order(tmp_path: Path) -> None:
    reordered = dict(reversed(list(CASE.items())))
    spelled_out = {**CASE, "description": "", "metadata": {}}  # defaults written out
    files = [
        _set_file(tmp_path, "a.evalset.json", [CASE], indent=2),
        _set_file(tmp_path, "b.evalset.json", [reordered], indent=None),
        _set_file(tmp_path, "c.evalset.json", [spelled_out], indent=4),
    ]
    sets = [EvalSet.from_file(f) for f in files]
    assert len({case_sha256(s.eval_cases[0]) for s in sets}) == 1
    assert len({eval_set_sha256(s) for s in sets}) == 1
    assert len(case_sha256(sets[0].eval_cases[0])) == 64


def test_a_changed_field_changes_the_case_hash_and_the_sets_not_the_others(tmp_path: Path) -> None:
    other = {**CASE, "eval_id": "oslo"}
    before = EvalSet.from_file(_set_file(tmp_path, "a.evalset.json", [CASE, other], indent=2))
    edited = json.loads(json.dumps(CASE))
    edited["conversation"][0]["expected_final_response"]["content"] = "Rainy"
    after = EvalSet.from_file(_set_file(tmp_path, "b.evalset.json", [edited, other], indent=2))
    assert case_sha256(before.eval_cases[0]) != case_sha256(after.eval_cases[0])
    assert case_sha256(before.eval_cases[1]) == case_sha256(after.eval_cases[1])
    assert eval_set_sha256(before) != eval_set_sha256(after)


def test_the_config_hash_ignores_where_reports_go_and_how_many_run_at_once() -> None:
    base = EvalConfig.default()
    elsewhere = base.model_copy(deep=True)
    elsewhere.reporter.output_dir = "/somewhere/else"
    elsewhere.max_concurrency = 17
    elsewhere.parallel = not base.parallel
    assert config_sha256(elsewhere) == config_sha256(base)
    assert config_sha256(base.model_dump(mode="json")) == config_sha256(base)
    stricter = base.model_copy(deep=True)
    stricter.repeats = 3
    assert config_sha256(stricter) != config_sha256(base)
    lower = EvalConfig.model_validate({"criteria": {"rouge_match": {"threshold": 0.1}}})
    higher = EvalConfig.model_validate({"criteria": {"rouge_match": {"threshold": 0.9}}})
    assert config_sha256(lower) != config_sha256(higher)


def test_judge_models_are_resolved_as_the_run_resolves_them() -> None:
    config = EvalConfig.model_validate({"criteria": {"rouge_match": {}}})
    config.criteria.llm_judge = CriterionConfig(judge_model="judge-a")
    config.criteria.hallucination = CriterionConfig()
    env = {"TENXEVAL_JUDGE_MODEL": "judge-from-env"}
    assert judge_models(config, env) == {
        "final_response_match_v2": "judge-a",
        "hallucinations_v1": "judge-from-env",
    }
    assert judge_models(config, {}) == {"final_response_match_v2": "judge-a"}


def test_a_fingerprint_moves_with_each_of_its_parts() -> None:
    base = ("c" * 64, "a" * 64, "f" * 64, {"x": "judge-a"})
    one = case_fingerprint(*base)
    assert case_fingerprint(*base) == one
    assert case_fingerprint("d" * 64, *base[1:]) != one
    assert case_fingerprint(base[0], "b" * 64, *base[2:]) != one
    assert case_fingerprint(*base[:2], "e" * 64, base[3]) != one
    assert case_fingerprint(*base[:3], {"x": "judge-b"}) != one
    assert case_fingerprint(*base, cassette_sha256="1" * 64) != one
    assert case_fingerprint(*base[:3], {}) != case_fingerprint(*base[:3], {"x": ""})


def test_case_hash_of_a_case_built_in_python_matches_the_file_it_is_saved_to(
    tmp_path: Path,
) -> None:
    case = EvalCase.single_turn("paris", "Weather in Paris?", "Sunny", tags=["smoke"])
    path = tmp_path / "saved.evalset.json"
    EvalSet(eval_set_id="weather", eval_cases=[case]).to_file(path)
    assert case_sha256(EvalSet.from_file(path).eval_cases[0]) == case_sha256(case)


ODD_VALUES = [
    {"b": 1, "a": [1.5, 1e16, -0.0, 2**70, None, True], "é": '\u2028 "q" \ud800 ü'},
    [{"z": {"y": {}}, "x": []}, "", 0],
    "plain",
]


def test_canonical_json_is_json_s_own_sorted_compact_text(monkeypatch: pytest.MonkeyPatch) -> None:
    expected = [
        json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode(
            "utf-8", errors="surrogatepass"
        )
        for value in ODD_VALUES
    ]
    made: list[object] = []
    real_init = json.JSONEncoder.__init__

    def counted(self: json.JSONEncoder, *args: Any, **kwargs: Any) -> None:
        made.append(self)
        real_init(self, *args, **kwargs)

    # Every case of a run is hashed: one encoder serves every call.
    monkeypatch.setattr(json.JSONEncoder, "__init__", counted)
    assert [canonical_json(value) for value in ODD_VALUES] == expected
    assert made == []


def test_canonical_json_raises_as_json_does_and_the_next_call_is_unharmed() -> None:
    loop: list[object] = []
    loop.append(loop)
    shared = [1]
    for _ in range(2):  # a failed call leaves nothing behind that fails the next one
        with pytest.raises(ValueError, match="Circular reference"):
            canonical_json({"a": [loop]})
        with pytest.raises(TypeError, match="not JSON serializable"):
            canonical_json({"a": shared, "b": object()})
        # the list the failed call was inside is no circular reference now
        assert canonical_json({"a": shared, "b": [shared]}) == b'{"a":[1],"b":[[1]]}'
