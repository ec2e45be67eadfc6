"""Which cases of an eval set run: one selection by eval id and by tag for every front end.

``tenxeval-tui run --case/--tags``, the workbench's run view, its watch mode and the
pytest helpers all select through :class:`CaseSelection`, so a case is chosen the same
way wherever it runs. A case is selected when it is one of the eval ids (none given:
any) **and** carries the tags: every one of them (``every_tag=True``, as
:meth:`EvalSet.filter_by_tags` and ``--tags`` do) or one of them (``every_tag=False``,
as the run view's ``#tag`` filter does).

:class:`Shard` splits what was selected into N stable parts (``run --shard K/N``): a
case's part depends only on its eval set id and eval id, so N CI jobs that each run one
part run every case exactly once, whatever machine or order they run in.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from typing import Protocol, TypeVar

from pydantic import BaseModel, ConfigDict, Field


class SelectableCase(Protocol):
    """What selecting reads of a case (an :class:`EvalCase` has both)."""

    @property
    def eval_id(self) -> str: ...

    @property
    def tags(self) -> Sequence[str]: ...


CaseT = TypeVar("CaseT", bound=SelectableCase)


class CaseSelection(BaseModel):
    """A filter over cases by eval id and tag; the empty selection selects every case."""

    model_config = ConfigDict(frozen=True)

    eval_ids: tuple[str, ...] | None = Field(
        default=None, description="Only these eval ids (None: any id)."
    )
    tags: tuple[str, ...] = Field(default=(), description="Tags a case must carry (none: any).")
    every_tag: bool = Field(
        default=True, description="A case needs every tag (True) or one of them (False)."
    )

    def selects(self, case: SelectableCase) -> bool:
        """Whether ``case`` is selected."""
        if self.eval_ids is not None and case.eval_id not in self.eval_ids:
            return False
        if not self.tags:
            return True
        carried = set(case.tags)
        if self.every_tag:
            return all(tag in carried for tag in self.tags)
        return any(tag in carried for tag in self.tags)

    def cases(self, cases: Iterable[CaseT]) -> list[CaseT]:
        """The selected ``cases``, in their order."""
        return [case for case in cases if self.selects(case)]

    def narrowed(self, eval_ids: Iterable[str] | None) -> CaseSelection:
        """This selection further limited to ``eval_ids`` (``None``: unchanged)."""
        if eval_ids is None:
            return self
        wanted = tuple(eval_ids)
        if self.eval_ids is not None:
            wanted = tuple(i for i in wanted if i in self.eval_ids)
        return self.model_copy(update={"eval_ids": wanted})

    def unknown_ids(self, cases: Iterable[SelectableCase]) -> list[str]:
        """The selection's eval ids that none of ``cases`` has, sorted."""
        if self.eval_ids is None:
            return []
        return sorted(set(self.eval_ids) - {case.eval_id for case in cases})

    @property
    def filters(self) -> bool:
        """Whether this selection leaves any case out (it names ids or tags)."""
        return self.eval_ids is not None or bool(self.tags)


class Shard(BaseModel):
    """Part ``index`` (1-based) of ``count`` stable parts of a run's cases.

    A case belongs to the part given by a SHA-256 hash of its eval set id and eval id
    (never Python's salted ``hash``), so every process and machine agrees, and the parts
    are disjoint and cover every case.
    """

    model_config = ConfigDict(frozen=True)

    index: int = Field(ge=1, description="Which part, from 1 to count.")
    count: int = Field(ge=1, description="How many parts the cases are split into.")

    @classmethod
    def parse(cls, text: str) -> Shard:
        """``"K/N"`` as a shard; ``ValueError`` saying what is wrong otherwise."""
        head, slash, tail = text.strip().partition("/")
        if not slash or not head.strip().isdigit() or not tail.strip().isdigit():
            raise ValueError(f"{text!r} is not K/N (e.g. 2/4: the second of four parts)")
        index, count = int(head), int(tail)
        if count < 1 or not 1 <= index <= count:
            raise ValueError(f"{text!r}: K must be from 1 to N, and N at least 1")
        return cls(index=index, count=count)

    def __str__(self) -> str:
        return f"{self.index}/{self.count}"

    def part_of(self, eval_set_id: str, eval_id: str) -> int:
        """The part (1-based) the case ``eval_id`` of eval set ``eval_set_id`` belongs to."""
        digest = hashlib.sha256(f"{eval_set_id}\0{eval_id}".encode()).digest()
        return int.from_bytes(digest[:8], "big") % self.count + 1

    def selects(self, eval_set_id: str, eval_id: str) -> bool:
        """Whether the case belongs to this part."""
        return self.part_of(eval_set_id, eval_id) == self.index

    def cases(self, eval_set_id: str, cases: Iterable[CaseT]) -> list[CaseT]:
        """The ``cases`` of eval set ``eval_set_id`` in this part, in their order."""
        return [case for case in cases if self.selects(eval_set_id, case.eval_id)]


__all__ = ["CaseSelection", "SelectableCase", "Shard"]
