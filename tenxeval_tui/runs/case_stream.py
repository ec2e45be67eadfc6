"""The worker's eval sets, read as they are needed and never held (issue #38).

A run's worker reads each eval set file twice, a case at a time
(:mod:`~tenxeval_tui.runs.json_stream`), and holds no case longer than it runs:

1. :func:`walk_eval_set`, before anything runs: every case of the file is built (so a
   broken case stops the run before its first case, as loading the file would), hashed
   into the file's ``eval_set_sha256`` (the value :func:`eval_set_sha256` gives the loaded
   set, for the provenance) and kept as a :class:`ScannedCase` (its id, name and tags:
   what selection reads);
2. :func:`stream_cases`, as the run goes: the selected cases built one by one, in file
   order, each when it is about to run; the others passed over unbuilt.

A file the walk does not read exactly (not JSON, no eval set id before the cases, a case
that does not build, a repeated id, a field hashed before the cases written after them,
...) gives ``None``: the worker loads it whole, which tells the
problem in loading's own words (file, line, column, field) or gives the set.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Collection, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from tenxeval_tui.evaluation.canonical import canonical_json
from tenxeval_tui.evaluation.dataset.eval_set import EvalCase, EvalSet
from tenxeval_tui.evaluation.provenance.hashing import case_content
from tenxeval_tui.runs.case_scan import ScannedCase, ScannedSet, scanned_set
from tenxeval_tui.runs.json_stream import CASE, NotStreamable, eval_set_items

_CASES_KEY = "eval_cases"


@dataclass(frozen=True)
class WalkedFile:
    """What :func:`walk_eval_set` found in an eval set file."""

    scanned: ScannedSet
    """The eval set with its cases' ids, names and tags."""
    sha256: str
    """The eval set's content hash (:func:`eval_set_sha256` of the loaded set)."""


def build_case(data: Any) -> EvalCase:
    """The case of one decoded item of a file's ``eval_cases``, as loading the file builds
    it (the file's shorthands too: bare-string messages, ADK's ``null``\\ s). Raises
    pydantic's ``ValidationError``."""
    try:
        return EvalCase.model_validate(data)
    except ValidationError:
        wrapped = EvalSet.from_data({"eval_set_id": "-", _CASES_KEY: [data]})
        return wrapped.eval_cases[0]


def walk_eval_set(
    path: Path, check: Callable[[EvalSet, EvalCase], object] | None = None
) -> WalkedFile | None:
    """Every case of the eval set file ``path`` built, checked (``check(set, case)``; a
    ``ValueError`` it raises propagates) and let go (see the module); ``None`` when the
    file is not read exactly this way (load it whole). ``OSError`` when it cannot be read."""
    try:
        with path.open("rb") as handle:
            return _walk(eval_set_items(handle), check)
    except (NotStreamable, ValidationError):
        return None


def _walk(
    items: Iterator[tuple[Any, Any]], check: Callable[[EvalSet, EvalCase], object] | None
) -> WalkedFile | None:
    fields: dict[str, Any] = {}
    cases: list[ScannedCase] = []
    seen: set[str] = set()
    digest: _SetDigest | None = None
    head: EvalSet | None = None
    for key, value in items:
        if key is not CASE:
            if key == _CASES_KEY:
                raise NotStreamable  # not a list of cases
            fields[key] = value
            continue
        if head is None:
            head = _head(fields)
            digest = _SetDigest(head)
        assert digest is not None
        if not isinstance(value, dict) or not isinstance(value.get("eval_id"), str):
            # a case without its id gets a new one each time it is loaded: the cases the
            # parent chose could not be found again here by id (load it whole)
            raise NotStreamable
        case = build_case(value)
        if case.eval_id in seen:
            raise NotStreamable  # loading names both places
        seen.add(case.eval_id)
        if check is not None:
            check(head, case)
        digest.add(case)
        cases.append(ScannedCase(case.eval_id, case.name, tuple(case.tags)))
    whole = _head(fields)
    if not cases or digest is None:
        return None  # no cases: loading tells (or gives the empty set)
    sha256 = digest.finish(whole)
    if sha256 is None:  # a field sorted before the cases came after them in the file
        return None
    return WalkedFile(scanned_set(whole, cases), sha256)


def _head(fields: dict[str, Any]) -> EvalSet:
    """The eval set of the file's own fields (no case); no id: not streamed (the model
    would make one up)."""
    if not isinstance(fields.get("eval_set_id"), str):
        raise NotStreamable
    return EvalSet.model_validate({**fields, _CASES_KEY: []})


def _own_fields(eval_set: EvalSet) -> dict[str, Any]:
    """The eval set's own fields as :func:`eval_set_sha256` hashes them."""
    return eval_set.model_dump(mode="json", exclude_defaults=True, exclude={_CASES_KEY})


class _SetDigest:
    """:func:`eval_set_sha256`'s hash fed a case at a time: the canonical JSON of
    ``{fields..., "eval_cases": [case...]}`` (keys sorted: the set's fields sorted before
    ``eval_cases`` come first, so they must be known at the first case)."""

    def __init__(self, head: EvalSet) -> None:
        self._before = {k: v for k, v in _own_fields(head).items() if k < _CASES_KEY}
        self._hash = hashlib.sha256(b"{")
        if self._before:
            self._hash.update(_members(self._before) + b",")
        self._hash.update(b'"eval_cases":[')
        self._first = True

    def add(self, case: EvalCase) -> None:
        self._hash.update((b"" if self._first else b",") + canonical_json(case_content(case)))
        self._first = False

    def finish(self, whole: EvalSet) -> str | None:
        """The hash, the set's fields being ``whole``'s; ``None`` when a field sorted
        before the cases was not known at the first case."""
        fields = _own_fields(whole)
        if {k: v for k, v in fields.items() if k < _CASES_KEY} != self._before:
            return None
        after = {k: v for k, v in fields.items() if k > _CASES_KEY}
        self._hash.update(b"]" + (b"," + _members(after) if after else b"") + b"}")
        return self._hash.hexdigest()


def _members(fields: dict[str, Any]) -> bytes:
    """``fields`` as the members of a canonical JSON object (no braces)."""
    return canonical_json(fields)[1:-1]


def stream_cases(path: Path, wanted: Collection[str]) -> Iterator[EvalCase]:
    """The cases of ``path`` whose ids are ``wanted``, built one at a time, in file order;
    the others are passed over unbuilt. The file was walked (:func:`walk_eval_set`): a
    file changed since then may raise ``ValueError`` (:class:`NotStreamable` or pydantic's
    ``ValidationError``)."""
    with path.open("rb") as handle:
        for key, value in eval_set_items(handle):
            if key is CASE and isinstance(value, dict) and value.get("eval_id") in wanted:
                yield build_case(value)


__all__ = ["WalkedFile", "build_case", "stream_cases", "walk_eval_set"]
