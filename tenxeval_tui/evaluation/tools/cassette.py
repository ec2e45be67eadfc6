"""Cassettes: the recorded tool calls of an eval set's cases, ``NAME.tools.jsonl``.

One JSON object per line, one line per call, the calls of a case together and in the
order they were made::

    {"case": "refund_a100", "call": 1, "tool": "lookup_order", "args": {"order_id": "A100"}, "result": {"status": "shipped"}, "duration": 0.002}
    {"case": "refund_a100", "call": 2, "tool": "refund", "args": {"order_id": "A100"}, "error": {"type": "ConnectionError", "message": "down"}, "duration": 0.001}

Keys come in that order (inside ``args`` and ``result``, as the agent and the tool made
them: a replayed result is the very value recorded, its keys in their order too),
durations in seconds to the millisecond: recording the same calls again writes the same
bytes but for the durations, and a diff shows what changed. Recording a case replaces its lines where
they were (a new case's go where the eval set's case order puts them, whichever case
finished first); other cases' lines are kept byte for byte. The
file is written whole to a temporary file and renamed over the old one, so a reader
never sees half of it.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tenxeval_tui.evaluation.files.fileio import read_text


class CassetteError(ValueError):
    """A cassette that cannot be read; the message names the file and the line."""


@dataclass(slots=True)
class RecordedCall:
    """One recorded call of one case."""

    case: str
    call: int
    """Its place among the case's recorded calls (1: the first)."""
    tool: str
    args: dict[str, Any] = field(default_factory=dict)
    result: Any = None
    error: dict[str, str] | None = None
    """``{"type": ..., "message": ...}`` of the error the call raised (then no result)."""
    duration: float = 0.0

    def to_json(self) -> dict[str, Any]:
        """The call as its cassette line's object, keys in their fixed order."""
        data: dict[str, Any] = {
            "case": self.case,
            "call": self.call,
            "tool": self.tool,
            "args": self.args,
        }
        if self.error is not None:
            data["error"] = {"type": self.error["type"], "message": self.error.get("message", "")}
        else:
            data["result"] = self.result
        data["duration"] = round(self.duration, 3)
        return data

    def line(self) -> str:
        """The call's cassette line (no newline)."""
        return json.dumps(self.to_json(), ensure_ascii=False)

    @classmethod
    def from_json(cls, data: Any) -> RecordedCall:
        """A call read back from its line's object; ``ValueError`` saying what is wrong."""
        if not isinstance(data, dict):
            raise ValueError("a line must be a JSON object")
        case, tool, args = data.get("case"), data.get("tool"), data.get("args", {})
        if not isinstance(case, str) or not case:
            raise ValueError('"case" must be the case\'s eval id')
        if not isinstance(tool, str) or not tool:
            raise ValueError('"tool" must be the tool\'s name')
        if not isinstance(args, dict):
            raise ValueError('"args" must be an object')
        error = data.get("error")
        if error is not None and not (
            isinstance(error, dict) and isinstance(error.get("type"), str)
        ):
            raise ValueError('"error" must be an object with a "type"')
        call = data.get("call", 0)
        duration = data.get("duration", 0.0)
        return cls(
            case=case,
            call=call if isinstance(call, int) else 0,
            tool=tool,
            args=args,
            result=data.get("result"),
            error={"type": error["type"], "message": str(error.get("message", ""))}
            if error is not None
            else None,
            duration=float(duration) if isinstance(duration, int | float) else 0.0,
        )


def read_cassette(path: Path) -> dict[str, list[RecordedCall]]:
    """The recorded calls of ``path`` by case, in order (``{}`` when the file does not
    exist); :class:`CassetteError` naming the file and line of a bad one."""
    try:
        text = read_text(path)
    except FileNotFoundError:
        return {}
    except (OSError, UnicodeDecodeError) as exc:
        raise CassetteError(f"{path}: cannot read the cassette: {exc}") from None
    calls: dict[str, list[RecordedCall]] = {}
    for number, raw in enumerate(text.splitlines(), 1):
        if not raw.strip():
            continue
        try:
            recorded = RecordedCall.from_json(json.loads(raw))
        except ValueError as exc:
            raise CassetteError(f"{path}:{number}: {exc}") from None
        calls.setdefault(recorded.case, []).append(recorded)
    return calls


def _case_of(raw: str) -> str | None:
    try:
        data = json.loads(raw)
    except ValueError:
        return None
    case = data.get("case") if isinstance(data, dict) else None
    return case if isinstance(case, str) else None


def write_case(
    path: Path, case: str, calls: Sequence[RecordedCall], order: Sequence[str] = ()
) -> None:
    """Store ``calls`` as case ``case``'s in the cassette ``path`` (see the module's doc;
    ``order``: the eval set's case ids, in order); the folder is made when missing. A case
    that made no call keeps no line."""
    try:
        old = read_text(path).splitlines()
    except FileNotFoundError:
        old = []
    rank = {eval_id: index for index, eval_id in enumerate(order)}
    mine = rank.get(case, len(rank))
    new = [c.line() for c in calls]
    lines: list[str] = []
    placed = False
    for raw in old:
        if not raw.strip():
            continue
        other = _case_of(raw)
        if other == case:
            if not placed:
                lines.extend(new)
                placed = True
            continue
        if not placed and other not in (None, case) and rank.get(other, len(rank)) > mine:
            lines.extend(new)  # a case recorded for the first time, in its place
            placed = True
        lines.append(raw)
    if not placed:
        lines.extend(new)
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(handle, "w", encoding="utf-8", newline="\n") as out:
            out.write("".join(f"{line}\n" for line in lines))
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


__all__ = ["CassetteError", "RecordedCall", "read_cassette", "write_case"]
