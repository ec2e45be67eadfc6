"""The worker's ``case_end`` protocol line, encoded by pydantic in one step.

The line was ``json.dumps`` of ``result.model_dump(mode="json", exclude=...)``: a dict of
the whole result built only to be encoded (~16 us for a small result, against ~10 us
here, the check below included). Its reader must get back exactly what it got before,
so the old path still makes the lines pydantic's JSON would say otherwise:

- a non-finite float in a typed field (``duration_seconds``, a criterion's ``threshold``,
  ``repeat_stats``...): ``model_dump(mode="json")`` kept the float and ``json.dumps``
  wrote ``NaN``/``Infinity``, where pydantic's JSON writes ``null`` (a model's
  ``ser_json_inf_nan``, which a serializer built here cannot override); such a result is
  found by :func:`has_non_finite` before it is encoded (which, not to miss a model held
  in an untyped value, also sends the rare result with one in ``metadata`` that way);
- text pydantic's JSON cannot write (a lone surrogate in an agent's text, which
  ``json.dumps`` escaped as ``"\\ud83d"`` and the reader decodes back): it raises.

Non-ASCII text is ``\\u`` escaped, as ``json.dumps`` did; key order is the model's field
order in both; only the separators' spaces differ.
"""

from __future__ import annotations

import functools
import typing
from collections.abc import Iterator
from typing import Any

from pydantic import BaseModel
from pydantic_core import PydanticSerializationError

from tenxeval_tui.evaluation.eval_result import EvalCaseResult
from tenxeval_tui.evaluation.observers import CASE_END_HEAD

_NO_FLOAT = (str, int, bool, type(None))


def _leaves(annotation: Any) -> Iterator[Any]:
    """The types ``annotation`` is made of: its unions' and generics' arguments."""
    arguments = typing.get_args(annotation)
    if not arguments or typing.get_origin(annotation) is typing.Literal:
        yield annotation
    for argument in arguments:
        yield from _leaves(argument)


def _plain_model(kind: Any) -> bool:
    """Whether ``kind`` is a model of only text, integers and flags (a token count)."""
    return (
        isinstance(kind, type)
        and issubclass(kind, BaseModel)
        and kind.model_config.get("extra") != "allow"
        and all(
            leaf in _NO_FLOAT
            for field in kind.model_fields.values()
            for leaf in _leaves(field.annotation)
        )
    )


def _may_hold_a_float(annotation: Any) -> bool:
    """Whether a value of ``annotation`` can hold a float (``Any``, a model, a ``float``
    may; text, integers and flags, lists of them and models of them may not)."""
    return any(leaf not in _NO_FLOAT and not _plain_model(leaf) for leaf in _leaves(annotation))


@functools.cache
def _checked_fields(model: type[BaseModel], skipped: frozenset[str]) -> tuple[str, ...]:
    """The fields of ``model`` but ``skipped`` whose values may hold a float (the others
    are left out of the walk: a result's text, ids, flags and token counts)."""
    return tuple(
        name
        for name, field in model.model_fields.items()
        if name not in skipped and _may_hold_a_float(field.annotation)
    )


_LEAVES = frozenset(_NO_FLOAT)  # the same types, for values: a set's lookup is quicker


def _non_finite(value: Any) -> bool:
    # Plain loops on exact types: this runs for every case of a run (~2 us for a
    # small result), where isinstance chains and generators cost several times that.
    kind = type(value)
    if kind is float:
        return value - value != 0.0  # NaN for NaN and both infinities
    if kind in _LEAVES:
        return False
    if kind is list or kind is tuple:
        return any(map(_non_finite, value))
    if kind is dict:
        return any(map(_non_finite, value.values()))
    if isinstance(value, BaseModel):
        return has_non_finite(value)
    return isinstance(value, float) and _non_finite(float(value))


def has_non_finite(model: BaseModel, skipped: frozenset[str] = frozenset()) -> bool:
    """Whether a float anywhere in ``model`` (but in its ``skipped`` fields), its extras
    included, is NaN or infinite. Untyped ones are ``null`` in both encodings, but they
    are rare enough not to be worth telling apart (and a model held in an untyped value
    keeps its own serializer, so would not be)."""
    values = model.__dict__
    for name in _checked_fields(type(model), skipped):
        if _non_finite(values[name]):
            return True
    extra = model.__pydantic_extra__
    return extra is not None and any(map(_non_finite, extra.values()))


def case_end_line(result: EvalCaseResult, excluded: frozenset[str]) -> str | None:
    """The ``case_end`` line of ``result`` without its ``excluded`` fields, with its
    newline; ``None`` when pydantic's JSON would not say what ``json.dumps`` of
    ``model_dump(mode="json")`` says (the caller then encodes that, as before)."""
    if has_non_finite(result, excluded):
        return None
    return encoded_case_end(result, exclude=set(excluded))


def encoded_case_end(
    result: EvalCaseResult, *, include: Any = None, exclude: Any = None
) -> str | None:
    """The ``case_end`` line of ``result`` as pydantic's JSON writes it (``include`` and
    ``exclude`` as its serializer takes them), non-ASCII ``\\u`` escaped, with its newline;
    ``None`` when the result holds text pydantic's JSON cannot write (a lone surrogate).
    The caller has checked its floats (see the module)."""
    serializer = type(result).__pydantic_serializer__
    try:
        body = serializer.to_json(result, include=include, exclude=exclude, ensure_ascii=True)
    except PydanticSerializationError:
        return None
    return CASE_END_HEAD + body.decode("ascii") + "}\n"


__all__ = ["case_end_line", "encoded_case_end", "has_non_finite"]
