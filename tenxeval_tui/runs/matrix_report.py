"""Writing the matrix report of a variant run (or of ``compare``'s reports): its JSON
and its HTML page, atomically (no UI import)."""

from __future__ import annotations

import json
from pathlib import Path

from tenxeval_tui.evaluation.analysis.matrix import VariantMatrix
from tenxeval_tui.evaluation.files.fileio import atomic_write_text
from tenxeval_tui.evaluation.reporters.matrix_html import render_matrix_html

MATRIX_GLOB = "matrix-*.json"


def matrix_json(matrix: VariantMatrix) -> str:
    """The matrix report's JSON: the matrix, plus the separating cases by id."""
    data = matrix.model_dump(mode="json")
    data["separating"] = [
        {"eval_set_id": r.eval_set_id, "eval_id": r.eval_id, "spread": r.spread}
        for r in matrix.separating
    ]
    return json.dumps(data, indent=2)


def write_matrix(matrix: VariantMatrix, stem: Path) -> list[str]:
    """``STEM.json`` and ``STEM.html``; the files written."""
    stem.parent.mkdir(parents=True, exist_ok=True)
    json_file = stem.with_name(stem.name + ".json")
    html_file = stem.with_name(stem.name + ".html")
    atomic_write_text(json_file, matrix_json(matrix))
    atomic_write_text(html_file, render_matrix_html(matrix))
    return [str(json_file), str(html_file)]


def read_matrix(path: Path) -> VariantMatrix:
    """A matrix report's JSON read back (``ValueError`` when it is not one)."""
    return VariantMatrix.model_validate_json(path.read_text(encoding="utf-8"))


__all__ = ["MATRIX_GLOB", "matrix_json", "read_matrix", "write_matrix"]
