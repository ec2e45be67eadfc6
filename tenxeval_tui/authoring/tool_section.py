"""The ``metadata.tools`` section of a case or an eval set, as the texts of a form.

The editor's tools dialog shows a section (fakes, the fakes' state, faults, ignored
argument keys, redaction patterns, the expected end state) as rows of text fields;
this module reads a section into those texts (:func:`section_texts`) and makes the
section back from them (:func:`section_from_texts`), checking every row through
:mod:`tenxeval_tui.evaluation.tools.spec` and naming each problem by its field. No UI
import.

Field keys: ``fakes.{i}.tool``, ``fakes.{i}.fake``, ``state``, ``faults.{i}.tool``,
``faults.{i}.call``, ``faults.{i}.kind``, ``faults.{i}.value``, ``faults.{i}.message``,
``ignore_args``, ``redact``, ``end_state.{i}.path``, ``end_state.{i}.value``.
"""

from __future__ import annotations

import copy
import json
from dataclasses import dataclass, field, replace
from typing import Any

from tenxeval_tui.evaluation.tools.errors import check_error_type
from tenxeval_tui.evaluation.tools.spec import (
    TOOLS_KEY,
    FaultSpec,
    section_place,
    section_problems,
)

FAULT_KINDS = ("raises", "timeout", "returns")
"""How a fault makes its call fail (the ``kind`` field)."""
SECTION_KEYS = ("fakes", "state", "faults", "ignore_args", "redact", "end_state")
"""The keys of a section, in the order a new section writes them."""
SECTION_PROBLEM = "section"
"""The key of a problem of the section as a whole (no one field's)."""


class SectionShapeError(ValueError):
    """A section the form cannot show (not an object, an unknown key, a value of the
    wrong kind); the message names the place."""


@dataclass(frozen=True, slots=True)
class FakeRow:
    """One fake: the tool and its ``module:attr``."""

    tool: str = ""
    fake: str = ""


@dataclass(frozen=True, slots=True)
class FaultRow:
    """One fault. ``value``: the error's class (``raises``) or the JSON returned
    (``returns``); ``message``: the raised error's. ``source``: the fault as written,
    kept as it was when the row still says the same."""

    tool: str = ""
    call: str = "1"
    kind: str = "raises"
    value: str = ""
    message: str = ""
    source: dict[str, Any] | None = field(default=None, compare=False)


@dataclass(frozen=True, slots=True)
class EndStateRow:
    """One expected value: a JSON path into the fakes' state and its JSON value."""

    path: str = ""
    value: str = ""


@dataclass(frozen=True, slots=True)
class ToolSectionTexts:
    """What the form's fields hold (see the module's doc)."""

    fakes: tuple[FakeRow, ...] = ()
    state: str = ""
    faults: tuple[FaultRow, ...] = ()
    ignore_args: str = ""
    redact: str = ""
    end_state: tuple[EndStateRow, ...] = ()

    def with_field(self, key: str, text: str) -> ToolSectionTexts:
        """A copy with field ``key`` holding ``text``; ``KeyError`` for no such field."""
        parts = key.split(".")
        if len(parts) == 1 and parts[0] in ("state", "ignore_args", "redact"):
            return _replaced(self, parts[0], text)
        if len(parts) == 3 and parts[0] in ("fakes", "faults", "end_state"):
            rows = list(getattr(self, parts[0]))
            index = int(parts[1])
            if not 0 <= index < len(rows) or parts[2] not in _TEXT_FIELDS[parts[0]]:
                raise KeyError(key)
            rows[index] = _replaced(rows[index], parts[2], text)
            return _replaced(self, parts[0], tuple(rows))
        raise KeyError(key)

    def add_row(self, kind: str, after: int | None = None) -> tuple[ToolSectionTexts, int]:
        """A blank row of ``kind`` (``fakes``, ``faults``, ``end_state``) after row
        ``after`` (at the end when ``None``); the texts and the new row's index."""
        rows = list(getattr(self, kind))
        blank = {"fakes": FakeRow, "faults": FaultRow, "end_state": EndStateRow}[kind]()
        index = len(rows) if after is None else after + 1
        rows.insert(index, blank)
        return _replaced(self, kind, tuple(rows)), index

    def remove_row(self, kind: str, index: int) -> ToolSectionTexts:
        """Without row ``index`` of ``kind``."""
        rows = list(getattr(self, kind))
        del rows[index]
        return _replaced(self, kind, tuple(rows))


_TEXT_FIELDS = {
    "fakes": ("tool", "fake"),
    "faults": ("tool", "call", "kind", "value", "message"),
    "end_state": ("path", "value"),
}


def _replaced(texts: Any, name: str, value: Any) -> Any:
    changes: dict[str, Any] = {name: value}
    return replace(texts, **changes)


def _json_text(value: Any, *, indent: int | None = None) -> str:
    return json.dumps(value, ensure_ascii=False, indent=indent)


def _shape(raw: Any, key: str, kind: type, what: str) -> Any:
    value = raw.get(key)
    if value is not None and not isinstance(value, kind):
        raise SectionShapeError(f"{section_place((key,))}: must be {what}")
    return value


def _string_list(raw: dict[str, Any], key: str) -> list[str]:
    values = _shape(raw, key, list, "a list of strings") or []
    if not all(isinstance(value, str) for value in values):
        raise SectionShapeError(f"{section_place((key,))}: must be a list of strings")
    return list(values)


def _fault_row(index: int, fault: Any) -> FaultRow:
    if not isinstance(fault, dict):
        raise SectionShapeError(f"{section_place(('faults', index))}: must be an object")
    unknown = sorted(set(fault) - set(FaultSpec.model_fields))
    if unknown:
        raise SectionShapeError(
            f"{section_place(('faults', index))}: unknown key {', '.join(map(repr, unknown))}"
        )
    call = fault.get("call", 1)
    if fault.get("timeout") is True:
        kind, value = "timeout", ""
    elif "returns" in fault:
        kind, value = "returns", _json_text(fault["returns"])
    else:
        kind, value = "raises", str(fault.get("raises") or "")
    return FaultRow(
        tool=str(fault.get("tool") or ""),
        call=str(call),
        kind=kind,
        value=value,
        message=str(fault.get("message") or ""),
        source=copy.deepcopy(fault),
    )


def section_texts(raw: Any) -> ToolSectionTexts:
    """The form's texts of the section ``raw`` as written (``None``: none yet);
    :class:`SectionShapeError` when the form cannot show it all (then the metadata
    field is where to fix it)."""
    if raw is None:
        return ToolSectionTexts()
    if not isinstance(raw, dict):
        raise SectionShapeError(f"{section_place(())}: must be an object")
    unknown = sorted(set(raw) - set(SECTION_KEYS))
    if unknown:
        raise SectionShapeError(
            f"{section_place(())}: unknown key {', '.join(map(repr, unknown))} "
            f"(it has {', '.join(SECTION_KEYS)})"
        )
    fakes = _shape(raw, "fakes", dict, "an object: tool name -> module:attr") or {}
    if not all(isinstance(spec, str) for spec in fakes.values()):
        raise SectionShapeError(f"{section_place(('fakes',))}: each fake must be module:attr")
    state = _shape(raw, "state", dict, "an object")
    faults = _shape(raw, "faults", list, "a list of faults") or []
    end_state = _shape(raw, "end_state", dict, "an object: JSON path -> value") or {}
    return ToolSectionTexts(
        fakes=tuple(FakeRow(tool, spec) for tool, spec in fakes.items()),
        state=_json_text(state, indent=2) if state else "",
        faults=tuple(_fault_row(index, fault) for index, fault in enumerate(faults)),
        ignore_args=", ".join(_string_list(raw, "ignore_args")),
        redact="\n".join(_string_list(raw, "redact")),
        end_state=tuple(EndStateRow(path, _json_text(value)) for path, value in end_state.items()),
    )


def _parse_json(text: str, problems: dict[str, str], key: str, empty: str) -> Any:
    if not text.strip():
        problems.setdefault(key, empty)
        return None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        problems.setdefault(key, f"invalid JSON: {exc.msg} (line {exc.lineno}, column {exc.colno})")
    except RecursionError:
        problems.setdefault(key, "invalid JSON: nested too deeply to be read")
    return None


def _checked(section: dict[str, Any], problems: dict[str, str], keys: dict[str, str]) -> None:
    """Check ``section`` (a part of one) through the spec: each problem goes to the field
    ``keys`` maps its place's second part to (``keys[""]`` for the place itself)."""
    for loc, message in section_problems(section):
        detail = loc[2] if len(loc) > 2 else ""
        target = keys.get(str(detail), keys[""])
        problems.setdefault(target, message)


def _fake_entries(rows: tuple[FakeRow, ...], problems: dict[str, str]) -> dict[str, str]:
    fakes: dict[str, str] = {}
    for index, row in enumerate(rows):
        tool, spec = row.tool.strip(), row.fake.strip()
        if not tool:
            problems[f"fakes.{index}.tool"] = "the tool's name"
        elif tool in fakes:
            problems[f"fakes.{index}.tool"] = f"{tool!r} has a fake already (one a tool)"
        if not spec:
            problems[f"fakes.{index}.fake"] = "the fake, as module:attr"
        else:
            _checked({"fakes": {tool or "?": spec}}, problems, {"": f"fakes.{index}.fake"})
        fakes.setdefault(tool, spec)
    return fakes


def _fault_entry(index: int, row: FaultRow, problems: dict[str, str]) -> dict[str, Any]:
    key = f"faults.{index}"
    fault: dict[str, Any] = {"tool": row.tool.strip()}
    if not fault["tool"]:
        problems[f"{key}.tool"] = "the tool's name"
    try:
        fault["call"] = int(row.call.strip() or "1")
    except ValueError:
        problems[f"{key}.call"] = "a whole number, 1 or more"
        fault["call"] = 1
    kind = row.kind.strip()
    if kind == "raises":
        fault["raises"] = row.value.strip()
        if not fault["raises"]:
            problems[f"{key}.value"] = "the error's class: a built-in's name, or module:Class"
        elif not any(mark in fault["raises"] for mark in ".:"):
            # A built-in's name is checked here; a module's class only where the agent
            # runs (the editor imports none of its code).
            problem = check_error_type(fault["raises"])
            if problem:
                problems[f"{key}.value"] = problem
        if row.message:
            fault["message"] = row.message
    elif kind == "timeout":
        fault["timeout"] = True
    elif kind == "returns":
        fault["returns"] = _parse_json(
            row.value, problems, f"{key}.value", "the JSON value returned (null for none)"
        )
    else:
        problems[f"{key}.kind"] = f"how it fails: {', '.join(FAULT_KINDS)}"
    fields = {"": f"{key}.kind", "tool": f"{key}.tool", "call": f"{key}.call"}
    fields |= {"raises": f"{key}.value", "returns": f"{key}.value"}
    _checked({"faults": [fault]}, problems, fields)
    source = row.source
    if source is not None and _same_fault(source, fault):
        return copy.deepcopy(source)  # as written: a default left out stays out
    return fault


def _same_fault(source: dict[str, Any], fault: dict[str, Any]) -> bool:
    try:
        before, after = FaultSpec.model_validate(source), FaultSpec.model_validate(fault)
    except ValueError:
        return False
    return _json_text(before.model_dump()) == _json_text(after.model_dump())


def _end_state(rows: tuple[EndStateRow, ...], problems: dict[str, str]) -> dict[str, Any]:
    end_state: dict[str, Any] = {}
    for index, row in enumerate(rows):
        key = f"end_state.{index}"
        path = row.path.strip()
        if not path:
            problems[f"{key}.path"] = "a JSON path into the fakes' state ($.refunds[0].order_id)"
        elif path in end_state:
            problems[f"{key}.path"] = f"{path!r} is expected already"
        else:
            _checked({"end_state": {path: None}}, problems, {"": f"{key}.path"})
        value = _parse_json(row.value, problems, f"{key}.value", "the expected JSON value")
        end_state.setdefault(path, value)
    return end_state


def section_from_texts(
    texts: ToolSectionTexts, before: Any = None
) -> tuple[dict[str, Any], dict[str, str]]:
    """The section the form's texts make, and every problem (field key -> message; empty
    when the section can be used). ``before``: the section as it was, whose key order
    (and empty parts) it keeps."""
    problems: dict[str, str] = {}
    fakes = _fake_entries(texts.fakes, problems)
    state: Any = {}
    if texts.state.strip():
        state = _parse_json(texts.state, problems, "state", "")
        if state is not None and not isinstance(state, dict):
            problems["state"] = "must be a JSON object ({...})"
    seen: dict[tuple[str, str], int] = {}
    faults = []
    for index, row in enumerate(texts.faults):
        which = (row.tool.strip(), row.call.strip() or "1")
        if which in seen:
            problems[f"faults.{index}.call"] = (
                f"call {which[1]} of {which[0]!r} has a fault already (fault {seen[which] + 1})"
            )
        seen.setdefault(which, index)
        faults.append(_fault_entry(index, row, problems))
    ignore_args = [item.strip() for item in texts.ignore_args.split(",") if item.strip()]
    redact = [line for line in texts.redact.splitlines() if line.strip()]
    _checked({"redact": redact}, problems, {"": "redact"})
    values: dict[str, Any] = {
        "fakes": fakes,
        "state": state if isinstance(state, dict) else {},
        "faults": faults,
        "ignore_args": ignore_args,
        "redact": redact,
        "end_state": _end_state(texts.end_state, problems),
    }
    old = before if isinstance(before, dict) else {}
    order = [key for key in old if key in values] + [k for k in SECTION_KEYS if k not in old]
    section = {
        key: values[key]
        for key in order
        if values[key] or (key in old and _json_text(old[key]) == _json_text(values[key]))
    }
    if not problems:
        for loc, message in section_problems(section):
            problems.setdefault(SECTION_PROBLEM, f"{section_place(loc)}: {message}")
    return section, problems


def with_section(metadata: Any, section: dict[str, Any]) -> dict[str, Any] | None:
    """A copy of ``metadata`` (a case's or an eval set's) holding ``section`` as its
    ``tools`` (none when ``section`` is empty); ``None`` when nothing is left of a
    metadata that was not there."""
    updated = copy.deepcopy(metadata) if isinstance(metadata, dict) else {}
    if section:
        updated[TOOLS_KEY] = section
    else:
        updated.pop(TOOLS_KEY, None)
    if not updated and not isinstance(metadata, dict):
        return None
    return updated


__all__ = [
    "FAULT_KINDS",
    "SECTION_KEYS",
    "SECTION_PROBLEM",
    "EndStateRow",
    "FakeRow",
    "FaultRow",
    "SectionShapeError",
    "ToolSectionTexts",
    "section_from_texts",
    "section_texts",
    "with_section",
]
