"""A journal's reports whose results stay in the file: read a case at a time when a reader
goes through them, never all in memory.

:func:`read_journal_runs_streamed` is :func:`~.journal.read_journal_runs` for a journal too
big to hold (a run of a million cases): every line is read and checked once, as there,
but each report keeps only where its cases' lines are (:class:`JournalResults`, 16 bytes
a case) and its summary, worked out as running totals
(:meth:`EvalSummary.from_result_stream`). Going through ``report.results`` reads the
cases from the file again, one at a time, in report order; the reporters write such a
report case by case (:mod:`.streamed_reports` puts such reports together).

The file is held open by the reports, so removing it (a journal is dropped once its
reports are written) leaves them readable on a POSIX system. Every such report equals
the one :func:`~.journal.read_journal_runs` makes of the same journal, value for value.
"""

from __future__ import annotations

import abc
import copy
import heapq
import os
import weakref
from array import array
from collections.abc import Callable, Hashable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol, overload

from tenxeval_tui.evaluation.eval_result import EvalCaseResult, EvalReport, EvalSummary
from tenxeval_tui.evaluation.results.id_places import IdList, IdPlaces
from tenxeval_tui.evaluation.results.journal import JournalRun, case_text, parsed_line, read_runs
from tenxeval_tui.evaluation.results.json_stream import CASE_LISTS
from tenxeval_tui.evaluation.results.lean_load import case_result
from tenxeval_tui.evaluation.summary_totals import SummaryTotals


class OpenFile:
    """A file held open for reading at given places (``pread``: any number of readers at
    once, no shared position), closed when the last report reading it is gone."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.fd = os.open(path, os.O_RDONLY)
        self._closer = weakref.finalize(self, os.close, self.fd)

    def read(self, start: int, end: int) -> bytes:
        parts: list[bytes] = []
        while start < end:
            part = os.pread(self.fd, end - start, start)
            if not part:
                raise OSError(f"{self.path}: the journal ends before byte {end}")
            parts.append(part)
            start += len(part)
        return b"".join(parts)


@dataclass
class HeldKeys:
    """The keys some result of a set holds in its ``metadata``, and in a criterion
    result's ``details`` (of the case or any of its repeats)."""

    metadata: set[str] = field(default_factory=set)
    details: set[str] = field(default_factory=set)

    def add(self, result: EvalCaseResult) -> None:
        self.metadata.update(result.metadata)
        for run in result.runs:
            for criterion in run.criterion_results:
                if criterion.details:
                    self.details.update(criterion.details)

    def update(self, other: HeldKeys) -> None:
        self.metadata |= other.metadata
        self.details |= other.details


def none_holds(
    results: Sequence[EvalCaseResult], *, metadata: str | None = None, detail: str | None = None
) -> bool:
    """Whether it is known, without reading ``results`` again, that none of them holds the
    ``metadata`` key (or the criterion ``detail`` key): a reader looking for it can pass
    over a million results read from a journal. ``False`` when not known (a list)."""
    if not isinstance(results, LazyResults):
        return False
    held = results.keys_held()
    return (metadata is None or metadata not in held.metadata) and (
        detail is None or detail not in held.details
    )


def held_keys(results: Sequence[EvalCaseResult]) -> HeldKeys:
    """The keys ``results`` hold (read through when they are a list)."""
    if isinstance(results, LazyResults):
        return results.keys_held()
    held = HeldKeys()
    for result in results:
        held.add(result)
    return held


class LazyResults(Sequence[EvalCaseResult]):
    """Results made as they are read (a new :class:`EvalCaseResult` per read: change one
    and the change is lost), equal to a list of the same results; a deep copy is that list."""

    @abc.abstractmethod
    def _get(self, index: int) -> EvalCaseResult:
        """The result at ``index`` (``0 <= index < len(self)``)."""

    @abc.abstractmethod
    def keys_held(self) -> HeldKeys:
        """The keys the results' metadata and criterion details hold, known without
        reading them again."""

    @overload
    def __getitem__(self, index: int) -> EvalCaseResult: ...

    @overload
    def __getitem__(self, index: slice) -> list[EvalCaseResult]: ...

    def __getitem__(self, index: int | slice) -> EvalCaseResult | list[EvalCaseResult]:
        if isinstance(index, slice):
            return [self._get(i) for i in range(*index.indices(len(self)))]
        if index < 0:
            index += len(self)
        if not 0 <= index < len(self):
            raise IndexError("result index out of range")
        return self._get(index)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Sequence) or isinstance(other, str | bytes):
            return NotImplemented
        return len(self) == len(other) and all(a == b for a, b in zip(self, other, strict=True))

    __hash__ = None  # type: ignore[assignment]

    def __deepcopy__(self, memo: dict[int, Any]) -> list[EvalCaseResult]:
        return [copy.deepcopy(result, memo) for result in self]


class PreparedTexts(Protocol):
    """Some cases of a journal made into a writer's text as they were read (a run's parent
    reading its worker's journal as it grows), by where each case's line starts."""

    def text(self, start: int) -> str | None:
        """The text of the case whose line starts at byte ``start``; ``None`` when it was
        not made."""
        ...


class JournalResults(LazyResults):
    """The results of one run of a journal, in report order, read from the file each time
    they are read."""

    def __init__(
        self, source: OpenFile, starts: array[int], ends: array[int], held: HeldKeys
    ) -> None:
        self._source = source
        self._starts = starts
        self._ends = ends
        self._held = held
        self.prepared: dict[Hashable, PreparedTexts] = {}
        """Texts of its cases made as the journal was read, by what they are (a writer's
        key: :meth:`texts`)."""

    def keys_held(self) -> HeldKeys:
        return self._held

    def __len__(self) -> int:
        return len(self._starts)

    def __iter__(self) -> Iterator[EvalCaseResult]:
        for index in range(len(self)):
            yield self._get(index)

    def _get(self, index: int) -> EvalCaseResult:
        data = parsed_line(self._source.read(self._starts[index], self._ends[index]))
        return case_result(data["result"])

    def case_texts(self) -> Iterator[bytes | EvalCaseResult]:
        """Each case's compact JSON as its journal line holds it (see
        :class:`~.json_stream.CaseTexts`), or the case read when its line was written
        another way."""
        for index in range(len(self)):
            raw = self._source.read(self._starts[index], self._ends[index])
            text = case_text(raw)
            yield text if text is not None else case_result(parsed_line(raw)["result"])

    def texts(self, key: Hashable, indices: Iterable[int]) -> Iterator[str | EvalCaseResult]:
        """The results at ``indices``, each as the text :attr:`prepared` holds under
        ``key`` for it, or read when it has none."""
        prepared = self.prepared.get(key)
        for index in indices:
            text = prepared.text(self._starts[index]) if prepared is not None else None
            yield text if text is not None else self._get(index)

    def __repr__(self) -> str:
        return f"<{len(self)} results in {self._source.path}>"


HOLD_MOST = 256
"""Cases an :class:`IndexedRun` holds back (their figures only) while one listed before
them has not finished: past that, the summary is worked out again once the run is read."""
_FIGURES_ONLY = dict.fromkeys((*CASE_LISTS, "turn_results"), ())
"""What a held-back case's running totals do not read (its lists of steps)."""


class IndexedRun(JournalRun):
    """A journal run that keeps where its cases are in the file, and their running totals
    in report order: cases that finish before one listed ahead of them (a run of several
    cases at once) are held back until it comes, at most :data:`HOLD_MOST` of them."""

    def __init__(self, set_id: str, name: str = "", order: Sequence[str] = ()) -> None:
        super().__init__(set_id, name)
        self.order = IdList(order)  # a case's ids kept compactly (see IdList)
        self.starts: array[int] = array("q")
        self.ends: array[int] = array("q")
        self.places: array[int] = array("q")
        """Each case's place in :attr:`order` (past its end when it is not listed)."""
        self._places: IdPlaces | None = None
        """Where each id is in :attr:`order` (made at the first case)."""
        self.totals: SummaryTotals | None = SummaryTotals()
        """The summary so far of the cases counted in report order; ``None`` once a case
        came after a later one was counted (summed once sorted)."""
        self.held = HeldKeys()
        self._arrived = bytearray(len(self.order))
        self._below = 0
        """Every listed place under this one has a case."""
        self._waiting: list[tuple[int, int, EvalCaseResult]] = []
        """Cases held back: a heap of ``(place, arrival, result)``."""
        self._counted = -1
        """The place of the last case counted."""
        self.last: EvalCaseResult | None = None
        """The case added last."""
        self._out_of_order = False
        """Some case came before one listed ahead of it."""

    def add(self, result: EvalCaseResult, start: int, end: int) -> None:
        if self._places is None:
            self._places = IdPlaces(self.order)
        place = self._places.place(result.eval_id)
        if self.totals is not None:
            self._count(place, result)
        self.held.add(result)
        self.last = result
        self._out_of_order = self._out_of_order or bool(self.places and place < self.places[-1])
        self.starts.append(start)
        self.ends.append(end)
        self.places.append(place)

    def _count(self, place: int, result: EvalCaseResult) -> None:
        """Count ``result`` in the totals once every listed case before it has come."""
        arrived = self._arrived
        if place < len(arrived):
            arrived[place] = 1
            while self._below < len(arrived) and arrived[self._below]:
                self._below += 1
        if not self._waiting and place < self._below:  # the usual case: none held back
            self._count_now(place, result)
            return
        figures = result.model_copy(update=_FIGURES_ONLY)
        heapq.heappush(self._waiting, (place, len(self.places), figures))
        self._release(lambda first: first < self._below or len(self._waiting) > HOLD_MOST)

    def _release(self, due: Callable[[int], bool]) -> None:
        while self.totals is not None and self._waiting and due(self._waiting[0][0]):
            place, _, figures = heapq.heappop(self._waiting)
            self._count_now(place, figures)

    def _count_now(self, place: int, result: EvalCaseResult) -> None:
        if self.totals is None:
            return
        if place < self._counted:
            self.totals = None  # came after a later case was counted: summed once sorted
            self._waiting.clear()
            return
        self._counted = place
        self.totals.add(result)

    def streamed_report(self, source: OpenFile) -> EvalReport:
        """The report of this run, its results read from ``source`` as they are read."""
        self._places = None
        self._release(lambda first: True)  # the run is read: what it lacks never comes
        starts, ends = self.starts, self.ends
        if self._out_of_order:  # report order: by place, then as they came (a stable sort)
            order = sorted(range(len(self.places)), key=self.places.__getitem__)
            starts = array("q", (self.starts[i] for i in order))
            ends = array("q", (self.ends[i] for i in order))
        results = JournalResults(source, starts, ends, self.held)
        if self.totals is not None:
            summary = summary_of(self.totals)
            self.totals = None  # the summary holds its per-case mapping now
        else:
            summary = EvalSummary.from_result_stream(results)
        return streamed_report(
            results,
            summary,
            eval_set_id=self.set_id,
            eval_set_name=self.name,
            metadata=self.report_metadata(),
            wall_seconds=self.wall_seconds,
            config_used=self.config_used,
        )


def summary_of(totals: SummaryTotals) -> EvalSummary:
    """``EvalSummary(**totals.fields())``, its ``per_case_token_usage`` the totals' own
    mapping rather than a copy validated entry by entry (an entry a case: a second one as
    big, at the end of a run of a million cases). ``totals`` must not be added to after."""
    fields = totals.fields()
    per_case = fields.pop("per_case_token_usage", None)
    summary = EvalSummary(**fields)
    if per_case is not None:  # str keys, TokenUsage values: what validation would keep
        summary.per_case_token_usage = per_case
    return summary


def streamed_report(
    results: Sequence[EvalCaseResult],
    summary: EvalSummary,
    *,
    eval_set_id: str,
    eval_set_name: str = "",
    config_used: dict[str, Any] | None = None,
    metadata: dict[str, Any] | None = None,
    wall_seconds: float | None = None,
    timestamp: float | None = None,
) -> EvalReport:
    """``EvalReport.create(...)`` over ``results`` that are not a list (read as they are
    needed), with their ``summary`` already worked out: the sequence is kept as it is."""
    summary.wall_seconds = wall_seconds
    fields: dict[str, Any] = {
        "eval_set_id": eval_set_id,
        "eval_set_name": eval_set_name,
        "results": results,
        "summary": summary,
        "config_used": config_used or {},
        "metadata": metadata or {},
    }
    if timestamp is not None:
        fields["timestamp"] = timestamp
    return EvalReport.model_construct(**fields)


def read_journal_runs_streamed(path: str | Path) -> list[EvalReport]:
    """:func:`~.journal.read_journal_runs`, each report's results left in the file (see
    the module). Raises what it raises for a journal it cannot read."""
    return [report for report, _ in read_journal_parts_streamed(path)]


def read_journal_parts_streamed(path: str | Path) -> list[tuple[EvalReport, int | None]]:
    """:func:`read_journal_runs_streamed`, each report with how many cases its run was to
    run (:attr:`~.journal.JournalRun.planned`)."""
    path = Path(path)
    source = OpenFile(path)  # first: the file read is the one the reports hold
    runs = read_runs(path, IndexedRun)
    return [(run.streamed_report(source), run.planned) for run in runs]


def is_streamed(report: EvalReport) -> bool:
    """Whether ``report``'s results are read as they are needed (not a list in memory)."""
    return not isinstance(report.results, list)


def listed(report: EvalReport) -> EvalReport:
    """``report`` with its results in a list (read whole when they were streamed): for a
    reader that needs them all at once."""
    if not is_streamed(report):
        return report
    return report.model_copy(update={"results": list(report.results)})


__all__ = [
    "HeldKeys",
    "IndexedRun",
    "JournalResults",
    "LazyResults",
    "OpenFile",
    "PreparedTexts",
    "held_keys",
    "is_streamed",
    "listed",
    "none_holds",
    "read_journal_parts_streamed",
    "read_journal_runs_streamed",
    "streamed_report",
]
