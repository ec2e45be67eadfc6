"""The light pass of a run's parent over its eval sets: which cases they hold, not the cases.

``tenxeval-tui run`` chooses its cases before it starts the worker (``--case`` checked,
``--limit``/``--sample`` picked, ``--shard`` split, ``--resume`` and ``--retry-errors``
narrowed by id), and all of that reads only each case's ``eval_id``, ``name`` and
``tags``. Building every case (its turns, expectations, models) costs the parent as much
as the worker that runs them: about 6 s and 6.6 GB at a million cases, before the first
case starts. :func:`scan_run_file` reads an eval set file a case at a time (``ijson``'s C
parser) and keeps a :class:`ScannedCase` of each: about 150 bytes a case.

A scanned eval set is an :class:`EvalSet` whose ``eval_cases`` are :class:`ScannedCase`
tuples (what selection, shards, resume, retries and the run's reports of cases not run
read); whatever needs a whole case (``--reuse``'s fingerprints, watch's re-scoring, a
scenario file's simulated user) loads the file (:func:`~tenxeval_tui.runs.plan.load_eval_sets`).
The scan checks what it reads; for anything else it does not understand (a file that is not
JSON, an eval id that is not a string, a duplicate id, ...) it loads the file whole, which
raises the precise error (file, line, column, the field and the problem) or gives the set.
A problem inside a case the scan does not read (a turn of the wrong shape) is the worker's
to tell, with the same error, when it loads the file.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any, NamedTuple, cast

import ijson

from tenxeval_tui.evaluation.dataset.eval_set import EvalCase, EvalSet
from tenxeval_tui.evaluation.simulators.scenario_sets import is_scenario_file, load_run_file


class ScannedCase(NamedTuple):
    """What a run's parent reads of a case (see the module)."""

    eval_id: str
    name: str
    tags: tuple[str, ...]


class _Unscannable(Exception):
    """The file is not what the scan reads: it is loaded whole."""


_SET_FIELDS = ("eval_set_id", "name")
_NO_TAGS: tuple[str, ...] = ()


def scan_run_file(path: Path) -> EvalSet:
    """The eval set of ``path`` with :class:`ScannedCase` cases (see the module); a scenario
    file, or one the scan does not understand, loaded whole. Raises what
    :meth:`EvalSet.from_file` raises for a file that does not load."""
    if is_scenario_file(path):  # a few scenarios; the parent checks their simulated user
        return load_run_file(path)
    try:
        with path.open("rb") as handle:
            head = _set_fields(handle)
            handle.seek(0)
            cases = list(_scanned_cases(handle))
        missing = [name for name in _SET_FIELDS if name not in head]
        if missing:  # after the cases (a hand-written file): one more pass for each
            head.update(_later_fields(path, missing))
    except (_Unscannable, ijson.JSONError, UnicodeDecodeError):
        return load_run_file(path)
    eval_set_id, name = head.get("eval_set_id"), head.get("name", "")
    if not cases or not isinstance(eval_set_id, str) or not isinstance(name, str):
        # no case (or no list of them), no id (the model makes one), a wrong type: whole
        return load_run_file(path)
    return EvalSet.model_construct(
        eval_set_id=eval_set_id,
        name=name,
        description="",
        metadata={},
        eval_cases=cast(list[EvalCase], cases),
    )


def scan_run_files(paths: Sequence[Path]) -> list[tuple[Path, EvalSet]]:
    """Each file with its scanned eval set, in order (see :func:`scan_run_file`)."""
    return [(path, scan_run_file(path)) for path in paths]


def _set_fields(handle: Any) -> dict[str, object]:
    """The eval set's own scalar fields written before its cases (pydantic's order and
    10xGraph's: ``eval_set_id``, ``name``, ``description``, then ``eval_cases``)."""
    found: dict[str, object] = {}
    events = ijson.parse(handle, use_float=True)
    prefix, event, value = next(events)
    if event != "start_map":
        raise _Unscannable
    for prefix, event, value in events:
        if prefix == "" and event == "map_key" and value == "eval_cases":
            return found
        if prefix in _SET_FIELDS and event in ("string", "number", "null", "boolean"):
            found[prefix] = value
    return found


def _later_fields(path: Path, names: Sequence[str]) -> dict[str, object]:
    """The eval set's fields ``names`` wherever they are in the file."""
    found: dict[str, object] = {}
    for name in names:
        with path.open("rb") as handle:
            for value in ijson.items(handle, name, use_float=True):
                found[name] = value
    return found


def _scanned_cases(handle: Any) -> Iterator[ScannedCase]:
    """Each case of the file, scanned, in file order; :class:`_Unscannable` at the first
    case it cannot read exactly as the model would (or a repeated id)."""
    seen: set[str] = set()
    for case in ijson.items(handle, "eval_cases.item", use_float=True):
        if not isinstance(case, dict):
            raise _Unscannable
        eval_id, name, tags = case.get("eval_id"), case.get("name", ""), case.get("tags")
        if not isinstance(eval_id, str) or eval_id in seen or not isinstance(name, str):
            raise _Unscannable  # no id (the model makes one), a wrong type or a duplicate
        seen.add(eval_id)
        if tags is None:
            yield ScannedCase(eval_id, name, _NO_TAGS)
        elif isinstance(tags, list) and all(isinstance(tag, str) for tag in tags):
            yield ScannedCase(eval_id, name, tuple(tags))
        else:
            raise _Unscannable


__all__ = ["ScannedCase", "scan_run_file", "scan_run_files"]
