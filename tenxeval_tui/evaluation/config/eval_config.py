"""Evaluation settings: which criteria run, their thresholds, and how reports are written.

The shapes follow 10xGraph's (``EvalConfig.criteria`` is a :class:`CriteriaConfig`
with one optional :class:`CriterionConfig` per criterion), so a 10xGraph config
file loads here. ``criteria`` may also be given as a mapping keyed by criterion
names such as ``"tool_trajectory_avg_score"``.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from tenxeval_tui.evaluation import _wiring
from tenxeval_tui.evaluation.config.criterion_config import CriterionConfig, Rubric
from tenxeval_tui.evaluation.config.prices import ModelPrice
from tenxeval_tui.evaluation.config.reporter_config import ReporterConfig, UserSimulatorConfig
from tenxeval_tui.evaluation.config.types import DEFAULT_JUDGE_MODEL, MatchType
from tenxeval_tui.evaluation.files.fileio import atomic_write_text, read_json_model
from tenxeval_tui.evaluation.schema_ref import schema_ref_field, with_schema_ref

__all__ = [
    "DEFAULT_JUDGE_MODEL",
    "CriteriaConfig",
    "CriterionConfig",
    "EvalConfig",
    "MatchType",
    "ModelPrice",
    "ReporterConfig",
    "Rubric",
    "UserSimulatorConfig",
    "with_repeats",
]


# CriteriaConfig field -> the criterion's reported ``name``.
CRITERION_NAMES: dict[str, str] = {
    "trajectory": "tool_trajectory_avg_score",
    "tool_name_match": "tool_name_match_score",
    "node_order": "node_order_score",
    "response_match": "response_match_score",
    "rouge_match": "rouge_match",
    "exact_match": "exact_match",
    "contains_keywords": "contains_keywords",
    "llm_judge": "final_response_match_v2",
    "rubric_based": "rubric_based_final_response_quality_v1",
    "factual_accuracy": "factual_accuracy_v1",
    "hallucination": "hallucinations_v1",
    "safety": "safety_v1",
    "simulation_goals": "simulation_goals",
    "trajectory_judge": "trajectory_judge_v1",
}
# Other spellings accepted in configs (10xGraph's registry keys and legacy names).
_FIELD_ALIASES: dict[str, str] = {
    **{name: field for field, name in CRITERION_NAMES.items()},
    "tool_trajectory": "trajectory",
    "rubric_based_score": "rubric_based",
    "safety_score": "safety",
    "factual_accuracy_score": "factual_accuracy",
    "simulation_goals_match": "simulation_goals",
    "conversation_goals": "simulation_goals",
}


def criterion_field(name: str) -> str | None:
    """The :class:`CriteriaConfig` field for a criterion name or alias, or ``None``."""
    if name in CRITERION_NAMES:
        return name
    return _FIELD_ALIASES.get(name)


def criterion_keys() -> list[str]:
    """Every key ``criteria`` takes for a built-in criterion: its field, its name, and
    the other spellings 10xGraph and older configs use."""
    return sorted(set(CRITERION_NAMES) | set(_FIELD_ALIASES))


def _criterion_key(node: dict[str, Any], field: str) -> str | None:
    """The key of ``node`` that configures criterion field ``field`` (its name or an alias)."""
    return next((key for key in node if criterion_field(key) == field), None)


def _without_unset_judge(criterion: dict[str, Any]) -> dict[str, Any]:
    if criterion.get("judge_model", "") is None:
        return {k: v for k, v in criterion.items() if k != "judge_model"}
    return criterion


class CriteriaConfig(BaseModel):
    """Which criteria run; a ``None`` field is a criterion that does not run.

    ``custom`` holds settings for criteria registered by users, keyed by name.
    """

    model_config = ConfigDict(extra="forbid")

    trajectory: CriterionConfig | None = None
    tool_name_match: CriterionConfig | None = None
    node_order: CriterionConfig | None = None
    response_match: CriterionConfig | None = None
    rouge_match: CriterionConfig | None = None
    exact_match: CriterionConfig | None = None
    contains_keywords: CriterionConfig | None = None
    llm_judge: CriterionConfig | None = None
    rubric_based: CriterionConfig | None = None
    factual_accuracy: CriterionConfig | None = None
    hallucination: CriterionConfig | None = None
    safety: CriterionConfig | None = None
    # Judges the goals of a simulated conversation (criteria/simulation_goals.py).
    simulation_goals: CriterionConfig | None = None
    # Judges the whole transcript, reference-free (criteria/trajectory_judge.py; ours).
    trajectory_judge: CriterionConfig | None = None
    custom: dict[str, CriterionConfig] = Field(default_factory=dict)

    @model_validator(mode="before")
    @classmethod
    def _accept_criterion_names(cls, data: Any) -> Any:
        if not isinstance(data, dict):
            return data
        out: dict[str, Any] = {}
        custom = dict(data.get("custom") or {})
        for key, value in data.items():
            if key == "custom":
                continue
            field = criterion_field(key)
            if field is None:
                if value is None:  # not a criterion we know: refused (extra="forbid")
                    out[key] = value
                else:  # a user's criterion, checked against the registry when the run is built
                    custom[key] = value
            else:
                out[field] = value
        if custom:
            out["custom"] = custom
        return out

    def enabled_items(self) -> list[tuple[str, CriterionConfig]]:
        """``(criterion name, config)`` of every enabled criterion, built-ins first."""
        items = [
            (CRITERION_NAMES[field], cfg)
            for field in CRITERION_NAMES
            if (cfg := getattr(self, field)) is not None and cfg.enabled
        ]
        items.extend((name, cfg) for name, cfg in self.custom.items() if cfg.enabled)
        return items


def _empty(value: object) -> bool:
    return value is None or value == {}


PassRule = Literal["all"] | Annotated[float, Field(gt=0.0, le=1.0)]
"""When a case run several times passes: ``"all"`` its repeats pass, or a number in
(0, 1]: at least that share of them pass (``0.8``: 4 of 5)."""


class EvalConfig(BaseModel):
    """Everything an evaluation run needs besides the agent and the cases.

    ``parallel`` (``False`` by default, as in 10xGraph 0.10.3: an agent that is not safe
    to run concurrently is never run so by surprise) lets up to ``max_concurrency`` cases
    run at once; without it they run one at a time. ``timeout`` is per case, in seconds
    (per repeat).

    ``repeats`` runs each case that many times, each an independent run; an eval
    set's ``metadata["repeats"]`` and a case's ``metadata["repeats"]`` take
    precedence (the case's first). ``pass_rule`` decides when a repeated case
    passes (see :data:`PassRule`). Both are left out of the JSON at their
    defaults (1 and ``"all"``), so configs and reports of runs without repeats
    keep their shape (see :mod:`tenxeval_tui.evaluation.repeats`).

    Cost (ours; left out of the config's JSON while unset): ``prices`` maps model
    names to :class:`ModelPrice` (USD per million input, output and cached input
    tokens); ``agent_model`` names the entry that prices the agent's own tokens;
    ``max_cost`` (USD) stops the run before it would spend more: cases not started
    are not run, and the report is partial (see :mod:`tenxeval_tui.evaluation.cost`).

    ``schema_ref`` is the file's ``$schema`` key, written back by :meth:`to_file` and
    left out of every other dump (see :mod:`~tenxeval_tui.evaluation.schema_ref`).
    """

    model_config = ConfigDict(extra="ignore", validate_by_name=True)

    schema_ref: str | None = schema_ref_field()

    criteria: CriteriaConfig = Field(default_factory=CriteriaConfig)
    user_simulator_config: UserSimulatorConfig | None = None
    parallel: bool = False
    max_concurrency: int = Field(default=4, ge=1)
    timeout: float = Field(default=300.0, gt=0)
    verbose: bool = False
    reporter: ReporterConfig = Field(default_factory=ReporterConfig)
    prices: dict[str, ModelPrice] = Field(default_factory=dict, exclude_if=_empty)
    agent_model: str | None = Field(default=None, exclude_if=_empty)
    max_cost: float | None = Field(default=None, gt=0, exclude_if=_empty)
    repeats: int = Field(default=1, ge=1, le=10_000, exclude_if=lambda v: v == 1)
    pass_rule: PassRule = Field(default="all", exclude_if=lambda v: v == "all")

    @property
    def effective_concurrency(self) -> int:
        """How many cases may run at once."""
        return self.max_concurrency if self.parallel else 1

    @classmethod
    def default(cls) -> EvalConfig:
        """Exact tool trajectory (threshold 1.0) and ROUGE-1 response match (threshold 0.8)."""
        return cls(
            criteria=CriteriaConfig(
                trajectory=CriterionConfig.trajectory(threshold=1.0, match_type=MatchType.EXACT),
                response_match=CriterionConfig.response_match(threshold=0.8),
            )
        )

    @classmethod
    def strict(cls) -> EvalConfig:
        """Exact trajectory with arguments checked, response match at 0.9, and the
        judged ``final_response_match_v2`` at 0.9 over 5 samples (as 10xGraph's):
        it needs a judge model set up (``TENXEVAL_JUDGE_MODEL`` or ``judge_model``)."""
        return cls(
            criteria=CriteriaConfig(
                trajectory=CriterionConfig.trajectory(
                    threshold=1.0, match_type=MatchType.EXACT, check_args=True
                ),
                response_match=CriterionConfig.response_match(threshold=0.9),
                llm_judge=CriterionConfig.llm_judge(threshold=0.9, num_samples=5),
            )
        )

    @classmethod
    def relaxed(cls) -> EvalConfig:
        """In-order trajectory at 0.8, response match at 0.6."""
        return cls(
            criteria=CriteriaConfig(
                trajectory=CriterionConfig.trajectory(threshold=0.8, match_type=MatchType.IN_ORDER),
                response_match=CriterionConfig.response_match(threshold=0.6),
            )
        )

    @classmethod
    def from_file(cls, path: str | Path) -> EvalConfig:
        """Load a JSON config file (errors name file, line, column and field)."""
        return read_json_model(cls, Path(path), key_for=_criterion_key)

    def to_file(self, path: str | Path) -> None:
        """Write the config as JSON (atomically), in a shape 10xGraph also loads.

        Left out, as they are unset: criteria that do not run (``null``), ``custom``
        when empty, and a ``judge_model`` left to the environment. A config using
        only criteria 10xgraph 0.10.3 knows then loads there unchanged (it ignores
        our extra per-criterion settings such as ``judge_base_url``).
        """
        data = self.model_dump(mode="json")
        criteria = {
            key: _without_unset_judge(value)
            for key, value in data["criteria"].items()
            if value is not None and not (key == "custom" and not value)
        }
        if "custom" in criteria:
            criteria["custom"] = {k: _without_unset_judge(v) for k, v in criteria["custom"].items()}
        data["criteria"] = criteria
        data = with_schema_ref(data, self.schema_ref)
        atomic_write_text(Path(path), json.dumps(data, indent=2, ensure_ascii=False) + "\n")

    def get_criterion_config(self, name: str) -> CriterionConfig | None:
        """Settings of a criterion by field name or criterion name."""
        field = criterion_field(name)
        if field is None:
            return self.criteria.custom.get(name)
        value: CriterionConfig | None = getattr(self.criteria, field)
        return value

    def enable_criterion(self, name: str, config: CriterionConfig | None = None) -> None:
        """Turn a criterion on: a built-in by field or criterion name, or a registered one.

        A name that is neither raises ``ValueError`` naming it and the known names
        (register your criterion before enabling it).
        """
        field = criterion_field(name)
        if field is None:
            known = _wiring.criterion_names()
            if name not in known:
                names = ", ".join(sorted(set(known) | set(CRITERION_NAMES.values())))
                raise ValueError(f"unknown criterion {name!r}; known criteria: {names}")
            self.criteria.custom[name] = config or CriterionConfig()
        else:
            setattr(self.criteria, field, config or CriterionConfig())

    def disable_criterion(self, name: str) -> None:
        """Turn a criterion off (no effect when it is not configured)."""
        cfg = self.get_criterion_config(name)
        if cfg is not None:
            cfg.enabled = False

    def with_rubrics(self, rubrics: list[Rubric]) -> EvalConfig:
        """A copy with rubric-based judging over ``rubrics`` added."""
        new = copy.deepcopy(self)
        new.criteria.rubric_based = CriterionConfig.rubric_based(rubrics=rubrics)
        return new


def with_repeats(
    config: EvalConfig, repeats: int | None = None, pass_rule: PassRule | None = None
) -> EvalConfig:
    """A copy of ``config`` with ``repeats`` and ``pass_rule`` set (validated) where given."""
    changes: dict[str, Any] = {}
    if repeats is not None:
        changes["repeats"] = repeats
    if pass_rule is not None:
        changes["pass_rule"] = pass_rule
    if not changes:
        return config
    return EvalConfig.model_validate({**config.model_dump(), **changes})
