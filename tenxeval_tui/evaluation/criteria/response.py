"""Response criteria: the agent's final reply against the expected reply, or keywords.

The reply scored is ``ExecutionResult.actual_response`` (the last turn's final
reply); the expected reply is ``EvalCase.get_final_expected_response()`` (the
last turn that has one).

No expectation: when no turn of the case has an expected reply, the
reply-comparing criteria score 1.0 and say ``"no expectation"`` in
``details["note"]`` (so a tool-only case is not failed by a response
criterion the whole set shares). 10xGraph 0.10.3 instead scores 0.5 when the
agent said anything, which fails cases that never asked for a reply.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections import Counter
from typing import Any

from tenxeval_tui.evaluation.config.criterion_config import CriterionConfig
from tenxeval_tui.evaluation.criteria.base import SyncCriterion, register_criterion
from tenxeval_tui.evaluation.criteria.porter import porter_stem
from tenxeval_tui.evaluation.dataset.eval_set import EvalCase
from tenxeval_tui.evaluation.eval_result import CriterionResult
from tenxeval_tui.evaluation.execution.result import ExecutionResult

NO_EXPECTATION = "no expectation: the case has no expected response"
_EXCERPT = 500

_NOT_ALPHANUMERIC = re.compile(r"[^a-z0-9]+")
_stem = functools.lru_cache(maxsize=1 << 16)(porter_stem)
"""Stemming is most of ROUGE-1's cost and words repeat across replies; a stem depends on
its word alone, so remembering it changes no score."""


def rouge_tokens(text: str) -> list[str]:
    """``rouge_score``'s tokens with its stemmer (``tokenize.tokenize``): lower-cased,
    split on anything but ``[a-z0-9]``, words of more than three characters stemmed."""
    words = _NOT_ALPHANUMERIC.sub(" ", text.lower()).split()
    return [_stem(word) if len(word) > 3 else word for word in words]


def rouge1(candidate: str, reference: str) -> tuple[float, float, float]:
    """``(precision, recall, f-measure)`` of ROUGE-1 as Google ADK computes it.

    ``rouge_score``'s ``RougeScorer(["rouge1"], use_stemmer=True)`` (the same figures; a
    test compares them): lower-cased, split on anything but ``[a-z0-9]``, Porter-stemmed
    unigrams, counted with multiplicity. When neither text has a token (empty, or only
    punctuation), the library says 0; we say 1.0 when the stripped texts are equal (an
    empty reply was expected and given) and 0.0 otherwise.
    """
    expected, got = Counter(rouge_tokens(reference)), Counter(rouge_tokens(candidate))
    shared = sum(min(count, got[token]) for token, count in expected.items())
    precision = shared / max(got.total(), 1)
    recall = shared / max(expected.total(), 1)
    f1 = 2 * precision * recall / (precision + recall) if precision + recall > 0 else 0.0
    if f1 == 0.0 and candidate.strip() == reference.strip():
        return 1.0, 1.0, 1.0
    return precision, recall, f1


class _ExpectedReplyCriterion(SyncCriterion):
    """Shared "no expected reply" handling of the reply-comparing criteria."""

    def evaluate_sync(self, actual: ExecutionResult, expected: EvalCase) -> CriterionResult:
        reference = expected.get_final_expected_response()
        if reference is None:
            return self.result(1.0, details={"note": NO_EXPECTATION, "reason": NO_EXPECTATION})
        return self.compare(actual.actual_response, reference)

    def compare(self, reply: str, reference: str) -> CriterionResult:
        """Score ``reply`` against ``reference``."""
        raise NotImplementedError


@register_criterion
class RougeMatchCriterion(_ExpectedReplyCriterion):
    """``rouge_match``: ROUGE-1 F-measure of the reply against the expected reply.

    Score: :func:`rouge1`'s F-measure (the harmonic mean of unigram precision
    and recall after stemming; Google ADK's ``response_match_score``). An empty
    reply against a non-empty expectation scores 0.0. Text without ASCII
    letters or digits has no ROUGE tokens (as in ``rouge_score``), so such
    replies only score 1.0 when equal to the expectation. No expected reply:
    1.0, noted (see module doc). ``details`` holds precision, recall and both
    texts (first 500 characters).
    """

    name = "rouge_match"
    description = "ROUGE-1 F-measure against the expected response"

    def compare(self, reply: str, reference: str) -> CriterionResult:
        precision, recall, f1 = rouge1(reply, reference)
        return self.result(
            f1,
            details={
                "reason": f"ROUGE-1 F={f1:.3f} (precision {precision:.3f}, recall {recall:.3f})",
                "precision": precision,
                "recall": recall,
                "f1": f1,
                "actual_response": reply[:_EXCERPT],
                "expected_response": reference[:_EXCERPT],
            },
        )


@register_criterion
class ResponseMatchCriterion(RougeMatchCriterion):
    """``response_match_score``: the same ROUGE-1 F-measure as ``rouge_match``.

    Kept as its own name because 10xGraph configs and Google ADK eval sets use
    it (default threshold 0.8 through ``CriterionConfig.response_match``). For
    a judge model's opinion of semantic equivalence use
    ``final_response_match_v2``.
    """

    name = "response_match_score"
    description = "ROUGE-1 F-measure against the expected response"


@register_criterion
class ExactMatchCriterion(_ExpectedReplyCriterion):
    """``exact_match``: 1.0 when the reply equals the expected reply, else 0.0.

    Both are compared after stripping leading and trailing whitespace;
    case, inner whitespace and punctuation count. An expected empty reply is
    met by an empty (or all-whitespace) reply. No expected reply: 1.0, noted.
    """

    name = "exact_match"
    description = "Reply equals the expected response (surrounding whitespace ignored)"

    def compare(self, reply: str, reference: str) -> CriterionResult:
        is_match = reply.strip() == reference.strip()
        details: dict[str, Any] = {
            "reason": "reply equals the expected response"
            if is_match
            else "reply differs from the expected response",
            "match": is_match,
            "actual_response": reply[:_EXCERPT],
            "expected_response": reference[:_EXCERPT],
        }
        return self.result(1.0 if is_match else 0.0, details=details)


def _folded(text: str) -> str:
    """``text`` for keyword matching: one Unicode form (NFKC: "é" typed either way), case
    folded ("Straße" matches "STRASSE"), the outer blanks trimmed."""
    return unicodedata.normalize("NFKC", text).casefold().strip()


@register_criterion
class ContainsKeywordsCriterion(SyncCriterion):
    """``contains_keywords``: the share of ``config.keywords`` found in the reply.

    Score: keywords found divided by keywords configured; a keyword is found
    when it occurs as a substring of the reply, ignoring case (``casefold``), the
    Unicode form (NFKC) and blanks around the keyword.
    Duplicate keywords count once. An empty reply scores 0.0. The case's
    expected reply plays no part. Configuring no keyword (or an empty one) is
    an error at configuration time, not a silent 1.0.
    """

    name = "contains_keywords"
    description = "Share of the configured keywords present in the reply"

    def __init__(
        self,
        keywords: list[str] | CriterionConfig | None = None,
        config: CriterionConfig | None = None,
    ) -> None:
        """10xGraph's signature: ``keywords`` are used when ``config`` sets none.

        A :class:`CriterionConfig` given first is taken as the config (our own
        earlier signature, the one every other criterion has).
        """
        if isinstance(keywords, CriterionConfig):
            keywords, config = None, keywords
        if keywords and not (config and config.keywords):
            config = (config or CriterionConfig()).model_copy(update={"keywords": list(keywords)})
        super().__init__(config)

    def validate_config(self) -> list[str]:
        problems = super().validate_config()
        if not self.config.keywords:
            problems.append(
                f"{self.name}: set keywords, e.g. CriterionConfig.contains_keywords([...])"
            )
        elif any(not k.strip() for k in self.config.keywords):
            problems.append(f"{self.name}: keywords must not be empty strings")
        return problems

    @property
    def keywords(self) -> list[str]:
        """The configured keywords, trimmed, without duplicates (first spelling kept)."""
        seen: dict[str, str] = {}
        for keyword in self.config.keywords:
            seen.setdefault(_folded(keyword), keyword.strip())
        return list(seen.values())

    def evaluate_sync(self, actual: ExecutionResult, expected: EvalCase) -> CriterionResult:
        keywords = self.keywords
        if not keywords:
            return self.failure("no keywords configured")
        reply = _folded(actual.actual_response)
        found = [k for k in keywords if _folded(k) in reply]
        missing = [k for k in keywords if _folded(k) not in reply]
        return self.result(
            len(found) / len(keywords),
            details={
                "reason": f"missing {missing}" if missing else "every keyword found",
                "keywords": keywords,
                "found": found,
                "missing": missing,
            },
        )
