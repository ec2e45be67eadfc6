"""An interrupt while a worker child is set up stops the run as one during it does."""

from __future__ import annotations

import signal
from pathlib import Path
from typing import Any

import pytest

from tenxeval_tui.evaluation import EvalCase, EvalSet
from tenxeval_tui.runs import child_run
from tenxeval_tui.runs.held_interrupts import HeldInterrupts
from tenxeval_tui.runs.plan import RunPlan

AGENT = """
async def agent(message, trace):
    return message
"""


def test_a_signal_with_a_python_handler_is_noted_and_the_handler_put_back() -> None:
    before = signal.getsignal(signal.SIGINT)
    with HeldInterrupts() as held:
        signal.raise_signal(signal.SIGINT)  # would raise KeyboardInterrupt
        assert held.pending
    assert signal.getsignal(signal.SIGINT) is before
    with pytest.raises(KeyboardInterrupt):
        signal.raise_signal(signal.SIGINT)


def test_a_signal_left_to_the_system_stays_so() -> None:
    before = signal.signal(signal.SIGTERM, signal.SIG_IGN)
    try:
        with HeldInterrupts() as held:
            assert signal.getsignal(signal.SIGTERM) == signal.SIG_IGN
            signal.raise_signal(signal.SIGTERM)
        assert not held.pending
        assert signal.getsignal(signal.SIGTERM) == signal.SIG_IGN
    finally:
        signal.signal(signal.SIGTERM, before)


def test_ctrl_c_between_the_childs_start_and_its_lines_stops_the_run_and_returns(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "echo.py").write_text(AGENT, encoding="utf-8")
    cases = [EvalCase.single_turn(f"c{i}", f"m{i}", f"m{i}") for i in range(3)]
    EvalSet(eval_set_id="e", eval_cases=cases).to_file(tmp_path / "e.evalset.json")
    plan = RunPlan(
        agent="echo:agent",
        eval_sets=[tmp_path / "e.evalset.json"],
        output_dir=tmp_path / "out",
        search_path=tmp_path,
    )
    follower_class = child_run._Follower

    def follower_then_ctrl_c(*args: Any, **kwargs: Any) -> Any:
        follower = follower_class(*args, **kwargs)
        signal.raise_signal(signal.SIGINT)  # the child runs: its lines are not followed yet
        return follower

    monkeypatch.setattr(child_run, "_Follower", follower_then_ctrl_c)

    try:
        outcome = child_run.run_in_child(plan, [])
    except KeyboardInterrupt:  # the command then ended with nothing reported
        pytest.fail("the interrupt escaped run_in_child")

    assert outcome.interrupted
    assert outcome.status is not None  # the child was waited for, not left running


class _InterruptedRead:
    """A journal tail whose read is interrupted by Ctrl-C half-way (the case line's offset
    taken, its case not yet): ``whole`` says whether the read got to its end."""

    def __init__(self) -> None:
        self.whole = False

    def read_new(self) -> None:
        signal.raise_signal(signal.SIGINT)  # the handler runs here
        self.whole = True


def test_ctrl_c_while_the_journal_is_read_is_raised_once_the_read_is_whole(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A Ctrl-C right after the first case's line (when the parent reads its case in the
    journal) lost that case: the run ended interrupted with nothing to report, nor a
    journal to resume (tests/cli/test_run.py's interrupted runs, about one in three)."""
    tail = _InterruptedRead()
    follower = child_run._Follower.__new__(child_run._Follower)  # the tail's part of it
    follower.tail, follower._tail_read = tail, float("-inf")  # type: ignore[assignment]
    with pytest.raises(KeyboardInterrupt):
        follower._follow_journal()
    assert tail.whole
