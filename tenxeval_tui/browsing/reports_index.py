"""The JSON reports in an output folder, newest first, each with its headline figures.

UI-free. Small files are loaded in full with :meth:`EvalReport.from_file`, so a
broken one is listed with its exact error. Big files (over
:data:`FULL_LOAD_LIMIT` bytes) are summarised without parsing their results:
only the top-level members around ``results`` are decoded (the summary and
timestamp sit after the results in the files both 10xGraph and we write); a
file whose shape does not allow that falls back to a full load.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from tenxeval_tui.evaluation.errors import EvalFileError, Problem
from tenxeval_tui.evaluation.eval_result import (
    PARTIAL_KEY,
    RESCORED_KEY,
    EvalReport,
    EvalSummary,
)
from tenxeval_tui.evaluation.files.stamp import FileStamp, file_stamp
from tenxeval_tui.evaluation.selection_marks import selection_of
from tenxeval_tui.evaluation.watch_marks import watch_session

FULL_LOAD_LIMIT = 1_000_000
_DECODER = json.JSONDecoder()
_SPACE = re.compile(r"\s*")
# How many `"summary"` keys from the end to try before giving up on the fast path.
_MAX_CANDIDATES = 8


@dataclass(frozen=True, slots=True)
class ReportEntry:
    """One report file as the list shows it; ``problem`` is set when it does not load."""

    path: Path
    eval_set_id: str = ""
    eval_set_name: str = ""
    timestamp: float = 0.0
    total: int = 0
    passed: int = 0
    failed: int = 0
    errored: int = 0
    pass_rate: float = 0.0
    partial: bool = False
    """The run did not finish (cancelled, killed, stopped by a budget): cases are missing."""
    problem: Problem | None = None
    rescored: bool = False
    """Another scoring of a run listed already (``rescore``, a saved what-if)."""
    watch_session: str = ""
    """The watch session whose run it reports ("": none; see evaluation.watch_marks)."""
    selection: str = ""
    """How its run chose some of the eval set's cases only, in words ("": it ran every
    case; see evaluation.selection_marks)."""
    session_runs: int = 1
    """Reports of its watch session it stands for in a grouped list (itself included)."""

    @property
    def ok(self) -> bool:
        """Whether the file loaded."""
        return self.problem is None

    @property
    def caveat(self) -> str | None:
        """Why comparing with this report misleads (empty or partial), else ``None``."""
        return report_caveat(self.total, partial=self.partial) if self.ok else None

    @property
    def title(self) -> str:
        """The eval set's name, else its id, else the file name."""
        return self.eval_set_name or self.eval_set_id or self.path.name

    @property
    def html_path(self) -> Path:
        """Where the HTML report of the same run sits (it may not exist)."""
        return self.path.with_suffix(".html")


def report_caveat(total: int, *, partial: bool) -> str | None:
    """Why a report of ``total`` cases (``partial``: of a run that did not finish) misleads
    a comparison, in words that follow "this report"; ``None`` when it does not."""
    if total == 0:
        return "holds no case: every case of the other report shows as new or removed"
    if partial:
        return "is partial (its run did not finish): the cases it lacks show as new or removed"
    return None


def is_report_name(name: str) -> bool:
    """Whether a file of this name may be a report: JSON, not an eval set, not hidden."""
    return (
        name.endswith(".json") and not name.endswith(".evalset.json") and not name.startswith(".")
    )


def is_report_file(path: Path) -> bool:
    """JSON files, except eval sets and hidden (temporary) files."""
    return is_report_name(path.name) and path.is_file()


def list_reports(folder: str | Path, known: ReportEntries | None = None) -> list[ReportEntry]:
    """Every report in ``folder`` (not recursive), newest first; an absent folder lists nothing.
    With ``known``, a file unchanged since it was last listed there is not read again."""
    root = Path(folder)
    if not root.is_dir():
        return []
    read = read_entry if known is None else known.entry
    entries = [read(path) for path in root.iterdir() if is_report_file(path)]
    return sorted(entries, key=lambda e: (e.timestamp, e.path.name), reverse=True)


class ReportEntries:
    """The entries of the reports listed so far, each kept while its file's size and
    modification time stay the same: a folder listed again (a report landed) reads only
    the files that changed."""

    def __init__(self) -> None:
        self._entries: dict[Path, tuple[FileStamp, ReportEntry]] = {}

    def entry(self, path: Path) -> ReportEntry:
        """``path``'s entry: the one kept, or :func:`read_entry`'s when the file changed."""
        stamp = file_stamp(path)
        if stamp is None:
            return read_entry(path)  # says why it cannot be read
        kept = self._entries.get(path)
        if kept is not None and kept[0] == stamp:
            return kept[1]
        entry = read_entry(path)
        self._entries[path] = (stamp, entry)
        return entry


def read_entry(path: Path) -> ReportEntry:
    """The list entry of one file; never raises for a bad file."""
    try:
        size = path.stat().st_size
        if size > FULL_LOAD_LIMIT:
            quick = _quick_entry(path)
            if quick is not None:
                return quick
        return entry_from_report(path, EvalReport.from_file(path))
    except EvalFileError as exc:
        return _broken(path, exc.first)
    except OSError as exc:
        return _broken(path, Problem(path=str(path), message=exc.strerror or str(exc)))


def _broken(path: Path, problem: Problem) -> ReportEntry:
    try:
        mtime = path.stat().st_mtime
    except OSError:
        mtime = 0.0
    return ReportEntry(path=path, timestamp=mtime, problem=problem)


def entry_from_report(path: Path, report: EvalReport) -> ReportEntry:
    """The list entry of a loaded report."""
    entry = _entry(
        path,
        report.eval_set_id,
        report.eval_set_name,
        report.timestamp,
        report.summary,
        partial=report.is_partial,
    )
    return _marked(entry, report.metadata)


def _marked(entry: ReportEntry, metadata: Any) -> ReportEntry:
    if not isinstance(metadata, dict):
        return entry
    mark = selection_of(metadata)
    return replace(
        entry,
        rescored=RESCORED_KEY in metadata,
        watch_session=watch_session(metadata),
        selection=mark.text if mark is not None else "",
    )


def group_watch_sessions(entries: list[ReportEntry]) -> list[ReportEntry]:
    """``entries`` (newest first) with each watch session's reports of one eval set as the
    newest of them, which counts them (:attr:`ReportEntry.session_runs`); other reports as
    they are."""
    counts: dict[tuple[str, str], int] = {}
    for entry in entries:
        if entry.watch_session:
            key = (entry.watch_session, entry.eval_set_id)
            counts[key] = counts.get(key, 0) + 1
    grouped: list[ReportEntry] = []
    shown: set[tuple[str, str]] = set()
    for entry in entries:
        key = (entry.watch_session, entry.eval_set_id)
        if not entry.watch_session:
            grouped.append(entry)
        elif key not in shown:
            shown.add(key)
            grouped.append(replace(entry, session_runs=counts[key]))
    return grouped


def _entry(
    path: Path,
    set_id: str,
    name: str,
    timestamp: float,
    s: EvalSummary,
    *,
    partial: bool = False,
) -> ReportEntry:
    return ReportEntry(
        path=path,
        eval_set_id=set_id,
        eval_set_name=name,
        timestamp=timestamp,
        total=s.total_cases,
        passed=s.passed_cases,
        failed=s.failed_cases,
        errored=s.error_cases,
        pass_rate=s.pass_rate,
        partial=partial,
    )


def _member(text: str, pos: int) -> tuple[str, Any, int]:
    """Decode ``"key": value`` at ``pos``; return key, value and the position after it."""
    key, pos = _DECODER.raw_decode(text, _SPACE.match(text, pos).end())  # type: ignore[union-attr]
    pos = _SPACE.match(text, pos).end()  # type: ignore[union-attr]
    if not isinstance(key, str) or text[pos : pos + 1] != ":":
        raise ValueError("not an object member")
    value, pos = _DECODER.raw_decode(text, _SPACE.match(text, pos + 1).end())  # type: ignore[union-attr]
    return key, value, pos


def _members_until(text: str, pos: int, stop: str | None) -> tuple[dict[str, Any], int, bool]:
    """Decode members from ``pos`` up to the key ``stop`` or the closing brace.

    Returns the members, the position reached, and whether the object closed.
    """
    found: dict[str, Any] = {}
    while True:
        pos = _SPACE.match(text, pos).end()  # type: ignore[union-attr]
        char = text[pos : pos + 1]
        if char == "}":
            return found, pos + 1, True
        if char == ",":
            pos += 1
            continue
        if stop is not None and text.startswith(f'"{stop}"', pos):
            return found, pos, False
        key, value, pos = _member(text, pos)
        found[key] = value


def split_report(text: str) -> tuple[dict[str, Any], int, dict[str, Any]] | None:
    """The top-level members before ``"results"``, where ``"results"`` starts, and the
    members from ``"summary"`` to the end; ``None`` when the text is not laid out so.

    Raises ``ValueError`` on JSON it cannot decode.
    """
    start = _SPACE.match(text).end()  # type: ignore[union-attr]
    if text[start : start + 1] != "{":
        return None
    head, results_at, closed = _members_until(text, start + 1, "results")
    if closed:
        return None
    tail = _tail_members(text)
    if tail is None:
        return None
    return head, results_at, tail


def results_array_start(text: str, results_at: int) -> int:
    """The position just after the ``[`` that opens the value of ``"results"`` at ``results_at``."""
    pos = _SPACE.match(text, results_at + len('"results"')).end()  # type: ignore[union-attr]
    if text[pos : pos + 1] != ":":
        raise ValueError("not an object member")
    pos = _SPACE.match(text, pos + 1).end()  # type: ignore[union-attr]
    if text[pos : pos + 1] != "[":
        raise ValueError("results is not a list")
    return pos + 1


def decode_items(text: str, pos: int, limit: int | None = None) -> tuple[list[Any], int, bool]:
    """Decode up to ``limit`` items of the JSON array whose items start at ``pos``.

    Returns the items, the position reached, and whether the array ended; raises ``ValueError``
    on anything that is not a JSON array there.
    """
    items: list[Any] = []
    pos = _SPACE.match(text, pos).end()  # type: ignore[union-attr]
    if text[pos : pos + 1] == "]":
        return items, pos + 1, True
    while limit is None or len(items) < limit:
        item, pos = _DECODER.raw_decode(text, _SPACE.match(text, pos).end())  # type: ignore[union-attr]
        items.append(item)
        pos = _SPACE.match(text, pos).end()  # type: ignore[union-attr]
        char = text[pos : pos + 1]
        if char == "]":
            return items, pos + 1, True
        if char != ",":
            raise ValueError("expected ',' or ']' in the results")
        pos += 1
    return items, pos, False


def _quick_entry(path: Path) -> ReportEntry | None:
    """The entry read from the top-level members only (``None``: use a full load)."""
    try:
        text = path.read_text(encoding="utf-8")
        parts = split_report(text)
        if parts is None:
            return None
        head, _, tail = parts
        members = {**head, **tail}
        summary = EvalSummary.model_validate(members["summary"])
        timestamp = float(members.get("timestamp", path.stat().st_mtime))
        set_id = members["eval_set_id"]
        if not isinstance(set_id, str):
            return None
        name = members.get("eval_set_name", "")
        metadata = members.get("metadata")
        partial = bool(metadata.get(PARTIAL_KEY)) if isinstance(metadata, dict) else False
    except (ValueError, KeyError, TypeError, ValidationError, OSError, RecursionError):
        return None
    entry = _entry(
        path, set_id, name if isinstance(name, str) else "", timestamp, summary, partial=partial
    )
    return _marked(entry, metadata)


def _tail_members(text: str) -> dict[str, Any] | None:
    """The top-level members from ``"summary"`` to the end of the file.

    A ``"summary"`` key nested deeper (in metadata, say) is told apart because
    the object it opens would close before the end of the file.
    """
    end = len(text)
    for _ in range(_MAX_CANDIDATES):
        pos = text.rfind('"summary"', 0, end)
        if pos < 0:
            return None
        end = pos
        try:
            members, after, closed = _members_until(text, pos, None)
        except ValueError:
            continue
        if closed and not text[after:].strip() and "summary" in members:
            return members
    return None
