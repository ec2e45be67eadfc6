"""``tenxeval-tui agreement REPORT.json [...]``: how far each judge agrees with people.

For every criterion with both verdicts and human labels on the same replies (and the
whole case, as ``case``), prints the pairs, raw agreement, Cohen's kappa with a seeded
95% bootstrap interval, the judge's true-positive and true-negative rates and the
confusion matrix (judge first, human second); with several reviewers, their agreement
with each other. The labels are each report's eval set's ``NAME.labels.jsonl`` (the eval
set found by id under the current folder, as ``run`` finds eval sets), or ``--labels
FILE`` for every report. Exit codes: 0; 1 when a criterion's kappa is below
``--min-kappa`` (an undefined kappa is below any, and so is having no pairs at all); 2
for a report or labels file that cannot be used. Malformed label lines are named (file
and line) on stderr and skipped.

Only ``argparse`` is imported at module level: the parser is built for ``--help`` too.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tenxeval_tui.browsing.agreement_table import AgreementTable
    from tenxeval_tui.browsing.labels import LabelIndex
    from tenxeval_tui.browsing.verdicts import ReportVerdicts
    from tenxeval_tui.evaluation.analysis.agreement import AgreementFigures

EXIT_BELOW = 1
EXIT_USAGE = 2


def _kappa_bar(raw: str) -> float:
    try:
        value = float(raw)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{raw!r} is not a number") from None
    if not -1.0 <= value <= 1.0:
        raise argparse.ArgumentTypeError(f"{raw} is not between -1 and 1")
    return value


def add_agreement_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """The ``agreement`` subcommand."""
    parser = sub.add_parser(
        "agreement",
        help="how far each judge agrees with the human labels: kappa, TPR/TNR, confusion",
        description="For every criterion with verdicts and human labels on the same replies "
        "(and `case`, the whole case's pass/fail), print the number of pairs, raw agreement, "
        "Cohen's kappa with a 95% bootstrap interval (seeded), the judge's true-positive and "
        "true-negative rates and the confusion matrix (judge first, human second); with "
        "several reviewers, their agreement with each other. Exit codes: 0; 1 when a kappa is "
        "below --min-kappa; 2 for a file that cannot be used.",
        epilog="Labels: each report's eval set's NAME.labels.jsonl (the eval set found by its "
        "id under the current folder), or --labels FILE. Kappa is undefined (null) when "
        "judge and humans gave every pair the same one class; it then fails --min-kappa.",
    )
    parser.add_argument("reports", nargs="+", metavar="REPORT.json", help="JSON reports")
    parser.add_argument(
        "--labels", metavar="FILE", help="the labels file for every report (NAME.labels.jsonl)"
    )
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument(
        "--min-kappa",
        type=_kappa_bar,
        metavar="K",
        help="exit 1 when any criterion's kappa is below K (or undefined)",
    )
    parser.set_defaults(func=agreement_command)


class _BadInput(Exception):
    """A report or labels file that cannot be used; the message names it."""


def _fail(message: str) -> int:
    from tenxeval_tui.evaluation.inert import inert

    print(inert(f"tenxeval-tui agreement: {message}", multiline=True), file=sys.stderr)
    return EXIT_USAGE


def _reason(path: str, exc: OSError) -> str:
    """What went wrong with ``path``, naming it once."""
    reason = exc.strerror or str(exc)
    return reason if path in reason else f"{path}: {reason}"


def _read_report(path: str) -> ReportVerdicts:
    from tenxeval_tui.browsing.verdicts import read_verdicts
    from tenxeval_tui.evaluation.errors import EvalFileError

    try:
        return read_verdicts(Path(path))
    except EvalFileError as exc:
        raise _BadInput(f"cannot read report: {exc}") from None
    except OSError as exc:
        raise _BadInput(f"cannot read report: {_reason(path, exc)}") from None


def _labels_of(path: Path, required: bool) -> LabelIndex:
    from tenxeval_tui.browsing.labels import LabelIndex, read_labels
    from tenxeval_tui.evaluation.inert import inert

    if required and not path.is_file():
        raise _BadInput(f"--labels {path}: no such file")
    try:
        found = read_labels(path)
    except OSError as exc:
        raise _BadInput(f"cannot read labels: {_reason(str(path), exc)}") from None
    for problem in found.problems:
        print(inert(f"skipped {problem}", multiline=True), file=sys.stderr)
    return LabelIndex(found.labels)


def _by_eval_set(report: ReportVerdicts) -> dict[str, ReportVerdicts]:
    """``report`` split by the eval set of each case (a combined report holds several)."""
    from dataclasses import replace

    split: dict[str, list[int]] = {}
    for position, case in enumerate(report.cases):
        split.setdefault(case.eval_set_id or report.eval_set_id, []).append(position)
    return {
        set_id: replace(report, eval_set_id=set_id, cases=[report.cases[i] for i in positions])
        for set_id, positions in split.items()
    }


def _sources(args: argparse.Namespace) -> list[tuple[ReportVerdicts, LabelIndex]]:
    from tenxeval_tui.browsing.labels import labels_path_in
    from tenxeval_tui.settings.workspace import open_workspace

    reports = [_read_report(path) for path in args.reports]
    if args.labels:
        shared = _labels_of(Path(args.labels), required=True)
        return [(report, shared) for report in reports]
    files = open_workspace(Path.cwd()).run_files()
    by_file: dict[Path, LabelIndex] = {}
    sources: list[tuple[ReportVerdicts, LabelIndex]] = []
    for report in reports:
        for set_id, part in _by_eval_set(report).items():
            path = labels_path_in(files, set_id)
            if path is None:
                raise _BadInput(
                    f"{report.path}: no eval set with id {set_id!r} under {Path.cwd()} "
                    "to find its labels beside: pass --labels FILE"
                )
            if path not in by_file:
                by_file[path] = _labels_of(path, required=False)
            sources.append((part, by_file[path]))
    return sources


def _rate(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.1%}"


def _kappa(figures: AgreementFigures) -> str:
    if figures.kappa is None:
        return "undefined"
    if figures.kappa_low is None or figures.kappa_high is None:
        return f"{figures.kappa:.2f}"
    return f"{figures.kappa:.2f} [{figures.kappa_low:.2f}, {figures.kappa_high:.2f}]"


def figure_line(name: str, figures: AgreementFigures, width: int) -> str:
    """One criterion's figures as a line of the table."""
    from tenxeval_tui.evaluation.analysis.agreement import MEANINGFUL_PAIRS

    c = figures.confusion
    line = (
        f"{name:<{width}}  {figures.n:>5}  {_rate(figures.agreement):>6}  "
        f"{_kappa(figures):<20}  {_rate(figures.tpr):>6}  {_rate(figures.tnr):>6}  "
        f"{c.pass_pass:>4} {c.pass_fail:>4} {c.fail_pass:>4} {c.fail_fail:>4}"
    )
    if not figures.meaningful:
        line += f"  (fewer than {MEANINGFUL_PAIRS} pairs: not yet meaningful)"
    return line


def format_table(table: AgreementTable) -> str:
    """The agreement table as text (names made inert by the caller)."""
    if not table.criteria:
        return "No verdict has a human label on the same reply: nothing to measure yet."
    pair_names = [
        f"{name}: {item.first} vs {item.second}"
        for name, items in table.reviewers.items()
        for item in items
    ]
    names = [*table.criteria, *pair_names]
    width = max(len(name) for name in ["criterion", *names])
    header = (
        f"{'criterion':<{width}}  {'pairs':>5}  {'agree':>6}  {'kappa [95% CI]':<20}  "
        f"{'TPR':>6}  {'TNR':>6}    pp   pf   fp   ff"
    )
    lines = ["Judge (first) against human labels (second)", header]
    lines += [figure_line(name, figures, width) for name, figures in table.criteria.items()]
    if table.reviewers:
        lines += ["", "Reviewers against each other (first named first)", header]
        figures = [item.figures for items in table.reviewers.values() for item in items]
        lines += [figure_line(n, f, width) for n, f in zip(pair_names, figures, strict=True)]
    return "\n".join(lines)


def _verdict(table: AgreementTable, min_kappa: float | None) -> tuple[int, str]:
    if min_kappa is None:
        return 0, ""
    if not table.criteria:
        return EXIT_BELOW, f"--min-kappa {min_kappa:g}: no pairs to measure"
    below = table.below(min_kappa)
    if not below:
        return 0, f"every kappa is at least {min_kappa:g}"
    shown = ", ".join(f"{name} ({_kappa(table.criteria[name])})" for name in below)
    return EXIT_BELOW, f"kappa below {min_kappa:g}: {shown}"


def agreement_command(args: argparse.Namespace) -> int:
    """Run ``tenxeval-tui agreement`` with parsed ``args``; returns the exit code."""
    from tenxeval_tui.browsing.agreement_table import agreement_table
    from tenxeval_tui.evaluation.inert import inert, inert_json

    try:
        sources = _sources(args)
    except _BadInput as exc:
        return _fail(str(exc))
    table = agreement_table(sources)
    code, verdict = _verdict(table, args.min_kappa)
    if args.json:
        print(inert_json(json.dumps(table.as_json(), indent=2)))
    else:
        print(inert(format_table(table), multiline=True))
    if verdict:
        # stdout holds only the JSON with --json
        print(inert(verdict), file=sys.stderr if code or args.json else sys.stdout)
    return code


__all__ = ["add_agreement_parser", "agreement_command", "figure_line", "format_table"]
