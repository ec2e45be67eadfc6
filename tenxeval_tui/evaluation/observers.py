"""Run observers: one hook through which progress bars, live views and journals follow a run.

Subclass :class:`RunObserver` and override what you need; pass instances to
``AgentEvaluator(..., observers=[...])`` or ``EvaluationRunner(observers=[...])``.
For each eval set evaluated, an observer sees, in this order::

    on_run_start(eval_set, cases)             once, before any case runs
      on_case_start(eval_set_id, case)        when a case starts (its first repeat)
        on_repeat_start(eval_set_id, case, repeat, repeats)    each run of the case
          on_repeat_event(eval_set_id, eval_id, repeat, event) every EventModel, live
        on_repeat_end(eval_set_id, eval_id, result, repeats)   that run's result
      on_case_end(result)                     its EvalCaseResult (all repeats aggregated)
    on_run_end(report)                        once; a cancelled run's report is partial

A case without repeats has one run (``repeat`` 0 of 1). ``on_repeat_event``
calls ``on_event(eval_set_id, eval_id, event)`` unless overridden, so observers
written before repeats existed see every event of every run as before; override
``on_repeat_event`` to know which repeat an event belongs to (each repeat also
has its own ``event.thread_id``).

Cases and repeats that run concurrently interleave their calls (each call says
which case it is about). Calls are synchronous and made from the evaluating
task: keep them fast. An observer that raises is logged and never stops the run.

:class:`JsonLinesObserver` writes the same calls as JSON lines (how the TUI's
worker process streams a run) and :func:`replay_json_lines` feeds such lines to
another observer.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from tenxeval_tui.evaluation.dataset.eval_set import EvalCase, EvalSet
from tenxeval_tui.evaluation.eval_result import (
    EVAL_SET_ID_KEY,
    REPEAT_KEY,
    EvalCaseResult,
    EvalReport,
)
from tenxeval_tui.evaluation.events import EventModel
from tenxeval_tui.evaluation.made_on_read import MadeOnRead

logger = logging.getLogger("tenxeval_tui.evaluation.observers")


class RunObserver:
    """Base class of run observers; every method does nothing by default."""

    def on_run_start(self, eval_set: EvalSet, cases: Sequence[EvalCase]) -> None:
        """An eval set is about to be evaluated; ``cases`` are the cases that will run."""

    def on_case_start(self, eval_set_id: str, case: EvalCase) -> None:
        """A case starts running."""

    def on_repeat_start(self, eval_set_id: str, case: EvalCase, repeat: int, repeats: int) -> None:
        """Run ``repeat`` (0-based) of ``repeats`` of a case starts."""

    def on_event(self, eval_set_id: str, eval_id: str, event: EventModel) -> None:
        """An event of case ``eval_id`` (node, tool call, end of a turn)."""

    def on_repeat_event(
        self, eval_set_id: str, eval_id: str, repeat: int, event: EventModel
    ) -> None:
        """An event of run ``repeat`` of case ``eval_id``; calls :meth:`on_event` by default."""
        self.on_event(eval_set_id, eval_id, event)

    def on_repeat_end(
        self, eval_set_id: str, eval_id: str, result: EvalCaseResult, repeats: int
    ) -> None:
        """A run of a case finished (``result.repeat_index`` says which)."""

    def on_case_retry(self, eval_set_id: str, eval_id: str, reason: str) -> None:
        """A started case will run again from the start (its worker died: ``reason``);
        what it streamed so far is void, and a second ``on_case_start`` follows."""

    def on_case_end(self, result: EvalCaseResult) -> None:
        """A case finished (``result.eval_set_id`` names its eval set)."""

    def on_run_end(self, report: EvalReport) -> None:
        """The eval set finished, or was cancelled (``report.is_partial``)."""


class ObserverGroup:
    """Calls several observers, logging (never raising) what one of them raises."""

    def __init__(self, observers: Iterable[RunObserver] = ()) -> None:
        self.observers = list(observers)
        self._failed: set[tuple[int, str]] = set()
        # Each observer's handler of each hook is picked once, leaving out the hooks it
        # does not override (RunObserver's, which do nothing): a run calls them for every
        # case. An observer that does not override on_repeat_event gets on_event.
        self._event_handlers = [
            (observer, with_repeat, handler)
            for observer in self.observers
            for with_repeat, handler in [_event_handler(observer)]
            if not _does_nothing(handler, "on_event")
        ]
        self._handlers: dict[str, list[tuple[RunObserver, Callable[..., Any]]]] = {}

    def __bool__(self) -> bool:
        return bool(self.observers)

    def _hook(self, method: str) -> list[tuple[RunObserver, Callable[..., Any]]]:
        """The observers' handlers of ``method`` that do something, in order."""
        handlers = self._handlers.get(method)
        if handlers is None:
            handlers = self._handlers[method] = [
                (observer, handler)
                for observer in self.observers
                # None: a duck-typed observer written before this hook existed
                if (handler := getattr(observer, method, None)) is not None
                and not _does_nothing(handler, method)
            ]
        return handlers

    def _call(self, method: str, *args: Any) -> None:
        for observer, handler in self._hook(method):
            try:
                handler(*args)
            except Exception:
                # Once with the traceback; an observer failing on every event stays quiet after.
                key = (id(observer), method)
                if key not in self._failed:
                    self._failed.add(key)
                    logger.exception("run observer %r failed in %s", observer, method)

    def run_start(self, eval_set: EvalSet, cases: Sequence[EvalCase]) -> None:
        self._call("on_run_start", eval_set, cases)

    def case_start(self, eval_set_id: str, case: EvalCase) -> None:
        self._call("on_case_start", eval_set_id, case)

    def repeat_start(self, eval_set_id: str, case: EvalCase, repeat: int, repeats: int) -> None:
        self._call("on_repeat_start", eval_set_id, case, repeat, repeats)

    def event(self, eval_set_id: str, eval_id: str, event: EventModel, repeat: int = 0) -> None:
        for observer, with_repeat, handler in self._event_handlers:
            try:
                if with_repeat:
                    handler(eval_set_id, eval_id, repeat, event)
                else:
                    handler(eval_set_id, eval_id, event)
            except Exception:
                key = (id(observer), "on_event")
                if key not in self._failed:
                    self._failed.add(key)
                    logger.exception("run observer %r failed in on_event", observer)

    def repeat_end(
        self, eval_set_id: str, eval_id: str, result: EvalCaseResult, repeats: int
    ) -> None:
        self._call("on_repeat_end", eval_set_id, eval_id, result, repeats)

    def case_retry(self, eval_set_id: str, eval_id: str, reason: str) -> None:
        self._call("on_case_retry", eval_set_id, eval_id, reason)

    def case_end(self, result: EvalCaseResult) -> None:
        self._call("on_case_end", result)

    def run_end(self, report: EvalReport) -> None:
        self._call("on_run_end", report)


def _does_nothing(handler: Callable[..., Any], method: str) -> bool:
    """Whether ``handler`` (a bound method) is :class:`RunObserver`'s own ``method``."""
    return getattr(handler, "__func__", None) is getattr(RunObserver, method, None)


def _event_handler(observer: Any) -> tuple[bool, Callable[..., Any]]:
    """``(takes the repeat, handler)``: ``on_repeat_event`` when the observer overrides it
    (or, duck-typed, has one), else its ``on_event``."""
    own = getattr(type(observer), "on_repeat_event", None)
    if own is not None and own is not RunObserver.on_repeat_event:
        return True, observer.on_repeat_event
    if hasattr(observer, "on_event"):
        return False, observer.on_event
    return False, lambda *args: None


def _line_encoder() -> Callable[[dict[str, Any]], str]:
    """``json.JSONEncoder(default=str).encode`` of a line's data, the same text: one encoder
    for every line (``json.dumps(..., default=str)`` built an encoder a call, which cost
    more than encoding an event), json's C encoder made once (``encode`` makes one a call,
    a third of encoding a small line), without the marks that detect a circular reference:
    a line's data is a tree made for it (a model's dump, an event's dict, lists of text),
    never a value that holds itself."""
    make = getattr(json.encoder, "c_make_encoder", None)
    if make is None:  # no C speedups: the pure-Python encoder, as encode uses it
        return json.JSONEncoder(default=str, check_circular=False).encode
    chunks = make(
        None, str, json.encoder.encode_basestring_ascii, None, ": ", ", ", False, False, True
    )

    def encode(data: dict[str, Any]) -> str:
        return "".join(chunks(data, 0))

    return encode


_line_text = _line_encoder()


class JsonLinesObserver(RunObserver):
    """Writes every observer call as one JSON line through ``write`` (e.g. ``sys.stdout.write``).

    Lines are objects with a ``"type"``: ``run_start`` (``eval_set_id``,
    ``eval_set_name``, ``eval_ids``), ``case_start`` (``eval_set_id``,
    ``eval_id``, ``name``, ``turns``: its user messages, ``expected_response``: its
    expected final reply or ``null``), ``event`` (``eval_set_id``, ``eval_id``, ``event``),
    ``case_end`` (``result``), ``run_end`` (``report``, without per-case results
    unless ``full_report``). ``flush`` is called after each line when given.

    A case that runs more than once also has ``repeat_start`` (``eval_set_id``,
    ``eval_id``, ``repeat``, ``repeats``) and ``repeat_end`` (the same, plus
    ``status``, ``passed``, ``error``, ``duration_seconds``) lines, and its
    ``event`` lines carry ``repeat``; a case that runs once is streamed exactly
    as before repeats existed.

    A case whose worker died while it ran (``--workers``) and that runs again has a
    ``case_retry`` line (``eval_set_id``, ``eval_id``, ``reason``) before its second
    ``case_start``: what its first run streamed is void.
    """

    def __init__(
        self,
        write: Callable[[str], Any],
        flush: Callable[[], Any] | None = None,
        *,
        full_report: bool = False,
    ) -> None:
        self._write = write
        self._flush = flush
        self._full_report = full_report
        self._repeated: set[tuple[str, str]] = set()

    def _emit(self, data: dict[str, Any]) -> None:
        self._write(_line_text(data) + "\n")
        if self._flush is not None:
            self._flush()

    def on_run_start(self, eval_set: EvalSet, cases: Sequence[EvalCase]) -> None:
        self._emit(
            {
                "type": "run_start",
                "eval_set_id": eval_set.eval_set_id,
                "eval_set_name": eval_set.name,
                "eval_ids": [case.eval_id for case in cases],
            }
        )

    def on_case_start(self, eval_set_id: str, case: EvalCase) -> None:
        self._emit(
            {
                "type": "case_start",
                "eval_set_id": eval_set_id,
                "eval_id": case.eval_id,
                "name": case.name,
                "turns": case.get_user_queries(),
                "expected_response": case.get_final_expected_response(),
            }
        )

    def on_event(self, eval_set_id: str, eval_id: str, event: EventModel) -> None:
        self._emit(
            {
                "type": "event",
                "eval_set_id": eval_set_id,
                "eval_id": eval_id,
                "event": event.to_dict(),
            }
        )

    def on_repeat_start(self, eval_set_id: str, case: EvalCase, repeat: int, repeats: int) -> None:
        if repeats < 2:
            return
        self._repeated.add((eval_set_id, case.eval_id))
        self._emit(
            {
                "type": "repeat_start",
                "eval_set_id": eval_set_id,
                "eval_id": case.eval_id,
                "repeat": repeat,
                "repeats": repeats,
            }
        )

    def on_repeat_event(
        self, eval_set_id: str, eval_id: str, repeat: int, event: EventModel
    ) -> None:
        if (eval_set_id, eval_id) not in self._repeated:
            self.on_event(eval_set_id, eval_id, event)
            return
        self._emit(
            {
                "type": "event",
                "eval_set_id": eval_set_id,
                "eval_id": eval_id,
                "repeat": repeat,
                "event": event.to_dict(),
            }
        )

    def on_repeat_end(
        self, eval_set_id: str, eval_id: str, result: EvalCaseResult, repeats: int
    ) -> None:
        if repeats < 2:
            return
        self._emit(
            {
                "type": "repeat_end",
                "eval_set_id": eval_set_id,
                "eval_id": eval_id,
                "repeat": result.repeat_index,
                "repeats": repeats,
                "status": result.status,
                "passed": result.passed,
                "error": result.error,
                "duration_seconds": result.duration_seconds,
            }
        )

    def on_case_retry(self, eval_set_id: str, eval_id: str, reason: str) -> None:
        self._repeated.discard((eval_set_id, eval_id))
        self._emit(
            {"type": "case_retry", "eval_set_id": eval_set_id, "eval_id": eval_id, "reason": reason}
        )

    def on_case_end(self, result: EvalCaseResult) -> None:
        self._repeated.discard((result.eval_set_id, result.eval_id))
        self._emit({"type": "case_end", "result": result.model_dump(mode="json")})

    def on_run_end(self, report: EvalReport) -> None:
        exclude = None if self._full_report else {"results"}
        self._emit({"type": "run_end", "report": report.model_dump(mode="json", exclude=exclude)})


def _case_of_id(eval_id: str) -> EvalCase:
    return EvalCase(eval_id=eval_id)


def started_case(data: dict[str, Any]) -> EvalCase:
    """The case of a ``case_start`` line: its id and name, its user turns and its
    expected reply (on the last turn) when the line has them."""
    eval_id, name = str(data["eval_id"]), str(data.get("name", ""))
    turns = data.get("turns")
    if not isinstance(turns, list) or not turns:
        return EvalCase(eval_id=eval_id, name=name)
    expected = data.get("expected_response")
    last = str(expected) if isinstance(expected, str) else None
    conversation = [(str(turn), None) for turn in turns[:-1]] + [(str(turns[-1]), last)]
    return EvalCase.multi_turn(eval_id, conversation, name=name)


def replay_json_lines(
    lines: Iterable[str],
    observer: RunObserver,
    *,
    make_case: Callable[[dict[str, Any]], EvalCase] = started_case,
) -> int:
    """Feed lines written by :class:`JsonLinesObserver` to ``observer``; returns lines used.

    Blank lines, lines that are not JSON objects of a known type (e.g. an
    agent's own prints) and a torn last line are skipped. ``on_run_start``
    receives an eval set holding only ids (the cases are not streamed), and
    ``on_case_start`` a case holding its id, name, user turns and expected reply; ``on_repeat_start`` a case
    holding its id, and ``on_repeat_end`` a result holding the repeat's outcome
    (status, error, duration) but not its trajectory (``case_end`` has that).
    ``make_case`` makes the case of a ``case_start`` line's data (:func:`started_case`:
    all of it; a reader of case ids only can make less).
    """
    used = 0
    for line in lines:
        ended = _case_end_result(line)
        if ended is not None:
            data: dict[str, Any] = {}
            kind: Any = "case_end"
        else:
            try:
                data = json.loads(line)
            except ValueError:
                continue
            if not isinstance(data, dict):
                continue
            kind = data.get("type")
        try:
            if kind == "run_start":
                # each case made (holding only its id) when read: a follower that only
                # counts them makes none (a million cases made at once took a gigabyte)
                cases = MadeOnRead([str(i) for i in data.get("eval_ids", [])], _case_of_id)
                eval_set = EvalSet.model_construct(
                    eval_set_id=str(data["eval_set_id"]),
                    name=str(data.get("eval_set_name", "")),
                    description="",
                    eval_cases=cases,
                    metadata={},
                )
                observer.on_run_start(eval_set, cases)
            elif kind == "case_start":
                observer.on_case_start(str(data["eval_set_id"]), make_case(data))
            elif kind == "event":
                event = EventModel.from_dict(data["event"])
                set_id, eval_id = str(data["eval_set_id"]), str(data["eval_id"])
                with_repeat, handler = _event_handler(observer)
                if with_repeat:
                    handler(set_id, eval_id, int(data.get("repeat", 0)), event)
                else:
                    handler(set_id, eval_id, event)
            elif kind == "repeat_start":
                case = EvalCase(eval_id=str(data["eval_id"]))
                observer.on_repeat_start(
                    str(data["eval_set_id"]), case, int(data["repeat"]), int(data["repeats"])
                )
            elif kind == "repeat_end":
                observer.on_repeat_end(
                    str(data["eval_set_id"]),
                    str(data["eval_id"]),
                    _light_repeat(data),
                    int(data["repeats"]),
                )
            elif kind == "case_retry":
                observer.on_case_retry(
                    str(data["eval_set_id"]), str(data["eval_id"]), str(data.get("reason", ""))
                )
            elif kind == "case_end":
                if ended is None:
                    ended = EvalCaseResult.model_validate(data["result"])
                observer.on_case_end(ended)
            elif kind == "run_end":
                observer.on_run_end(EvalReport.model_validate(data["report"]))
            else:
                continue
        except (KeyError, ValueError, TypeError):
            logger.debug("skipping malformed observer line: %.200s", line)
            continue
        used += 1
    return used


CASE_END_HEAD = '{"type": "case_end", "result": '
"""How a ``case_end`` line as a worker writes it starts: its result's JSON follows, then ``}``
(:mod:`tenxeval_tui.runs.case_end_line` writes it)."""
_JSON_SPACE = " \t\n\r"


def _case_end_result(line: str) -> EvalCaseResult | None:
    """The result of a ``case_end`` line as a worker writes it (its head, then the
    result's JSON, then ``}``), validated from its text by pydantic: no tree of dicts made
    first, a fifth of the line's read (issue #38). ``None`` for any other line, or one
    pydantic does not take: :func:`json.loads` then reads it, as any line."""
    if not line.startswith(CASE_END_HEAD):
        return None
    body = line.rstrip(_JSON_SPACE)
    if not body.endswith("}"):
        return None
    try:
        return EvalCaseResult.model_validate_json(body[len(CASE_END_HEAD) : -1])
    except ValueError:  # not JSON, or not a result: read the usual way (or skipped)
        return None


def _light_repeat(data: dict[str, Any]) -> EvalCaseResult:
    """The outcome of a repeat from its ``repeat_end`` line."""
    return EvalCaseResult(
        eval_id=str(data["eval_id"]),
        passed=bool(data.get("passed", False)),
        error=data.get("error"),
        duration_seconds=float(data.get("duration_seconds", 0.0)),
        metadata={
            EVAL_SET_ID_KEY: str(data["eval_set_id"]),
            REPEAT_KEY: int(data["repeat"]),
        },
    )


__all__ = [
    "CASE_END_HEAD",
    "JsonLinesObserver",
    "ObserverGroup",
    "RunObserver",
    "replay_json_lines",
    "started_case",
]
