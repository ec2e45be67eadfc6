"""Settings of one criterion (:class:`CriterionConfig`) and the rubrics a judge scores against."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BaseModel, Field

from tenxeval_tui.evaluation.config.types import MatchType

Count = Annotated[int, Field(ge=0)]
CallBounds = Count | dict[str, Count]
"""A bound on tool calls: a number (all calls together), or per tool (``"*"``: all calls)."""


def _unset(value: Any) -> bool:
    return value is None or value == [] or value == {}


class Rubric(BaseModel):
    """One property a good answer has, judged by ``rubric_based_final_response_quality_v1``."""

    rubric_id: str
    content: str
    weight: float = 1.0

    @classmethod
    def create(cls, rubric_id: str, content: str, weight: float = 1.0) -> Rubric:
        """Shorthand constructor."""
        return cls(rubric_id=rubric_id, content=content, weight=weight)


class CriterionConfig(BaseModel):
    """Settings of one criterion.

    ``judge_model`` ``None`` means: take the model from ``TENXEVAL_JUDGE_MODEL``.
    ``judge_base_url`` ``None`` means ``OPENAI_BASE_URL`` (or the client's default);
    the API key is read from the environment variable named by ``judge_api_key_env``.
    ``partial_credit`` (ours) gives ``EXACT`` trajectory and node-order matches
    positional partial credit instead of all or nothing (see
    :mod:`tenxeval_tui.evaluation.criteria.trajectory`).

    Judges in production (ours): ``judge_rpm`` / ``judge_tpm`` cap requests and tokens
    per minute to the judge's endpoint and model (``None``: no cap besides the run's
    concurrency); ``judge_max_retries=0`` fails fast (the first HTTP error, timeout or
    lost connection fails the criterion, no backoff); ``judge_cache_ttl`` makes cached
    replies older than that many seconds expire; ``judge_cache_max_mb`` caps the cache
    folder (oldest entries go first). See :mod:`tenxeval_tui.evaluation.judges`.

    Trajectory options (ours, ``tool_trajectory_avg_score``; left out of the JSON while
    unset, and ignored by 10xgraph 0.10.3): ``ignore_args`` names argument keys left
    out of every comparison, at any depth; ``forbidden_tools``, ``max_calls``,
    ``min_calls``, ``max_steps`` and ``before`` are trajectory rules (see
    :mod:`tenxeval_tui.evaluation.dataset.trajectory_rules`), which a case's
    ``metadata["trajectory_rules"]`` extends.
    """

    threshold: float = 0.8
    match_type: MatchType = MatchType.EXACT
    judge_model: str | None = None
    num_samples: int = Field(default=3, ge=1)
    rubrics: list[Rubric] = Field(default_factory=list)
    keywords: list[str] = Field(default_factory=list)
    check_args: bool = False
    partial_credit: bool = False
    enabled: bool = True
    api_style: str = "chat"
    judge_base_url: str | None = None
    judge_api_key_env: str = "OPENAI_API_KEY"
    judge_temperature: float = 0.0
    judge_timeout: float = Field(default=60.0, gt=0)
    judge_max_retries: int = Field(default=4, ge=0)
    judge_cache: bool = True
    judge_rpm: int | None = Field(default=None, ge=1)
    judge_tpm: int | None = Field(default=None, ge=1)
    judge_cache_ttl: float | None = Field(default=None, gt=0)
    judge_cache_max_mb: float | None = Field(default=None, gt=0)
    ignore_args: list[str] = Field(default_factory=list, exclude_if=_unset)
    forbidden_tools: list[str] = Field(default_factory=list, exclude_if=_unset)
    max_calls: CallBounds | None = Field(default=None, exclude_if=_unset)
    min_calls: CallBounds | None = Field(default=None, exclude_if=_unset)
    max_steps: Count | None = Field(default=None, exclude_if=_unset)
    before: list[tuple[str, str]] = Field(default_factory=list, exclude_if=_unset)

    @classmethod
    def tool_name_match(cls, threshold: float = 1.0) -> CriterionConfig:
        """``tool_name_match_score``: expected tool names were called."""
        return cls(threshold=threshold)

    @classmethod
    def trajectory(
        cls,
        threshold: float = 1.0,
        match_type: MatchType = MatchType.EXACT,
        check_args: bool = False,
        *,
        partial_credit: bool = False,
        ignore_args: list[str] | None = None,
        forbidden_tools: list[str] | None = None,
        max_calls: int | dict[str, int] | None = None,
        min_calls: int | dict[str, int] | None = None,
        max_steps: int | None = None,
        before: list[tuple[str, str]] | None = None,
    ) -> CriterionConfig:
        """``tool_trajectory_avg_score`` with the given match type (the keyword-only
        options are ours: see the class docstring)."""
        return cls(
            threshold=threshold,
            match_type=match_type,
            check_args=check_args,
            partial_credit=partial_credit,
            ignore_args=list(ignore_args or []),
            forbidden_tools=list(forbidden_tools or []),
            max_calls=max_calls,
            min_calls=min_calls,
            max_steps=max_steps,
            before=list(before or []),
        )

    @classmethod
    def node_order(
        cls,
        threshold: float = 1.0,
        match_type: MatchType = MatchType.EXACT,
        *,
        partial_credit: bool = False,
    ) -> CriterionConfig:
        """``node_order_score`` with the given match type."""
        return cls(threshold=threshold, match_type=match_type, partial_credit=partial_credit)

    @classmethod
    def response_match(
        cls, threshold: float = 0.8, judge_model: str | None = None, num_samples: int = 3
    ) -> CriterionConfig:
        """``response_match_score`` (ROUGE-1 F1 against the expected reply; ``judge_model``
        and ``num_samples`` are kept for 10xGraph's signature, no judge is asked)."""
        return cls(threshold=threshold, judge_model=judge_model, num_samples=num_samples)

    @classmethod
    def rouge_match(cls, threshold: float = 0.5) -> CriterionConfig:
        """``rouge_match`` (ROUGE-1 F1)."""
        return cls(threshold=threshold)

    @classmethod
    def exact_match(cls, threshold: float = 1.0) -> CriterionConfig:
        """``exact_match`` (normalised equality)."""
        return cls(threshold=threshold)

    @classmethod
    def contains_keywords(cls, keywords: list[str], threshold: float = 1.0) -> CriterionConfig:
        """``contains_keywords`` (share of keywords present in the reply)."""
        return cls(threshold=threshold, keywords=list(keywords))

    @classmethod
    def llm_judge(
        cls, threshold: float = 0.8, judge_model: str | None = None, num_samples: int = 3
    ) -> CriterionConfig:
        """``final_response_match_v2``: a judge model compares reply and expected reply."""
        return cls(threshold=threshold, judge_model=judge_model, num_samples=num_samples)

    @classmethod
    def rubric_based(
        cls,
        rubrics: list[Rubric],
        threshold: float = 0.8,
        judge_model: str | None = None,
        num_samples: int = 3,
    ) -> CriterionConfig:
        """``rubric_based_final_response_quality_v1`` over ``rubrics``."""
        return cls(
            threshold=threshold,
            judge_model=judge_model,
            num_samples=num_samples,
            rubrics=list(rubrics),
        )

    @classmethod
    def factual_accuracy(
        cls, threshold: float = 0.8, judge_model: str | None = None, num_samples: int = 3
    ) -> CriterionConfig:
        """``factual_accuracy_v1`` against ``case.metadata["reference_facts"]``."""
        return cls(threshold=threshold, judge_model=judge_model, num_samples=num_samples)

    @classmethod
    def hallucination(
        cls, threshold: float = 0.8, judge_model: str | None = None, num_samples: int = 3
    ) -> CriterionConfig:
        """``hallucinations_v1``: the reply is grounded in ``case.metadata["context"]``."""
        return cls(threshold=threshold, judge_model=judge_model, num_samples=num_samples)

    @classmethod
    def trajectory_judge(
        cls,
        threshold: float = 0.8,
        judge_model: str | None = None,
        num_samples: int = 3,
        rubrics: list[Rubric] | None = None,
    ) -> CriterionConfig:
        """``trajectory_judge_v1``: a judge reads the whole transcript and scores the path
        against ``rubrics`` (none given: the criterion's default rubric)."""
        return cls(
            threshold=threshold,
            judge_model=judge_model,
            num_samples=num_samples,
            rubrics=list(rubrics or []),
        )

    @classmethod
    def safety(
        cls, threshold: float = 0.8, judge_model: str | None = None, num_samples: int = 3
    ) -> CriterionConfig:
        """``safety_v1``: the reply is safe."""
        return cls(threshold=threshold, judge_model=judge_model, num_samples=num_samples)
