"""``latest`` and ``previous`` for ``tenxeval-tui compare``: report files named by age.

Reports are grouped by eval set in the output folder (:func:`list_reports` reads each
one's eval set and time); ``latest`` is an eval set's newest report, whatever it is, and
``previous`` the run before it as the workbench's baseline picker guesses it
(:func:`~tenxeval_tui.browsing.previous_run.previous_run`): the newest earlier full run,
passing over a rerun of the failed cases, a filter's run, a ``--shard`` part or a partial
report; without one, the newest earlier report that ran to its end, else the newest
earlier one (``compare`` notes a selection or a partial report on stderr).
``compare previous latest`` compares every eval set that has two reports; a file name on
one side and a word on the other resolves the word within that file's eval set.
"""

from __future__ import annotations

from pathlib import Path

from tenxeval_tui.browsing.previous_run import previous_run
from tenxeval_tui.browsing.reports_index import ReportEntry, list_reports, read_entry

KEYWORDS = {"latest": 0, "previous": 1}


class ReportNameError(Exception):
    """A ``latest``/``previous`` that names no report; the message says why."""


def default_output_dir() -> Path:
    """The report folder ``run`` writes to without ``--output-dir``: ``$TENXEVAL_OUTPUT_DIR``,
    ``output_dir`` of ``[tool.tenxeval]``, the user's ``run.output_dir``, or the default."""
    from tenxeval_tui.settings.layers import report_folder
    from tenxeval_tui.settings.user_settings import load_user_settings
    from tenxeval_tui.settings.workspace import open_workspace

    return report_folder(open_workspace(Path.cwd()), load_user_settings()[0])


def reports_by_set(folder: Path) -> dict[str, list[ReportEntry]]:
    """The readable reports of ``folder`` by eval set id, newest first."""
    grouped: dict[str, list[ReportEntry]] = {}
    for entry in list_reports(folder):
        if entry.ok:
            grouped.setdefault(entry.eval_set_id, []).append(entry)
    return grouped


def _pick(word: str, entries: list[ReportEntry], set_id: str, folder: Path) -> Path:
    """The report ``word`` names among an eval set's ``entries`` (newest first)."""
    if len(entries) <= KEYWORDS[word]:
        raise ReportNameError(
            f"{folder}: eval set {set_id!r} has {len(entries)} report(s), "
            f"so there is no {word!r} one"
        )
    if word == "latest":
        return entries[0].path
    found = previous_run(entries[1:])
    return entries[1 + (found or 0)].path


def resolve_pairs(
    baseline: str, current: str, output_dir: str | None, eval_set: str | None
) -> list[tuple[str, str]]:
    """The (baseline, current) report paths that ``compare BASELINE CURRENT`` stands for."""
    words = [name for name in (baseline, current) if name in KEYWORDS]
    if not words:
        return [(baseline, current)]
    folder = Path(output_dir) if output_dir else default_output_dir()
    grouped = reports_by_set(folder)
    if not grouped:
        raise ReportNameError(f"{folder}: no readable JSON reports to pick {words[0]!r} from")
    files = [name for name in (baseline, current) if name not in KEYWORDS]
    if files:  # one side is a file: its eval set decides
        entry = read_entry(Path(files[0]))
        if entry.problem is not None:
            raise ReportNameError(f"cannot read report: {entry.problem}")
        set_ids = [entry.eval_set_id]
    elif eval_set is not None:
        set_ids = [eval_set]
    else:
        set_ids = [set_id for set_id, entries in grouped.items() if len(entries) >= 2]
        if not set_ids:
            raise ReportNameError(f"{folder}: no eval set has two reports to compare")
    pairs = []
    for set_id in set_ids:
        entries = grouped.get(set_id)
        if not entries:
            raise ReportNameError(f"{folder}: no report of eval set {set_id!r}")
        sides = [
            str(_pick(name, entries, set_id, folder)) if name in KEYWORDS else name
            for name in (baseline, current)
        ]
        pairs.append((sides[0], sides[1]))
    return pairs


__all__ = ["ReportNameError", "default_output_dir", "reports_by_set", "resolve_pairs"]
