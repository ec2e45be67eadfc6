"""Keys a file holds that nothing reads: typos that silently check nothing.

Eval sets and configs keep keys they do not know (10xGraph's files must round-trip, and
a project may annotate its cases), so ``"expected_tool_use"`` for
``"expected_tool_trajectory"``, ``"tagz"`` or a criterion's ``"treshold"`` load without a
word and check nothing. :func:`unknown_keys` walks a file's parsed JSON along the models
that read it and lists each key no model field (nor 10xGraph's own format) knows, with
the nearest known name; :func:`unknown_key_problems` says where each is in the file
(``file:line:column``) as a warning. Free-form objects (``metadata``, ``state``,
``config``, tool arguments) are not checked.
"""

from __future__ import annotations

import difflib
import json
import types
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, Union, get_args, get_origin

from pydantic import BaseModel

from tenxeval_tui.evaluation.config.eval_config import CriteriaConfig, EvalConfig, criterion_field
from tenxeval_tui.evaluation.dataset.eval_set import EvalCase, EvalSet, Invocation, MessageContent
from tenxeval_tui.evaluation.errors import Problem
from tenxeval_tui.evaluation.files.jsonlocate import PathPart, format_path, locate_many

_ADK_TIME = "creation_timestamp"
ALSO_READ: Mapping[type[BaseModel], frozenset[str]] = {
    # Google ADK's eval sets: read as ours (messages' parts, a turn's final_response and
    # intermediate_data) or kept for ADK when saved again.
    MessageContent: frozenset({"parts"}),
    Invocation: frozenset(
        {"final_response", "intermediate_data", _ADK_TIME, "rubrics", "app_details"}
    ),
    EvalCase: frozenset({_ADK_TIME, "final_session_state", "conversation_scenario", "rubrics"}),
    EvalSet: frozenset({_ADK_TIME}),
    EvalConfig: frozenset({"mock_mode"}),  # 10xgraph 0.10.3 writes it; nothing here uses it
}
"""Keys a model reads (or knowingly ignores) besides its fields."""

FILE_KEYS = frozenset({"$schema"})
"""Keys known at the top of any file: ``$schema`` names the JSON Schema an editor checks the
file against (``tenxeval-tui schema``); nothing else reads it."""


@dataclass(frozen=True, slots=True)
class UnknownKey:
    """One key that nothing reads, where it is, and the names that were possible there."""

    path: tuple[PathPart, ...]
    """The key's place: its object's path, then the key."""
    known: tuple[str, ...]

    @property
    def key(self) -> str:
        """The key as the file spells it."""
        return str(self.path[-1])

    @property
    def suggestion(self) -> str | None:
        """The known name nearest to the key (``None``: none is near)."""
        lowered = {name.lower(): name for name in self.known}
        found = difflib.get_close_matches(self.key.lower(), list(lowered), n=1, cutoff=0.6)
        return lowered[found[0]] if found else None

    def message(self) -> str:
        """``unknown key 'tagz' (nothing reads it); did you mean tags?``"""
        hint = f"; did you mean {self.suggestion}?" if self.suggestion else ""
        return f"unknown key {self.key!r} (nothing reads it){hint}"


@cache
def _known(model: type[BaseModel]) -> tuple[str, ...]:
    names = set(ALSO_READ.get(model, ()))
    for name, info in model.model_fields.items():
        names.add(info.alias or name)
        names.add(name)
    return tuple(sorted(names))


def _model_in(annotation: Any) -> tuple[str, type[BaseModel]] | None:
    """``("one" | "list" | "dict", Model)`` when a field holds models; else ``None``."""
    origin = get_origin(annotation)
    if origin in (Union, types.UnionType):
        for arg in get_args(annotation):
            found = _model_in(arg)
            if found is not None:
                return found
        return None
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return "one", annotation
    args = get_args(annotation)
    if origin is list and args and isinstance(args[0], type) and issubclass(args[0], BaseModel):
        return "list", args[0]
    if origin is dict and len(args) == 2:
        inner = args[1]
        if isinstance(inner, type) and issubclass(inner, BaseModel):
            return "dict", inner
    return None


@cache
def _holding(model: type[BaseModel]) -> dict[str, tuple[str, type[BaseModel]]]:
    """Each key of ``model`` (alias or name) whose field holds models: how, and which (made
    once a model: an eval set walks the same few models for each of its cases)."""
    fields = {info.alias or name: info for name, info in model.model_fields.items()}
    fields.update(model.model_fields)
    found = {key: _model_in(info.annotation) for key, info in fields.items()}
    return {key: inner for key, inner in found.items() if inner is not None}


def _walk(model: type[BaseModel], data: Any, path: tuple[PathPart, ...]) -> Iterator[UnknownKey]:
    if not isinstance(data, dict):
        return
    if model is CriteriaConfig:
        yield from _walk_criteria(data, path)
        return
    known = _known(model)
    holding = _holding(model)
    for key, value in data.items():
        if key not in known:
            yield UnknownKey((*path, key), known)
            continue
        inner = holding.get(key)
        if inner is None:
            continue
        how, child = inner
        if how == "one":
            yield from _walk(child, value, (*path, key))
        elif how == "list" and isinstance(value, list):
            for index, item in enumerate(value):
                yield from _walk(child, item, (*path, key, index))
        elif how == "dict" and isinstance(value, dict):
            for name, item in value.items():
                yield from _walk(child, item, (*path, key, name))


def _walk_criteria(data: dict[str, Any], path: tuple[PathPart, ...]) -> Iterator[UnknownKey]:
    """The criteria block: keys are criterion names or field names (an unknown criterion
    is already an error of the config), each a criterion's settings."""
    for key, value in data.items():
        field = key if key in CriteriaConfig.model_fields else criterion_field(key)
        if field is None:
            continue
        inner = _model_in(CriteriaConfig.model_fields[field].annotation)
        if inner is None:
            continue
        how, child = inner
        if how == "dict" and isinstance(value, dict):
            for name, item in value.items():
                yield from _walk(child, item, (*path, key, name))
        elif how == "one":
            yield from _walk(child, value, (*path, key))


def unknown_keys(data: Any, model: type[BaseModel] = EvalSet) -> list[UnknownKey]:
    """Every key of ``data`` (a file's parsed JSON, read as ``model``) that nothing reads
    (``$schema`` at its top is known: :data:`FILE_KEYS`)."""
    return [found for found in _walk(model, data, ()) if found.path not in _FILE_PATHS]


_FILE_PATHS = {(key,) for key in FILE_KEYS}


def unknown_keys_at(
    data: Any, model: type[BaseModel], path: tuple[PathPart, ...]
) -> list[UnknownKey]:
    """The keys nothing reads of ``data``, a part of a file at ``path`` read as ``model``
    (one case of an eval set read on its own: ``("eval_cases", 3)``, ``EvalCase``)."""
    return list(_walk(model, data, path))


def unknown_key_problems(
    path: str | Path,
    text: str,
    data: Any,
    model: type[BaseModel] = EvalSet,
    *,
    severity: str = "warning",
) -> list[Problem]:
    """The unknown keys of a file at their ``file:line:column``, each a ``severity``
    (``"warning"``; ``"error"`` where they must fail, as ``--strict`` asks)."""
    found = unknown_keys(data, model)
    return placed_problems(path, text, found, [item.path for item in found], severity=severity)


def placed_problems(
    path: str | Path,
    text: str,
    found: Sequence[UnknownKey],
    places: Sequence[Sequence[PathPart]],
    *,
    severity: str = "warning",
    origin: tuple[int, int] = (1, 1),
    shift: int = 0,
) -> list[Problem]:
    """The problems of the unknown keys ``found``, each at its path of ``places`` in
    ``text``: the whole file, or a part of it (one case) starting at line and column
    ``origin`` of the file, its first ``shift`` characters not the file's (an added ``{``)."""
    located = locate_many(text, [list(place) for place in places])
    lines = text.splitlines()
    problems = []
    for item, (line, column) in zip(found, located, strict=True):
        # the place of the key itself, when it stands on its value's line
        before = lines[line - 1][: column - 1] if 0 < line <= len(lines) else ""
        at = before.rfind(json.dumps(item.key, ensure_ascii=False))
        column = at + 1 if at >= 0 else column
        if line == 1:
            line, column = origin[0], origin[1] + column - 1 - shift
        else:
            line += origin[0] - 1
        problems.append(
            Problem(
                str(path),
                f"{severity}: {item.message()}",
                line,
                column,
                format_path(item.path[:-1]),
            )
        )
    return problems


def unknown_keys_in_file(
    path: str | Path, model: type[BaseModel] = EvalSet, *, severity: str = "warning"
) -> list[Problem]:
    """:func:`unknown_key_problems` of the file at ``path`` (empty when it cannot be read
    or parsed: loading it says why)."""
    try:
        text = Path(path).read_text(encoding="utf-8")
        data = json.loads(text)
    except (OSError, ValueError):
        return []
    return unknown_key_problems(path, text, data, model, severity=severity)


def describe(found: Sequence[UnknownKey], whole: str = "top level") -> list[str]:
    """One line per unknown key: where (its JSON path; ``whole`` for the object itself)
    and what (for a place with no ``file:line:column``, the editor's form)."""
    return [
        f"{format_path(item.path[:-1]) if len(item.path) > 1 else whole}: {item.message()}"
        for item in found
    ]


__all__ = [
    "ALSO_READ",
    "UnknownKey",
    "describe",
    "placed_problems",
    "unknown_key_problems",
    "unknown_keys",
    "unknown_keys_at",
    "unknown_keys_in_file",
]
