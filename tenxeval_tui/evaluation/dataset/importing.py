"""Eval sets made from other people's files: CSV (or TSV), JSON Lines, Google ADK eval sets.

One row (a CSV record, a JSONL line) is one single-turn case; with a ``turn`` column
(``turn``, ``turn_index``, ``turn_number``), the rows sharing an id are the turns of one
multi-turn case, in the order of their turn numbers (:func:`group_turns`). Which column holds what is
found by name (:data:`DEFAULT_COLUMNS`, case-insensitive) or given by a
:class:`ColumnMap` (``--map query=question,expected=answer``). Columns nobody mapped go
into the case's ``metadata``, so nothing of the row is lost.

A row that cannot be a case (no query, a ragged CSV record, a tools cell that is no JSON
list of calls, a duplicate id) is a :class:`~tenxeval_tui.evaluation.errors.Problem` at
its file and line, naming the column; :func:`import_eval_set` raises
:class:`~tenxeval_tui.evaluation.errors.EvalFileError` with every one of them, and the
caller writes nothing.

An ADK ``*.evalset.json`` is loaded by :meth:`EvalSet.from_file` (which reads genai
``Content`` messages and ADK expectations, see :mod:`.adk`); :func:`without_adk_duplicates`
then drops the ADK keys whose meaning now sits in our own fields, when no information
goes with them.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any, Literal

from pydantic import ValidationError

from tenxeval_tui.evaluation.dataset.eval_set import EvalSet, ToolCall
from tenxeval_tui.evaluation.errors import EvalFileError, Problem
from tenxeval_tui.evaluation.files.textfiles import read_text_file

Format = Literal["csv", "tsv", "jsonl", "adk"]
FORMATS: tuple[Format, ...] = ("csv", "tsv", "jsonl", "adk")

DEFAULT_COLUMNS: dict[str, tuple[str, ...]] = {
    "query": ("query", "input", "question", "prompt", "user_query", "user_content"),
    "expected": (
        "expected",
        "expected_response",
        "expected_output",
        "expected_final_response",
        "answer",
        "output",
        "reference",
    ),
    "tags": ("tags", "labels"),
    "id": ("id", "eval_id"),
    "name": ("name",),
    "description": ("description",),
    "tools": ("expected_tools", "expected_tool_calls", "expected_tool_trajectory"),
    "turn": ("turn", "turn_index", "turn_number"),
}
"""Each field of a case and the column names it is looked up by when not mapped, in order."""

MAX_PROBLEMS = 100
"""Problems collected before an import gives up reading (the rest would say the same)."""


class MappingError(ValueError):
    """A ``--map`` that cannot be used: bad syntax, an unknown field, or a column the
    file does not have (the message names it)."""


class UnreadableFileError(EvalFileError):
    """The file cannot be read as text (a folder, a FIFO, too large, not UTF-8)."""


@dataclass(frozen=True)
class ColumnMap:
    """Which column holds each field of a case (``None``: looked up by its default names)."""

    query: str | None = None
    expected: str | None = None
    tags: str | None = None
    id: str | None = None
    name: str | None = None
    description: str | None = None
    tools: str | None = None
    turn: str | None = None

    @classmethod
    def parse(cls, text: str) -> ColumnMap:
        """``query=question,expected=answer`` as a map; raises :class:`MappingError`."""
        known = [f.name for f in fields(cls)]
        values: dict[str, str] = {}
        for item in (part.strip() for part in text.split(",")):
            if not item:
                continue
            key, sep, column = item.partition("=")
            key, column = key.strip(), column.strip()
            if not sep or not column:
                raise MappingError(f"--map: {item!r} is not FIELD=COLUMN")
            if key not in known:
                raise MappingError(f"--map: unknown field {key!r} (fields: {', '.join(known)})")
            if key in values:
                raise MappingError(f"--map: field {key!r} is mapped twice")
            values[key] = column
        return cls(**values)

    def merged(self, other: ColumnMap) -> ColumnMap:
        """This map with ``other``'s mapped fields over it (several ``--map`` flags)."""
        return replace(self, **{k: v for k, v in vars(other).items() if v is not None})


@dataclass(frozen=True)
class ImportResult:
    """An imported eval set and where each case came from."""

    eval_set: EvalSet
    format: Format
    columns: dict[str, str] = field(default_factory=dict)
    """field -> the column it was read from (CSV and JSONL)."""


def guess_format(path: Path) -> Format | None:
    """The format a file name says (``.csv``, ``.tsv``, ``.jsonl``/``.ndjson``, ``.json``)."""
    name = path.name.lower()
    if name.endswith(".csv"):
        return "csv"
    if name.endswith(".tsv"):
        return "tsv"
    if name.endswith((".jsonl", ".ndjson")):
        return "jsonl"
    if name.endswith(".json"):
        return "adk"
    return None


def base_name(path: Path) -> str:
    """The file's name without its format suffixes (``qa.evalset.json`` -> ``qa``)."""
    name = path.name
    for suffix in (".evalset.json", ".jsonl", ".ndjson", ".json", ".csv", ".tsv"):
        if name.lower().endswith(suffix):
            return name[: -len(suffix)] or name
    return path.stem or name


def resolve_columns(header: list[str], mapping: ColumnMap, path: Path) -> dict[str, str]:
    """field -> column for a file whose columns are ``header``.

    A mapped column must exist (exactly, else ignoring case); an unmapped field takes
    the first of its :data:`DEFAULT_COLUMNS` found. Raises :class:`MappingError`.
    """
    by_lower: dict[str, str] = {}
    for column in header:
        by_lower.setdefault(column.strip().lower(), column)
    chosen: dict[str, str] = {}
    for key, names in DEFAULT_COLUMNS.items():
        wanted = getattr(mapping, key)
        if wanted is not None:
            found = wanted if wanted in header else by_lower.get(wanted.strip().lower())
            if found is None:
                raise MappingError(
                    f"{path}: --map {key}={wanted!r}: no such column "
                    f"(columns: {', '.join(repr(c) for c in header) or 'none'})"
                )
            chosen[key] = found
            continue
        for candidate in names:
            if candidate in by_lower and by_lower[candidate] not in chosen.values():
                chosen[key] = by_lower[candidate]
                break
    if "query" not in chosen:
        raise MappingError(
            f"{path}: no query column (looked for {', '.join(DEFAULT_COLUMNS['query'])}; "
            f"columns: {', '.join(repr(c) for c in header) or 'none'}); "
            "name it with --map query=COLUMN"
        )
    return chosen


@dataclass
class _Row:
    line: int
    values: dict[str, Any]
    error: str | None = None


def _csv_rows(path: Path, text: str, delimiter: str) -> tuple[list[str], Iterator[_Row]]:
    # a cell may be as long as the file (the default limit, 128 KiB, is a long prompt)
    csv.field_size_limit(max(csv.field_size_limit(), len(text)))
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter, strict=True)
    try:
        header = next(reader, None)
    except csv.Error as exc:
        raise EvalFileError([Problem(str(path), f"bad CSV: {exc}", line=1)]) from None
    if header is None:
        raise EvalFileError([Problem(str(path), "the file is empty (no header row)", line=1)])
    # an unnamed column still has a name, so that its cells reach the metadata
    header = [cell.strip() or f"column_{index + 1}" for index, cell in enumerate(header)]
    seen: dict[str, int] = {}
    for index, column in enumerate(header):
        if column in seen:
            raise EvalFileError(
                [
                    Problem(
                        str(path),
                        f"column {column!r} appears twice in the header "
                        f"(cells {seen[column] + 1} and {index + 1})",
                        line=1,
                    )
                ]
            )
        seen[column] = index
    last_line = reader.line_num

    def rows() -> Iterator[_Row]:
        nonlocal last_line
        while True:
            start = last_line + 1
            try:
                record = next(reader, None)
            except csv.Error as exc:
                yield _Row(start, {}, f"bad CSV: {exc}")
                return
            last_line = reader.line_num
            if record is None:
                return
            if not record or all(not cell.strip() for cell in record):
                continue  # blank lines (and rows of empty cells, as spreadsheets export)
            if len(record) != len(header):
                yield _Row(start, {}, f"{len(record)} cells, but the header has {len(header)}")
                continue
            yield _Row(start, dict(zip(header, record, strict=True)))

    return header, rows()


def _jsonl_rows(path: Path, text: str) -> tuple[list[str], list[_Row]]:
    rows: list[_Row] = []
    header: list[str] = []
    known: set[str] = set()
    # split at newlines only: str.splitlines() also splits at U+2028 and the like,
    # which JSON allows raw inside strings
    for number, line in enumerate(text.split("\n"), start=1):
        if not line.strip():
            continue
        try:
            value = json.loads(line)
        except (ValueError, RecursionError) as exc:
            message = exc.msg if isinstance(exc, json.JSONDecodeError) else "too deeply nested"
            rows.append(_Row(number, {}, f"invalid JSON: {message}"))
            continue
        if not isinstance(value, dict):
            rows.append(_Row(number, {}, "not a JSON object"))
            continue
        problem = _lone_surrogates(value)
        if problem is not None:
            rows.append(_Row(number, {}, problem))
            continue
        for key in value:
            if key not in known:
                known.add(key)
                header.append(key)
        rows.append(_Row(number, value))
    return header, rows


def _lone_surrogate(value: Any) -> str | None:
    """The first lone surrogate in ``value``'s text, or ``None``: JSON may escape half of a
    character (``"\\ud83d"``, what JavaScript writes for an emoji cut in two), which no
    UTF-8 file can hold."""
    try:
        json.dumps(value, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError as exc:
        return str(exc.object[exc.start : exc.end])
    except (ValueError, RecursionError):
        return None
    return None


def _lone_surrogates(row: dict[str, Any]) -> str | None:
    """The problem of a JSONL row holding a lone surrogate (in a key or a value), or ``None``."""
    for key, value in row.items():
        found = _lone_surrogate(key) or _lone_surrogate(value)
        if found is not None:
            return (
                f"column {key!r}: a lone surrogate ({found!r}): half of a character, "
                "which UTF-8 cannot hold (an emoji cut in two?)"
            )
    return None


def _text(value: Any, column: str, *, allow_empty: bool = True) -> str:
    if value is None:
        value = ""
    if isinstance(value, bool) or not isinstance(value, str | int | float):
        raise ValueError(f"column {column!r}: expected text, got {type(value).__name__}")
    text = str(value)
    if not allow_empty and not text.strip():
        raise ValueError(f"column {column!r}: empty")
    return text


def _tags(value: Any, column: str) -> list[str]:
    if value is None:
        return []
    if isinstance(value, str):
        stripped = value.strip()
        if stripped.startswith("["):
            try:
                value = json.loads(stripped)
            except (ValueError, RecursionError):
                raise ValueError(f"column {column!r}: starts with [ but is no JSON list") from None
        else:
            return [t.strip() for t in stripped.replace(";", ",").split(",") if t.strip()]
    if not isinstance(value, list) or not all(isinstance(t, str) for t in value):
        raise ValueError(f"column {column!r}: tags must be text or a list of strings")
    return [t for t in value if t.strip()]


def _tools(value: Any, column: str) -> list[dict[str, Any]]:
    """The tool calls of a cell, each checked as a :class:`ToolCall` (names become
    ``{"name": ...}``)."""
    if value is None or (isinstance(value, str) and not value.strip()):
        return []
    if isinstance(value, str):
        try:
            value = json.loads(value)
        except RecursionError:
            raise ValueError(f"column {column!r}: invalid JSON: nested too deeply") from None
        except ValueError as exc:
            reason = exc.msg if isinstance(exc, json.JSONDecodeError) else str(exc)
            raise ValueError(f"column {column!r}: invalid JSON: {reason}") from None
    if not isinstance(value, list):
        raise ValueError(
            f"column {column!r}: expected a JSON list of tool calls "
            '(["name", {"name": ..., "args": {...}}])'
        )
    calls: list[dict[str, Any]] = []
    for index, item in enumerate(value):
        call = {"name": item} if isinstance(item, str) else item
        try:
            ToolCall.model_validate(call)
        except ValidationError as exc:
            first = exc.errors()[0]
            where = ".".join(str(p) for p in first["loc"])
            detail = f"{where}: {first['msg']}" if where else first["msg"]
            raise ValueError(f"column {column!r}: tool call {index}: {detail}") from None
        calls.append(call)
    return calls


def _case(row: _Row, columns: dict[str, str]) -> dict[str, Any]:
    """The row as a case in the file's shape (validated with the whole set, once: a
    pydantic object per field costs ten times as much)."""
    values = row.values
    used = set(columns.values())
    metadata = {
        key: value for key, value in values.items() if key not in used and value not in ("", None)
    }

    def get(key: str) -> Any:
        column = columns.get(key)
        return None if column is None else values.get(column)

    turn: dict[str, Any] = {
        "user_content": {
            "role": "user",
            "content": _text(get("query"), columns["query"], allow_empty=False),
        },
        "expected_tool_trajectory": _tools(get("tools"), columns.get("tools", "tools")),
    }
    expected = _text(get("expected"), columns.get("expected", "expected"))
    if expected:
        turn["expected_final_response"] = {"role": "assistant", "content": expected}
    return {
        "eval_id": _text(get("id"), columns.get("id", "id")).strip(),
        "name": _text(get("name"), columns.get("name", "name")),
        "description": _text(get("description"), columns.get("description", "description")),
        "conversation": [turn],
        "tags": _tags(get("tags"), columns.get("tags", "tags")),
        "metadata": metadata,
    }


def _cases_from_rows(
    path: Path, rows: Iterator[_Row] | list[_Row], columns: dict[str, str]
) -> list[dict[str, Any]]:
    problems: list[Problem] = []
    cases: list[dict[str, Any]] = []
    first_line_of: dict[str, int] = {}
    for row in rows:
        if row.error is not None:
            problems.append(Problem(str(path), row.error, line=row.line))
        else:
            try:
                case = _case(row, columns)
                if "turn" in columns:  # taken out again by group_turns
                    case["_line"] = row.line
                    case["_turn"] = _turn_number(row.values.get(columns["turn"]), columns)
            except ValueError as exc:
                problems.append(Problem(str(path), str(exc), line=row.line))
            else:
                eval_id = case["eval_id"]
                if "turn" in columns:
                    if eval_id:
                        first_line_of.setdefault(eval_id, row.line)
                elif eval_id and eval_id in first_line_of:
                    problems.append(
                        Problem(
                            str(path),
                            f"column {columns['id']!r}: duplicate id {eval_id!r} "
                            f"(also on line {first_line_of[eval_id]}; the turns of one "
                            "case need a turn column)",
                            line=row.line,
                        )
                    )
                elif eval_id:
                    first_line_of[eval_id] = row.line
                cases.append(case)
        if len(problems) >= MAX_PROBLEMS:
            problems.append(Problem(str(path), f"stopped reading after {MAX_PROBLEMS} bad rows"))
            break
    if problems:
        raise EvalFileError(problems)
    if not cases:
        raise EvalFileError([Problem(str(path), "no rows to import")])
    if "turn" in columns:
        cases = group_turns(path, cases, columns)
    number = 0
    for case in cases:  # rows without an id: case-1, case-2, ... (skipping taken ids)
        if case["eval_id"]:
            continue
        number += 1
        while f"case-{number}" in first_line_of:
            number += 1
        case["eval_id"] = f"case-{number}"
    return cases


def _turn_number(value: Any, columns: dict[str, str]) -> int | None:
    """A row's turn number (``None`` when its cell is empty); ``ValueError`` if no number."""
    column = columns["turn"]
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    if isinstance(value, bool) or not isinstance(value, str | int | float):
        raise ValueError(f"column {column!r}: a turn number, not {type(value).__name__}")
    try:
        number = float(value)
    except ValueError:
        raise ValueError(f"column {column!r}: {value!r} is not a turn number") from None
    if not number.is_integer() or number < 0:
        raise ValueError(f"column {column!r}: {value!r} is not a whole number from 0")
    return int(number)


def group_turns(
    path: Path, rows: list[dict[str, Any]], columns: dict[str, str]
) -> list[dict[str, Any]]:
    """The rows of a file with a ``turn`` column as cases: rows sharing an id are one case,
    its turns ordered by turn number (rows without a number keep their file order, after
    those with one). The case's name, description, tags and metadata come from its first
    row; a later row's other columns go into its turn's ``user_content.metadata``, so nothing
    is lost. A row with a turn number but no id, and a turn number used twice in a case,
    are problems at their lines."""
    problems: list[Problem] = []
    cases: dict[str, dict[str, Any]] = {}
    turns: dict[str, list[tuple[int | None, int, dict[str, Any]]]] = {}
    order: list[str] = []
    for index, row in enumerate(rows):
        line, number = row.pop("_line"), row.pop("_turn")
        eval_id = row["eval_id"]
        if not eval_id:
            if number is not None:
                problems.append(
                    Problem(
                        str(path),
                        f"column {columns['turn']!r}: turn {number} has no id to join a case "
                        f"by (fill column {columns.get('id', 'id')!r})",
                        line=line,
                    )
                )
            key = f"\0row{index}"  # its own single-turn case
        else:
            key = eval_id
        (turn,) = row["conversation"]
        if key not in cases:
            cases[key] = row
            turns[key] = []
            order.append(key)
        else:
            if row["metadata"]:
                turn["user_content"]["metadata"] = row["metadata"]
            cases[key]["tags"] = list(dict.fromkeys([*cases[key]["tags"], *row["tags"]]))
        taken = [n for n, _, _ in turns[key] if n is not None]
        if number is not None and number in taken:
            problems.append(
                Problem(
                    str(path),
                    f"column {columns['turn']!r}: case {eval_id!r} has turn {number} twice",
                    line=line,
                )
            )
        turns[key].append((number, line, turn))
    if problems:
        raise EvalFileError(problems[:MAX_PROBLEMS])
    grouped = []
    for key in order:
        ordered = sorted(turns[key], key=lambda t: (t[0] is None, t[0] or 0))
        case = cases[key]
        case["conversation"] = [turn for _, _, turn in ordered]
        grouped.append(case)
    return grouped


def _without_null_keys(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: v for k, v in value.items() if v is not None}
    return value


def _parts_are_text_only(message: dict[str, Any]) -> bool:
    parts = message.get("parts")
    return isinstance(parts, list) and all(
        isinstance(part, dict) and set(_without_null_keys(part)) <= {"text"} for part in parts
    )


def without_adk_duplicates(data: dict[str, Any]) -> dict[str, Any]:
    """An eval set dumped after loading an ADK file, without the ADK keys our own fields
    now hold: text-only ``parts`` (in ``content``), ``final_response`` (in
    ``expected_final_response``) and ``intermediate_data.tool_uses`` (in
    ``expected_tool_trajectory``). Keys that carry more (an image part, a tool use's
    ``id``) stay. ``data`` is changed in place and returned."""
    for case in data.get("eval_cases", []):
        for turn in case.get("conversation", []):
            for key in ("user_content", "expected_final_response"):
                message = turn.get(key)
                if isinstance(message, dict) and _parts_are_text_only(message):
                    del message["parts"]
            if "final_response" in turn and (
                turn["final_response"] is None or turn.get("expected_final_response") is not None
            ):
                del turn["final_response"]
            intermediate = turn.get("intermediate_data")
            if isinstance(intermediate, dict):
                uses = intermediate.get("tool_uses")
                if isinstance(uses, list) and all(
                    isinstance(u, dict) and set(_without_null_keys(u)) <= {"name", "args"}
                    for u in uses
                ):
                    del intermediate["tool_uses"]
                if not any(v not in (None, [], {}) for v in intermediate.values()):
                    del turn["intermediate_data"]
    return data


def _import_adk(path: Path, eval_set_id: str | None) -> EvalSet:
    loaded = EvalSet.from_file(path)
    data = without_adk_duplicates(json.loads(loaded.model_dump_json()))
    if eval_set_id:
        data["eval_set_id"] = eval_set_id
    return EvalSet.model_validate(data)


def import_eval_set(
    path: str | Path,
    *,
    format: Format | None = None,
    mapping: ColumnMap | None = None,
    eval_set_id: str | None = None,
) -> ImportResult:
    """An eval set from the file at ``path`` (format from its name unless given).

    Raises ``FileNotFoundError``, :class:`MappingError` (a mapping or header that cannot
    be used), ``ValueError`` (no format), :class:`UnreadableFileError` for a file that
    cannot be read as text, or :class:`EvalFileError` with every bad row at its line (at
    most :data:`MAX_PROBLEMS`).
    """
    path = Path(path)
    kind = format or guess_format(path)
    if kind is None:
        raise ValueError(
            f"{path}: cannot tell the format from the name; give --format ({', '.join(FORMATS)})"
        )
    try:
        text = read_text_file(path)
    except EvalFileError as exc:
        raise UnreadableFileError(exc.problems) from None
    if kind == "adk":
        return ImportResult(_import_adk(path, eval_set_id), kind)
    mapping = mapping or ColumnMap()
    rows: Iterator[_Row] | list[_Row]
    if kind == "jsonl":
        header, rows = _jsonl_rows(path, text)
    else:
        header, rows = _csv_rows(path, text, "\t" if kind == "tsv" else ",")
    if not header and kind == "jsonl":
        problems = [Problem(str(path), r.error or "", line=r.line) for r in rows]
        raise EvalFileError(problems or [Problem(str(path), "no rows to import")])
    columns = resolve_columns(header, mapping, path)
    cases = _cases_from_rows(path, rows, columns)
    set_id = eval_set_id or base_name(path)
    eval_set = EvalSet.model_validate({"eval_set_id": set_id, "name": set_id, "eval_cases": cases})
    return ImportResult(eval_set, kind, columns)


def describe_columns(columns: Mapping[str, str]) -> str:
    """``query<-question, expected<-answer`` (what was read from where)."""
    return ", ".join(f"{key}<-{column}" for key, column in columns.items())


__all__ = [
    "DEFAULT_COLUMNS",
    "FORMATS",
    "ColumnMap",
    "Format",
    "ImportResult",
    "MappingError",
    "UnreadableFileError",
    "base_name",
    "describe_columns",
    "guess_format",
    "import_eval_set",
    "resolve_columns",
    "without_adk_duplicates",
]
