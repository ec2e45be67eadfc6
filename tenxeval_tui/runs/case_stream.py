"""The worker's eval sets, read as they are needed and never held (issue #38).

A run's worker reads each eval set file twice, a case at a time
(:mod:`~tenxeval_tui.runs.json_stream`), and holds no case longer than it runs:

1. :func:`scan_eval_set`, before anything runs: each case's id, name and tags (what
   selection reads, as the parent's scan reads them) and its repeat count checked, no
   case built;
2. :class:`HashingStream`, as the run goes: every case built in file order, hashed into
   the file's ``eval_set_sha256`` (the value :func:`eval_set_sha256` gives the loaded
   set, for the provenance, known once the last case is read) and the selected ones
   yielded to run, each when it is about to; a case that does not build stops the run
   there with loading's own words for the file (file, line, column, field).

So the first case starts once the file is scanned, not once every case is built and
hashed.

A file the scan does not read exactly (not JSON, no eval set id before the cases, a case
without a string id, a repeated id, a field hashed before the cases written after them,
...) gives ``None``: the worker loads it whole, which tells the problem in loading's own
words or gives the set.
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
from tenxeval_tui.evaluation.provenance.hashing import case_content, note_case_sha256
from tenxeval_tui.evaluation.simulators.scenario_sets import load_run_file
from tenxeval_tui.runs.case_scan import ScannedCases, ScannedSet, scanned_case, scanned_set
from tenxeval_tui.runs.json_stream import CASE, NotStreamable, eval_set_items
from tenxeval_tui.runs.problems import RunProblem

_CASES_KEY = "eval_cases"

Check = Callable[[EvalSet, EvalCase], object]
"""A check of each case with its set (only the case's id and metadata are read)."""
_SHELL = EvalCase.model_construct(eval_id="")
"""What a scanned case is checked as: its id and metadata in an otherwise empty case."""
_SHELL_FIELDS = dict(_SHELL.__dict__)
_SHELL_SET = frozenset(_SHELL.model_fields_set | {"eval_id", "metadata"})
_SHELL_EXTRA = _SHELL.__pydantic_extra__
_set = object.__setattr__


def _shell(eval_id: str, metadata: dict[str, Any]) -> EvalCase:
    """``_SHELL`` with ``eval_id`` and ``metadata``: what its ``model_copy(update=...)``
    makes (its fields, none of them validated), made as its ``__copy__`` makes a model,
    in a third of the time (6 us a case of the scan)."""
    case = EvalCase.__new__(EvalCase)
    _set(case, "__dict__", {**_SHELL_FIELDS, "eval_id": eval_id, "metadata": metadata})
    _set(case, "__pydantic_fields_set__", set(_SHELL_SET))
    _set(case, "__pydantic_extra__", None if _SHELL_EXTRA is None else dict(_SHELL_EXTRA))
    _set(case, "__pydantic_private__", _SHELL.__pydantic_private__)
    return case


@dataclass(frozen=True)
class ScannedFile:
    """What :func:`scan_eval_set` found in an eval set file."""

    path: Path
    scanned: ScannedSet
    """The eval set with its cases' ids, names and tags."""
    own: EvalSet
    """The eval set's own fields (no case): what its hash covers besides the cases."""


def build_case(data: Any) -> EvalCase:
    """The case of one decoded item of a file's ``eval_cases``, as loading the file builds
    it (the file's shorthands too: bare-string messages, ADK's ``null``\\ s). Raises
    pydantic's ``ValidationError``."""
    try:
        return EvalCase.model_validate(data)
    except ValidationError:
        wrapped = EvalSet.from_data({"eval_set_id": "-", _CASES_KEY: [data]})
        return wrapped.eval_cases[0]


def scan_eval_set(path: Path, check: Check | None = None) -> ScannedFile | None:
    """The eval set file ``path`` scanned, each case checked (``check(set, case)``, the
    case holding only its id and metadata; a ``ValueError`` it raises propagates) and no
    case built (see the module); ``None`` when the file is not read this way (load it
    whole). ``OSError`` when it cannot be read."""
    try:
        with path.open("rb") as handle:
            return _scan(path, eval_set_items(handle), check)
    except (NotStreamable, ValidationError):
        return None


def _scan(path: Path, items: Iterator[tuple[Any, Any]], check: Check | None) -> ScannedFile:
    fields: dict[str, Any] = {}
    cases = ScannedCases()
    head: EvalSet | None = None
    for key, value in items:
        if key is not CASE:
            if key == _CASES_KEY or (head is not None and key < _CASES_KEY):
                # not a list of cases; or a field hashed before the cases, written after them
                raise NotStreamable
            fields[key] = value
            continue
        if head is None:
            head = _head(fields)
        case = scanned_case(value)
        metadata = value.get("metadata", {}) if isinstance(value, dict) else None
        if case is None or not isinstance(metadata, dict):
            raise NotStreamable  # loading tells what is wrong with it, or gives the set
        if check is not None:  # a copy: model_construct's default factories cost ~0.3 ms
            check(head, _shell(case.eval_id, metadata))
        cases.append(*case)
    if not cases or cases.repeated_id() is not None:
        raise NotStreamable  # no cases, an id twice: loading tells (or gives the empty set)
    own = _head(fields)
    return ScannedFile(path, scanned_set(own, cases), own)


class HashingStream:
    """The cases of a scanned file whose ids are ``wanted`` (``None``: every case), built
    one at a time in file order as the run takes them; every case of the file is built and hashed on the way,
    and once the last one is read :attr:`sha256` holds the set's ``eval_set_sha256`` and
    ``on_hash`` is called with it. A case that does not build (or a file changed since
    its scan) raises loading's :class:`~tenxeval_tui.evaluation.errors.EvalFileError`
    for the file (or a :class:`RunProblem` saying it changed)."""

    def __init__(
        self,
        found: ScannedFile,
        wanted: Collection[str] | None,
        on_hash: Callable[[str], None] | None = None,
    ) -> None:
        self.found = found
        self.wanted = wanted
        self.on_hash = on_hash
        self.sha256: str | None = None
        self.failure: Exception | None = None
        """What stopped the stream (a case that does not build), once raised: the
        evaluator running it may raise it wrapped in an exception group."""

    def __iter__(self) -> Iterator[EvalCase]:
        path = self.found.path
        whole = self.found.own
        digest = _SetDigest(whole)
        try:
            for case in _built_cases(path):
                canonical = digest.add(case)
                if self.wanted is None or case.eval_id in self.wanted:
                    # Its hash taken here is the one its result holds: not hashed again.
                    note_case_sha256(case, canonical)
                    yield case
        except (NotStreamable, ValidationError):
            self.failure = _loading_error(path)
            raise self.failure from None
        self.sha256 = digest.finish(whole)
        if self.sha256 is not None and self.on_hash is not None:
            self.on_hash(self.sha256)


def _built_cases(path: Path) -> Iterator[EvalCase]:
    with path.open("rb") as handle:
        for key, value in eval_set_items(handle):
            if key is CASE:
                yield build_case(value)


def _loading_error(path: Path) -> Exception:
    """What loading ``path`` whole says is wrong with it (file, line, column, field)."""
    try:
        load_run_file(path)
    except Exception as exc:  # EvalFileError, FileNotFoundError...: told as loading tells
        return exc
    return RunProblem(f"{path}: the file changed while the run was reading it")


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

    def add(self, case: EvalCase) -> bytes:
        """Feeds ``case`` in; its canonical JSON."""
        canonical = canonical_json(case_content(case))
        self._hash.update((b"" if self._first else b",") + canonical)
        self._first = False
        return canonical

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


__all__ = [
    "HashingStream",
    "ScannedFile",
    "build_case",
    "scan_eval_set",
]
