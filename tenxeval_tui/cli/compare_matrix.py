"""``tenxeval-tui compare A B C ...`` (or ``compare --matrix A B``): several reports as the
variant matrix (:mod:`tenxeval_tui.evaluation.analysis.matrix`), the first the baseline; exit 1
when a report is significantly worse than the first (the rule of ``run --baseline``), 2
when a file cannot be read.

A report's name in the matrix is its ``metadata.variant`` (a variant run's reports carry
it), else its file's name without ``.json``; names seen twice get ``#2``, ``#3``... A
report of some of its eval set's cases only (``metadata.selection``: a rerun, a filter, a
``--shard`` part) is a column marked so, its missing cases not run (a note on stderr too).
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from tenxeval_tui.evaluation.inert import inert, inert_json


def report_name(path: str, report: Any, taken: set[str]) -> str:
    """The name of ``report`` (from ``path``) in the matrix, unique among ``taken``."""
    from tenxeval_tui.evaluation.eval_result import VARIANT_KEY

    name = str(report.metadata.get(VARIANT_KEY) or "") or Path(path).name.removesuffix(".json")
    unique, count = name, 1
    while unique in taken:
        count += 1
        unique = f"{name}#{count}"
    taken.add(unique)
    return unique


def compare_matrix(
    paths: Sequence[str], load: Callable[[str], object | None], *, as_json: bool
) -> int:
    """Load ``paths`` (with ``load``, which says why one cannot be read), print their
    matrix; the exit code."""
    from tenxeval_tui.evaluation.analysis.matrix import build_matrix
    from tenxeval_tui.evaluation.analysis.matrix_text import format_matrix
    from tenxeval_tui.evaluation.eval_result import EvalReport
    from tenxeval_tui.evaluation.selection_marks import selection_of
    from tenxeval_tui.runs.matrix_report import matrix_json

    reports: dict[str, EvalReport] = {}
    taken: set[str] = set()
    for path in paths:
        report = load(path)
        if not isinstance(report, EvalReport):
            return 2
        if report.is_partial or not report.results:
            why = "holds no case" if not report.results else "is partial"
            print(inert(f"warning: the report {path} {why}"), file=sys.stderr)
        if (mark := selection_of(report.metadata)) is not None:
            print(
                inert(
                    f"note: the report {path} is a selection of its eval set's cases "
                    f"({mark.text}): the cases it did not run show as not run, and its pairs "
                    "are tested over the cases both reports ran"
                ),
                file=sys.stderr,
            )
        reports[report_name(path, report, taken)] = report
    matrix = build_matrix(reports)
    baseline = next(iter(reports))
    if as_json:
        print(inert_json(matrix_json(matrix)))
    else:
        print(inert(format_matrix(matrix, baseline), multiline=True))
    return 1 if matrix.worse_than(baseline) else 0


__all__ = ["compare_matrix", "report_name"]
