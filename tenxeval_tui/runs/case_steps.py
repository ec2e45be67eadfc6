"""What a running case is doing now: its steps in flight, from the worker's events (no UI).

A 10xGraph target announces each model call (``LLM_CALL`` ``START``) and tool call
(``TOOL_EXECUTION`` ``START``) as it begins, and the evaluator announces the scoring
(``GRAPH_EXECUTION`` ``PROGRESS`` with ``data["judging"]``). :class:`StepsInFlight`
keeps those that have not ended yet, so a live view can say "calling
get_weather(location="Paris") 0:00:04", "MAIN thinking 0:00:02" or "judging
response_match_score". The end event of a step (a model node's ``NODE_EXECUTION``, a
tool's ``TOOL_EXECUTION`` ``END``) takes it off.
"""

from __future__ import annotations

from dataclasses import dataclass

from tenxeval_tui.evaluation.events import Event, EventModel, EventType
from tenxeval_tui.evaluation.inert import inert
from tenxeval_tui.runs.event_lines import FIELD_LIMIT, call_text

JUDGING = "judging"


def clock_text(seconds: float) -> str:
    """``0:00:04``: a duration as hours, minutes and seconds (what a ticking clock shows)."""
    whole = max(int(seconds), 0)
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}"


@dataclass(frozen=True, slots=True)
class Step:
    """One step in flight: what it is (inert text) and when it started (the view's clock)."""

    label: str
    since: float

    def text(self, now: float) -> str:
        """``label 0:00:04``: the step with how long it has run."""
        return f"{self.label} {clock_text(now - self.since)}"


def _tool_key(event: EventModel) -> str:
    data = event.data
    return "tool:" + str(data.get("tool_call_id") or data.get("function_name") or event.node_name)


def starts(event: EventModel) -> tuple[str, str] | None:
    """``(key, label)`` when ``event`` starts a step, else ``None``."""
    if event.event_type == EventType.START:
        if event.event == Event.TOOL_EXECUTION:
            data = event.data
            name = str(data.get("function_name") or event.node_name)
            return _tool_key(event), inert(f"calling {call_text(name, data.get('args'))}")
        if event.event == Event.LLM_CALL:
            return f"ai:{event.node_name}", inert(f"{event.node_name} thinking")
    if event.event == Event.GRAPH_EXECUTION and event.event_type == EventType.PROGRESS:
        judging = event.data.get(JUDGING)
        if isinstance(judging, list):
            names = ", ".join(str(name) for name in judging) or "the reply"
            return JUDGING, inert(f"judging {names}"[:FIELD_LIMIT])
    return None


def ends(event: EventModel) -> str | None:
    """The key of the step ``event`` ends, if it ends one."""
    if event.event_type == EventType.START:
        return None
    if event.event == Event.TOOL_EXECUTION:
        return _tool_key(event)
    if event.event == Event.NODE_EXECUTION and not event.data.get("visit_only"):
        return f"ai:{event.node_name}"
    return None


def is_start(event: EventModel) -> bool:
    """Whether ``event`` only announces a step (it gets no line of its own: its end does)."""
    return starts(event) is not None


class StepsInFlight:
    """The steps of one case that started and have not ended, latest last."""

    __slots__ = ("_steps",)

    def __init__(self) -> None:
        self._steps: dict[str, Step] = {}

    def update(self, event: EventModel, now: float) -> bool:
        """Note what ``event`` starts or ends; ``True`` when it changed the steps."""
        started = starts(event)
        if started is not None:
            key, label = started
            self._steps.pop(key, None)
            self._steps[key] = Step(label, now)
            return True
        ended = ends(event)
        if ended is not None and ended in self._steps:
            del self._steps[ended]
            return True
        return False

    def clear(self) -> None:
        """The case (or this repeat of it) ended: nothing is in flight."""
        self._steps.clear()

    @property
    def current(self) -> Step | None:
        """The step started last of those in flight."""
        return next(reversed(self._steps.values()), None)

    def __len__(self) -> int:
        return len(self._steps)


__all__ = ["JUDGING", "Step", "StepsInFlight", "clock_text", "ends", "is_start", "starts"]
