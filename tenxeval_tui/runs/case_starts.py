"""Started cases made of their ids, for a reader that shows a running case by its id alone.

A worker's ``case_start`` line holds the case's user turns and expected reply, for a
reader that shows a transcript, or for a case still running when the worker died (its
error result names the case's content hash). ``tenxeval-tui run``'s parent shows a running
case by its id (its progress, the pass's clock; its deadlines: id and name), yet made every
case whole as it started: its models, a fresh uuid a turn, a tenth of the parent's CPU a
case (issue #38). When every observer it feeds says it reads no more
(:func:`reads_case_ids`: an observer's class sets ``reads_case_ids = True``), each case is
made of its id and name (:func:`named_case`), and the line's data is kept while the case
runs: the whole case is made of it only for a case the child left running when it died.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from tenxeval_tui.evaluation.dataset import EvalCase


def reads_case_ids(observers: Iterable[object]) -> bool:
    """Whether every one of ``observers`` reads only the ``eval_id`` and ``name`` of a
    started case (its class says so: ``reads_case_ids = True``)."""
    return all(getattr(observer, "reads_case_ids", False) is True for observer in observers)


def named_case(data: dict[str, Any]) -> EvalCase:
    """The case of a ``case_start`` line's ``data`` by its id and name alone."""
    return EvalCase(eval_id=str(data["eval_id"]), name=str(data.get("name", "")))


__all__ = ["named_case", "reads_case_ids"]
