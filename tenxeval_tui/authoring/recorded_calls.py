"""A case's recorded tool calls (its lines of the cassette ``NAME.tools.jsonl``) as the
texts of a form, with undo, checked through
:class:`~tenxeval_tui.evaluation.tools.cassette.RecordedCall` before they are written.

Each call shows as five fields: ``{i}.tool``, ``{i}.args`` (a JSON object),
``{i}.result`` (JSON; empty is ``null``), ``{i}.error_type`` and ``{i}.error_message``
(a call that raised has an error type and no result). Its place in the list is its
order in the case (``call`` in its line); its duration is kept as recorded (0 for a
call added by hand). No UI import.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any

from tenxeval_tui.authoring.kept_unsaved import kept_draft_path
from tenxeval_tui.evaluation.files.fileio import atomic_write_text
from tenxeval_tui.evaluation.tools.cassette import RecordedCall, read_cassette, write_case

CALL_FIELDS = ("tool", "args", "result", "error_type", "error_message")


@dataclass(frozen=True, slots=True)
class CallTexts:
    """What the fields of one recorded call hold."""

    tool: str = ""
    args: str = "{}"
    result: str = "null"
    error_type: str = ""
    error_message: str = ""
    duration: float = 0.0


def call_texts(call: RecordedCall) -> CallTexts:
    """The texts of a recorded call's fields."""
    raised = call.error is not None
    return CallTexts(
        tool=call.tool,
        args=json.dumps(call.args, ensure_ascii=False),
        result="" if raised else json.dumps(call.result, ensure_ascii=False, indent=2),
        error_type=call.error["type"] if call.error is not None else "",
        error_message=call.error.get("message", "") if call.error is not None else "",
        duration=call.duration,
    )


def _json(text: str, key: str, problems: dict[str, str], *, empty: Any) -> Any:
    if not text.strip():
        return empty
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        problems[key] = f"invalid JSON: {exc.msg} (line {exc.lineno}, column {exc.colno})"
    except RecursionError:
        problems[key] = "invalid JSON: nested too deeply to be read"
    return empty


def _recorded(case: str, index: int, texts: CallTexts, problems: dict[str, str]) -> RecordedCall:
    key = f"{index}."
    data: dict[str, Any] = {
        "case": case,
        "call": index + 1,
        "tool": texts.tool.strip(),
        "args": _json(texts.args, f"{key}args", problems, empty={}),
    }
    error_type = texts.error_type.strip()
    if error_type:
        if texts.result.strip() not in ("", "null"):
            problems[f"{key}result"] = (
                "a call that raised has no result: empty this, or the error's type"
            )
        data["error"] = {"type": error_type, "message": texts.error_message}
    else:
        if texts.error_message:
            problems[f"{key}error_type"] = "the error's type (ConnectionError), or no message"
        data["result"] = _json(texts.result, f"{key}result", problems, empty=None)
    data["duration"] = texts.duration
    try:
        return RecordedCall.from_json(data)
    except ValueError as exc:  # what the cassette's reader says of such a line
        message = str(exc)
        field = next((name for name in ("tool", "args", "error") if f'"{name}"' in message), "tool")
        problems.setdefault(key + ("error_type" if field == "error" else field), message)
        return RecordedCall(case=case, call=index + 1, tool=data["tool"] or "?")


def recorded_calls(
    case: str, texts: Sequence[CallTexts]
) -> tuple[list[RecordedCall], dict[str, str]]:
    """The calls the texts make for case ``case`` (numbered in order), and every problem
    (field key -> message; nothing may be written while there is one)."""
    problems: dict[str, str] = {}
    calls = [_recorded(case, index, call, problems) for index, call in enumerate(texts)]
    return calls, problems


def case_calls(cassette: Path, case: str) -> list[RecordedCall]:
    """Case ``case``'s recorded calls in ``cassette`` (none when it has no file yet);
    :class:`~tenxeval_tui.evaluation.tools.cassette.CassetteError` names a bad line."""
    return read_cassette(cassette).get(case, [])


def _lines(calls: Sequence[RecordedCall]) -> list[str]:
    return [call.line() for call in calls]


class CallsDraft:
    """The recorded calls of one case being edited: texts, undo and redo, and what was
    on disk when they were read or last written (``on_disk``)."""

    def __init__(self, case: str, calls: Sequence[RecordedCall]) -> None:
        self.case = case
        self.texts: tuple[CallTexts, ...] = tuple(call_texts(call) for call in calls)
        self.on_disk: list[str] = _lines(calls)
        """The case's lines as read or last written (to tell another writer's change)."""
        self._saved = self.texts
        self._undo: list[tuple[tuple[CallTexts, ...], str | None]] = []
        self._redo: list[tuple[tuple[CallTexts, ...], str | None]] = []
        self._typing: str | None = None
        """The field typed into last: its keystrokes make one undo step."""

    @property
    def dirty(self) -> bool:
        """Whether the texts differ from what was read or last written."""
        return self.texts != self._saved

    def _push(self, key: str | None = None) -> None:
        if key is None or key != self._typing:
            self._undo.append((self.texts, key))
        self._typing = key
        self._redo.clear()

    def set_field(self, index: int, name: str, text: str) -> bool:
        """Field ``name`` of call ``index`` holds ``text``; ``False`` when it did."""
        if getattr(self.texts[index], name) == text:
            return False
        self._push(f"{index}.{name}")
        calls = list(self.texts)
        changes: dict[str, Any] = {name: text}
        calls[index] = replace(calls[index], **changes)
        self.texts = tuple(calls)
        return True

    def add_call(self, after: int | None = None) -> int:
        """A blank call after call ``after`` (at the end when ``None``); its index."""
        self._push()
        index = len(self.texts) if after is None else after + 1
        calls = list(self.texts)
        calls.insert(index, CallTexts())
        self.texts = tuple(calls)
        return index

    def remove_call(self, index: int) -> None:
        """Without call ``index``."""
        self._push()
        self.texts = self.texts[:index] + self.texts[index + 1 :]

    def move_call(self, index: int, delta: int) -> bool:
        """Call ``index`` moved by ``delta`` places; ``False`` at either end."""
        target = index + delta
        if delta == 0 or not 0 <= target < len(self.texts):
            return False
        self._push()
        calls = list(self.texts)
        calls.insert(target, calls.pop(index))
        self.texts = tuple(calls)
        return True

    def undo(self) -> str | None:
        """Undo the last step; the field it changed (``""`` for a structural one), or
        ``None`` when there is nothing to undo."""
        if not self._undo:
            return None
        texts, key = self._undo.pop()
        self._redo.append((self.texts, key))
        self.texts = texts
        self._typing = None
        return key or ""

    def redo(self) -> str | None:
        """Redo the last undone step (see :meth:`undo`)."""
        if not self._redo:
            return None
        texts, key = self._redo.pop()
        self._undo.append((self.texts, key))
        self.texts = texts
        self._typing = None
        return key or ""

    def calls(self) -> tuple[list[RecordedCall], dict[str, str]]:
        """The calls the texts make and their problems (:func:`recorded_calls`)."""
        return recorded_calls(self.case, self.texts)

    def changed_on_disk(self, cassette: Path) -> bool:
        """Whether the case's lines in ``cassette`` are no longer those read or written
        (a recording run wrote them meanwhile); a cassette that cannot be read counts
        as changed."""
        try:
            return _lines(case_calls(cassette, self.case)) != self.on_disk
        except ValueError:
            return True

    def write(self, cassette: Path, order: Sequence[str]) -> list[RecordedCall]:
        """Write the calls as the case's lines of ``cassette`` (atomically; other cases'
        lines byte for byte; ``order``: the eval set's case ids, where a case's first
        lines go). ``ValueError`` naming the first problem when there is one: then
        nothing is written."""
        texts = self.texts
        calls, problems = self.calls()
        if problems:
            key, message = next(iter(problems.items()))
            raise ValueError(f"call {int(key.split('.')[0]) + 1} {key.split('.')[1]}: {message}")
        write_case(cassette, self.case, calls, order)
        self.written(texts, calls)
        return calls

    def keep(self, cassette: Path) -> Path:
        """Write the texts of every call, as typed (checked or not), with their problems,
        to ``<cassette>.<case>.unsaved.json`` beside ``cassette``; the path written.
        For a terminal gone with nobody to ask: the cassette itself is left as it is."""
        _, problems = self.calls()
        kept = kept_draft_path(cassette, self.case)
        data = {
            "cassette": cassette.name,
            "case": self.case,
            "calls": [asdict(texts) for texts in self.texts],
            "problems": problems,
        }
        atomic_write_text(kept, json.dumps(data, indent=2, ensure_ascii=False) + "\n")
        return kept

    def written(self, texts: tuple[CallTexts, ...], calls: Sequence[RecordedCall]) -> None:
        """``calls``, made of ``texts``, are the case's lines on disk now (the texts may
        have changed since, while the file was written: they are then unsaved)."""
        self.on_disk = _lines(calls)
        self._saved = texts


__all__ = [
    "CALL_FIELDS",
    "CallTexts",
    "CallsDraft",
    "call_texts",
    "case_calls",
    "recorded_calls",
]
