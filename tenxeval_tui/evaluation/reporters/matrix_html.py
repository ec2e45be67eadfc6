"""The variant matrix as one self-contained HTML page (no script, no external file).

Every name, id and status is escaped (:func:`html.escape`): text from files and agents is
never markup here.
"""

from __future__ import annotations

from html import escape

from tenxeval_tui.evaluation.analysis.matrix import MatrixCell, VariantMatrix, VariantStats
from tenxeval_tui.evaluation.analysis.matrix_text import NO_RESULT_MARK, NOT_RUN_MARK

_STYLE = """
body { font-family: system-ui, sans-serif; margin: 1.5rem; color: #222; }
table { border-collapse: collapse; margin: 0.5rem 0 1.5rem; }
th, td { border: 1px solid #ccc; padding: 0.25rem 0.5rem; text-align: left; }
td.passed { background: #d9f2d9; } td.failed { background: #f8d7d7; }
td.error { background: #fbe3c4; } td.missing { color: #999; }
.pareto { font-weight: bold; }
"""


def _money(value: float | None) -> str:
    return "" if value is None else f"${value:.4f}"


def _cell(cell: MatrixCell | None, selection: bool) -> str:
    if cell is None:
        return f'<td class="missing">{NOT_RUN_MARK if selection else NO_RESULT_MARK}</td>'
    text = f"{cell.passes}/{cell.runs}" if cell.runs > 1 else cell.status
    return f'<td class="{escape(cell.status)}">{escape(text)}</td>'


def _selection(v: VariantStats) -> str:
    """After a variant's name when its report is of some of its eval set's cases only."""
    if v.selection is None:
        return ""
    return f"<br><small>selection: {escape(v.selection)}; {v.not_run or 0} not run</small>"


def render_matrix_html(matrix: VariantMatrix, title: str = "Variant matrix") -> str:
    """The page: variants ranked, pairwise tests, Pareto line, cases x variants (the
    separating cases first)."""
    names = matrix.names
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f"<title>{escape(title)}</title><style>{_STYLE}</style></head><body>",
        f"<h1>{escape(title)}</h1>",
        "<h2>Variants</h2>",
        '<table id="variants"><tr><th>rank</th><th>variant</th><th>passed</th>'
        "<th>pass rate</th><th>95% interval</th><th>cost</th><th>cost per success</th>"
        "<th>tokens</th><th>latency median</th><th>latency p95</th>"
        "<th>mean score per criterion</th></tr>",
    ]
    for rank, v in enumerate(matrix.variants, 1):
        css = ' class="pareto"' if v.name in matrix.pareto else ""
        parts.append(
            f"<tr{css}><td>{rank}</td><td>{escape(v.name)}{_selection(v)}</td>"
            f"<td>{v.passed}/{v.total}</td>"
            f"<td>{v.pass_rate:.1%}</td><td>{v.pass_rate_low:.1%} to {v.pass_rate_high:.1%}</td>"
            f"<td>{_money(v.cost_usd)}</td><td>{_money(v.cost_per_success)}</td>"
            f"<td>{v.tokens}</td><td>{v.latency_median or 0:.2f}s</td>"
            f"<td>{v.latency_p95 or 0:.2f}s</td>"
            f"<td>{escape(', '.join(f'{c} {m:.2f}' for c, m in v.criteria.items()))}</td></tr>"
        )
    parts.append("</table>")
    parts.append(f"<p>Pareto line (pass rate against cost): {escape(', '.join(matrix.pareto))}</p>")
    parts.append(
        f"<h2>Pairwise differences</h2><p>{escape(matrix.test)}, alpha {matrix.alpha:g}</p>"
    )
    parts.append(
        '<table id="pairs"><tr><th>a</th><th>b</th><th>difference</th><th>p</th>'
        "<th>corrected p</th><th>verdict</th></tr>"
    )
    for pair in matrix.pairs:
        verdict = f"{pair.better} better" if pair.better else "no significant difference"
        if pair.cases is not None:
            verdict += f" (over the {pair.cases} case(s) both ran)"
        parts.append(
            f"<tr><td>{escape(pair.a)}</td><td>{escape(pair.b)}</td>"
            f"<td>{pair.difference * 100:+.1f} pts</td><td>{pair.p_value:.3g}</td>"
            f"<td>{pair.p_adjusted:.3g}</td><td>{escape(verdict)}</td></tr>"
        )
    parts.append("</table>")
    separating = {id(row) for row in matrix.separating}
    rows = matrix.separating + [row for row in matrix.rows if id(row) not in separating]
    parts.append(
        f"<h2>Cases</h2><p>{len(separating)} of {len(matrix.rows)} cases separate the "
        "variants (listed first, most separating first).</p>"
    )
    selections = {v.name for v in matrix.variants if v.selection is not None}
    header = "".join(
        f"<th>{escape(name)}{' (selection)' if name in selections else ''}</th>" for name in names
    )
    parts.append(f'<table id="cases"><tr><th>eval set</th><th>case</th>{header}</tr>')
    for row in rows:
        cells = "".join(_cell(row.cells.get(name), name in selections) for name in names)
        parts.append(
            f"<tr><td>{escape(row.eval_set_id)}</td><td>{escape(row.label)}</td>{cells}</tr>"
        )
    parts.append("</table></body></html>")
    return "\n".join(parts)


__all__ = ["render_matrix_html"]
