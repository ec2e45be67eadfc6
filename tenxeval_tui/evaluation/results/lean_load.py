"""A case result loaded from its JSON at a fraction of the usual memory.

``EvalCaseResult.model_validate`` of a case of 200,000 events builds its 600,000 per-event
models the usual way (each with a field-name set of its own and copies of the dicts it
is given) next to the parsed JSON: a gigabyte for one case. :func:`case_result` validates
everything but the per-event lists as usual, and makes the per-event models out of the
parsed dicts themselves (:func:`~tenxeval_tui.evaluation.lean.trusted`), when each is
exactly what the JSON writer makes (every field, in order, of the field's type); any
other item is validated as usual. The result equals, and serialises byte for byte as,
the validated one.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pydantic_core
from pydantic import BaseModel

from tenxeval_tui.evaluation.dataset.eval_set import StepType, TrajectoryStep
from tenxeval_tui.evaluation.eval_result import EvalCaseResult, NodeDetail
from tenxeval_tui.evaluation.lean import shared_name, token_usage, trusted

_STEP_TYPES = {member.value: member for member in StepType}
_STEP_FIELDS = list(TrajectoryStep.model_fields)
_DETAIL_FIELDS = list(NodeDetail.model_fields)
_PLAIN = {"node_responses": dict, "messages": dict, "node_visits": str}
"""Lists of plain JSON values, kept as they are parsed when every item is of that type."""


LEAN_ABOVE = 64 * 1024
"""A case's JSON text at most this long is validated by pydantic straight from the text
(its fastest way); a longer one is read lean."""


def case_result(data: Any) -> EvalCaseResult:
    """``EvalCaseResult.model_validate(data)`` for ``data`` parsed from JSON (``data`` is
    taken over: its per-event dicts become the result's), or given as the JSON text itself
    (``bytes``). An :class:`EvalCaseResult` is returned as it is."""
    if type(data) is bytes:
        if len(data) <= LEAN_ABOVE:
            return EvalCaseResult.model_validate_json(data)
        data = pydantic_core.from_json(data, cache_strings=True)
    if isinstance(data, EvalCaseResult):
        return data
    if not isinstance(data, dict):
        return EvalCaseResult.model_validate(data)
    lists: dict[str, list[Any]] = {}
    for name in ("actual_trajectory", "node_details"):
        if type(data.get(name)) is list:
            lists[name] = data.pop(name)
    for name, kind in _PLAIN.items():
        items = data.get(name)
        if type(items) is list and all(type(item) is kind for item in items):
            lists[name] = data.pop(name)
    repeats = data.pop("repeat_results", None) if type(data.get("repeat_results")) is list else None
    result = EvalCaseResult.model_validate(data)
    if repeats is not None:
        result.repeat_results = [case_result(repeat) for repeat in repeats]
    if "actual_trajectory" in lists:
        result.actual_trajectory = _models(lists["actual_trajectory"], TrajectoryStep, _step)
    if "node_details" in lists:
        result.node_details = _models(lists["node_details"], NodeDetail, _detail)
    if "node_visits" in lists:
        result.node_visits = [shared_name(visit) for visit in lists["node_visits"]]
    for name in ("node_responses", "messages"):
        if name in lists:
            setattr(result, name, lists[name])
    return result


def _models[M: BaseModel](
    items: list[Any], cls: type[M], lean: Callable[[dict[str, Any]], M | None]
) -> list[M]:
    """Each item as a ``cls``: lean when ``lean`` can make it, validated otherwise."""
    made: list[M] = []
    for item in items:
        model = lean(item) if type(item) is dict else None
        made.append(model if model is not None else cls.model_validate(item))
    return made


def _step(item: dict[str, Any]) -> TrajectoryStep | None:
    if list(item) != _STEP_FIELDS:
        return None
    kind = _STEP_TYPES.get(item["step_type"]) if type(item["step_type"]) is str else None
    stamp = item["timestamp"]
    if (
        kind is None
        or type(item["name"]) is not str
        or type(item["args"]) is not dict
        or type(item["metadata"]) is not dict
        or not (stamp is None or type(stamp) is float)
    ):
        return None
    item["step_type"] = kind
    item["name"] = shared_name(item["name"])
    return trusted(TrajectoryStep, item)


def _detail(item: dict[str, Any]) -> NodeDetail | None:
    if list(item) != _DETAIL_FIELDS:
        return None
    messages, usage = item["input_messages"], item["token_usage"]
    if (
        type(item["node_name"]) is not str
        or type(item["response_text"]) is not str
        or type(item["timestamp"]) is not float
        or type(messages) is not list
        or not all(type(m) is dict for m in messages)
        or type(usage) is not dict
    ):
        return None
    item["node_name"] = shared_name(item["node_name"])
    item["token_usage"] = token_usage(usage)
    return trusted(NodeDetail, item)


__all__ = ["case_result"]
