"""Which cases of an eval set run: one selection by eval id and by tag for every front end.

``tenxeval-tui run --case/--tags``, the workbench's run view, its watch mode and the
pytest helpers all select through :class:`CaseSelection`, so a case is chosen the same
way wherever it runs. A case is selected when it is one of the eval ids (none given:
any) **and** carries the tags: every one of them (``every_tag=True``, as
:meth:`EvalSet.filter_by_tags` and ``--tags`` do) or one of them (``every_tag=False``,
as the run view's ``#tag`` filter does).
"""

from __future__ import annotations

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


__all__ = ["CaseSelection", "SelectableCase"]
