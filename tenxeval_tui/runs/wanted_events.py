"""The protocol's JSON lines with only the events their reader wants.

A worker streams every observer call of its run (:class:`JsonLinesObserver`): the live
views (the run screen, ``--watch``) show each event of each case. ``tenxeval-tui run``
shows cases, not steps: it read the event lines, several a case, only to throw them
away, and their encoding, writing and reading were a fifth of a zero-latency case's
cost. A plan whose ``events`` is ``"judging"`` (:class:`~tenxeval_tui.runs.plan.RunPlan`)
gets only the events saying a case is being scored, which ``run``'s deadline watch reads
(:func:`~tenxeval_tui.runs.case_deadlines.judging_case`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Literal

from tenxeval_tui.evaluation.dataset.eval_set import EvalCase, EvalSet
from tenxeval_tui.evaluation.events import EventModel
from tenxeval_tui.evaluation.observers import JsonLinesObserver
from tenxeval_tui.evaluation.results.json_stream import json_object_text

WantedEvents = Literal["all", "judging"]


def is_judging(event: EventModel) -> bool:
    """Whether ``event`` says its case is being scored (the evaluator's progress event)."""
    return isinstance(event.data.get("judging"), list)


class WantedJsonLinesObserver(JsonLinesObserver):
    """A :class:`JsonLinesObserver` writing only the ``events`` its reader wants."""

    def __init__(self, write: Callable[[str], Any], *, events: WantedEvents = "all") -> None:
        super().__init__(write)
        self.judging_only = events == "judging"

    def on_run_start(self, eval_set: EvalSet, cases: Sequence[EvalCase]) -> None:
        # The same line, the text of its ids made a block at a time: a list of every id
        # of a big run is never built to be encoded.
        head = {
            "type": "run_start",
            "eval_set_id": eval_set.eval_set_id,
            "eval_set_name": eval_set.name,
        }
        ids = (case.eval_id for case in cases)
        self._write(json_object_text(head, "eval_ids", ids) + "\n")
        if self._flush is not None:
            self._flush()

    def on_event(self, eval_set_id: str, eval_id: str, event: EventModel) -> None:
        if self.judging_only and not is_judging(event):
            return
        super().on_event(eval_set_id, eval_id, event)

    def on_repeat_event(
        self, eval_set_id: str, eval_id: str, repeat: int, event: EventModel
    ) -> None:
        if self.judging_only and not is_judging(event):
            return
        super().on_repeat_event(eval_set_id, eval_id, repeat, event)


__all__ = ["WantedEvents", "WantedJsonLinesObserver", "is_judging"]
