"""Argument matchers: an expected tool call's argument that matches a kind of value.

In an eval set, an expected call's ``args`` may hold, in place of a value, a JSON
object keyed by one of these names: a *matcher*.

=================================  =====================================================
``{"$any": true}``                 any value (the argument must be given)
``{"$regex": "^Lon"}``             a string in which the regular expression finds a match
                                   (``re.search``: anchor it with ``^``/``$`` for all of it)
``{"$approx": 3.0, "tol": 0.05}``  a number within ``tol`` of 3.0 (absolute; without
                                   ``tol``: equal up to float rounding, ``math.isclose``)
``{"$contains": "Lon"}``           a string holding this substring
``{"$in": ["London", "Paris"]}``   a value equal to one of these (an item may be a matcher)
``{"$subset": {...}}``             an object holding these keys (each matching), other
                                   keys ignored; also usable as the whole ``args``
``{"$eq": value}``                 exactly ``value``, read literally: how to expect an
                                   object keyed by one of these names
=================================  =====================================================

Every other value is compared for equality, as without matchers: objects key by key
(the same keys on both sides), lists item by item, so matchers work at any depth. An
object with other ``$`` keys (``{"$ref": ...}``, ``{"$gt": 3}``) is such a value, as it
was before matchers: files that hold them load and score as they did
(:func:`literal_dollar_keys` lists them, for ``validate`` to warn of a misspelt matcher).
Keys to ignore (a criterion's ``ignore_args``) are dropped from objects at every depth,
on both sides (not inside ``$eq``).

A matcher is checked when it is read: two in one object, a key beside it that is none of
its options, a regular expression that does not compile, a tolerance that is no number...
each is a problem named with its
place in ``args`` (:func:`matcher_problems`), so ``validate`` and the editor can point
at it. :func:`compile_args` turns an expected call's ``args`` into an
:class:`ArgsPattern`, compiled once and tested against any number of actual calls.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Collection
from typing import Any

from tenxeval_tui.evaluation.dataset.matcher_nodes import (
    AnyValue,
    ArgMismatch,
    Check,
    Equal,
    ListNode,
    Literal,
    Node,
    ObjectNode,
    OneOf,
    PathPart,
    format_arg_path,
    is_number,
    kind_of,
    not_plain,
    shown,
)

Found = list[tuple[list[PathPart], str]]
"""Problems found: (JSON path below ``args``, message)."""

MATCHERS: dict[str, str] = {
    "$any": "any value (the argument must be given)",
    "$regex": "a string the regular expression finds a match in",
    "$approx": 'a number within "tol" of this one',
    "$contains": "a string holding this substring",
    "$in": "a value equal to one of these",
    "$subset": "an object holding these keys, others ignored",
    "$eq": "exactly this value, read literally",
}
"""Every matcher, with what it matches (the editor's completion lists them in this order)."""

OPTIONS: dict[str, frozenset[str]] = {"$approx": frozenset({"tol"})}
"""The keys a matcher takes beside its own."""

WHOLE_ARGS_MATCHERS = ("$subset", "$eq", "$any")
"""The matchers an expected call's whole ``args`` may be."""


class MatcherError(ValueError):
    """Expected arguments whose matchers cannot be read; ``found`` holds each problem."""

    def __init__(self, found: Found) -> None:
        self.found = found
        super().__init__("; ".join(f"{format_arg_path(p) or 'args'}: {m}" for p, m in found))


def is_matcher(value: Any) -> bool:
    """Whether ``value`` is written as a matcher (an object with a key of :data:`MATCHERS`)."""
    if not isinstance(value, dict):
        return False
    for key in value:  # noqa: SIM110 - a loop: any() over a generator costs more, per call
        if key in MATCHERS:
            return True
    return False


def uses_matchers(value: Any) -> bool:
    """Whether ``value`` (JSON data: string keys) holds a matcher at any depth. Plain loops
    and type checks: it runs on every expected call of every file loaded and scored."""
    kind = type(value)
    if kind is dict:
        for key, item in value.items():
            if key in MATCHERS:
                return True
            inner = type(item)
            if (inner is dict or inner is list) and uses_matchers(item):
                return True
    elif kind is list:
        for item in value:
            inner = type(item)
            if (inner is dict or inner is list) and uses_matchers(item):
                return True
    elif isinstance(value, dict | list):  # a subclass: the general case
        return uses_matchers(dict(value) if isinstance(value, dict) else list(value))
    return False


class _Compiler:
    """Reads written values into nodes, collecting every problem on the way."""

    def __init__(self, ignore: frozenset[str]) -> None:
        self.ignore = ignore
        self.found: Found = []

    def problem(self, path: list[PathPart], message: str) -> Node:
        self.found.append((path, message))
        return AnyValue()

    def value(self, written: Any, path: list[PathPart]) -> Node:
        if isinstance(written, dict):
            if is_matcher(written):
                return self.matcher(written, path)
            return self.object(written, path, exact=True)
        if isinstance(written, list):
            items = [self.value(item, [*path, i]) for i, item in enumerate(written)]
            plain_enough = not self.ignore and not any(not_plain(n) for n in items)
            return ListNode(items, written if plain_enough else None)
        return Equal(written)

    def object(self, written: dict[str, Any], path: list[PathPart], *, exact: bool) -> Node:
        entries = {
            key: self.value(value, [*path, key])
            for key, value in written.items()
            if key not in self.ignore
        }
        plain_enough = exact and not self.ignore and not any(not_plain(n) for n in entries.values())
        return ObjectNode(written, entries, exact, self.ignore, written if plain_enough else None)

    def matcher(self, written: dict[str, Any], path: list[PathPart]) -> Node:
        names = [key for key in written if key in MATCHERS]
        if len(names) > 1:
            return self.problem(
                path, f"one matcher per object, not {len(names)} ({', '.join(names)})"
            )
        name = names[0]
        allowed = OPTIONS.get(name, frozenset())
        for key in written:
            if key != name and key not in allowed:
                beside = f" ({name} takes {', '.join(sorted(allowed))})" if allowed else ""
                self.problem(
                    [*path, key],
                    f"unknown key {key!r} beside {name}{beside}; to expect this object "
                    'as it is, write {"$eq": ...}',
                )
        return _BUILDERS[name](self, written, [*path, name])

    def any_(self, written: dict[str, Any], path: list[PathPart]) -> Node:
        if written["$any"] is not True:
            return self.problem(path, "$any takes true")
        return AnyValue()

    def regex(self, written: dict[str, Any], path: list[PathPart]) -> Node:
        pattern = written["$regex"]
        if not isinstance(pattern, str):
            return self.problem(path, f"$regex takes a string, not {kind_of(pattern)}")
        try:
            compiled = re.compile(pattern)
        except re.error as exc:
            return self.problem(path, f"invalid regular expression {shown(pattern)}: {exc}")

        def found_in(actual: Any) -> bool:
            return isinstance(actual, str) and compiled.search(actual) is not None

        return Check("$regex", found_in, "does not match $regex {}", pattern)

    def approx(self, written: dict[str, Any], path: list[PathPart]) -> Node:
        target = written["$approx"]
        if not is_number(target) or not math.isfinite(target):
            return self.problem(path, f"$approx takes a finite number, not {shown(target)}")
        tol = written.get("tol")
        if tol is not None and (not is_number(tol) or not tol >= 0 or not math.isfinite(tol)):
            return self.problem([*path[:-1], "tol"], f"tol takes a number >= 0, not {shown(tol)}")

        def near(actual: Any) -> bool:
            if not is_number(actual):
                return False
            if tol is None:
                return math.isclose(actual, target)
            return bool(abs(actual - target) <= tol)

        within = f"within {tol!r} of" if tol is not None else "equal to"  # a number's JSON
        return Check("$approx", near, f"is not {within} {{}} ($approx)", target)

    def contains(self, written: dict[str, Any], path: list[PathPart]) -> Node:
        part = written["$contains"]
        if not isinstance(part, str):
            return self.problem(path, f"$contains takes a string, not {kind_of(part)}")

        def holds(actual: Any) -> bool:
            return isinstance(actual, str) and part in actual

        return Check("$contains", holds, "does not contain {} ($contains)", part)

    def one_of(self, written: dict[str, Any], path: list[PathPart]) -> Node:
        options = written["$in"]
        if not isinstance(options, list) or not options:
            return self.problem(path, "$in takes a non-empty list of values")
        return OneOf([self.value(o, [*path, i]) for i, o in enumerate(options)], options)

    def subset(self, written: dict[str, Any], path: list[PathPart]) -> Node:
        keys = written["$subset"]
        if not isinstance(keys, dict):
            return self.problem(path, f"$subset takes an object, not {kind_of(keys)}")
        return self.object(keys, path, exact=False)

    def literal(self, written: dict[str, Any], path: list[PathPart]) -> Node:
        return Literal(written["$eq"])


_BUILDERS: dict[str, Callable[[_Compiler, dict[str, Any], list[PathPart]], Node]] = {
    "$any": _Compiler.any_,
    "$regex": _Compiler.regex,
    "$approx": _Compiler.approx,
    "$contains": _Compiler.contains,
    "$in": _Compiler.one_of,
    "$subset": _Compiler.subset,
    "$eq": _Compiler.literal,
}


class ArgsPattern:
    """An expected call's ``args``, compiled: :meth:`matches` an actual call's args, or
    :meth:`mismatches` says which argument failed which matcher.

    Args without any matcher and nothing to ignore are compared with one ``==`` (the
    cost of exact matching before matchers); their nodes are built only to explain."""

    __slots__ = ("_ignore", "_root", "written")

    def __init__(
        self, root: Node | None, written: dict[str, Any], ignore: frozenset[str] = frozenset()
    ) -> None:
        self._root = root
        self._ignore = ignore
        self.written = written

    def matches(self, actual_args: dict[str, Any]) -> bool:
        """Whether ``actual_args`` fit the expected ones."""
        if self._root is None:
            return bool(actual_args == self.written)
        return self._root.test(actual_args)

    def mismatches(self, actual_args: dict[str, Any]) -> list[ArgMismatch]:
        """Every argument of ``actual_args`` that does not fit (empty when they match)."""
        if self._root is None:
            self._root = _compile(self.written, self._ignore)[0]
        out: list[ArgMismatch] = []
        self._root.explain(actual_args, [], out)
        return out


def _compile(args: Any, ignore: frozenset[str]) -> tuple[Node, Found]:
    compiler = _Compiler(ignore)
    if not isinstance(args, dict):
        return AnyValue(), [([], f"args must be an object, not {kind_of(args)}")]
    if is_matcher(args):
        names = [k for k in args if k in MATCHERS]
        if len(names) == 1 and names[0] not in WHOLE_ARGS_MATCHERS:
            allowed = ", ".join(WHOLE_ARGS_MATCHERS)
            return AnyValue(), [
                ([names[0]], f"the whole args object takes {allowed}, not {names[0]}")
            ]
        root = compiler.matcher(args, [])
    else:
        root = compiler.object(args, [], exact=True)
    return root, compiler.found


def compile_args(args: dict[str, Any], ignore: Collection[str] = ()) -> ArgsPattern:
    """``args`` of an expected call as an :class:`ArgsPattern` (``ignore``: keys dropped at
    every depth). Raises :class:`MatcherError` listing every problem of its matchers."""
    ignored = frozenset(ignore)
    if not ignored and isinstance(args, dict) and not uses_matchers(args):
        return ArgsPattern(None, args)
    root, found = _compile(args, ignored)
    if found:
        raise MatcherError(found)
    return ArgsPattern(root, args, ignored)


def _literal_dollar_keys(value: Any, path: list[PathPart], found: Found) -> None:
    if isinstance(value, list):
        for index, item in enumerate(value):
            _literal_dollar_keys(item, [*path, index], found)
        return
    if not isinstance(value, dict):
        return
    if "$eq" in value and is_matcher(value):
        return  # read literally, as asked
    if not is_matcher(value):
        for key in value:
            if isinstance(key, str) and key[:1] == "$":
                found.append(
                    (
                        [*path, key],
                        f"{key!r} is no matcher ({', '.join(MATCHERS)}): this object is "
                        "compared as it is written",
                    )
                )
                break
    for key, item in value.items():
        _literal_dollar_keys(item, [*path, key], found)


def literal_dollar_keys(args: Any) -> Found:
    """Objects in ``args`` with a ``$`` key that is no matcher (``$regx``, ``$ref``): they
    are compared as written, as before matchers existed; a typo of a matcher's name shows
    here (``validate`` prints each as a warning)."""
    found: Found = []
    _literal_dollar_keys(args, [], found)
    return found


def matcher_problems(args: Any) -> Found:
    """Every problem of the matchers in an expected call's ``args``: (path below ``args``,
    message); empty when they can be used. Cheap for args without any ``$`` key."""
    if isinstance(args, dict) and not uses_matchers(args):
        return []
    return _compile(args, frozenset())[1]


__all__ = [
    "MATCHERS",
    "ArgMismatch",
    "ArgsPattern",
    "MatcherError",
    "compile_args",
    "format_arg_path",
    "is_matcher",
    "literal_dollar_keys",
    "matcher_problems",
    "uses_matchers",
]
