"""A report's JSON in pieces: byte for byte what pydantic writes for the whole report, but
never all of it in memory at once.

A case of 200,000 steps makes a JSON report of a few hundred megabytes when indented;
:func:`report_json_parts` yields it a few hundred steps at a time. Each model is first
serialised with its long lists replaced by a one-element marker list (a *skeleton*,
small), and each marker is then replaced by its list, serialised in batches with the
list's own type (so every item is written as it is in the whole report). JSON strings
hold no raw newline, so moving a serialised piece deeper is adding spaces after each
newline.
"""

from __future__ import annotations

import functools
import itertools
import json
import uuid
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any, Protocol, runtime_checkable

from pydantic import BaseModel, TypeAdapter

from tenxeval_tui.evaluation.eval_result import EvalCaseResult, EvalReport
from tenxeval_tui.evaluation.results.node_views import (
    VIEW_FIELDS,
    fill,
    node_detail,
    node_response_dict,
    pending,
    views,
)
from tenxeval_tui.evaluation.token_usage import TokenUsage

CASE_LISTS = (
    "actual_trajectory",
    "actual_tool_calls",
    "messages",
    "node_responses",
    "node_visits",
    "node_details",
)
"""The fields of a case that grow with its events: streamed."""
BATCH = 500
"""Items serialised at once."""


Fallback = Callable[[Any], Any] | None


@runtime_checkable
class CaseTexts(Protocol):
    """Results that hold each case's compact JSON as it was written (a run journal's lines):
    a compact report copies those bytes instead of reading and serialising each case again."""

    def case_texts(self) -> Iterator[bytes | EvalCaseResult]:
        """Each result in order: its compact JSON (what :func:`case_json_parts` writes of
        it, without ``indent``), or the result itself when its text is not known so."""
        ...


def json_array_text(items: Iterable[Any], block: int = BATCH) -> str:
    """``json.dumps(list(items))``, made ``block`` items at a time: the list of a run's
    hundreds of thousands of case ids (with their names) is never built whole, only its
    text."""
    pieces: list[str] = []
    remaining = iter(items)
    while chunk := list(itertools.islice(remaining, block)):
        pieces.append(json.dumps(chunk, default=str)[1:-1])
    return "[" + ", ".join(pieces) + "]"


def json_object_text(head: dict[str, Any], key: str, items: Iterable[Any]) -> str:
    """``json.dumps({**head, key: list(items)})``, the array last and its text made a block
    at a time (:func:`json_array_text`): a line holding every case id of a big run, its
    list never built whole."""
    opening = json.dumps(head, default=str)[:-1]
    separator = ", " if head else ""
    return f"{opening}{separator}{json.dumps(key)}: {json_array_text(items)}}}"


def report_json_parts(
    report: EvalReport, indent: int | None, fallback: Fallback = None
) -> Iterator[bytes]:
    """The JSON of ``report`` (``to_json(report, indent=indent, fallback=fallback)``) in
    pieces.

    Raises what pydantic's serialiser raises (text UTF-8 cannot hold), possibly after
    pieces were yielded. The summary's ``per_case_token_usage`` (an entry a case) is
    written in batches too.
    """
    per_case = report.summary.per_case_token_usage
    if len(per_case) <= BATCH:
        yield from _model_parts(report, ("results",), indent, 0, fallback)
        return
    mark = f"tenxeval-tokens-{uuid.uuid4().hex}"
    summary = report.summary.model_copy(update={"per_case_token_usage": {mark: TokenUsage()}})
    skeleton = report.model_copy(update={"summary": summary})
    for piece in _model_parts(skeleton, ("results",), indent, 0, fallback):
        found = piece.find(f'"{mark}"'.encode())
        if found < 0:
            yield piece
            continue
        start, end, depth = _marked_dict(piece, found, indent)
        yield piece[:start]
        yield from _dict_parts(per_case, indent, depth, fallback)
        yield piece[end:]


def _marked_dict(text: bytes, found: int, indent: int | None) -> tuple[int, int, int]:
    """Where the one-entry mapping whose key is at ``found`` is in ``text``: ``(start,
    end, depth)`` (its value an object of numbers)."""
    if indent is None:
        start, end, level = found - 1, text.index(b"}}", found) + 2, 0
    else:
        line = text.rindex(b"\n", 0, found) + 1
        level = (found - line) // indent - 1  # the depth of the line holding the key
        start = line - 2  # the "{" and the newline after it
        close = b"\n" + b" " * (indent * level) + b"}"
        end = text.index(close, found) + len(close)
    if text[start : start + 1] != b"{" or text[end - 1 : end] != b"}":
        raise ValueError("unexpected skeleton around the per-case tokens")  # pragma: no cover
    return start, end, level


def _dict_parts(
    mapping: dict[str, TokenUsage], indent: int | None, depth: int, fallback: Fallback
) -> Iterator[bytes]:
    """``mapping`` (non-empty) serialised in batches, as the mapping is whole at ``depth``."""
    adapter = _adapter(dict[str, TokenUsage])
    items = iter(mapping.items())
    first = True
    yield b"{"
    while batch := dict(itertools.islice(items, BATCH)):
        text = adapter.dump_json(batch, indent=indent, warnings=False, fallback=fallback)
        inner = text[1:-1] if indent is None else _deeper(text[1:-2], indent, depth)
        yield (b"" if first else b",") + inner
        first = False
    yield b"}" if indent is None else b"\n" + b" " * (indent * depth) + b"}"


def case_json_parts(
    result: EvalCaseResult, indent: int | None = None, fallback: Fallback = None
) -> Iterator[bytes]:
    """The JSON of one case result in pieces, as :func:`report_json_parts` writes it."""
    yield from _model_parts(result, CASE_LISTS, indent, 0, fallback)


def _model_parts(
    model: BaseModel, streamed: Sequence[str], indent: int | None, depth: int, fallback: Fallback
) -> Iterator[bytes]:
    """``model`` serialised at ``depth`` (its first line not indented), its ``streamed``
    list fields in batches."""
    if isinstance(model, EvalCaseResult) and streamed == CASE_LISTS:
        small = _small_case_json(model, indent, fallback)
        if small is not None:
            yield _deeper(small, indent, depth)
            return
    lists = _lists(model, streamed)
    if isinstance(model, EvalCaseResult) and sum(map(len, lists.values())) <= BATCH:
        # A small case whose repeats are written with it (see _small_case_json).
        whole = model.model_copy(update={name: list(items) for name, items in lists.items()})
        yield _deeper(
            type(model).__pydantic_serializer__.to_json(
                whole, indent=indent, warnings=False, fallback=fallback
            ),
            indent,
            depth,
        )
        return
    marks = {name: f"tenxeval-stream-{uuid.uuid4().hex}" for name in lists}
    skeleton = model.model_copy(update={name: [mark] for name, mark in marks.items()})
    text = _deeper(
        type(model).__pydantic_serializer__.to_json(
            skeleton, indent=indent, warnings=False, fallback=fallback
        ),
        indent,
        depth,
    )
    done = 0
    for name, mark in marks.items():
        start, end, level = marked_list(text, mark, indent, done)
        yield text[done:start]
        item_type = _item_type(type(model), name)
        if name == "results":
            yield from _results_parts(lists[name], indent, level, fallback)
        else:
            yield from _list_parts(lists[name], item_type, indent, level, fallback)
        done = end
    yield text[done:]


def _small_case_json(
    result: EvalCaseResult, indent: int | None, fallback: Fallback
) -> bytes | None:
    """The JSON of a case without repeats whose lists hold at most :data:`BATCH` items
    together (most cases: a journal line a case), in one piece; ``None`` for any other.

    The result itself is serialised, its pending node views (:mod:`.node_views`) made and
    put in its two fields for the call only, then taken out again: a copy of the model
    holding them cost more than serialising it, the skeleton's markers more than the case."""
    if result.repeat_results:
        return None
    values = result.__dict__
    nodes = pending(result)
    size = sum(len(values[name]) for name in CASE_LISTS if name not in VIEW_FIELDS)
    size += 2 * len(nodes) if nodes is not None else sum(len(values[n]) for n in VIEW_FIELDS)
    if size > BATCH:
        return None
    serializer = type(result).__pydantic_serializer__
    if nodes is None:
        return serializer.to_json(result, indent=indent, warnings=False, fallback=fallback)
    held = {name: values[name] for name in VIEW_FIELDS}
    values["node_responses"] = [node_response_dict(node) for node in nodes]
    values["node_details"] = [node_detail(node) for node in nodes]
    try:
        return serializer.to_json(result, indent=indent, warnings=False, fallback=fallback)
    finally:
        values.update(held)


def marked_list(text: bytes, mark: str, indent: int | None, after: int = 0) -> tuple[int, int, int]:
    """Where the one-element list ``["<mark>"]`` is in ``text`` (JSON written with
    ``indent``, searched from ``after``): ``(start, end, depth)``, ``text[start:end]`` the
    list, ``depth`` the nesting of the line holding its key."""
    found = text.index(f'"{mark}"'.encode(), after)
    if indent is None:
        start, end, level = found - 1, found + len(mark) + 3, 0
    else:
        line = text.rindex(b"\n", 0, found) + 1
        level = (found - line) // indent - 1  # the depth of the line holding the key
        start = line - 2  # the "[" and the newline after it
        end = found + len(mark) + 2 + 1 + level * indent + 1
    if text[start : start + 1] != b"[" or text[end - 1 : end] != b"]":
        raise ValueError(f"unexpected skeleton around {mark}")  # pragma: no cover
    return start, end, level


def list_parts(items: Iterable[bytes], indent: int | None, depth: int) -> Iterator[bytes]:
    """A JSON list whose items come serialised on their own (each written at depth 0 with
    ``indent``), as the whole list is written at ``depth``."""
    if indent is None:
        yield b"["
        for index, item in enumerate(items):
            yield (b"," if index else b"") + item
        yield b"]"
        return
    pad = b" " * (indent * (depth + 1))
    empty = True
    for index, item in enumerate(items):
        yield (b"[\n" if not index else b",\n") + pad + _deeper(item, indent, depth + 1)
        empty = False
    yield b"[]" if empty else b"\n" + b" " * (indent * depth) + b"]"


def _lists(model: BaseModel, streamed: Sequence[str]) -> dict[str, Sequence[Any]]:
    """The non-empty ``streamed`` lists of ``model``; a case result's pending node views
    (see :mod:`.node_views`) made as they are read."""
    if not isinstance(model, EvalCaseResult):
        found = {name: getattr(model, name, None) for name in streamed}
        return {name: items for name, items in found.items() if items}
    for one in model.repeat_results or ():  # written whole, with the case's skeleton
        fill(one)
    found_views = {name: views(model, name) for name in streamed}
    return {name: items for name, items in found_views.items() if items}


def _results_parts(
    results: Sequence[Any], indent: int | None, depth: int, fallback: Fallback
) -> Iterator[bytes]:
    """A report's ``results`` list, each case with its own lists streamed."""
    if indent is None:
        # A journal's cases are copied as their lines hold them (a tenth of the time of
        # reading each again and serialising it: a second at 10,000 cases).
        items = results.case_texts() if isinstance(results, CaseTexts) else iter(results)
        yield b"["
        for index, item in enumerate(items):
            if index:
                yield b","
            if isinstance(item, bytes):
                yield item
            else:
                yield from _model_parts(item, CASE_LISTS, None, 0, fallback)
        yield b"]"
        return
    pad = b" " * (indent * (depth + 1))
    yield b"[\n"
    for index, result in enumerate(results):
        yield (b",\n" if index else b"") + pad
        if type(result) is EvalCaseResult:
            yield from _model_parts(result, CASE_LISTS, indent, depth + 1, fallback)
        else:  # pragma: no cover - a subclass: written as the declared type writes it
            fill(result)
            whole = _adapter(EvalCaseResult).dump_json(result, indent=indent, fallback=fallback)
            yield _deeper(whole, indent, depth + 1)
    yield b"\n" + b" " * (indent * depth) + b"]"


def _list_parts(
    items: Sequence[Any], item_type: Any, indent: int | None, depth: int, fallback: Fallback
) -> Iterator[bytes]:
    """``items`` (a list of ``item_type``) serialised in batches, as the list is whole."""
    adapter = _adapter(list[item_type])
    if indent is None:
        yield b"["
        for start in range(0, len(items), BATCH):
            batch = adapter.dump_json(
                items[start : start + BATCH], warnings=False, fallback=fallback
            )
            yield (b"," if start else b"") + batch[1:-1]
        yield b"]"
        return
    yield b"["
    for start in range(0, len(items), BATCH):
        batch = adapter.dump_json(
            items[start : start + BATCH], indent=indent, warnings=False, fallback=fallback
        )
        # "[\n  item,\n  item\n]": the items, one level deeper than the list's line.
        yield (b"," if start else b"") + _deeper(batch[1:-2], indent, depth)
    yield b"\n" + b" " * (indent * depth) + b"]"


def _deeper(text: bytes, indent: int | None, depth: int) -> bytes:
    """``text`` (serialised at depth 0) moved ``depth`` levels deeper."""
    if indent is None or depth == 0:
        return text
    return text.replace(b"\n", b"\n" + b" " * (indent * depth))


@functools.cache
def _adapter(annotation: Any) -> TypeAdapter[Any]:
    return TypeAdapter(annotation)


@functools.cache
def _item_type(cls: type[BaseModel], name: str) -> Any:
    """The item type of the list field ``name`` of ``cls`` (``list[X]`` gives ``X``)."""
    annotation = cls.model_fields[name].annotation
    (item,) = getattr(annotation, "__args__", (Any,))
    return item


__all__ = [
    "CASE_LISTS",
    "CaseTexts",
    "case_json_parts",
    "list_parts",
    "marked_list",
    "report_json_parts",
]
