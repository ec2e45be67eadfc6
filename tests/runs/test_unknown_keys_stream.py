"""``run``'s check for keys nothing reads goes through an eval set a case at a time
(runs/unknown_keys_stream.py): the same problems at the same places as the whole file's
check, without parsing the file whole."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tenxeval_tui.cli.unknown_keys import unknown_key_problems
from tenxeval_tui.evaluation import unknown_keys as whole_file_check
from tenxeval_tui.evaluation.unknown_keys import unknown_keys_in_file
from tenxeval_tui.runs import json_stream
from tenxeval_tui.runs.plan import RunPlan
from tenxeval_tui.runs.unknown_keys_stream import eval_set_key_problems


def _case(index: int, typo: bool) -> dict[str, object]:
    case: dict[str, object] = {
        "eval_id": f"c{index}",
        "conversation": [
            {
                "user_content": {"role": "user", "content": f"ünïcode → {index}"},
                "expected_final_response": {"role": "assistant", "content": "Paris"},
            }
        ],
        "metadata": {"tagz": "free-form: not checked"},
    }
    if typo:
        case["tagz"] = ["smoke"]
        case["conversation"][0]["expected_tool_use"] = [{"name": "x", "argz": {}}]  # type: ignore[index]
    return case


EVAL_SET = {
    "$schema": "https://example.invalid/evalset.schema.json",
    "eval_set_id": "s",
    "nmae": "a typo before the cases",
    "eval_cases": [_case(i, typo=i % 3 == 1) for i in range(9)],
    "descriptoin": "a typo after them",
}


@pytest.mark.parametrize(
    "layout",
    [
        {"indent": 2},
        {"indent": None},
        {"indent": 4, "ensure_ascii": False},
        {"indent": None, "separators": (",", ":")},
    ],
)
@pytest.mark.parametrize("window", [7, 64, 1 << 20])
def test_the_same_problems_as_the_whole_files_check(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, layout: dict[str, object], window: int
) -> None:
    monkeypatch.setattr(json_stream, "_CHUNK", window)  # items cut by the reader's window
    path = tmp_path / "typos.evalset.json"
    path.write_text(json.dumps(EVAL_SET, **layout), encoding="utf-8")  # type: ignore[arg-type]

    streamed = eval_set_key_problems(path)
    whole = unknown_keys_in_file(path)

    assert [str(p) for p in streamed] == [str(p) for p in whole]
    assert len(whole) == 2 + 2 * 3  # nmae, descriptoin; tagz, expected_tool_use in 3 cases
    strict = eval_set_key_problems(path, severity="error")
    assert strict[0].message.startswith("error: unknown key 'nmae'")


def test_a_file_the_reader_does_not_read_exactly_is_checked_whole(tmp_path: Path) -> None:
    path = tmp_path / "nan.evalset.json"
    data = {**EVAL_SET, "eval_cases": [{**_case(1, typo=True), "score": "NaN"}]}
    path.write_text(json.dumps(data).replace('"NaN"', "NaN"), encoding="utf-8")
    assert [str(p) for p in eval_set_key_problems(path)] == [
        str(p) for p in unknown_keys_in_file(path)
    ]


def test_runs_check_never_parses_an_eval_set_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "typos.evalset.json"
    path.write_text(json.dumps(EVAL_SET, indent=2), encoding="utf-8")
    expected = [str(p) for p in unknown_keys_in_file(path)]

    def whole_parse(text: str) -> object:
        raise AssertionError("the eval set was parsed whole")

    monkeypatch.setattr(whole_file_check.json, "loads", whole_parse)
    plan = RunPlan(agent="a:b", eval_sets=[path])
    assert [str(p) for p in unknown_key_problems(plan)] == expected
