"""One case's tools while it runs: the one place every tool call of an agent goes through.

``Trace.tool`` (plain agents) and the tool functions of 10xGraph tool nodes
(:mod:`~tenxeval_tui.evaluation.targets.graph_tools`) call :func:`intercept` with the
tool's name, its arguments and a function that runs the real tool. Outside a case whose
run controls its tools (:data:`CURRENT_TOOLS` unset: live mode, no fakes, no faults) that
function is simply awaited. Otherwise :meth:`CaseTools.call` decides, in this order:

1. a fault of this call (the Nth call of the tool): it raises, times out or returns its
   value;
2. a fake of the tool: it answers, given the call and the case's state;
3. replay: the first unused recorded call of the same tool with the same arguments
   (masked as in the cassette, ignoring the keys ``ignore_args`` names) answers with its
   result or raises its error; none in ``replay`` mode fails the case
   (:class:`~.errors.UnrecordedToolCall`);
4. the real tool, recorded when the mode records.

Each call is marked ``live``, ``replayed``, ``faked`` (or ``unrecorded``, the replay
failure); :func:`take_call_mode` hands the mark to whoever publishes the call's event.
"""

from __future__ import annotations

import copy
import difflib
import inspect
import json
import time
from collections import Counter, deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tenxeval_tui.evaluation.tools.cassette import RecordedCall
from tenxeval_tui.evaluation.tools.current import (
    CURRENT_TOOLS,
    intercept,
    jsonable,
    set_call_mode,
    take_call_mode,
    using_tools,
)
from tenxeval_tui.evaluation.tools.errors import (
    ToolFaultTimeout,
    UnrecordedToolCall,
    describe,
    error_message,
    error_type_name,
    make_error,
)
from tenxeval_tui.evaluation.tools.redaction import Redactor
from tenxeval_tui.evaluation.tools.settings import ToolMode
from tenxeval_tui.evaluation.tools.spec import FaultSpec, ToolSpec

LIVE, REPLAYED, FAKED, UNRECORDED = "live", "replayed", "faked", "unrecorded"
"""How a call was answered (its events' ``data["tool_mode"]``)."""


@dataclass(frozen=True, slots=True)
class ToolCallInfo:
    """A call as a fake receives it: ``fake(call, state)``."""

    name: str
    args: dict[str, Any]
    number: int
    """Which call of this tool in the case (1: the first)."""
    eval_id: str


Fake = Callable[[ToolCallInfo, dict[str, Any]], Any]


class CaseTools:
    """The tools of one run of one case (see the module's doc).

    ``state`` is the fakes' shared state (a copy of the spec's), ``calls`` the case's
    calls for its cassette (replayed and recorded, when the mode records), ``failure``
    the first call replay could not answer, ``marks`` how many calls were answered how.
    """

    def __init__(
        self,
        eval_id: str,
        spec: ToolSpec,
        mode: ToolMode = "live",
        *,
        recorded: list[RecordedCall] | None = None,
        cassette: Path | None = None,
        fakes: dict[str, Fake] | None = None,
    ) -> None:
        self.eval_id = eval_id
        self.spec = spec
        self.mode = mode
        self.cassette = cassette
        self.fakes = dict(fakes or {})
        self.redact = Redactor(spec.redact)
        self.state: dict[str, Any] = copy.deepcopy(spec.state)
        self.calls: list[RecordedCall] = []
        self.failure: str | None = None
        self.marks: Counter[str] = Counter()
        self._recorded = list(recorded or [])
        # The recorded calls not replayed yet, by what matching compares (in order): a
        # call finds its recording in constant time, however many the case made.
        self._unused: dict[str, deque[RecordedCall]] = {}
        for call in self._recorded:
            self._unused.setdefault(self._key(call.tool, call.args), deque()).append(call)
        self._counts: Counter[str] = Counter()
        self._faults = {(f.tool, f.call): f for f in spec.faults}

    @property
    def records(self) -> bool:
        """Whether live calls are kept for the cassette."""
        return self.mode in ("record", "replay-or-record")

    @property
    def has_state(self) -> bool:
        """Whether the case uses fakes or a state (its end state is worth keeping)."""
        return bool(self.fakes or self.spec.state or self.spec.end_state)

    async def call(self, name: str, args: dict[str, Any], run: Callable[[], Awaitable[Any]]) -> Any:
        """Answer one call of tool ``name`` (see the module's doc); ``run()`` runs it for real."""
        self._counts[name] += 1
        number = self._counts[name]
        fault = self._faults.get((name, number))
        if fault is not None:
            set_call_mode(FAKED)
            self.marks[FAKED] += 1
            return _apply_fault(fault, name, number)
        fake = self.fakes.get(name)
        if fake is not None:
            set_call_mode(FAKED)
            self.marks[FAKED] += 1
            answer = fake(ToolCallInfo(name, dict(args), number, self.eval_id), self.state)
            return await answer if inspect.isawaitable(answer) else answer
        shown = self.redact(jsonable(args))
        if self.mode in ("replay", "replay-or-record"):
            found = self._take(name, shown)
            if found is not None:
                set_call_mode(REPLAYED)
                self.marks[REPLAYED] += 1
                self._keep(found.tool, found.args, found.result, found.error, found.duration)
                if found.error is not None:
                    raise make_error(found.error["type"], found.error.get("message", ""))
                return copy.deepcopy(found.result)
            if self.mode == "replay":
                set_call_mode(UNRECORDED)
                self.marks[UNRECORDED] += 1
                message = self._unrecorded(name, shown)
                if self.failure is None:
                    self.failure = message
                raise UnrecordedToolCall(message)
        set_call_mode(LIVE)
        self.marks[LIVE] += 1
        started = time.perf_counter()
        try:
            result = await run()
        except Exception as exc:
            if self.records:
                error = {"type": error_type_name(exc), "message": self.redact(error_message(exc))}
                self._keep(name, shown, None, error, time.perf_counter() - started)
            raise
        if self.records:
            kept = self.redact(jsonable(result))
            self._keep(name, shown, kept, None, time.perf_counter() - started)
        return result

    def outcome(self, error: str | None, info: dict[str, Any]) -> tuple[str | None, dict[str, Any]]:
        """The case's error: the first call replay could not answer wins over what the
        agent made of it (it may have carried on)."""
        if self.failure is None:
            return error, info
        return self.failure, {**info, "error_type": UnrecordedToolCall.__name__}

    # -- replay ----------------------------------------------------------------

    def _same(self, recorded: RecordedCall, name: str, shown: dict[str, Any]) -> bool:
        if recorded.tool != name:
            return False
        ignored = self.spec.ignored_keys(name)
        if not ignored:
            return recorded.args == shown
        return _without(recorded.args, ignored) == _without(shown, ignored)

    def _key(self, name: str, args: dict[str, Any]) -> str:
        ignored = self.spec.ignored_keys(name)
        compared = _without(args, ignored) if ignored else args
        return json.dumps([name, compared], sort_keys=True, ensure_ascii=False, default=str)

    def _take(self, name: str, shown: dict[str, Any]) -> RecordedCall | None:
        found = self._unused.get(self._key(name, shown))
        return found.popleft() if found else None

    def _unrecorded(self, name: str, shown: dict[str, Any]) -> str:
        call = f"{name} {describe(shown)}"
        where = f"the cassette {self.cassette}" if self.cassette else "the cassette"
        if not self._recorded:
            return (
                f"replay: the tool call {call} was not recorded: {where} has no calls of "
                f"case {self.eval_id!r} (record them first: --tools record)"
            )
        same = [r for r in self._recorded if self._same(r, name, shown)]
        if same:
            return (
                f"replay: the tool call {call} was made once more than recorded ({len(same)} "
                f"such call(s) in {where}, all replayed already)"
            )
        unused = [call for calls in self._unused.values() for call in calls]
        near = _nearest(self._recorded, unused, name, shown)
        ignored = sorted(self.spec.ignored_keys(name))
        ignoring = f" (matching ignores {', '.join(ignored)})" if ignored else ""
        return (
            f"replay: the tool call {call} was not recorded{ignoring}; the nearest recorded "
            f"call of case {self.eval_id!r} is #{near.call} {near.tool} {describe(near.args)}"
        )

    def _keep(
        self,
        tool: str,
        args: dict[str, Any],
        result: Any,
        error: dict[str, str] | None,
        duration: float,
    ) -> None:
        if self.records:
            self.calls.append(
                RecordedCall(self.eval_id, len(self.calls) + 1, tool, args, result, error, duration)
            )


def _without(args: dict[str, Any], keys: frozenset[str]) -> dict[str, Any]:
    return {k: v for k, v in args.items() if k not in keys}


def _nearest(
    recorded: list[RecordedCall], unused: list[RecordedCall], name: str, shown: dict[str, Any]
) -> RecordedCall:
    """The recorded call most like ``name(shown)``: the same tool first, then the most
    similar arguments, then one not replayed yet, then the earliest."""
    text = describe(shown)
    fresh = {id(r) for r in unused}

    def likeness(item: tuple[int, RecordedCall]) -> tuple[bool, float, bool, int]:
        index, r = item
        ratio = difflib.SequenceMatcher(None, text, describe(r.args)).ratio()
        return (r.tool == name, ratio, id(r) in fresh, -index)

    return max(enumerate(recorded), key=likeness)[1]


def _apply_fault(fault: FaultSpec, name: str, number: int) -> Any:
    if fault.kind == "timeout":
        raise ToolFaultTimeout(f"{name}: the tool call timed out (fault on call {number})")
    if fault.kind == "raises":
        raise make_error(
            str(fault.raises), fault.message or f"{name}: fault on call {number}", importing=True
        )
    return copy.deepcopy(fault.returns)


__all__ = [
    "CURRENT_TOOLS",
    "FAKED",
    "LIVE",
    "REPLAYED",
    "UNRECORDED",
    "CaseTools",
    "Fake",
    "ToolCallInfo",
    "intercept",
    "jsonable",
    "take_call_mode",
    "using_tools",
]
