"""Ids for a run's cases that have none in their file, the same at every load.

Loading an eval set gives a case without an ``eval_id`` a new random id each time, but
``tenxeval-tui run`` reads each file twice (its parent chooses the cases, its worker runs
them, by id): with ``--limit``, ``--sample``, ``--resume`` or ``--retry-errors`` the worker
found none of the chosen cases again and ran nothing. :func:`load_with_stable_ids` loads a
run's file with such a case named by its place instead: ``case-N`` for the N-th case of
the file (``case-N-2``, ``-3``... when the file uses that id already).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path

from tenxeval_tui.evaluation.dataset.eval_set import EvalSet
from tenxeval_tui.evaluation.files.fileio import parse_json, read_text
from tenxeval_tui.evaluation.simulators.scenario_sets import is_scenario_file, load_run_file

_MADE_UP = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}")
"""The form of the id loading makes up (``uuid4``): only a set holding one is read again."""


def positional_ids(own: Sequence[str | None]) -> list[str]:
    """Each case's id: ``own`` (the ids the file gives, ``None`` for none), each missing
    one ``case-N`` (N its place from 1) or, when the file uses that, ``case-N-2``..."""
    taken = {eval_id for eval_id in own if eval_id is not None}
    ids: list[str] = []
    for position, eval_id in enumerate(own, start=1):
        if eval_id is None:
            eval_id = candidate = f"case-{position}"
            suffix = 1
            while eval_id in taken:
                suffix += 1
                eval_id = f"{candidate}-{suffix}"
            taken.add(eval_id)
        ids.append(eval_id)
    return ids


def load_with_stable_ids(path: Path) -> EvalSet:
    """The run file ``path`` loaded (see :func:`load_run_file`: it raises what that
    raises), each case without an ``eval_id`` in the file named by its place."""
    eval_set = load_run_file(path)
    if is_scenario_file(path) or not any(
        _MADE_UP.fullmatch(c.eval_id) for c in eval_set.eval_cases
    ):
        return eval_set
    data = parse_json(path, read_text(path))
    raw = data.get("eval_cases") if isinstance(data, dict) else None
    if not isinstance(raw, list) or len(raw) != len(eval_set.eval_cases):
        return eval_set  # pragma: no cover - the file loaded as this set
    own = [c.get("eval_id") if isinstance(c, dict) else None for c in raw]
    ids = positional_ids([i if isinstance(i, str) else None for i in own])
    for case, eval_id in zip(eval_set.eval_cases, ids, strict=True):
        case.eval_id = eval_id
    return eval_set


__all__ = ["load_with_stable_ids", "positional_ids"]
