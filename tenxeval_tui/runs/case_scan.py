"""The light pass of a run's parent over its eval sets: which cases they hold, not the cases.

``tenxeval-tui run`` chooses its cases before it starts the worker (``--case`` checked,
``--limit``/``--sample`` picked, ``--shard`` split, ``--resume`` and ``--retry-errors``
narrowed by id), and all of that reads only each case's ``eval_id``, ``name`` and
``tags``. Building every case (its turns, expectations, models) costs the parent as much
as the worker that runs them: about 6 s and 6.6 GB at a million cases, before the first
case starts. :func:`scan_run_file` reads an eval set file a case at a time
(:mod:`~tenxeval_tui.runs.json_stream`) and keeps a :class:`ScannedCase` of each: about 150
bytes a case.

A scanned eval set is a :class:`ScannedSet`: the set's own fields, and its cases as
:class:`ScannedCase` tuples (what selection, shards, resume, retries and the run's reports
of cases not run read), so that reading a whole case from it is a type error; whatever
needs a whole case (``--reuse``'s fingerprints, watch's re-scoring, a
scenario file's simulated user) loads the file (:func:`~tenxeval_tui.runs.plan.load_eval_sets`).
The scan checks what it reads; for anything else it does not understand (a file that is not
JSON, an eval id that is not a string, a duplicate id, ...) it loads the file whole, which
raises the precise error (file, line, column, the field and the problem) or gives the set.
A problem inside a case the scan does not read (a turn of the wrong shape) is the worker's
to tell, with the same error, when it loads the file.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterable, Iterator, Mapping, Sequence
from itertools import pairwise
from pathlib import Path
from typing import Any, NamedTuple, overload

from pydantic import ConfigDict, Field, field_serializer

from tenxeval_tui.evaluation.dataset.eval_set import EvalSet
from tenxeval_tui.evaluation.results.id_places import IdList
from tenxeval_tui.evaluation.simulators.scenario_sets import is_scenario_file
from tenxeval_tui.runs.json_stream import CASE, NotStreamable, eval_set_items
from tenxeval_tui.runs.stable_ids import load_with_stable_ids


class ScannedCase(NamedTuple):
    """What a run's parent reads of a case (see the module)."""

    eval_id: str
    name: str
    tags: tuple[str, ...]


_NO_TAGS: tuple[str, ...] = ()


class ScannedCases(Sequence[ScannedCase]):
    """The :class:`ScannedCase` s of a file, held compactly: a run holds every case's id for
    the whole run, in the parent and in the worker, and a tuple of three objects a case
    was most of what either process grew by with the cases (about 150 bytes a case).

    The ids are an :class:`~tenxeval_tui.evaluation.results.id_places.IdList` (joined into
    one string a block of cases, about 12 bytes a case); names and tags are kept only for
    the cases that have them. Each :class:`ScannedCase` is made when it is read."""

    __slots__ = ("_ids", "_names", "_tags")

    def __init__(self, cases: Iterable[ScannedCase] = ()) -> None:
        self._ids = IdList()
        self._names: dict[int, str] = {}
        self._tags: dict[int, tuple[str, ...]] = {}
        for case in cases:
            self.append(*case)

    def append(self, eval_id: str, name: str = "", tags: tuple[str, ...] = _NO_TAGS) -> None:
        """One more case."""
        index = len(self._ids)
        self._ids.append(eval_id)
        if name:
            self._names[index] = name
        if tags:
            self._tags[index] = tags

    def __len__(self) -> int:
        return len(self._ids)

    def repeated_id(self) -> str | None:
        """An id held twice, if any. Found from the ids' hashes, sorted, then checked
        among the few whose hashes meet: a set of every id, kept while a big file was
        scanned, was the larger part of what the scan left of a process's memory."""
        hashes = array("q", map(hash, self.ids()))
        ordered = sorted(hashes)
        del hashes
        met = {a for a, b in pairwise(ordered) if a == b}
        del ordered
        seen: set[str] = set()
        for eval_id in self.ids():
            if hash(eval_id) in met:
                if eval_id in seen:
                    return eval_id
                seen.add(eval_id)
        return None

    def ids(self) -> Iterator[str]:
        """Every case's id, in order."""
        return iter(self._ids)

    @overload
    def __getitem__(self, index: int) -> ScannedCase: ...
    @overload
    def __getitem__(self, index: slice) -> list[ScannedCase]: ...
    def __getitem__(self, index: int | slice) -> ScannedCase | list[ScannedCase]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        count = len(self._ids)
        if index < 0:
            index += count
        if not 0 <= index < count:
            raise IndexError("scanned case index out of range")
        return ScannedCase(
            self._ids[index], self._names.get(index, ""), self._tags.get(index, _NO_TAGS)
        )

    def __iter__(self) -> Iterator[ScannedCase]:
        names, tags = self._names, self._tags
        for index, eval_id in enumerate(self.ids()):
            yield ScannedCase(eval_id, names.get(index, ""), tags.get(index, _NO_TAGS))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Sequence) or isinstance(other, str):
            return NotImplemented
        return len(self) == len(other) and all(a == b for a, b in zip(self, other, strict=True))

    __hash__ = None  # type: ignore[assignment]  # mutable, as a list

    def __repr__(self) -> str:
        return f"ScannedCases({list(self)!r})"


class ScannedSet(EvalSet):
    """An eval set as a run's parent (and its worker, before the run) reads it: its own
    fields, and each case's :class:`ScannedCase` (a :class:`ScannedCases` when scanned,
    a list of some of them when selected). It goes where an eval set's id, name and
    metadata are read (selection, a run's observers, provenance with its hash given);
    reading its cases as :class:`EvalCase` s is a type error."""

    # Made with model_construct only: its validator and serializer are built when first
    # used (a dump), not as every run's parent and worker import it (2 ms each, issue #38).
    model_config = ConfigDict(defer_build=True)  # and EvalSet's extra="allow"

    eval_cases: Sequence[ScannedCase] = Field(default_factory=list)  # type: ignore[assignment]

    @field_serializer("eval_cases")
    def _cases(self, cases: Sequence[ScannedCase]) -> list[ScannedCase]:
        """Dumped as the list they stand for (pydantic knows no :class:`ScannedCases`)."""
        return list(cases)


def scanned_set(eval_set: EvalSet, cases: Sequence[ScannedCase] | None = None) -> ScannedSet:
    """``eval_set``'s own fields with ``cases`` (by default its cases, scanned)."""
    if cases is None:
        cases = ScannedCases(
            ScannedCase(c.eval_id, c.name, tuple(c.tags)) for c in eval_set.eval_cases
        )
    fields = {name: getattr(eval_set, name) for name in EvalSet.model_fields}
    extra = dict(eval_set.model_extra or {})
    return ScannedSet.model_construct(**{**fields, **extra, "eval_cases": cases})


class SetScan:
    """The scan of one eval set file, fed the items of
    :func:`~tenxeval_tui.runs.json_stream.eval_set_items` one at a time: by
    :func:`scan_run_file`, or by another pass over the file that reads the same items (the
    unknown keys' check of ``run``'s parent, so the file is read once for both)."""

    def __init__(self) -> None:
        self._fields: dict[str, Any] = {}
        self._cases = ScannedCases()
        self.failed = False
        """The items were not what the scan reads: the file is to be loaded whole."""

    def add(self, key: Any, value: Any) -> None:
        """One item of the file, in file order."""
        if self.failed:
            return
        if key is CASE:
            if (case := scanned_case(value)) is None:
                self.give_up()
            else:
                self._cases.append(*case)
        elif key == "eval_cases":
            self.give_up()  # not a list of cases
        else:
            self._fields[key] = value

    def give_up(self) -> None:
        """The file cannot be scanned (what was read is dropped)."""
        self.failed = True
        self._cases = ScannedCases()

    def result(self) -> ScannedSet | None:
        """The scanned set, once every item was added; ``None`` when the file is to be
        loaded whole (which raises the precise error or gives the set)."""
        fields, cases = self._fields, self._cases
        eval_set_id, name = fields.get("eval_set_id"), fields.get("name", "")
        description, metadata = fields.get("description", ""), fields.get("metadata", {})
        if (
            self.failed
            or not cases
            or cases.repeated_id() is not None  # loading says which, where
            or not isinstance(eval_set_id, str)
            or not isinstance(name, str)
            or not isinstance(description, str)
            or not isinstance(metadata, dict)
        ):
            # no case (or no list of them), no id (the model makes one), a wrong type
            return None
        return ScannedSet.model_construct(
            eval_set_id=eval_set_id,
            name=name,
            description=description,
            metadata=metadata,
            eval_cases=cases,
        )


def scan_run_file(path: Path) -> ScannedSet:
    """The eval set of ``path`` with :class:`ScannedCase` cases (see the module); a scenario
    file, or one the scan does not understand, is loaded whole (then scanned). Raises what
    :meth:`EvalSet.from_file` raises for a file that does not load."""
    if is_scenario_file(path):  # a few scenarios; the parent checks their simulated user
        return scanned_set(load_with_stable_ids(path))
    scan = SetScan()
    try:
        with path.open("rb") as handle:
            for key, value in eval_set_items(handle):
                scan.add(key, value)
                if scan.failed:
                    break
    except NotStreamable:
        scan.give_up()
    found = scan.result()
    return found if found is not None else scanned_set(load_with_stable_ids(path))


def scan_run_files(
    paths: Sequence[Path], scanned: Mapping[Path, ScannedSet] | None = None
) -> list[tuple[Path, ScannedSet]]:
    """Each file with its scanned eval set, in order (see :func:`scan_run_file`);
    ``scanned``: files already scanned by another pass of this command."""
    known = scanned or {}
    return [(path, known[path] if path in known else scan_run_file(path)) for path in paths]


def scanned_case(case: object) -> ScannedCase | None:
    """One decoded case of a file, scanned; ``None`` when it cannot be read exactly as the
    model would (whether its id is repeated is :meth:`ScannedCases.repeated_id`'s)."""
    if not isinstance(case, dict):
        return None
    eval_id, name, tags = case.get("eval_id"), case.get("name", ""), case.get("tags")
    if not isinstance(eval_id, str) or not isinstance(name, str):
        return None  # no id (the model makes one) or a wrong type
    if tags is None:
        return ScannedCase(eval_id, name, _NO_TAGS)
    if isinstance(tags, list) and all(isinstance(tag, str) for tag in tags):
        return ScannedCase(eval_id, name, tuple(tags))
    return None


__all__ = [
    "ScannedCase",
    "ScannedCases",
    "ScannedSet",
    "SetScan",
    "scan_run_file",
    "scan_run_files",
    "scanned_case",
    "scanned_set",
]
