"""Where a report's cases come from: their eval set file in the workspace, and what it
expects that the report did not record (no UI import)."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TypeVar

from tenxeval_tui.evaluation.dataset.eval_set import EvalSet
from tenxeval_tui.evaluation.errors import EvalFileError
from tenxeval_tui.evaluation.files.stamp import FileStamp, file_stamp
from tenxeval_tui.settings.workspace import SCENARIO_SUFFIX, find_eval_set_file, set_ids_of

NodeOrderFound = tuple[list[str], Path]
"""A case's expected node order and the eval set file it was read from."""

_Read = TypeVar("_Read")


def _node_orders(path: Path) -> dict[str, list[str]] | None:
    """Each case's expected node order in the eval set file ``path`` (the first case of an
    id held twice, as :meth:`EvalSet.get_case` finds it); ``None`` when it does not load."""
    try:
        eval_set = EvalSet.from_file(path)
    except (EvalFileError, OSError):
        return None
    orders: dict[str, list[str]] = {}
    for case in eval_set.eval_cases:
        orders.setdefault(case.eval_id, case.get_expected_node_order())
    return orders


class FileNodeOrders:
    """What the eval set files expect as their cases' node orders, for a reader that asks
    at every case shown (a report's case view, at every cursor move): each file is read
    once per version (its modification time and size), not at every ask. Safe to ask from
    several threads."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._ids: dict[Path, tuple[FileStamp, frozenset[str] | None]] = {}
        self._orders: dict[Path, tuple[FileStamp, dict[str, list[str]] | None]] = {}
        self._last: dict[str, tuple[Path, dict[str, list[str]]]] = {}

    def find(self, files: Iterable[Path], eval_set_id: str, eval_id: str) -> NodeOrderFound | None:
        """What the eval set file of ``eval_set_id`` (the first of ``files`` with that id)
        expects as case ``eval_id``'s node order, and the file; ``None`` when no file, no
        such case, or no node order expected there. Reads only the files new or changed
        since the last ask (a stat of each of ``files``).

        A report records the expected node order only when a node-order criterion ran; the
        file says what the case expects all the same.
        """
        path = find_eval_set_file(files, eval_set_id, self._set_ids)
        if path is None or path.name.endswith(SCENARIO_SUFFIX):
            with self._lock:
                self._last.pop(eval_set_id, None)
            return None
        orders = self._read(self._orders, path, _node_orders)
        with self._lock:
            if orders is None:
                self._last.pop(eval_set_id, None)
            else:
                self._last[eval_set_id] = (path, orders)
        nodes = orders.get(eval_id) if orders is not None else None
        return (nodes, path) if nodes else None

    def known(self, eval_set_id: str, eval_id: str) -> NodeOrderFound | None:
        """What the last :meth:`find` for ``eval_set_id`` read of case ``eval_id``, with no
        file looked at (shown at once, while :meth:`find` checks the files in a thread)."""
        with self._lock:
            last = self._last.get(eval_set_id)
        if last is None:
            return None
        path, orders = last
        nodes = orders.get(eval_id)
        return (nodes, path) if nodes else None

    def _set_ids(self, path: Path) -> frozenset[str] | None:
        return self._read(self._ids, path, set_ids_of)

    def _read(
        self,
        cache: dict[Path, tuple[FileStamp, _Read]],
        path: Path,
        read: Callable[[Path], _Read],
    ) -> _Read | None:
        """``read(path)``, or what it gave for the same version of the file."""
        stamp = file_stamp(path)  # before the read: a change meanwhile reads again next time
        if stamp is None:
            return None
        with self._lock:
            held = cache.get(path)
        if held is not None and held[0] == stamp:
            return held[1]
        value = read(path)
        with self._lock:
            cache[path] = (stamp, value)
        return value


__all__ = ["FileNodeOrders", "NodeOrderFound", "find_eval_set_file"]
