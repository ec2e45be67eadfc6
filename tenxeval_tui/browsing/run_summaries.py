"""Light summaries of stored runs (a report's cases by id, status and repeat counts), cached.

UI-free. A history view reads many reports (50 runs of 1,000 cases is 150 MB of
JSON: seconds just to decode) but needs a few fields of each case. A
:class:`RunSummary` holds those fields; :class:`RunSummaries` makes one from a
report's light rows the first time it sees the file and keeps it in a cache folder
(one small JSON file per report, named by a hash of the report's path), valid while
the report's size and modification time are unchanged. Later reads cost a
``stat`` and a small file. A cache that cannot be read or written is only a cache:
the report is read instead. The summaries read are also kept in memory for the process
(:class:`ParsedSummaries`): a screen opened again (the editor on another eval set, the
run view's first showing) finds them parsed, not on disk.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import threading
from collections import OrderedDict
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tenxeval_tui.browsing.report_document import ReportDocument
from tenxeval_tui.browsing.reports_index import is_report_file
from tenxeval_tui.evaluation.analysis.compare import CaseOutcome, RunOutcome
from tenxeval_tui.evaluation.errors import EvalFileError
from tenxeval_tui.evaluation.files.fileio import atomic_write_text

CACHE_VERSION = 4  # 4: a --shard part is a selection


@dataclass(frozen=True, slots=True)
class RunSummary:
    """What a history needs of one stored run."""

    path: Path
    eval_set_id: str
    timestamp: float
    outcome: RunOutcome
    flips: tuple[int, ...]
    """Flips between consecutive repeats of each case (aligned with ``outcome.cases``)."""
    rescored: bool = False
    """Another scoring of a run (``rescore``, a what-if): not a run of its own."""

    @classmethod
    def of_document(cls, document: ReportDocument) -> RunSummary:
        """The summary of an opened report (from its light rows)."""
        return cls(
            path=document.path,
            eval_set_id=document.eval_set_id,
            timestamp=document.timestamp,
            outcome=document.outcome(),
            flips=tuple(row.flips for row in document.rows),
            rescored=document.rescored,
        )

    def to_json(self) -> dict[str, Any]:
        """The summary as JSON (the cache's shape)."""
        o = self.outcome
        return {
            "eval_set_id": self.eval_set_id,
            "timestamp": self.timestamp,
            "title": o.title,
            "pass_rate": o.pass_rate,
            "partial": o.partial,
            "selection": o.selection,
            "rescored": self.rescored,
            "criteria": {k: list(v) for k, v in o.criteria.items()},
            "cases": [
                [c.eval_set_id, c.eval_id, c.name, c.status, c.score, c.passes, c.runs, f]
                for c, f in zip(o.cases, self.flips, strict=True)
            ],
        }

    @classmethod
    def from_json(cls, path: Path, data: dict[str, Any]) -> RunSummary:
        """A summary from :meth:`to_json`'s shape (``KeyError``/``ValueError`` when not)."""
        cases = [CaseOutcome(*row[:7]) for row in data["cases"]]
        return cls(
            path=path,
            eval_set_id=str(data["eval_set_id"]),
            timestamp=float(data["timestamp"]),
            outcome=RunOutcome(
                title=str(data["title"]),
                pass_rate=float(data["pass_rate"]),
                cases=cases,
                criteria={k: (float(v[0]), float(v[1])) for k, v in data["criteria"].items()},
                partial=bool(data["partial"]),
                selection=str(data["selection"]) if data.get("selection") is not None else None,
            ),
            flips=tuple(int(row[7]) for row in data["cases"]),
            rescored=bool(data["rescored"]),
        )


Stamp = tuple[int, int, int]
"""A summary's version: the cache's version, the report's size and modification time."""


class ParsedSummaries:
    """Summaries parsed from a disk cache (or made from their report), by their cache file
    and the version of their report: the ``limit`` used last. Safe from several threads."""

    def __init__(self, limit: int = 1024) -> None:
        self.limit = limit
        self._held: OrderedDict[Path, tuple[Stamp, RunSummary]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, cache: Path, stamp: Stamp) -> RunSummary | None:
        """The summary kept for ``cache`` if its report is still at version ``stamp``."""
        with self._lock:
            held = self._held.get(cache)
            if held is None or held[0] != stamp:
                return None
            self._held.move_to_end(cache)
            return held[1]

    def put(self, cache: Path, stamp: Stamp, summary: RunSummary) -> None:
        """Keep ``summary`` (version ``stamp``) for ``cache``."""
        with self._lock:
            self._held[cache] = (stamp, summary)
            self._held.move_to_end(cache)
            while len(self._held) > self.limit:
                self._held.popitem(last=False)


PARSED = ParsedSummaries()
"""The process's parsed summaries, shared by every :class:`RunSummaries` with a cache."""


class RunSummaries:
    """Run summaries of report files, cached in ``cache_dir`` (``None``: not cached) and,
    once parsed, in :data:`PARSED`."""

    def __init__(self, cache_dir: Path | None, parsed: ParsedSummaries = PARSED) -> None:
        self.cache_dir = cache_dir
        self.parsed = parsed
        self.read = 0
        """Reports read (not found in the cache) since this object was made."""

    def _cache_file(self, path: Path) -> Path | None:
        if self.cache_dir is None:
            return None
        digest = hashlib.sha256(str(path.resolve()).encode()).hexdigest()[:32]
        return self.cache_dir / f"{digest}.json"

    def summary(self, path: Path) -> RunSummary:
        """The summary of the report at ``path``; a bad report raises
        :class:`~tenxeval_tui.evaluation.errors.EvalFileError` (file, line, column)."""
        stat = path.stat()
        stamp: Stamp = (CACHE_VERSION, stat.st_size, stat.st_mtime_ns)
        cache = self._cache_file(path)
        if cache is None:
            self.read += 1
            return RunSummary.of_document(ReportDocument.open(path))
        parsed = self.parsed.get(cache, stamp)
        if parsed is not None:
            return parsed if parsed.path == path else dataclasses.replace(parsed, path=path)
        summary = self._from_cache(path, cache, stamp)
        if summary is None:
            self.read += 1
            summary = RunSummary.of_document(ReportDocument.open(path))
            try:
                cache.parent.mkdir(parents=True, exist_ok=True)
                atomic_write_text(cache, json.dumps({"stamp": stamp, **summary.to_json()}))
            except OSError:
                pass
        self.parsed.put(cache, stamp, summary)
        return summary

    @staticmethod
    def _from_cache(path: Path, cache: Path, stamp: Stamp) -> RunSummary | None:
        """The summary in the disk cache, if it is there for this version of the report."""
        try:
            data = json.loads(cache.read_text(encoding="utf-8"))
            if data.get("stamp") == list(stamp):
                return RunSummary.from_json(path, data)
        except (OSError, ValueError, KeyError, TypeError, IndexError, AttributeError):
            pass  # absent or stale or unreadable: read the report
        return None

    def of_folder(self, folder: Path) -> Iterator[RunSummary | EvalFileError]:
        """The summary of every report in ``folder``; a report that does not load is
        yielded as its error (the others still come)."""
        try:
            paths = sorted(p for p in folder.iterdir() if is_report_file(p))
        except OSError:
            return
        for path in paths:
            try:
                yield self.summary(path)
            except EvalFileError as exc:
                yield exc
            except OSError:
                continue  # removed while listed


def eval_set_history(
    summaries: Sequence[RunSummary], eval_set_id: str, last: int | None
) -> list[RunSummary]:
    """The runs of ``eval_set_id`` among ``summaries``, oldest first; rescored reports are
    other scorings of runs already there, and are left out.

    ``last`` counts runs of every case: the runs of a selection of them (a rerun of the
    failed ones, a filter: ``metadata.selection``) since the oldest of those are kept,
    their cases' results being real ones, but they take no place of a full run (ten reruns
    of one case would leave the other cases no history).
    """
    runs = sorted(
        (s for s in summaries if s.eval_set_id == eval_set_id and not s.rescored),
        key=lambda s: (s.timestamp, s.path.name),
    )
    if not last:
        return runs
    full = [i for i, s in enumerate(runs) if s.outcome.selection is None]
    if len(full) <= last:
        return runs if full else runs[-last:]
    return runs[full[-last] :]


__all__ = ["PARSED", "ParsedSummaries", "RunSummaries", "RunSummary", "eval_set_history"]
