"""The matrix report's HTML in real headless Chromium: no console error, the tables a
reader sees, and names from agents and files shown as text, never run as markup."""

from __future__ import annotations

from pathlib import Path

from tenxeval_tui.evaluation import EvalCaseResult, EvalReport
from tenxeval_tui.evaluation.analysis.matrix import build_matrix
from tenxeval_tui.evaluation.reporters.matrix_html import render_matrix_html

from .chromium import Chromium

HOSTILE = "<img src=x onerror=\"document.title='pwned'\">"


def report(passes: list[bool]) -> EvalReport:
    results = [
        EvalCaseResult(eval_id=f"c{i}" if i else HOSTILE, passed=ok) for i, ok in enumerate(passes)
    ]
    return EvalReport.create(eval_set_id="s", results=results)


def test_the_matrix_page_shows_ranked_variants_pairs_and_cases(
    browser: Chromium, tmp_path: Path
) -> None:
    matrix = build_matrix(
        {HOSTILE: report([True, False, False]), "good": report([True, True, True])}
    )
    page = tmp_path / "matrix.html"
    page.write_text(render_matrix_html(matrix))
    browser.events.clear()
    browser.open(page)
    browser.flush()
    assert browser.problems() == []
    assert browser.evaluate("document.title") == "Variant matrix"
    names = browser.evaluate(
        "Array.from(document.querySelectorAll('#variants tr td:nth-child(2)'))"
        ".map(td => td.textContent)"
    )
    assert names == ["good", HOSTILE]
    assert browser.evaluate("document.querySelectorAll('img').length") == 0
    assert browser.evaluate("document.querySelectorAll('#pairs tr').length") == 2
    separating = browser.evaluate(
        "Array.from(document.querySelectorAll('#cases tr td:nth-child(2)'))"
        ".map(td => td.textContent)"
    )
    assert separating == ["c1", "c2", HOSTILE]  # the separating cases first
    assert browser.evaluate("document.querySelector('#cases td.failed').textContent") == "failed"
