"""Accepting the actual reply of several cases at once, through the editor's document model.

UI-free. The rule (:func:`only_reply_failed`): a case that failed without an error, and
whose every failing criterion compares the reply with the expected reply
(:data:`REPLY_CRITERIA`): its tool calls and node order passed, so the reply alone is
what is wrong, or what changed. Such cases get their run's reply as their expected reply
(each turn's ``expected_final_response``; nothing else of the case changes).

:func:`plan_accept_many` works out each case's change (one
:class:`~tenxeval_tui.authoring.accept_actual.AcceptPlan` each) and which cases cannot be
accepted and why; :func:`apply_accept_many` writes them all as one undo step of the
document (``ReplaceCases``) and saves the file once (atomic; the other cases keep their
bytes).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from dataclasses import dataclass, field

from tenxeval_tui.authoring.accept_actual import AcceptPlan, plan_accept
from tenxeval_tui.authoring.document import EvalSetDocument
from tenxeval_tui.evaluation.actual import NotAcceptable
from tenxeval_tui.evaluation.eval_result import EvalCaseResult

REPLY_CRITERIA = frozenset(
    {"response_match_score", "rouge_match", "exact_match", "final_response_match_v2"}
)
"""The criteria that score the reply against the case's expected reply (which accepting
the reply changes). Criteria scoring the reply on its own (rubrics, safety, keywords from
the config) are not among them: accepting would not change their verdict."""

REPLY_ONLY = ("response",)
"""The part a bulk accept writes: the expected reply."""

PART_NAMES = {"response": "reply", "tools": "tool calls", "nodes": "node order"}
"""What each part of :data:`~tenxeval_tui.evaluation.actual.PARTS` is called in messages."""


def part_names(parts: Collection[str]) -> str:
    """``reply, tool calls and node order``: ``parts`` as a message names them."""
    names = [PART_NAMES.get(p, p) for p in parts]
    return " and ".join(names) if len(names) < 3 else ", ".join(names[:-1]) + " and " + names[-1]


def only_reply_failed(result: EvalCaseResult) -> bool:
    """Whether ``result`` failed (not errored) and only criteria in :data:`REPLY_CRITERIA`
    failed."""
    if result.passed or result.error is not None:
        return False
    failing = [c for c in result.criterion_results if not c.passed]
    return bool(failing) and all(c.criterion in REPLY_CRITERIA and c.error is None for c in failing)


@dataclass(frozen=True, slots=True)
class ManyPlan:
    """What accepting several runs writes, and the runs left out with why."""

    plans: list[AcceptPlan] = field(default_factory=list)
    skipped: list[tuple[str, str]] = field(default_factory=list)
    """``(eval_id, why)`` of each run that cannot be accepted, or changes nothing."""

    def summary(self) -> str:
        """One line per case: its expected reply before and after; then why others are
        left out."""
        lines = [f"{p.eval_id}: {_replies(p.before)} -> {_replies(p.after)}" for p in self.plans]
        lines += [f"{eval_id}: left out, {why}" for eval_id, why in self.skipped]
        return "\n".join(lines)

    def details(self) -> str:
        """The summary, then each case's diff."""
        return "\n\n".join([self.summary(), *(p.diff() for p in self.plans)])


def _replies(case: dict[str, object]) -> str:
    """The expected replies of a case's turns, quoted (``" | "`` between turns)."""
    turns = case.get("conversation")
    texts: list[str] = []
    for turn in turns if isinstance(turns, list) else []:
        reply = turn.get("expected_final_response") if isinstance(turn, dict) else None
        content = reply.get("content") if isinstance(reply, dict) else None
        texts.append(repr(content) if isinstance(content, str) else "(none)")
    return " | ".join(texts) or "(no turns)"


def plan_accept_many(
    document: EvalSetDocument,
    runs: Iterable[EvalCaseResult],
    parts: Collection[str] = REPLY_ONLY,
) -> ManyPlan:
    """What accepting each of ``runs`` (one run per case) into ``document`` writes."""
    plan = ManyPlan()
    seen: set[str] = set()
    for run in runs:
        if run.eval_id in seen:
            plan.skipped.append((run.eval_id, "the case is listed twice"))
            continue
        seen.add(run.eval_id)
        try:
            one = plan_accept(document, run, parts)
        except NotAcceptable as exc:
            plan.skipped.append((run.eval_id, str(exc)))
            continue
        if one.changes:
            plan.plans.append(one)
        else:
            plan.skipped.append((run.eval_id, f"it already expects this run's {part_names(parts)}"))
    return plan


def apply_accept_many(document: EvalSetDocument, plan: ManyPlan) -> list[str]:
    """Put every accepted case into ``document`` as one undo step and save the file
    atomically; the document's problems instead when it cannot be saved (nothing is
    written then, and the edit stays to undo)."""
    document.seal()
    document.replace_cases({p.uid: p.after for p in plan.plans})
    document.seal()
    return document.save()


__all__ = [
    "PART_NAMES",
    "REPLY_CRITERIA",
    "REPLY_ONLY",
    "ManyPlan",
    "apply_accept_many",
    "only_reply_failed",
    "part_names",
    "plan_accept_many",
]
