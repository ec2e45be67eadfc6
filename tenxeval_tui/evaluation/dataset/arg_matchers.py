"""Argument matchers: an expected tool call's argument that matches a kind of value.

In an eval set, an expected call's ``args`` may hold, in place of a value, a JSON
object with one ``$`` key: a *matcher*.

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
                                   object that has ``$`` keys of its own
=================================  =====================================================

Every other value is compared for equality, as without matchers: objects key by key
(the same keys on both sides), lists item by item, so matchers work at any depth.
Keys to ignore (a criterion's ``ignore_args``) are dropped from objects at every depth,
on both sides (not inside ``$eq``).

A matcher is checked when it is read: an unknown ``$`` key, a regular expression that
does not compile, a tolerance that is no number... each is a problem named with its
place in ``args`` (:func:`matcher_problems`), so ``validate`` and the editor can point
at it. :func:`compile_args` turns an expected call's ``args`` into an
:class:`ArgsPattern`, compiled once and tested against any number of actual calls.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable, Collection
from dataclasses import dataclass
from typing import Any

PathPart = str | int
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


def format_arg_path(path: list[PathPart]) -> str:
    """``city``, ``filter.name``, ``stops[1]``: a place in ``args`` as shown to people."""
    text = ""
    for part in path:
        if isinstance(part, int):
            text += f"[{part}]"
        else:
            text += f".{part}" if text else part
    return text


def shown(value: Any) -> str:
    """A value as JSON, cut to a readable length."""
    try:
        text = json.dumps(value, ensure_ascii=False, default=str)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= 80 else text[:79] + "…"


def is_matcher(value: Any) -> bool:
    """Whether ``value`` is written as a matcher (an object with a ``$`` key)."""
    if not isinstance(value, dict):
        return False
    for key in value:  # noqa: SIM110 - a loop: any() over a generator costs more, per call
        if isinstance(key, str) and key[:1] == "$":
            return True
    return False


def uses_matchers(value: Any) -> bool:
    """Whether ``value`` (JSON data: string keys) holds a matcher at any depth. Plain loops
    and type checks: it runs on every expected call of every file loaded and scored."""
    kind = type(value)
    if kind is dict:
        for key, item in value.items():
            if key[:1] == "$":
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


class _Node:
    """A compiled expected value: ``test`` is the fast yes/no, ``explain`` says why not."""

    __slots__ = ()

    def test(self, actual: Any) -> bool:
        raise NotImplementedError

    def explain(self, actual: Any, path: list[PathPart], out: Out) -> None:
        raise NotImplementedError


def _kind(value: Any) -> str:
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


class _Equal(_Node):
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


class _Literal(_Equal):
    """``$eq``: equality, with the value read literally."""

    __slots__ = ()

    def explain(self, actual: Any, path: list[PathPart], out: Out) -> None:
        if not self.test(actual):
            problem = f"{shown(actual)} is not {shown(self.value)} ($eq)"
            out.append(ArgMismatch(format_arg_path(path), problem, "$eq"))


class _Any(_Node):
    __slots__ = ()

    def test(self, actual: Any) -> bool:
        return True

    def explain(self, actual: Any, path: list[PathPart], out: Out) -> None:
        return None


class _Check(_Node):
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


class _OneOf(_Node):
    __slots__ = ("options", "written")

    def __init__(self, options: list[_Node], written: Any) -> None:
        self.options = options
        self.written = written

    def test(self, actual: Any) -> bool:
        return any(option.test(actual) for option in self.options)

    def explain(self, actual: Any, path: list[PathPart], out: Out) -> None:
        if not self.test(actual):
            problem = f"{shown(actual)} is none of {shown(self.written)} ($in)"
            out.append(ArgMismatch(format_arg_path(path), problem, "$in"))


class _Object(_Node):
    """An object: these keys, each matching; ``exact``: no other keys (ignored ones aside)."""

    __slots__ = ("entries", "exact", "ignore", "plain", "written")

    def __init__(
        self,
        written: dict[str, Any],
        entries: dict[str, _Node],
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
            out.append(
                ArgMismatch(format_arg_path(path), f"expected an object, got {_kind(actual)}")
            )
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


class _List(_Node):
    __slots__ = ("items", "plain")

    def __init__(self, items: list[_Node], plain: Any) -> None:
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
            out.append(ArgMismatch(where, f"expected a list, got {_kind(actual)}"))
            return
        if len(actual) != len(self.items):
            problem = f"{len(actual)} items, expected {len(self.items)}"
            out.append(ArgMismatch(where, problem))
        for index, (node, value) in enumerate(zip(self.items, actual, strict=False)):
            node.explain(value, [*path, index], out)


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


class _Compiler:
    """Reads written values into nodes, collecting every problem on the way."""

    def __init__(self, ignore: frozenset[str]) -> None:
        self.ignore = ignore
        self.found: Found = []

    def problem(self, path: list[PathPart], message: str) -> _Node:
        self.found.append((path, message))
        return _Any()

    def value(self, written: Any, path: list[PathPart]) -> _Node:
        if isinstance(written, dict):
            if is_matcher(written):
                return self.matcher(written, path)
            return self.object(written, path, exact=True)
        if isinstance(written, list):
            items = [self.value(item, [*path, i]) for i, item in enumerate(written)]
            plain_enough = not self.ignore and not any(_not_plain(n) for n in items)
            return _List(items, written if plain_enough else None)
        return _Equal(written)

    def object(self, written: dict[str, Any], path: list[PathPart], *, exact: bool) -> _Node:
        entries = {
            key: self.value(value, [*path, key])
            for key, value in written.items()
            if key not in self.ignore
        }
        plain_enough = (
            exact and not self.ignore and not any(_not_plain(n) for n in entries.values())
        )
        return _Object(written, entries, exact, self.ignore, written if plain_enough else None)

    def matcher(self, written: dict[str, Any], path: list[PathPart]) -> _Node:
        names = [key for key in written if key[:1] == "$"]
        if len(names) > 1:
            return self.problem(
                path, f"one matcher per object, not {len(names)} ({', '.join(names)})"
            )
        name = names[0]
        if name not in MATCHERS:
            known = ", ".join(MATCHERS)
            return self.problem(
                [*path, name],
                f"unknown matcher {name!r} (known: {known}); "
                'to expect an object with $ keys as it is, write {"$eq": ...}',
            )
        allowed = OPTIONS.get(name, frozenset())
        for key in written:
            if key != name and key not in allowed:
                beside = f" ({name} takes {', '.join(sorted(allowed))})" if allowed else ""
                self.problem([*path, key], f"unknown key {key!r} beside {name}{beside}")
        return _BUILDERS[name](self, written, [*path, name])

    def any_(self, written: dict[str, Any], path: list[PathPart]) -> _Node:
        if written["$any"] is not True:
            return self.problem(path, "$any takes true")
        return _Any()

    def regex(self, written: dict[str, Any], path: list[PathPart]) -> _Node:
        pattern = written["$regex"]
        if not isinstance(pattern, str):
            return self.problem(path, f"$regex takes a string, not {_kind(pattern)}")
        try:
            compiled = re.compile(pattern)
        except re.error as exc:
            return self.problem(path, f"invalid regular expression {shown(pattern)}: {exc}")

        def found_in(actual: Any) -> bool:
            return isinstance(actual, str) and compiled.search(actual) is not None

        return _Check("$regex", found_in, "does not match $regex {}", pattern)

    def approx(self, written: dict[str, Any], path: list[PathPart]) -> _Node:
        target = written["$approx"]
        if not _is_number(target) or not math.isfinite(target):
            return self.problem(path, f"$approx takes a finite number, not {shown(target)}")
        tol = written.get("tol")
        if tol is not None and (not _is_number(tol) or not tol >= 0 or not math.isfinite(tol)):
            return self.problem([*path[:-1], "tol"], f"tol takes a number >= 0, not {shown(tol)}")

        def near(actual: Any) -> bool:
            if not _is_number(actual):
                return False
            if tol is None:
                return math.isclose(actual, target)
            return bool(abs(actual - target) <= tol)

        within = f"within {tol!r} of" if tol is not None else "equal to"  # a number's JSON
        return _Check("$approx", near, f"is not {within} {{}} ($approx)", target)

    def contains(self, written: dict[str, Any], path: list[PathPart]) -> _Node:
        part = written["$contains"]
        if not isinstance(part, str):
            return self.problem(path, f"$contains takes a string, not {_kind(part)}")

        def holds(actual: Any) -> bool:
            return isinstance(actual, str) and part in actual

        return _Check("$contains", holds, "does not contain {} ($contains)", part)

    def one_of(self, written: dict[str, Any], path: list[PathPart]) -> _Node:
        options = written["$in"]
        if not isinstance(options, list) or not options:
            return self.problem(path, "$in takes a non-empty list of values")
        return _OneOf([self.value(o, [*path, i]) for i, o in enumerate(options)], options)

    def subset(self, written: dict[str, Any], path: list[PathPart]) -> _Node:
        keys = written["$subset"]
        if not isinstance(keys, dict):
            return self.problem(path, f"$subset takes an object, not {_kind(keys)}")
        return self.object(keys, path, exact=False)

    def literal(self, written: dict[str, Any], path: list[PathPart]) -> _Node:
        return _Literal(written["$eq"])


_BUILDERS: dict[str, Callable[[_Compiler, dict[str, Any], list[PathPart]], _Node]] = {
    "$any": _Compiler.any_,
    "$regex": _Compiler.regex,
    "$approx": _Compiler.approx,
    "$contains": _Compiler.contains,
    "$in": _Compiler.one_of,
    "$subset": _Compiler.subset,
    "$eq": _Compiler.literal,
}


def _not_plain(node: _Node) -> bool:
    """Whether ``node`` needs more than ``==`` (a matcher, or a container holding one)."""
    if isinstance(node, _Object | _List):
        return node.plain is None
    return not isinstance(node, _Equal) or isinstance(node, _Literal)


class ArgsPattern:
    """An expected call's ``args``, compiled: :meth:`matches` an actual call's args, or
    :meth:`mismatches` says which argument failed which matcher.

    Args without any matcher and nothing to ignore are compared with one ``==`` (the
    cost of exact matching before matchers); their nodes are built only to explain."""

    __slots__ = ("_ignore", "_root", "written")

    def __init__(
        self, root: _Node | None, written: dict[str, Any], ignore: frozenset[str] = frozenset()
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
        out: Out = []
        self._root.explain(actual_args, [], out)
        return out


def _compile(args: Any, ignore: frozenset[str]) -> tuple[_Node, Found]:
    compiler = _Compiler(ignore)
    if not isinstance(args, dict):
        return _Any(), [([], f"args must be an object, not {_kind(args)}")]
    if is_matcher(args):
        names = [k for k in args if isinstance(k, str) and k.startswith("$")]
        if len(names) == 1 and names[0] in MATCHERS and names[0] not in WHOLE_ARGS_MATCHERS:
            allowed = ", ".join(WHOLE_ARGS_MATCHERS)
            return _Any(), [([names[0]], f"the whole args object takes {allowed}, not {names[0]}")]
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
    "matcher_problems",
    "uses_matchers",
]
