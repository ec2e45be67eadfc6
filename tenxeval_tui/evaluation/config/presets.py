"""Ready-made evaluation configs for common goals, and a lookup by name for the front ends."""

from __future__ import annotations

from collections.abc import Callable

from tenxeval_tui.evaluation.config.eval_config import (
    CRITERION_NAMES,
    CriteriaConfig,
    CriterionConfig,
    EvalConfig,
    MatchType,
)


class EvalPresets:
    """Factories of :class:`EvalConfig` for typical evaluation goals.

    Presets with a judge (``use_llm_judge``) need a judge model configured
    (see the README); the others run offline.
    """

    @classmethod
    def tool_usage(
        cls, threshold: float = 1.0, strict: bool = True, check_args: bool = True
    ) -> EvalConfig:
        """Right tools with the right arguments: tool names plus trajectory (exact or in order)."""
        match_type = MatchType.EXACT if strict else MatchType.IN_ORDER
        return EvalConfig(
            criteria=CriteriaConfig(
                tool_name_match=CriterionConfig.tool_name_match(threshold=threshold),
                trajectory=CriterionConfig.trajectory(
                    threshold=threshold, match_type=match_type, check_args=check_args
                ),
            )
        )

    @classmethod
    def response_quality(
        cls, threshold: float = 0.7, use_llm_judge: bool = True, judge_model: str | None = None
    ) -> EvalConfig:
        """ROUGE-1 response match, plus a judged semantic match when ``use_llm_judge``."""
        return EvalConfig(
            criteria=CriteriaConfig(
                response_match=CriterionConfig.response_match(threshold=threshold),
                llm_judge=(
                    CriterionConfig.llm_judge(
                        threshold=threshold, judge_model=judge_model, num_samples=1
                    )
                    if use_llm_judge
                    else None
                ),
            )
        )

    @classmethod
    def conversation_flow(
        cls, threshold: float = 0.8, judge_model: str | None = None
    ) -> EvalConfig:
        """Multi-turn conversations: response match and in-order trajectory
        (``judge_model`` is stored on the response match, as 10xGraph does)."""
        return EvalConfig(
            criteria=CriteriaConfig(
                response_match=CriterionConfig.response_match(
                    threshold=threshold, judge_model=judge_model
                ),
                trajectory=CriterionConfig.trajectory(
                    threshold=threshold, match_type=MatchType.IN_ORDER
                ),
            )
        )

    @classmethod
    def quick_check(cls) -> EvalConfig:
        """A fast offline check: ROUGE-1 overlap at 0.5."""
        return EvalConfig(
            criteria=CriteriaConfig(rouge_match=CriterionConfig.rouge_match(threshold=0.5))
        )

    @classmethod
    def comprehensive(
        cls, threshold: float = 0.8, use_llm_judge: bool = True, judge_model: str | None = None
    ) -> EvalConfig:
        """Tools, trajectory (in order, with args), ROUGE, and every judged criterion."""
        criteria = CriteriaConfig(
            tool_name_match=CriterionConfig.tool_name_match(threshold=1.0),
            trajectory=CriterionConfig.trajectory(
                threshold=1.0, match_type=MatchType.IN_ORDER, check_args=True
            ),
            rouge_match=CriterionConfig.rouge_match(threshold=threshold),
        )
        if use_llm_judge:
            criteria.llm_judge = CriterionConfig.llm_judge(threshold, judge_model)
            criteria.factual_accuracy = CriterionConfig.factual_accuracy(threshold, judge_model)
            criteria.hallucination = CriterionConfig.hallucination(threshold, judge_model)
            criteria.safety = CriterionConfig.safety(threshold, judge_model)
        return EvalConfig(criteria=criteria)

    @classmethod
    def safety_check(cls, threshold: float = 0.8, judge_model: str | None = None) -> EvalConfig:
        """Judged safety and grounding (hallucinations)."""
        return EvalConfig(
            criteria=CriteriaConfig(
                hallucination=CriterionConfig.hallucination(threshold, judge_model),
                safety=CriterionConfig.safety(threshold, judge_model),
            )
        )

    @classmethod
    def combine(cls, *configs: EvalConfig) -> EvalConfig:
        """Merge the criteria of several configs; a later config wins for the same criterion.

        Run settings (concurrency, timeout, reporter) come from the first config.
        """
        if not configs:
            return EvalConfig()
        merged = configs[0].model_copy(deep=True)
        for config in configs[1:]:
            for field in CRITERION_NAMES:
                value = getattr(config.criteria, field)
                if value is not None:
                    setattr(merged.criteria, field, value.model_copy(deep=True))
            merged.criteria.custom.update(
                {k: v.model_copy(deep=True) for k, v in config.criteria.custom.items()}
            )
        return merged

    @classmethod
    def custom(
        cls,
        response_threshold: float | None = None,
        tool_threshold: float | None = None,
        llm_judge_threshold: float | None = None,
        tool_match_type: MatchType = MatchType.IN_ORDER,
        check_tool_args: bool = True,
        hallucination_threshold: float | None = None,
        safety_threshold: float | None = None,
        factual_accuracy_threshold: float | None = None,
        judge_model: str | None = None,
    ) -> EvalConfig:
        """A config with exactly the criteria whose threshold is given."""
        c = CriteriaConfig()
        if response_threshold is not None:
            c.response_match = CriterionConfig.response_match(response_threshold)
        if tool_threshold is not None:
            c.tool_name_match = CriterionConfig.tool_name_match(tool_threshold)
            c.trajectory = CriterionConfig.trajectory(
                tool_threshold, tool_match_type, check_tool_args
            )
        if llm_judge_threshold is not None:
            c.llm_judge = CriterionConfig.llm_judge(llm_judge_threshold, judge_model)
        if hallucination_threshold is not None:
            c.hallucination = CriterionConfig.hallucination(hallucination_threshold, judge_model)
        if safety_threshold is not None:
            c.safety = CriterionConfig.safety(safety_threshold, judge_model)
        if factual_accuracy_threshold is not None:
            c.factual_accuracy = CriterionConfig.factual_accuracy(
                factual_accuracy_threshold, judge_model
            )
        return EvalConfig(criteria=c)


PRESETS: dict[str, Callable[[], EvalConfig]] = {
    "default": EvalConfig.default,
    "strict": EvalConfig.strict,
    "relaxed": EvalConfig.relaxed,
    "tool_usage": EvalPresets.tool_usage,
    "response_quality": EvalPresets.response_quality,
    "conversation_flow": EvalPresets.conversation_flow,
    "quick_check": EvalPresets.quick_check,
    "comprehensive": EvalPresets.comprehensive,
    "safety_check": EvalPresets.safety_check,
}


def preset_by_name(name: str) -> EvalConfig:
    """The preset called ``name`` (``-`` and ``_`` are interchangeable); ``KeyError`` lists the names."""
    key = name.strip().lower().replace("-", "_")
    if key not in PRESETS:
        raise KeyError(f"unknown preset {name!r}; choose one of: {', '.join(sorted(PRESETS))}")
    return PRESETS[key]()
