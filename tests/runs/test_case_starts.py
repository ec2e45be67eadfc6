"""A run's parent makes a started case of its ids alone when none of its observers reads
more (runs/case_starts.py), and the whole case of one its child left running."""

from __future__ import annotations

import io
import re
from typing import Any

import pytest

from tenxeval_tui.evaluation.dataset import EvalCase
from tenxeval_tui.evaluation.eval_result import EVAL_SET_ID_KEY, EvalCaseResult
from tenxeval_tui.evaluation.observers import JsonLinesObserver, RunObserver
from tenxeval_tui.evaluation.provenance.hashing import case_sha256
from tenxeval_tui.runs.child_run import _Follower
from tenxeval_tui.runs.journal_guard import KeptResults

FIRST = EvalCase.multi_turn("c1", [("hello", None), ("and then?", "bye")], name="two turns")
SECOND = EvalCase.single_turn("c2", "caf\u00e9 \u2603", "ok")


class _Ids(RunObserver):
    reads_case_ids = True

    def __init__(self) -> None:
        self.started: list[tuple[str, EvalCase]] = []

    def on_case_start(self, eval_set_id: str, case: EvalCase) -> None:
        self.started.append((eval_set_id, case))


class _Whole(_Ids):
    reads_case_ids = False


def _follow(observers: list[RunObserver]) -> _Follower:
    """The child's lines of two cases started, the first ended, read by a follower."""
    lines: list[str] = []
    writer = JsonLinesObserver(lines.append)
    writer.on_case_start("s", FIRST)
    writer.on_case_start("s", SECOND)
    writer.on_case_end(EvalCaseResult(eval_id="c1", passed=True, metadata={EVAL_SET_ID_KEY: "s"}))
    follower = _Follower(object(), observers, None, KeptResults())  # type: ignore[arg-type]
    follower.pump(io.BytesIO("".join(lines).encode()))
    return follower


def _content(case: EvalCase) -> str:
    return re.sub(r"invocation_id='[^']*'", "", repr(case))  # a fresh uuid a load


def test_a_reader_of_case_ids_gets_cases_made_of_their_ids(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Every case made whole (its turns' models, a uuid a turn) as it started was a tenth
    # of the run parent's CPU a case, for a progress line that shows its id (issue #38).
    made: list[Any] = []
    multi_turn = EvalCase.multi_turn.__func__  # type: ignore[attr-defined]

    def counted(cls: type[EvalCase], *args: Any, **kwargs: Any) -> EvalCase:
        made.append(args)
        return multi_turn(cls, *args, **kwargs)  # type: ignore[no-any-return]

    monkeypatch.setattr(EvalCase, "multi_turn", classmethod(counted))
    seen = _Ids()
    _follow([seen])
    assert [(s, c.eval_id, c.name, c.conversation) for s, c in seen.started] == [
        ("s", "c1", "two turns", []),
        ("s", "c2", "", []),
    ]
    assert made == []


def test_a_case_left_running_is_made_whole_from_its_line() -> None:
    whole = _follow([_Whole()]).in_flight.cases()
    named = _follow([_Ids()]).in_flight.cases()
    assert [s for s, _ in named] == [s for s, _ in whole] == ["s"]
    (_, case), (_, before) = named[0], whole[0]
    assert case.eval_id == "c2" and [t.user_content.content for t in case.conversation] == [
        "caf\u00e9 \u2603"
    ]
    assert _content(case) == _content(before)
    assert case_sha256(case) == case_sha256(before) == case_sha256(SECOND)


def test_an_observer_that_reads_more_gets_whole_cases() -> None:
    ids, whole = _Ids(), _Whole()
    _follow([ids, whole])
    assert [_content(c) for _, c in whole.started] == [_content(c) for c in (FIRST, SECOND)]
    assert [_content(c) for _, c in ids.started] == [_content(c) for _, c in whole.started]
