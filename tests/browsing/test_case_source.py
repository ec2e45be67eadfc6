"""The expected node orders a report's case view reads from the eval set files: found by the
file's eval set id, each file read once per version, the last answer known at once."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from tenxeval_tui.browsing.case_source import FileNodeOrders
from tenxeval_tui.evaluation.dataset.eval_set import EvalSet


def write_set(path: Path, set_id: str, orders: dict[str, list[str]]) -> Path:
    cases = [
        {
            "eval_id": eval_id,
            "conversation": [
                {
                    "user_content": {"role": "user", "content": f"{eval_id}?"},
                    "expected_node_order": nodes,
                }
            ],
        }
        for eval_id, nodes in orders.items()
    ]
    path.write_text(json.dumps({"eval_set_id": set_id, "eval_cases": cases}), encoding="utf-8")
    return path


@pytest.fixture
def loads(monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    """The eval set files loaded whole, in order."""
    loaded: list[Path] = []
    real = EvalSet.from_file.__func__  # type: ignore[attr-defined]

    def from_file(cls: type[EvalSet], path: Any, *args: Any, **kwargs: Any) -> EvalSet:
        loaded.append(Path(path))
        result: EvalSet = real(cls, path, *args, **kwargs)
        return result

    monkeypatch.setattr(EvalSet, "from_file", classmethod(from_file))
    return loaded


def test_a_file_is_read_once_per_version(tmp_path: Path, loads: list[Path]) -> None:
    other = write_set(tmp_path / "a.evalset.json", "other", {"x": ["a"]})
    path = write_set(tmp_path / "w.evalset.json", "weather", {"rome": ["agent", "answer"]})
    files = [other, path]
    orders = FileNodeOrders()
    assert orders.find(files, "weather", "rome") == (["agent", "answer"], path)
    assert orders.find(files, "weather", "rome") == (["agent", "answer"], path)
    assert orders.find(files, "weather", "paris") is None  # no such case
    assert loads == [path]  # the other file's id was read, the file never loaded whole
    write_set(path, "weather", {"rome": ["agent", "tools", "answer"], "paris": ["agent"]})
    os.utime(path, ns=(path.stat().st_atime_ns, path.stat().st_mtime_ns + 1_000_000))
    assert orders.find(files, "weather", "rome") == (["agent", "tools", "answer"], path)
    assert orders.find(files, "weather", "paris") == (["agent"], path)
    assert loads == [path, path]


def test_the_last_answer_is_known_without_a_look_at_the_files(tmp_path: Path) -> None:
    path = write_set(tmp_path / "w.evalset.json", "weather", {"rome": ["a"], "oslo": ["b"]})
    orders = FileNodeOrders()
    assert orders.known("weather", "oslo") is None  # nothing read yet
    orders.find([path], "weather", "rome")
    path.unlink()
    assert orders.known("weather", "oslo") == (["b"], path)
    assert orders.known("weather", "nowhere") is None
    assert orders.known("other", "oslo") is None
    assert orders.find([path], "weather", "oslo") is None  # the file is gone
    assert orders.known("weather", "oslo") is None


def test_no_file_a_broken_file_or_a_scenario_file_gives_no_order(tmp_path: Path) -> None:
    broken = tmp_path / "broken.evalset.json"
    broken.write_text('{"eval_set_id": "weather", "eval_cases": [,]}', encoding="utf-8")
    scenarios = tmp_path / "trips.scenarios.json"
    scenarios.write_text('{"scenarios": []}', encoding="utf-8")
    empty = write_set(tmp_path / "e.evalset.json", "empty", {"rome": []})
    orders = FileNodeOrders()
    assert orders.find([broken], "weather", "rome") is None
    assert orders.find([scenarios], "trips", "rome") is None
    assert orders.find([empty], "empty", "rome") is None  # no order expected there
    assert orders.find([], "weather", "rome") is None
