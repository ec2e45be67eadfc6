"""Where a report's cases come from: their eval set file in the workspace, and what it
expects that the report did not record (no UI import)."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from tenxeval_tui.evaluation.dataset.eval_set import EvalSet
from tenxeval_tui.evaluation.errors import EvalFileError
from tenxeval_tui.settings.workspace import SCENARIO_SUFFIX, find_eval_set_file


def expected_node_order_in_file(
    files: Iterable[Path], eval_set_id: str, eval_id: str
) -> tuple[list[str], Path] | None:
    """What the eval set file of ``eval_set_id`` expects as case ``eval_id``'s node order,
    and the file; ``None`` when no file, no such case, or no node order expected there.

    A report records the expected node order only when a node-order criterion ran; the
    file says what the case expects all the same.
    """
    path = find_eval_set_file(files, eval_set_id)
    if path is None or path.name.endswith(SCENARIO_SUFFIX):
        return None
    try:
        case = EvalSet.from_file(path).get_case(eval_id)
    except (EvalFileError, OSError):
        return None
    if case is None:
        return None
    nodes = case.get_expected_node_order()
    return (nodes, path) if nodes else None


__all__ = ["expected_node_order_in_file", "find_eval_set_file"]
