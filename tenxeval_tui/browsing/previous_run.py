"""Which earlier report is "the previous run" a report is compared with (no UI).

The workbench's baseline picker guesses it and ``compare previous latest`` names it: the
newest earlier run of every case of the eval set that ran to its end. A partial or empty
report, or a run of a selection of the cases (a rerun of the failed ones, a filter's run,
a ``--shard`` part: ``metadata.selection``), is no previous run while a full one is there;
without one, the newest earlier report that ran to its end, else the newest earlier one.
"""

from __future__ import annotations

from collections.abc import Sequence

from tenxeval_tui.browsing.reports_index import ReportEntry


def previous_run(earlier: Sequence[ReportEntry]) -> int | None:
    """The index in ``earlier`` (readable reports of one eval set older than the one
    compared, newest first) of the previous run (see the module); ``None`` when empty."""
    ended = [i for i, entry in enumerate(earlier) if entry.caveat is None]
    full = [i for i in ended if not earlier[i].selection]
    found = full or ended or list(range(len(earlier)))
    return found[0] if found else None


__all__ = ["previous_run"]
