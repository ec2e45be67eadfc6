"""Compiled argument matchers: each node answers fast whether an actual value fits
(:meth:`Node.test`) and, only when asked, says why not (:meth:`Node.explain`, as
:class:`ArgMismatch` records). :mod:`~tenxeval_tui.evaluation.dataset.arg_matchers`
reads what an eval set wrote into these nodes."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from tenxeval_tui.evaluation.files.jsonlocate import PathPart, format_path


def format_arg_path(path: list[PathPart]) -> str:
    """``city``, ``filter.name``, ``stops[1]``: a place in ``args`` as shown to people
    (empty for the args object itself)."""
    return format_path(path) if path else ""


def shown(value: Any) -> str:
    """A value as JSON, cut to a readable length."""
    try:
        text = json.dumps(value, ensure_ascii=False, default=str)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= 80 else text[:79] + "…"


@dataclass(frozen=True, slots=True)
class ArgMismatch:
    """One argument of an actual call that does not fit the expected call."""

    path: str
    """Where in ``args``: ``city``, ``filter.name``, ``stops[1]`` (empty: the args object)."""
    problem: str
    """What is wrong, naming the matcher: ``"Paris" does not match $regex "^Lon"``."""
    matcher: str | None = None
    """The matcher that failed (``$regex``...), ``None`` for plain equality or a missing key."""

    def describe(self) -> str:
        """``city: "Paris" does not match $regex "^Lon"``."""
        return f"{self.path or 'args'}: {self.problem}"

    def to_json(self) -> dict[str, Any]:
        """As stored in a criterion's details."""
        data: dict[str, Any] = {"arg": self.path, "problem": self.problem}
        if self.matcher is not None:
            data["matcher"] = self.matcher
        return data


Out = list[ArgMismatch]


class Node:
    """A compiled expected value: ``test`` is the fast yes/no, ``explain`` says why not."""

    __slots__ = ()

    def test(self, actual: Any) -> bool:
        raise NotImplementedError

    def explain(self, actual: Any, path: list[PathPart], out: Out) -> None:
        raise NotImplementedError


def kind_of(value: Any) -> str:
    """``a string``, ``a number``, ``an object``...: a JSON value's kind, in words."""
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return "null" if value is None else type(value).__name__


class Equal(Node):
    """A plain value: equal to it (``==``, as ``ToolCall.matches`` compares)."""

    __slots__ = ("value",)

    def __init__(self, value: Any) -> None:
        self.value = value

    def test(self, actual: Any) -> bool:
        return bool(actual == self.value)

    def explain(self, actual: Any, path: list[PathPart], out: Out) -> None:
        if not self.test(actual):
            out.append(
                ArgMismatch(format_arg_path(path), f"{shown(actual)} is not {shown(self.value)}")
            )


class Literal(Equal):
    """``$eq``: equality, with the value read literally."""

    __slots__ = ()

    def explain(self, actual: Any, path: list[PathPart], out: Out) -> None:
        if not self.test(actual):
            problem = f"{shown(actual)} is not {shown(self.value)} ($eq)"
            out.append(ArgMismatch(format_arg_path(path), problem, "$eq"))


class AnyValue(Node):
    """``$any``: any value."""

    __slots__ = ()

    def test(self, actual: Any) -> bool:
        return True

    def explain(self, actual: Any, path: list[PathPart], out: Out) -> None:
        return None


class Check(Node):
    """A matcher that is a predicate on one value, with a sentence for a failure."""

    __slots__ = ("name", "predicate", "said", "written")

    def __init__(
        self, name: str, predicate: Callable[[Any], bool], said: str, written: Any
    ) -> None:
        self.name = name
        self.predicate = predicate
        self.said = said
        """``does not match $regex {}``: the sentence after the actual value, ``{}``
        standing for the written value (made into text only to explain a failure)."""
        self.written = written

    def test(self, actual: Any) -> bool:
        return self.predicate(actual)

    def explain(self, actual: Any, path: list[PathPart], out: Out) -> None:
        if not self.predicate(actual):
            said = self.said.replace("{}", shown(self.written))
            out.append(ArgMismatch(format_arg_path(path), f"{shown(actual)} {said}", self.name))


class OneOf(Node):
    """``$in``: one of these (each a node)."""

    __slots__ = ("options", "written")

    def __init__(self, options: list[Node], written: Any) -> None:
        self.options = options
        self.written = written

    def test(self, actual: Any) -> bool:
        return any(option.test(actual) for option in self.options)

    def explain(self, actual: Any, path: list[PathPart], out: Out) -> None:
        if not self.test(actual):
            problem = f"{shown(actual)} is none of {shown(self.written)} ($in)"
            out.append(ArgMismatch(format_arg_path(path), problem, "$in"))


def _not_a(actual: Any, kind: str, node: ObjectNode | ListNode) -> str:
    """Why ``actual`` fails a container: ``"A1" is not {"k": 1}`` for a plain one (no
    matcher inside), else ``expected an object, got a string``."""
    if node.plain is not None:
        return f"{shown(actual)} is not {shown(node.plain)}"
    return f"expected {kind}, got {kind_of(actual)}"


class ObjectNode(Node):
    """An object: these keys, each matching; ``exact``: no other keys (ignored ones aside)."""

    __slots__ = ("entries", "exact", "ignore", "plain", "written")

    def __init__(
        self,
        written: dict[str, Any],
        entries: dict[str, Node],
        exact: bool,
        ignore: frozenset[str],
        plain: Any,
    ) -> None:
        self.written = written
        self.entries = entries
        self.exact = exact
        self.ignore = ignore
        self.plain = plain
        """The written object when plain equality decides (no matcher inside, nothing
        ignored, exact): compared with one ``==``."""

    def test(self, actual: Any) -> bool:
        if not isinstance(actual, dict):
            return False
        if self.plain is not None:
            return bool(actual == self.plain)
        for key, node in self.entries.items():
            if key not in actual or not node.test(actual[key]):
                return False
        if not self.exact:
            return True
        if not self.ignore:
            return len(actual) == len(self.entries)
        entries, ignore = self.entries, self.ignore
        return all(key in entries or key in ignore for key in actual)

    def explain(self, actual: Any, path: list[PathPart], out: Out) -> None:
        if not isinstance(actual, dict):
            out.append(ArgMismatch(format_arg_path(path), _not_a(actual, "an object", self)))
            return
        for key, node in self.entries.items():
            if key not in actual:
                problem = f"missing (expected {shown(self.written[key])})"
                out.append(ArgMismatch(format_arg_path([*path, key]), problem))
            else:
                node.explain(actual[key], [*path, key], out)
        if self.exact:
            for key, value in actual.items():
                if key not in self.entries and key not in self.ignore:
                    where = format_arg_path([*path, key])
                    out.append(ArgMismatch(where, f"not expected (got {shown(value)})"))


class ListNode(Node):
    """A list: as many items, each fitting the node at its place."""

    __slots__ = ("items", "plain")

    def __init__(self, items: list[Node], plain: Any) -> None:
        self.items = items
        self.plain = plain

    def test(self, actual: Any) -> bool:
        if not isinstance(actual, list):
            return False
        if self.plain is not None:
            return bool(actual == self.plain)
        return len(actual) == len(self.items) and all(
            node.test(value) for node, value in zip(self.items, actual, strict=True)
        )

    def explain(self, actual: Any, path: list[PathPart], out: Out) -> None:
        where = format_arg_path(path)
        if not isinstance(actual, list):
            out.append(ArgMismatch(where, _not_a(actual, "a list", self)))
            return
        if len(actual) != len(self.items):
            problem = f"{len(actual)} items, expected {len(self.items)}"
            out.append(ArgMismatch(where, problem))
        for index, (node, value) in enumerate(zip(self.items, actual, strict=False)):
            node.explain(value, [*path, index], out)


def is_number(value: Any) -> bool:
    """An int or float, not a bool."""
    return isinstance(value, int | float) and not isinstance(value, bool)


def not_plain(node: Node) -> bool:
    """Whether ``node`` needs more than ``==`` (a matcher, or a container holding one)."""
    if isinstance(node, ObjectNode | ListNode):
        return node.plain is None
    return not isinstance(node, Equal) or isinstance(node, Literal)


__all__ = [
    "AnyValue",
    "ArgMismatch",
    "Check",
    "Equal",
    "ListNode",
    "Literal",
    "Node",
    "ObjectNode",
    "OneOf",
    "PathPart",
    "format_arg_path",
    "is_number",
    "kind_of",
    "not_plain",
    "shown",
]
