"""Which cases of an eval set flipped lately: the marks of the editor's and run view's lists.

UI-free. :class:`CaseFlipIndex` answers, for an eval set id and the report folder
the workbench writes to, which of its cases flipped over the last runs (between
runs, or between the repeats of a run, or passed only sometimes: the cases the
flakiness view lists), how often, and whether their repeats disagreed in the
newest run they were in. It reads the reports as cached light summaries
(:mod:`~tenxeval_tui.browsing.run_summaries`) and keeps them in memory by file
size and modification time, so that asking again after a new report costs a
``stat`` per report and the read of the new one. Callers ask from a worker thread
(the first look at a big folder reads each report once); the index is safe to
share between threads. Importing it is light (the workbench imports it at start); what
reads reports is imported when first used, in the worker thread.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from tenxeval_tui.evaluation.files.stamp import FileStamp, file_stamp

if TYPE_CHECKING:
    from tenxeval_tui.browsing.run_summaries import RunSummaries, RunSummary

FLIP_WINDOW: int | None = 10
"""How many of an eval set's last runs the marks look at: the flakiness view's first
(``HISTORY_SIZES[0]``)."""

FLIP_MARK = "~"
"""The mark of a flipped case in the case lists (the legend and the help say so)."""


@dataclass(frozen=True, slots=True)
class CaseFlips:
    """How one case of an eval set flipped over its last runs."""

    eval_id: str
    flips: int
    """Outcome changes between consecutive runs."""
    repeat_flips: int
    """Outcome changes between consecutive repeats, summed over the runs."""
    runs: int
    """Runs (reports) of the window the case was in."""
    newest_disagreed: bool
    """Whether its repeats disagreed (some passed, some not) in the newest run it was in."""

    @property
    def all_flips(self) -> int:
        """Flips between runs plus flips between repeats."""
        return self.flips + self.repeat_flips

    def describe(self) -> str:
        """One line for the case form: ``~ flipped 3 times in its last 5 runs (1 between
        runs, 2 between repeats); its repeats disagreed in the newest run``."""
        total = self.all_flips
        runs = f"its last {self.runs} run{'s' if self.runs != 1 else ''}"
        if total == 0:
            text = f"{FLIP_MARK} passed only sometimes in {runs}"
        else:
            text = f"{FLIP_MARK} flipped {total} time{'s' if total != 1 else ''} in {runs}"
        if self.flips and self.repeat_flips:
            text += f" ({self.flips} between runs, {self.repeat_flips} between repeats)"
        elif self.repeat_flips:
            text += " (between repeats)"
        if self.newest_disagreed:
            text += "; its repeats disagreed in the newest run"
        return text


@dataclass(frozen=True, slots=True)
class FlipHistory:
    """The flipped cases of one eval set over its last runs in a report folder."""

    eval_set_id: str
    runs: int = 0
    """Reports of the eval set in the window."""
    cases: Mapping[str, CaseFlips] = field(default_factory=dict)
    """The flipped cases only, by ``eval_id`` (a duplicated id: its first case)."""
    unreadable: int = 0
    """Report files in the folder that did not load (of any eval set)."""

    def of(self, eval_id: str) -> CaseFlips | None:
        """How case ``eval_id`` flipped, or ``None`` when it did not."""
        return self.cases.get(eval_id)

    @property
    def flipped_ids(self) -> frozenset[str]:
        """The ``eval_id`` of every flipped case."""
        return frozenset(self.cases)


@dataclass(slots=True)
class _Tally:
    """One case's outcomes as :func:`flip_history` reads the runs."""

    outcomes: list[bool] = field(default_factory=list)
    passes: int = 0
    total: int = 0
    repeat_flips: int = 0
    disagreed: bool = False


def flip_history(eval_set_id: str, runs: Sequence[RunSummary]) -> FlipHistory:
    """The flipped cases of ``eval_set_id`` over ``runs`` (its runs, oldest first).

    A case flipped when it did in the flakiness view's terms
    (:attr:`~tenxeval_tui.browsing.flaky_cases.FlakyCase.unstable`: its outcome changed
    between runs or between repeats, or it passed only sometimes); counted here in one
    pass over the runs, since the marks need neither ranks nor trends. A second case
    with the same id in a run (two files sharing an ``eval_set_id``) is left out.
    """
    from tenxeval_tui.evaluation.stats import flip_count

    tallies: dict[str, _Tally] = {}
    for run in runs:  # oldest first: the newest run a case is in has the last word
        seen: set[str] = set()
        for case, flips in zip(run.outcome.cases, run.flips, strict=True):
            eval_id = case.eval_id
            if eval_id in seen or case.eval_set_id != eval_set_id:
                continue
            seen.add(eval_id)
            tally = tallies.get(eval_id)
            if tally is None:
                tally = tallies[eval_id] = _Tally()
            passes, total = case.counts
            tally.outcomes.append(case.passed)
            tally.passes += passes
            tally.total += total
            tally.repeat_flips += flips
            tally.disagreed = flips > 0 or 0 < passes < total
    cases: dict[str, CaseFlips] = {}
    for eval_id, tally in tallies.items():
        flips = flip_count(tally.outcomes)
        if flips or tally.repeat_flips or 0 < tally.passes < tally.total:
            cases[eval_id] = CaseFlips(
                eval_id=eval_id,
                flips=flips,
                repeat_flips=tally.repeat_flips,
                runs=len(tally.outcomes),
                newest_disagreed=tally.disagreed,
            )
    return FlipHistory(eval_set_id, len(runs), cases)


class CaseFlipIndex:
    """The flip histories of the eval sets whose reports are in ``folder``.

    Report summaries are cached on disk in ``cache_dir`` (``None``: not on disk) and
    in memory while their file's size and modification time stay the same.
    """

    def __init__(
        self, folder: str | Path, cache_dir: Path | None, *, last: int | None = FLIP_WINDOW
    ) -> None:
        self.folder = Path(folder)
        self.last = last
        self.cache_dir = cache_dir
        self._summaries: RunSummaries | None = None
        self._known: dict[Path, tuple[FileStamp, RunSummary | None]] = {}
        self._computed: dict[str, tuple[tuple[tuple[Path, int, int], ...], FlipHistory]] = {}
        """Each eval set's history, by the runs it was counted from (asked again with
        the same runs: not counted again)."""
        self._lock = threading.Lock()

    @property
    def reports_read(self) -> int:
        """Reports read in full (not found in the disk cache) so far."""
        return self._summaries.read if self._summaries is not None else 0

    def history(self, eval_set_id: str) -> FlipHistory:
        """The flipped cases of ``eval_set_id`` over its last runs in the folder; no
        folder, no report, or reports that do not load: no flipped case."""
        return self.histories([eval_set_id])[eval_set_id]

    def histories(self, eval_set_ids: Iterable[str]) -> dict[str, FlipHistory]:
        """:meth:`history` of each of ``eval_set_ids``, from one look at the folder."""
        from tenxeval_tui.browsing.run_summaries import eval_set_history

        with self._lock:
            summaries, unreadable = self._scan()
            stamps = {path: stamp for path, (stamp, _) in self._known.items()}
        found = {}
        for set_id in eval_set_ids:
            runs = eval_set_history(summaries, set_id, self.last)
            counted = tuple((run.path, *stamps[run.path]) for run in runs)
            with self._lock:
                known = self._computed.get(set_id)
            if known is None or known[0] != counted:
                known = (counted, flip_history(set_id, runs))
                with self._lock:
                    self._computed[set_id] = known
            history = known[1]
            found[set_id] = FlipHistory(set_id, history.runs, history.cases, unreadable)
        return found

    def _scan(self) -> tuple[list[RunSummary], int]:
        """Every report's summary, reading only the new and changed files."""
        from tenxeval_tui.browsing.reports_index import is_report_file
        from tenxeval_tui.browsing.run_summaries import RunSummaries
        from tenxeval_tui.evaluation.errors import EvalFileError

        if self._summaries is None:
            self._summaries = RunSummaries(self.cache_dir)
        reader = self._summaries
        try:
            paths = [p for p in self.folder.iterdir() if is_report_file(p)]
        except OSError:
            paths = []
        known: dict[Path, tuple[FileStamp, RunSummary | None]] = {}
        for path in paths:
            stamp = file_stamp(path)
            if stamp is None:
                continue  # removed while listed
            entry = self._known.get(path)
            if entry is None or entry[0] != stamp:
                try:
                    entry = (stamp, reader.summary(path))
                except EvalFileError:
                    entry = (stamp, None)
                except OSError:
                    continue
            known[path] = entry
        self._known = known
        summaries = [s for _, s in known.values() if s is not None]
        return summaries, sum(1 for _, s in known.values() if s is None)


__all__ = [
    "FLIP_MARK",
    "FLIP_WINDOW",
    "CaseFlipIndex",
    "CaseFlips",
    "FlipHistory",
    "flip_history",
]
