"""How far a judge agrees with people: Cohen's kappa, true-positive and true-negative rates.

Pure functions over a :class:`Confusion` of pass/fail pairs, the first of each pair the
judge's verdict (or one reviewer's label), the second the human label (or the other
reviewer's). No scipy or scikit-learn: every figure is a ratio of four counts, and the
bootstrap draws its resamples as multinomial counts (``random.binomialvariate``), so
10,000 pairs cost what 10 do.

- **Raw agreement**: the share of pairs whose two verdicts are the same.
- **Cohen's kappa** (Cohen, 1960): ``(p_o - p_e) / (1 - p_e)``, with ``p_o`` the raw
  agreement and ``p_e`` the agreement expected by chance from each side's own pass
  rate: ``p_judge * p_human + (1 - p_judge) * (1 - p_human)``. 1 is perfect agreement,
  0 is what two raters agreeing only by chance get, below 0 is worse than chance.
- **Undefined kappa**: when ``p_e`` is 1, both sides gave one and the same class to
  every pair (all pass, or all fail); kappa is then 0/0 and :func:`cohen_kappa` returns
  ``None``. Such pairs say nothing of whether the judge can tell a pass from a fail, so a
  front end never counts an undefined kappa as meeting a bar. With no pairs it is
  ``None`` too.
- **True-positive rate**: of the pairs the human passed, the share the judge passed;
  **true-negative rate**: of those the human failed, the share the judge failed
  (``None`` when the human gave no pass, or no fail).
- **Interval**: a percentile bootstrap of kappa (2,000 resamples of the pairs, seeded,
  so the same pairs always give the same interval); resamples whose kappa is undefined
  (they drew one class only) are left out.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

MEANINGFUL_PAIRS = 10
"""Below this many pairs, a front end says the figures are not yet meaningful."""
BOOTSTRAP_ROUNDS = 2000
BOOTSTRAP_SEED = 0


@dataclass(frozen=True, slots=True)
class Confusion:
    """Counts of verdict pairs: the first word is the judge's verdict, the second the
    human's (``pass_fail``: the judge passed what the human failed)."""

    pass_pass: int = 0
    pass_fail: int = 0
    fail_pass: int = 0
    fail_fail: int = 0

    @classmethod
    def of_pairs(cls, pairs: Iterable[tuple[bool, bool]]) -> Confusion:
        """The counts of ``(judge passed, human passed)`` pairs."""
        counts = [0, 0, 0, 0]
        for judge, human in pairs:
            counts[(0 if judge else 2) + (0 if human else 1)] += 1
        return cls(*counts)

    @property
    def n(self) -> int:
        """How many pairs."""
        return self.pass_pass + self.pass_fail + self.fail_pass + self.fail_fail

    @property
    def agreement(self) -> float | None:
        """The share of pairs whose verdicts are the same (``None`` without pairs)."""
        return (self.pass_pass + self.fail_fail) / self.n if self.n else None

    @property
    def tpr(self) -> float | None:
        """Of the pairs the human passed, the share the judge passed."""
        human_passed = self.pass_pass + self.fail_pass
        return self.pass_pass / human_passed if human_passed else None

    @property
    def tnr(self) -> float | None:
        """Of the pairs the human failed, the share the judge failed."""
        human_failed = self.pass_fail + self.fail_fail
        return self.fail_fail / human_failed if human_failed else None

    def as_dict(self) -> dict[str, int]:
        """``{"pass_pass", "pass_fail", "fail_pass", "fail_fail"}`` (judge first)."""
        return {
            "pass_pass": self.pass_pass,
            "pass_fail": self.pass_fail,
            "fail_pass": self.fail_pass,
            "fail_fail": self.fail_fail,
        }


def cohen_kappa(confusion: Confusion) -> float | None:
    """Cohen's kappa of the pairs; ``None`` when undefined (no pairs, or both sides gave
    every pair the same one class). Computed on the counts, so it is exact up to the
    final division."""
    n = confusion.n
    judge_passed = confusion.pass_pass + confusion.pass_fail
    human_passed = confusion.pass_pass + confusion.fail_pass
    # n^2 * p_e and n^2 * p_o, in whole numbers
    chance = judge_passed * human_passed + (n - judge_passed) * (n - human_passed)
    observed = n * (confusion.pass_pass + confusion.fail_fail)
    if n * n == chance:
        return None
    return (observed - chance) / (n * n - chance)


def _resample(confusion: Confusion, rng: random.Random) -> Confusion:
    """``n`` pairs drawn with replacement from ``confusion``'s: a multinomial draw of the
    four counts, as a chain of binomial draws."""
    remaining = left = confusion.n  # pairs of the cells not drawn yet; draws still to make
    drawn: list[int] = []
    for count in (confusion.pass_pass, confusion.pass_fail, confusion.fail_pass):
        share = min(count / remaining, 1.0) if remaining else 0.0
        pick = rng.binomialvariate(left, share) if left and share > 0 else 0
        drawn.append(pick)
        left -= pick
        remaining -= count
    return Confusion(drawn[0], drawn[1], drawn[2], left)


def _percentile(ordered: list[float], fraction: float) -> float:
    """The ``fraction`` quantile of ``ordered`` (sorted), linearly interpolated."""
    position = fraction * (len(ordered) - 1)
    below = int(position)
    above = min(below + 1, len(ordered) - 1)
    return ordered[below] + (ordered[above] - ordered[below]) * (position - below)


def kappa_interval(
    confusion: Confusion,
    *,
    confidence: float = 0.95,
    rounds: int = BOOTSTRAP_ROUNDS,
    seed: int = BOOTSTRAP_SEED,
) -> tuple[float, float] | None:
    """A percentile bootstrap interval of kappa; ``None`` when kappa is undefined.

    ``rounds`` resamples of the pairs, drawn with ``random.Random(seed)``: the same pairs
    and seed give the same interval. Resamples with an undefined kappa are left out.
    """
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must be between 0 and 1, not {confidence}")
    if cohen_kappa(confusion) is None:
        return None
    rng = random.Random(seed)
    kappas = [
        k for k in (cohen_kappa(_resample(confusion, rng)) for _ in range(rounds)) if k is not None
    ]
    if not kappas:
        return None
    kappas.sort()
    tail = (1 - confidence) / 2
    return (_percentile(kappas, tail), _percentile(kappas, 1 - tail))


@dataclass(frozen=True, slots=True)
class AgreementFigures:
    """Every figure of one set of pairs (one criterion, or two reviewers)."""

    confusion: Confusion
    kappa: float | None
    kappa_low: float | None
    kappa_high: float | None

    @property
    def n(self) -> int:
        """How many pairs."""
        return self.confusion.n

    @property
    def agreement(self) -> float | None:
        """Raw agreement."""
        return self.confusion.agreement

    @property
    def tpr(self) -> float | None:
        """True-positive rate of the judge (first side) against the human (second)."""
        return self.confusion.tpr

    @property
    def tnr(self) -> float | None:
        """True-negative rate of the judge (first side) against the human (second)."""
        return self.confusion.tnr

    @property
    def meaningful(self) -> bool:
        """Whether there are enough pairs (:data:`MEANINGFUL_PAIRS`) to read much into."""
        return self.n >= MEANINGFUL_PAIRS

    def below(self, min_kappa: float) -> bool:
        """Whether kappa misses ``min_kappa`` (an undefined kappa always does)."""
        return self.kappa is None or self.kappa < min_kappa

    def as_json(self) -> dict[str, Any]:
        """``{"n", "agreement", "kappa", "kappa_low", "kappa_high", "tpr", "tnr",
        "confusion"}``; an undefined figure is ``None``."""
        return {
            "n": self.n,
            "agreement": self.agreement,
            "kappa": self.kappa,
            "kappa_low": self.kappa_low,
            "kappa_high": self.kappa_high,
            "tpr": self.tpr,
            "tnr": self.tnr,
            "confusion": self.confusion.as_dict(),
        }


def agreement_figures(
    confusion: Confusion, *, rounds: int = BOOTSTRAP_ROUNDS, seed: int = BOOTSTRAP_SEED
) -> AgreementFigures:
    """Kappa and its 95% bootstrap interval for ``confusion``."""
    interval = kappa_interval(confusion, rounds=rounds, seed=seed)
    low, high = interval if interval is not None else (None, None)
    return AgreementFigures(confusion, cohen_kappa(confusion), low, high)


__all__ = [
    "BOOTSTRAP_ROUNDS",
    "BOOTSTRAP_SEED",
    "MEANINGFUL_PAIRS",
    "AgreementFigures",
    "Confusion",
    "agreement_figures",
    "cohen_kappa",
    "kappa_interval",
]
