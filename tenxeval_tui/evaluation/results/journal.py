"""The run journal: one JSON line per finished case, so a killed run still has a report.

:class:`RunJournal` is a :class:`~tenxeval_tui.evaluation.observers.RunObserver`
that appends to a file as cases finish (each line is written and flushed on its
own, so killing the process loses at most the cases still running). A line is appended
with plain system calls (open with ``O_APPEND``, one write, close), not through a Python
file object: that cost five times as much a case. The file is not held open between
lines, so its folder can still be remounted read-only mid-run (the worker's
:class:`~tenxeval_tui.runs.journal_guard.GuardedJournal` then keeps each case in the
stream).
:func:`report_from_journal` turns such a file back into an :class:`EvalReport`.

Lines are JSON objects with a ``"type"``: ``run_start`` (``eval_set_id``,
``eval_set_name``, ``eval_ids``, ``time``, ``config_used`` when the journal was given
the run's config, and ``metadata``: the report metadata known as the run starts, such as
its provenance), ``case`` (``eval_set_id``,
``result``), ``run_end`` (``eval_set_id``, ``partial``, ``wall_seconds``: how long
the eval set's run took, and ``metadata``: what the run added, such as a provenance
completed as it went, which replaces ``run_start``'s).
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, BinaryIO

import pydantic_core
from pydantic_core import PydanticSerializationError

from tenxeval_tui.evaluation.dataset.eval_set import EvalCase, EvalSet
from tenxeval_tui.evaluation.errors import EvalFileError, Problem
from tenxeval_tui.evaluation.eval_result import (
    NOT_RUN_KEY,
    PARTIAL_KEY,
    PROVENANCE_KEY,
    STOPPED_KEY,
    EvalCaseResult,
    EvalReport,
    combined_report,
)
from tenxeval_tui.evaluation.files.fileio import built_long_lived, gc_paused
from tenxeval_tui.evaluation.observers import RunObserver
from tenxeval_tui.evaluation.results.json_stream import case_json_parts, json_object_text
from tenxeval_tui.evaluation.results.lean_load import case_result
from tenxeval_tui.evaluation.results.node_views import fill


class RunJournal(RunObserver):
    """Appends a run's progress to ``path`` (created with its folder if needed).

    ``config_used`` (the run's config as JSON) goes into each ``run_start`` line, so a
    report rebuilt from the journal says how its cases were scored. ``report_metadata`` (by
    eval set id) is written on that set's ``run_start`` line and read back into its report's
    metadata (a run's provenance, known before it starts).
    """

    def __init__(
        self,
        path: str | Path,
        report_metadata: Mapping[str, Mapping[str, Any]] | None = None,
        *,
        config_used: dict[str, Any] | None = None,
    ) -> None:
        self.path = Path(path)
        self.config_used = config_used
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.report_metadata = dict(report_metadata or {})
        self._started: dict[str, str] = {}
        """Each eval set's provenance as its ``run_start`` line wrote it (JSON)."""
        self._ends_whole = False
        """The file ends with a whole line (known once this journal wrote one)."""
        self._case_heads: dict[str, bytes] = {}
        """Each eval set's ``case`` lines' text up to their result."""

    def _append(self, data: dict[str, Any]) -> None:
        with self._line() as line:
            line.write(json.dumps(data, default=str).encode("utf-8"))

    def _line(self) -> _Appended:
        """One more line: written by the caller, ended and appended as it leaves."""
        return _Appended(self)

    def _torn_end(self, fd: int) -> bytes:
        """``b"\\n"`` when the file ends with half a line (a run killed mid-write): this
        line must not join it."""
        if self._ends_whole:
            return b""
        size = os.fstat(fd).st_size
        return b"\n" if size and os.pread(fd, 1, size - 1) != b"\n" else b""

    def on_run_start(self, eval_set: EvalSet, cases: Sequence[EvalCase]) -> None:
        provenance = self.report_metadata.get(eval_set.eval_set_id, {}).get(PROVENANCE_KEY)
        self._started[eval_set.eval_set_id] = json.dumps(provenance, default=str)
        head = {
            "type": "run_start",
            "eval_set_id": eval_set.eval_set_id,
            "eval_set_name": eval_set.name,
            "time": time.time(),
            **({"config_used": self.config_used} if self.config_used else {}),
            **(
                {"metadata": dict(self.report_metadata[eval_set.eval_set_id])}
                if eval_set.eval_set_id in self.report_metadata
                else {}
            ),
        }
        # The ids last, their text made a block at a time: a list of every id of a big
        # run is never built to be encoded (the worker's peak is at the run's start).
        text = json_object_text(head, "eval_ids", (case.eval_id for case in cases))
        with self._line() as line:
            line.write(text.encode())

    def on_case_end(self, result: EvalCaseResult) -> None:
        # Written in pieces as pydantic serialises them: a case of many steps is never
        # held whole as a dict tree or as one string.
        head = self._case_heads.get(result.eval_set_id)
        if head is None:
            text = json.dumps({"type": "case", "eval_set_id": result.eval_set_id})
            head = self._case_heads[result.eval_set_id] = text[:-1].encode() + b', "result": '
        with self._line() as line:
            line.write(head)
            try:
                for piece in case_json_parts(result, fallback=str):
                    line.write(piece)
            except PydanticSerializationError:  # text UTF-8 cannot hold (a lone surrogate)
                line.discard()
                data: dict[str, Any] = {"type": "case", "eval_set_id": result.eval_set_id}
                data["result"] = fill(result).model_dump(mode="json", fallback=str)
                line.write(json.dumps(data, default=str).encode("utf-8"))
                return
            line.write(b"}")

    def on_run_end(self, report: EvalReport) -> None:
        stopped = {
            k: report.metadata[k] for k in (STOPPED_KEY, NOT_RUN_KEY) if k in report.metadata
        }
        provenance = report.metadata.get(PROVENANCE_KEY)
        if provenance is not None and json.dumps(provenance, default=str) != self._started.get(
            report.eval_set_id
        ):  # completed as the run went (a streamed file's hash): it replaces run_start's
            stopped[PROVENANCE_KEY] = provenance
        self._append(
            {
                "type": "run_end",
                "eval_set_id": report.eval_set_id,
                "partial": report.is_partial,
                **({"metadata": stopped} if stopped else {}),
                **(
                    {"wall_seconds": report.summary.wall_seconds}
                    if report.summary.wall_seconds is not None
                    else {}
                ),
            }
        )


class _Appended:
    """:meth:`RunJournal._line`: the journal's file opened (to append) as it is entered and
    closed as it is left, the line ended and appended when its writing raised nothing. The
    file is opened each line, not held open (see the module). A class, not a
    ``contextlib`` generator, whose frame each line cost a case about a microsecond."""

    __slots__ = ("fd", "journal", "line")

    def __init__(self, journal: RunJournal) -> None:
        self.journal = journal

    def __enter__(self) -> _Line:
        journal = self.journal
        self.fd = fd = os.open(journal.path, os.O_RDWR | os.O_APPEND | os.O_CREAT, 0o666)
        try:
            self.line = _Line(fd, journal._torn_end(fd))
        except BaseException:
            os.close(fd)
            raise
        journal._ends_whole = False
        return self.line

    def __exit__(self, kind: type[BaseException] | None, *_: object) -> None:
        try:
            if kind is None:
                self.line.write(b"\n")
                self.line.finish()
                self.journal._ends_whole = True
        finally:
            os.close(self.fd)


class _Line:
    """One journal line on its way to the file ``fd`` (opened to append): kept in memory
    and appended in one write, or in writes of :data:`_LINE_CHUNK` bytes once it grows
    past that (a case of many steps is never held whole)."""

    def __init__(self, fd: int, head: bytes = b"") -> None:
        self.fd = fd
        self.head = head
        self.parts: list[bytes] = [head] if head else []
        self.size = len(head)
        self.start: int | None = None
        """Where the line began in the file, once part of it was written."""

    def write(self, data: bytes) -> None:
        self.parts.append(data)
        self.size += len(data)
        if self.size >= _LINE_CHUNK:
            if self.start is None:  # what discard() cuts off, should the rest fail
                self.start = os.fstat(self.fd).st_size
            self._write_out()

    def finish(self) -> None:
        """Append what is left of the line (all of it, for a line under a chunk)."""
        self._write_out()

    def _write_out(self) -> None:
        data = b"".join(self.parts)
        self.parts, self.size = [], 0
        view = memoryview(data)
        while view:
            view = view[os.write(self.fd, view) :]

    def discard(self) -> None:
        """Forget the line so far (what was written of it is cut off the file)."""
        self.parts, self.size = ([self.head] if self.head else []), len(self.head)
        if self.start is not None:
            os.ftruncate(self.fd, self.start)
            self.start = None


_LINE_CHUNK = 1 << 20


def read_journal(path: str | Path) -> dict[str, EvalReport]:
    """The reports recorded in a journal, keyed by ``eval_set_id``, in the order they started.

    A set whose ``run_end`` line is missing (the run was killed) or says it was
    cancelled gives a partial report of the cases that finished, in the order the
    run listed them (not the order they finished). A torn line (the write in
    progress when a run was killed) is ignored; any other unreadable line is an
    :class:`EvalFileError` naming the file and line. A set that was started again
    starts over.
    """
    reports: dict[str, EvalReport] = {}
    for report in read_journal_runs(path):
        reports[report.eval_set_id] = report
    return reports


class JournalRun:
    """One ``run_start`` of a journal and what followed it (its results kept in memory;
    :class:`~tenxeval_tui.evaluation.results.journal_results.IndexedRun` keeps where
    they are in the file instead)."""

    def __init__(self, set_id: str, name: str = "", order: Sequence[str] = ()) -> None:
        self.set_id = set_id
        self.name = name
        self.order: Sequence[str] = list(order)
        """The run's case ids in report order (its ``run_start`` line's ``eval_ids``)."""
        self.results: list[EvalCaseResult] = []
        self.complete = False
        self.metadata: dict[str, Any] = {}
        self.wall_seconds: float | None = None
        self.config_used: dict[str, Any] = {}

    def add(self, result: EvalCaseResult, start: int, end: int) -> None:
        """One more case of this run, read from bytes ``start`` to ``end`` of the file."""
        self.results.append(result)

    @property
    def planned(self) -> int | None:
        """How many cases the run was to run (its ``run_start``'s ids; ``None``: a journal
        that does not list them)."""
        return len(self.order) if self.order else None

    def report_metadata(self) -> dict[str, Any]:
        """The report's metadata: the run's, and partial unless it ended."""
        return {**self.metadata, **({} if self.complete else {PARTIAL_KEY: True})}

    def report(self) -> EvalReport:
        position = {eval_id: i for i, eval_id in enumerate(self.order)}
        self.results.sort(key=lambda r: position.get(r.eval_id, len(position)))
        return EvalReport.create(
            eval_set_id=self.set_id,
            results=self.results,
            eval_set_name=self.name,
            metadata=self.report_metadata(),
            wall_seconds=self.wall_seconds,
            config_used=self.config_used,
        )


def read_journal_runs(path: str | Path) -> list[EvalReport]:
    """Every run a journal recorded, in order: one report per ``run_start``, also when two
    runs share an ``eval_set_id`` (two files, or two agents on one file).

    Each case belongs to the latest run of its eval set; otherwise as :func:`read_journal`.
    """
    return [report for report, _ in read_journal_parts(path)]


def read_journal_parts(path: str | Path) -> list[tuple[EvalReport, int | None]]:
    """:func:`read_journal_runs`, each report with how many cases its run was to run
    (:attr:`JournalRun.planned`)."""
    # Made by the thousand and kept: handed to the oldest generation unscanned (a young
    # collection walking all of them once the read ended was a fifth of the read).
    with built_long_lived():
        return [(run.report(), run.planned) for run in read_runs(path, JournalRun)]


def read_runs[R: JournalRun](path: str | Path, make_run: Callable[..., R]) -> list[R]:
    """The runs of the journal at ``path`` as ``make_run`` makes them (``make_run(set_id,
    name, order)``), every case line read (and checked) once, in file order."""
    path = Path(path)
    runs = JournalRuns(make_run)
    # The results are trees of plain objects made by the thousand: the cyclic garbage
    # collector, run again and again over the growing heap, took half of the read.
    with gc_paused(), path.open("rb") as handle:  # a line at a time, ending at b"\n"
        _read_lines(path, handle, runs.take)
    return runs.runs


class JournalRuns[R: JournalRun]:
    """The runs of a journal as its lines are read."""

    def __init__(self, make_run: Callable[..., R]) -> None:
        self.make_run = make_run
        self.runs: list[R] = []
        self.latest: dict[str, R] = {}
        """Each eval set's latest run."""

    def take(self, data: dict[str, Any], start: int, end: int) -> None:
        """Add one parsed journal line (bytes ``start`` to ``end`` of the file)."""
        kind = data["type"]
        set_id = str(data.get("eval_set_id", ""))
        latest = self.latest
        if kind == "run_start":
            order = [str(i) for i in data.get("eval_ids") or []]
            run = self.make_run(set_id, str(data.get("eval_set_name", "")), order)
            config_used = data.get("config_used")
            run.config_used = dict(config_used) if isinstance(config_used, dict) else {}
            run.metadata = dict(data.get("metadata") or {})
            self.runs.append(run)
            latest[set_id] = run
        elif kind == "case":
            result = case_result(data.pop("result"))  # made lean (see lean_load)
            if set_id not in latest:
                latest[set_id] = self.make_run(set_id)
                self.runs.append(latest[set_id])
            latest[set_id].add(result, start, end)
        elif kind == "run_end" and set_id in latest:
            latest[set_id].complete = not data.get("partial", False)
            latest[set_id].metadata.update(data.get("metadata") or {})
            wall = data.get("wall_seconds")
            latest[set_id].wall_seconds = float(wall) if wall is not None else None


def _read_lines(
    path: Path, handle: BinaryIO, take: Callable[[dict[str, Any], int, int], None]
) -> None:
    """Every line of ``handle`` to ``take`` (parsed, with where it starts and ends in the
    file), as :class:`LineReader` reads them."""
    reader = LineReader(path, take)
    while raw := handle.readline():
        reader.feed(raw)


class LineReader:
    """A journal's lines handed in one at a time, in file order, each parsed and given to
    ``take`` with where it starts and ends in the file. A line that cannot be read is an
    error (:class:`EvalFileError`, raised when the next line that is not blank comes)
    unless it is the last one that is not blank (the write in
    progress when a run was killed) or the start of a JSON object cut short."""

    def __init__(self, path: Path, take: Callable[[dict[str, Any], int, int], None]) -> None:
        self.path = path
        self.take = take
        self.end_offset = 0
        """Where the lines read so far end in the file."""
        self._number = 0
        self._unreadable: EvalFileError | None = None

    def feed(self, raw: bytes) -> None:
        """The next line of the file (its ``b"\\n"`` included, but for the file's last)."""
        self._number += 1
        start = self.end_offset
        self.end_offset += len(raw)
        if not raw.strip():
            return
        if self._unreadable is not None:  # a line follows it: it was not the last
            raise self._unreadable
        try:
            data = _written_case_line(raw) or parsed_line(raw)
            raw = b""
            self.take(data, start, self.end_offset)
        except (ValueError, KeyError, TypeError) as exc:
            if _cut_short(raw, exc):
                return
            self._unreadable = EvalFileError(
                [
                    Problem(
                        path=str(self.path), line=self._number, message=f"not a journal line: {exc}"
                    )
                ]
            )


def parsed_line(raw: bytes) -> Any:
    """A journal line's JSON. Parsed by pydantic's parser, which keeps one copy of each
    short string it meets again (a case's node names, its replies in both node views);
    by Python's when pydantic's refuses it (a lone surrogate that the journal wrote
    escaped), so that the two read the same lines."""
    try:
        return pydantic_core.from_json(raw, cache_strings=True)
    except ValueError:
        return json.loads(raw.decode("utf-8"))


_RESULT_KEY = b', "result": '
_WRITTEN_CASE = b'{"eval_id":"'
"""How pydantic's compact JSON of a case result begins (its first field, no space after
the colon): a line written by :meth:`RunJournal.on_case_end`'s usual way, not by its
``json.dumps`` fallback for text UTF-8 cannot hold."""


def case_text(raw: bytes) -> bytes | None:
    """The ``result`` of a ``case`` line (``raw``, read and checked before) as pydantic
    wrote it: the compact JSON of the case result, byte for byte what a report writes of
    it; ``None`` for a line written another way (the fallback for text UTF-8 cannot hold).

    A JSON string holds no unescaped quote, so the first ``, "result": `` is the key's
    (the line's head is ``type`` and ``eval_set_id``), and the result ends the line."""
    parts = _case_parts(raw)
    return None if parts is None else parts[1]


def _case_parts(raw: bytes) -> tuple[bytes, bytes] | None:
    """A ``case`` line's head (its JSON without the result) and :func:`case_text`'s text;
    ``None`` as that says."""
    found = raw.find(_RESULT_KEY)
    if found < 0:
        return None
    text = raw[found + len(_RESULT_KEY) :].rstrip()
    if not text.startswith(_WRITTEN_CASE) or not text.endswith(b"}}"):
        return None
    return raw[:found] + b"}", text[:-1]


_CASE_HEAD = b'{"type": "case", '


def _written_case_line(raw: bytes) -> dict[str, Any] | None:
    """A ``case`` line as :meth:`RunJournal.on_case_end` writes it, parsed with its result
    validated straight from its JSON text (see :func:`~.lean_load.case_result`: a fifth
    less CPU than parsing the line, then validating what was parsed); ``None`` for any
    other line, or one this way cannot read, which is then read the usual way (so a torn or
    broken line is told the usual way too)."""
    parts = _case_parts(raw) if raw.startswith(_CASE_HEAD) else None
    if parts is None:
        return None
    head, text = parts
    try:
        data = parsed_line(head)
        data["result"] = case_result(text)
    except ValueError:
        return None
    return data if type(data) is dict else None


def _cut_short(raw: bytes, problem: Exception) -> bool:
    """Whether ``raw`` is the start of a JSON object that ends too early (a torn write)."""
    if not isinstance(problem, json.JSONDecodeError) or not raw.lstrip().startswith(b"{"):
        return False
    return problem.pos >= len(raw.decode("utf-8", "replace").rstrip())


def report_from_journal(path: str | Path) -> EvalReport:
    """One report from a journal: its only eval set's, or all of them combined (a set
    whose run did not end counted by the cases it was to run, see
    :func:`~tenxeval_tui.evaluation.eval_result.combined_fields`)."""
    # the latest run of each eval set, in the order the sets started (as read_journal)
    latest = {report.eval_set_id: (report, planned) for report, planned in read_journal_parts(path)}
    parts = list(latest.values())
    if len(parts) == 1:
        return parts[0][0]
    return combined_report([report for report, _ in parts], [planned for _, planned in parts])


__all__ = [
    "RunJournal",
    "case_text",
    "read_journal",
    "read_journal_parts",
    "read_journal_runs",
    "report_from_journal",
]
