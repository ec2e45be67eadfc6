"""Many small pydantic models at a fraction of their usual memory, for per-event data.

An agent's run makes a trajectory step, a node response and a node detail for each of
its events: 200,000 events make 600,000 models. Validated the usual way, each carries a
set of the names of its fields (about 700 bytes), an empty dict for extra fields and
copies of the lists and dicts it was given, and each node response a token usage of its
own. :func:`trusted` builds a model from values that are already of their fields' types,
sharing one field-name set per class (a model built this way reports every field as set)
and making its extra-field dict only when an extra attribute is assigned (the class's
``__setattr__`` is :func:`extra_on_demand`; until then ``model_extra`` is ``None``);
:func:`token_usage` returns one shared instance per distinct count (``TokenUsage`` is
frozen), :func:`shared_name` one string per distinct node name.

The models are the same classes, with the same values: they compare equal to and
serialise byte for byte as their validated twins.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel

from tenxeval_tui.evaluation.token_usage import TokenUsage


class _AllFields(set[str]):
    """The shared field-name set of a class's lean instances. Holding every field
    already, it ignores what pydantic adds to it on assignment (an extra attribute's
    name): a name assigned on one instance would otherwise appear set on all of them."""

    def add(self, element: str) -> None:
        """Nothing: see the class."""


_ALL_FIELDS: dict[type[BaseModel], _AllFields] = {}
_ZERO = TokenUsage()
_USAGES: dict[tuple[int, int, int, int], TokenUsage] = {}
_USAGE_CACHE_SIZE = 4096


def trusted[M: BaseModel](cls: type[M], values: dict[str, Any]) -> M:
    """An instance of ``cls`` holding ``values`` as they are (not validated, not copied).

    ``values`` must name every field of ``cls``, each already of its type (as validation
    would have made it); the dict becomes the instance's own. Its ``model_fields_set`` is
    shared by every instance of ``cls`` built here: all the fields (an extra attribute
    assigned later is kept, but not named in it).
    """
    fields = _ALL_FIELDS.get(cls)
    if fields is None:
        fields = _ALL_FIELDS[cls] = _AllFields(cls.model_fields)
    model = cls.__new__(cls)
    object.__setattr__(model, "__dict__", values)
    object.__setattr__(model, "__pydantic_fields_set__", fields)
    # None, not {}: pydantic takes the two alike (equality, serialisation, copies); a class
    # that allows extra fields makes the dict when one is assigned (extra_on_demand).
    object.__setattr__(model, "__pydantic_extra__", None)
    object.__setattr__(model, "__pydantic_private__", None)
    return model


def extra_on_demand(model: BaseModel, name: str, value: Any) -> None:
    """``__setattr__`` of a class with ``extra="allow"`` whose instances :func:`trusted`
    builds: an extra attribute assigned to one of them gets it a dict of its own first
    (pydantic's own ``__setattr__`` does the rest)."""
    if (
        model.__pydantic_extra__ is None
        and name not in type(model).__pydantic_fields__
        and not name.startswith("_")
    ):
        object.__setattr__(model, "__pydantic_extra__", {})
    BaseModel.__setattr__(model, name, value)


_NAMES: dict[str, str] = {}
_NAMES_CACHE_SIZE = 4096


def shared_name(name: str) -> str:
    """``name``, or an equal string met before: the node names of a run repeat, and each
    event would otherwise keep a copy of its own (a bounded cache, not ``sys.intern``,
    which would keep every name an agent makes up for ever)."""
    found = _NAMES.get(name)
    if found is not None:
        return found
    if len(_NAMES) >= _NAMES_CACHE_SIZE:
        _NAMES.clear()
    _NAMES[name] = name
    return name


def token_usage(data: Mapping[str, Any] | TokenUsage | None) -> TokenUsage:
    """The :class:`TokenUsage` of ``data`` (an event's ``token_usage`` dict), one shared
    instance per distinct count; anything unusual is validated as usual."""
    if isinstance(data, TokenUsage):
        return data
    if not data:
        return _ZERO
    counts = tuple(data.get(key, 0) for key in _USAGE_KEYS)
    if not all(type(c) is int for c in counts):
        return TokenUsage.model_validate(data)  # counts to coerce, or to refuse
    key = (counts[0], counts[1], counts[2], counts[3])
    if not any(key):
        return _ZERO
    usage = _USAGES.get(key)
    if usage is None:
        if len(_USAGES) >= _USAGE_CACHE_SIZE:
            _USAGES.clear()
        usage = _USAGES[key] = TokenUsage(*key)
    return usage


_USAGE_KEYS = ("input_tokens", "output_tokens", "cache_read_tokens", "cache_creation_tokens")

__all__ = ["extra_on_demand", "shared_name", "token_usage", "trusted"]
