"""How well each criterion's verdicts agree with the human labels of the same replies.

For every criterion with both a verdict and a label on the same reply (and for the whole
case, under the name ``case``: a ``"criterion": null`` label against the case's
pass/fail), the pairs ``(judge, human)`` give the figures of
:mod:`tenxeval_tui.evaluation.analysis.agreement`. A label matches a verdict by
``(eval_id, criterion, reply_sha256)``, whichever report the reviewer saw it in: a report
rescored with another judge (``rescore``) has the same replies, so the same labels
measure the new judge. Several reviewers' labels of one reply are one pair each; their
agreement with each other is measured per pair of reviewers on the replies both
labelled. An errored case or criterion gives no verdict and no pair. No UI.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tenxeval_tui.browsing.labels import CASE, Label, LabelIndex
from tenxeval_tui.browsing.verdicts import CaseVerdicts, ReportVerdicts
from tenxeval_tui.evaluation.analysis.agreement import (
    BOOTSTRAP_SEED,
    AgreementFigures,
    Confusion,
    agreement_figures,
)


@dataclass(frozen=True, slots=True)
class JudgedPair:
    """A verdict and a human label of the same reply."""

    report: Path
    case: CaseVerdicts
    criterion: str | None
    """``None``: the whole case."""
    judge: bool
    label: Label

    @property
    def name(self) -> str:
        """The criterion, or ``case``."""
        return self.criterion if self.criterion is not None else CASE

    @property
    def agrees(self) -> bool:
        """Whether the judge and the human said the same."""
        return self.judge == self.label.passed

    @property
    def reason(self) -> str:
        """The judge's reason for its verdict ("" for a whole-case verdict)."""
        found = self.case.criterion(self.criterion) if self.criterion is not None else None
        return found.reason if found is not None else ""


@dataclass(frozen=True, slots=True)
class ReviewerAgreement:
    """Two reviewers' labels of the replies both labelled, for one criterion."""

    criterion: str
    first: str
    second: str
    figures: AgreementFigures

    def as_json(self) -> dict[str, Any]:
        """The figures, with ``a`` and ``b`` the reviewers (``a``'s label first)."""
        return {"a": self.first, "b": self.second, **self.figures.as_json()}


@dataclass
class AgreementTable:
    """Every criterion's agreement, its pairs, and the reviewers' with each other."""

    criteria: dict[str, AgreementFigures] = field(default_factory=dict)
    pairs: dict[str, list[JudgedPair]] = field(default_factory=dict)
    reviewers: dict[str, list[ReviewerAgreement]] = field(default_factory=dict)

    def disagreements(self, name: str) -> list[JudgedPair]:
        """The pairs of criterion ``name`` (or ``case``) where judge and human differ."""
        return [pair for pair in self.pairs.get(name, []) if not pair.agrees]

    def below(self, min_kappa: float) -> list[str]:
        """The criteria whose kappa misses ``min_kappa`` (undefined counts as missing)."""
        return [name for name, figures in self.criteria.items() if figures.below(min_kappa)]

    def as_json(self) -> dict[str, Any]:
        """``{"criteria": {NAME: {"n", "agreement", "kappa", "kappa_low", "kappa_high",
        "tpr", "tnr", "confusion": {...}}}, "reviewers": {NAME: [{"a", "b", ...}]}}``."""
        return {
            "criteria": {name: figures.as_json() for name, figures in self.criteria.items()},
            "reviewers": {
                name: [item.as_json() for item in items] for name, items in self.reviewers.items()
            },
        }


def _verdict_keys(case: CaseVerdicts) -> list[str | None]:
    return [None, *(criterion.name for criterion in case.criteria)]


def judged_pairs(report: ReportVerdicts, labels: LabelIndex) -> Iterator[JudgedPair]:
    """Every (verdict, label) pair of the same reply in ``report``."""
    for case in report.cases:
        for criterion in _verdict_keys(case):
            judge = case.verdict(criterion)
            if judge is None:
                continue
            for label in labels.on_reply(case.eval_id, criterion, case.reply_sha256).values():
                yield JudgedPair(report.path, case, criterion, judge, label)


def _reviewer_pairs(
    sources: Sequence[tuple[ReportVerdicts, LabelIndex]],
) -> dict[tuple[str, str, str], list[tuple[bool, bool]]]:
    """``(criterion, reviewer a, reviewer b)`` -> their label pairs, each reply once."""
    seen: set[tuple[str, str | None, str]] = set()
    found: dict[tuple[str, str, str], list[tuple[bool, bool]]] = {}
    for report, labels in sources:
        for case in report.cases:
            for criterion in _verdict_keys(case):
                key = (case.eval_id, criterion, case.reply_sha256)
                if key in seen:
                    continue
                seen.add(key)
                on_reply = labels.on_reply(*key)
                for a, b in itertools.combinations(sorted(on_reply), 2):
                    name = criterion if criterion is not None else CASE
                    found.setdefault((name, a, b), []).append(
                        (on_reply[a].passed, on_reply[b].passed)
                    )
    return found


def _order(names: set[str], reports: Sequence[ReportVerdicts]) -> list[str]:
    """The criteria in the reports' order, ``case`` last."""
    ordered = [c for report in reports for c in report.criteria if c in names]
    ordered = list(dict.fromkeys(ordered))
    return [*ordered, CASE] if CASE in names else ordered


def agreement_table(
    sources: Sequence[tuple[ReportVerdicts, LabelIndex]], *, seed: int = BOOTSTRAP_SEED
) -> AgreementTable:
    """The agreement of every criterion over ``sources`` (each report with the labels of
    its eval set), with seeded bootstrap intervals."""
    table = AgreementTable()
    pairs: dict[str, list[JudgedPair]] = {}
    for report, labels in sources:
        for pair in judged_pairs(report, labels):
            pairs.setdefault(pair.name, []).append(pair)
    reports = [report for report, _ in sources]
    for name in _order(set(pairs), reports):
        table.pairs[name] = pairs[name]
        confusion = Confusion.of_pairs((p.judge, p.label.passed) for p in pairs[name])
        table.criteria[name] = agreement_figures(confusion, seed=seed)
    by_reviewers = _reviewer_pairs(sources)
    for name in _order({key[0] for key in by_reviewers}, reports):
        table.reviewers[name] = [
            ReviewerAgreement(name, a, b, agreement_figures(Confusion.of_pairs(found), seed=seed))
            for (criterion, a, b), found in by_reviewers.items()
            if criterion == name
        ]
    return table


__all__ = [
    "AgreementTable",
    "JudgedPair",
    "ReviewerAgreement",
    "agreement_table",
    "judged_pairs",
]
