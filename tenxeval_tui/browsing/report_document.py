"""A JSON report opened for browsing: light rows for every case, full results on demand.

UI-free. Validating every case of a 10,000-case report into pydantic models
takes seconds; the browser needs only a few fields per case to list them. So
the file is parsed as plain JSON once, each case becomes a :class:`CaseRow`,
and a case is validated into an :class:`EvalCaseResult` when it is opened.
Anything that does not fit is reported as an :class:`EvalFileError` naming
file, line and column (through a full :meth:`EvalReport.from_file`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import Any, overload

from pydantic import ValidationError

from tenxeval_tui.browsing.reports_index import (
    decode_items,
    results_array_start,
    split_report,
)
from tenxeval_tui.evaluation.analysis.compare import (
    CaseOutcome,
    RunOutcome,
    criterion_figures,
    numbered_keys,
)
from tenxeval_tui.evaluation.case_control import STOPPED_EARLY_KEY
from tenxeval_tui.evaluation.errors import EvalFileError, Problem
from tenxeval_tui.evaluation.eval_result import (
    EVAL_SET_ID_KEY,
    PARTIAL_KEY,
    RESCORED_KEY,
    EvalCaseResult,
    EvalReport,
    EvalSummary,
)
from tenxeval_tui.evaluation.files.fileio import gc_paused, parse_json, read_text
from tenxeval_tui.evaluation.selection_marks import SelectionMark, selection_of

# Cases read before the report is shown; the rest follow in the background.
FIRST_PAGE = 200


class StatusFilter(StrEnum):
    """Which cases the case table shows."""

    ALL = "all"
    FAILED = "failed"  # did not pass: failed or errored
    ERRORED = "errored"


@dataclass(frozen=True, slots=True)
class CaseRow:
    """What the case table shows of one case."""

    index: int
    eval_id: str
    name: str
    status: str  # "passed", "failed", "error" (or "invalid": the case does not validate)
    score: float | None  # mean criterion score
    failed_criteria: tuple[str, ...]
    tags: tuple[str, ...]
    duration: float
    error: str
    eval_set_id: str = ""
    passes: int | None = None
    """Repeats that passed, of :attr:`runs` (``None``: the case ran once)."""
    runs: int | None = None
    flips: int = 0
    """Outcome changes between consecutive repeats."""
    stopped_early: bool = False
    """Stopped by hand and scored on what it did so far (``metadata.stopped_early``)."""

    @property
    def label(self) -> str:
        """The case's name, or its id."""
        return self.name or self.eval_id

    @property
    def rate(self) -> str:
        """``3/5``: repeats passed of repeats run (empty for a case that ran once)."""
        return f"{self.passes}/{self.runs}" if self.runs is not None else ""

    @property
    def flaky(self) -> bool:
        """Whether its repeats disagreed (some passed, some did not)."""
        return self.runs is not None and self.passes is not None and 0 < self.passes < self.runs

    def matches(self, status: StatusFilter, words: Iterable[str], tags: Iterable[str]) -> bool:
        """Whether the row passes the status filter, contains every word and has every tag."""
        if status == StatusFilter.FAILED and self.status == "passed":
            return False
        if status == StatusFilter.ERRORED and self.status != "error":
            return False
        own_tags = {t.casefold() for t in self.tags}
        if any(t.casefold() not in own_tags for t in tags):
            return False
        haystack = f"{self.eval_id}\n{self.name}\n{self.error}\n{self.eval_set_id}".casefold()
        return all(w.casefold() in haystack for w in words)


def parse_filter(text: str) -> tuple[list[str], list[str]]:
    """Split filter text into words and tags (``tag:NAME`` or ``#NAME``)."""
    words: list[str] = []
    tags: list[str] = []
    for token in text.split():
        if token.startswith("tag:") and len(token) > 4:
            tags.append(token[4:])
        elif token.startswith("#") and len(token) > 1:
            tags.append(token[1:])
        else:
            words.append(token)
    return words, tags


def case_tags(data: dict[str, Any]) -> tuple[str, ...]:
    """A case's tags: ``tags`` on the result, else ``metadata.tags``."""
    tags = data.get("tags")
    if not isinstance(tags, list):
        metadata = data.get("metadata")
        tags = metadata.get("tags") if isinstance(metadata, dict) else None
    return tuple(str(t) for t in tags) if isinstance(tags, list) else ()


def repeat_counts(data: dict[str, Any]) -> tuple[int | None, int | None, int]:
    """``(repeats passed, repeats, flips)`` of a case result's JSON (``None``s: ran once)."""
    stats = data.get("repeat_stats")
    if not isinstance(stats, dict):
        return None, None, 0
    try:
        passes, runs = int(stats["passed_repeats"]), int(stats["repeats"])
        flips = int(stats.get("flips") or 0)
    except (KeyError, TypeError, ValueError):
        return None, None, 0
    return (passes, runs, flips) if 0 <= passes <= runs else (None, None, 0)


def _row(index: int, data: Any) -> CaseRow:
    if not isinstance(data, dict) or not isinstance(data.get("eval_id"), str):
        raise ValueError("not a case result")
    criteria = [c for c in data.get("criterion_results") or [] if isinstance(c, dict)]
    scores = [float(c.get("score", 0.0)) for c in criteria]
    error = data.get("error")
    passed = bool(data.get("passed")) and error is None
    metadata = data.get("metadata") if isinstance(data.get("metadata"), dict) else {}
    passes, runs, flips = repeat_counts(data)
    return CaseRow(
        index=index,
        eval_id=data["eval_id"],
        name=str(data.get("name") or ""),
        status="error" if error is not None else ("passed" if passed else "failed"),
        score=sum(scores) / len(scores) if scores else None,
        failed_criteria=tuple(str(c.get("criterion")) for c in criteria if not c.get("passed")),
        tags=case_tags(data),
        duration=float(data.get("duration_seconds") or 0.0),
        error=str(error) if error is not None else "",
        eval_set_id=str(metadata.get(EVAL_SET_ID_KEY, "")),  # type: ignore[union-attr]
        passes=passes,
        runs=runs,
        flips=flips,
        stopped_early=bool(metadata.get(STOPPED_EARLY_KEY)),  # type: ignore[union-attr]
    )


def _invalid_row(index: int, data: Any) -> CaseRow:
    eval_id = data.get("eval_id") if isinstance(data, dict) else None
    return CaseRow(
        index=index,
        eval_id=str(eval_id) if eval_id is not None else f"results[{index}]",
        name="",
        status="invalid",
        score=None,
        failed_criteria=(),
        tags=(),
        duration=0.0,
        error="not a valid case result: open it to see where",
    )


class CaseRows(Sequence[CaseRow]):
    """The rows of a report's cases, each built from its JSON the first time it is read.

    A table shows a page of rows at a time; building all 10,000 up front would
    cost a quarter of a second before the first one is on screen.
    """

    def __init__(self, raw: list[Any]) -> None:
        self._raw = raw
        self._rows: list[CaseRow | None] = [None] * len(raw)

    def __len__(self) -> int:
        return len(self._raw)

    @overload
    def __getitem__(self, index: int) -> CaseRow: ...

    @overload
    def __getitem__(self, index: slice) -> list[CaseRow]: ...

    def __getitem__(self, index: int | slice) -> CaseRow | list[CaseRow]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        if index < 0:
            index += len(self._raw)
        row = self._rows[index]
        if row is None:
            try:
                row = _row(index, self._raw[index])
            except (KeyError, TypeError, ValueError):
                row = _invalid_row(index, self._raw[index])
            self._rows[index] = row
        return row

    def grow(self) -> None:
        """Take in results appended to the list the rows were made over."""
        self._rows.extend([None] * (len(self._raw) - len(self._rows)))

    def index(self, value: Any, start: int = 0, stop: int | None = None) -> int:
        """Where ``value`` is (a row knows its own index: no scan, no building)."""
        if isinstance(value, CaseRow) and 0 <= value.index < len(self):
            end = len(self) if stop is None else stop
            if start <= value.index < end and self[value.index] == value:
                return value.index
        raise ValueError(f"{value!r} is not in the rows")


class ReportDocument:
    """One report file, parsed once; cases validated when they are opened."""

    def __init__(self, path: Path, data: dict[str, Any], *, complete: bool = True) -> None:
        self.path = path
        self.complete = complete
        """False while only the first cases are read (see :class:`ReportReader`)."""
        self._cases: dict[int, EvalCaseResult] = {}
        self._full: EvalReport | None = None
        self._raw_results: list[Any] = []
        self.eval_set_id = ""
        self.eval_set_name = ""
        self.timestamp = 0.0
        self.summary = EvalSummary()
        self.rows: CaseRows = CaseRows([])
        self._keys: dict[tuple[str, str, int], int] | None = None
        self.partial = False
        """The run was cancelled before every case finished."""
        self.rescored = False
        """The report is another scoring of a run (``rescore``, a what-if), not a run."""
        self.selection: SelectionMark | None = None
        """How the run chose some of the set's cases only (``None``: every case ran)."""
        try:
            self._read(data)
        except (KeyError, TypeError, ValueError, ValidationError):
            # the light reading failed: the full validation names the place of the
            # problem, or (when pydantic accepts what we did not) gives the data
            self._full = EvalReport.from_file(path)
            self._read(self._full.model_dump(mode="json"))
            self.complete = True
        if not self.summary.total_cases and self.rows:
            self.summary = self.full_report().summary

    def _read(self, data: dict[str, Any]) -> None:
        self._raw_results = list(data.get("results") or [])
        self.eval_set_id = str(data["eval_set_id"])
        self.eval_set_name = str(data.get("eval_set_name") or "")
        self.timestamp = float(data.get("timestamp") or 0.0)
        metadata = data.get("metadata")
        self.partial = isinstance(metadata, dict) and bool(metadata.get(PARTIAL_KEY))
        self.rescored = isinstance(metadata, dict) and RESCORED_KEY in metadata
        self.selection = selection_of(metadata)
        self.summary = EvalSummary.model_validate(data.get("summary") or {})
        self.rows = CaseRows(self._raw_results)
        if self._raw_results:
            _row(0, self._raw_results[0])  # results that are not case results fail here

    @classmethod
    def open(cls, path: str | Path) -> ReportDocument:
        """Parse ``path``; bad files raise :class:`EvalFileError` (file, line, column)."""
        path = Path(path)
        data = parse_json(path, read_text(path))
        if not isinstance(data, dict):
            EvalReport.from_file(path)  # raises with the exact message
        return cls(path, data)

    def add_results(self, raw: list[Any]) -> None:
        """Append the rest of the cases (as read by :meth:`ReportReader.rest`)."""
        self._raw_results.extend(raw)
        self.rows.grow()
        self._keys = None
        self.complete = True

    @property
    def raw_results(self) -> Sequence[Any]:
        """The cases as parsed JSON, not validated (read-only: the rows are built over it)."""
        return self._raw_results

    @property
    def has_repeats(self) -> bool:
        """Whether some case of the run ran more than once (the summary says)."""
        return self.summary.repeat_stats is not None

    @property
    def title(self) -> str:
        """The eval set's name, else its id."""
        return self.eval_set_name or self.eval_set_id

    @property
    def html_path(self) -> Path:
        """The HTML report of the same run (may not exist)."""
        return self.path.with_suffix(".html")

    def case(self, index: int) -> EvalCaseResult:
        """The full result of the case at ``index`` (validated on first use)."""
        cached = self._cases.get(index)
        if cached is not None:
            return cached
        try:
            result = EvalCaseResult.model_validate(self._raw_results[index])
        except ValidationError:
            self.full_report()  # raises EvalFileError naming the place
            raise  # pragma: no cover - the full load found the same problem
        self._cases[index] = result
        return result

    def full_report(self) -> EvalReport:
        """The whole report as an :class:`EvalReport` (validates every case once)."""
        if self._full is None:
            self._full = EvalReport.from_file(self.path)
        return self._full

    def filter_rows(self, status: StatusFilter, text: str = "") -> Sequence[CaseRow]:
        """Rows passing ``status`` and the filter ``text`` (words and ``tag:``/``#`` tags)."""
        words, tags = parse_filter(text)
        if status == StatusFilter.ALL and not words and not tags:
            return self.rows
        return [row for row in self.rows if row.matches(status, words, tags)]

    def outcome(self) -> RunOutcome:
        """What a comparison needs of this run, from the light rows and the summary."""
        cases = [
            CaseOutcome(
                r.eval_set_id or self.eval_set_id,
                r.eval_id,
                r.name,
                r.status,
                r.score,
                r.passes,
                r.runs,
            )
            for r in self.rows
        ]
        figures = criterion_figures(self.summary.criterion_stats)
        if not figures and cases:
            return RunOutcome.of_report(self.full_report())
        passed = sum(1 for c in cases if c.passed)
        return RunOutcome(
            title=self.title,
            pass_rate=passed / len(cases) if cases else self.summary.pass_rate,
            cases=cases,
            criteria=figures,
            partial=self.partial,
            selection=self.selection.text if self.selection is not None else None,
        )

    def index_of(self, eval_set_id: str, eval_id: str, occurrence: int = 0) -> int | None:
        """Where the case ``(eval_set_id, eval_id)`` is in the results (``occurrence``:
        which of several with that key; see :class:`CaseComparison`)."""
        if self._keys is None:
            keys = numbered_keys((r.eval_set_id or self.eval_set_id, r.eval_id) for r in self.rows)
            self._keys = {key: row.index for key, row in zip(keys, self.rows, strict=True)}
        return self._keys.get((eval_set_id or self.eval_set_id, eval_id, occurrence))

    def all_tags(self) -> list[str]:
        """Every tag used by a case, sorted."""
        return sorted({t for row in self.rows for t in row.tags})


class ReportReader:
    """Reads a report in two steps, so that the first cases show while the rest are read.

    Only for files laid out as both 10xGraph and we write them (``results``
    before ``summary``); :meth:`first_page` returns ``None`` otherwise and the
    caller uses :meth:`ReportDocument.open`.
    """

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self._text = read_text(self.path)
        self._rest_at: int | None = None
        """Where the cases after the first page start (``None``: there are none)."""

    def first_page(self, size: int | None = None) -> ReportDocument | None:
        """The document with its first ``size`` (default :data:`FIRST_PAGE`) cases.

        It is ``complete`` when that is all of them.
        """
        size = FIRST_PAGE if size is None else size
        try:
            parts = split_report(self._text)
            if parts is None:
                return None
            head, results_at, tail = parts
            start = results_array_start(self._text, results_at)
            items, rest_at, ended = decode_items(self._text, start, size)
        except ValueError:
            return None
        summary = tail.get("summary")
        if not ended and not (isinstance(summary, dict) and summary.get("total_cases")):
            return None  # no summary to show meanwhile: read it all at once
        document = ReportDocument(self.path, {**head, **tail, "results": items}, complete=ended)
        self._rest_at = None if document.complete else rest_at
        return document

    def rest(self) -> list[Any]:
        """The cases after the first page, as JSON; a bad file raises :class:`EvalFileError`.

        Decoded a case at a time, from where the first page ended: a reading thread lets
        the UI's threads run between two cases (the whole list in one C call held the
        GIL for half a second or more on a 10,000-case report: the keys, and the frame
        of the first page, waited), and it is faster (no case decoded twice). The
        collector is paused meanwhile and what was decoded frozen out of its sight (see
        :func:`~tenxeval_tui.evaluation.files.fileio.gc_paused`): the cases are hundreds
        of thousands of dicts and lists, which each full collection would walk again.
        """
        if self._rest_at is None:
            return []
        try:
            with gc_paused(freeze=True):
                items, _, _ = decode_items(self._text, self._rest_at)
        except ValueError:
            ReportDocument.open(self.path)  # raises with file, line and column
            raise EvalFileError(
                [Problem(path=str(self.path), message="the results list is not valid JSON")]
            ) from None
        return items


def open_first_page(path: Path) -> tuple[ReportReader, ReportDocument]:
    """Read ``path`` for showing: its reader and the document with the first cases (all
    of them when the file cannot be read in two steps). A bad file raises
    :class:`EvalFileError`, an unreadable one :class:`OSError`."""
    reader = ReportReader(path)
    return reader, reader.first_page() or ReportDocument.open(path)
