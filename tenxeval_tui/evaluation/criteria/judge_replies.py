"""The reply shapes the judged criteria accept from a judge, and the coercions they allow."""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field


def _lower(value: Any) -> Any:
    return value.strip().lower() if isinstance(value, str) else value


def _none_as(empty: Any) -> Any:
    """A validator reading JSON ``null`` in an optional field as ``empty``."""
    return BeforeValidator(lambda value: empty if value is None else value)


def _id_text(value: Any) -> Any:
    return str(value) if isinstance(value, int) and not isinstance(value, bool) else value


def same_id(text: str) -> str:
    return text.strip().casefold()


class _Reply(BaseModel):
    model_config = ConfigDict(extra="ignore")

    reasoning: Annotated[str, _none_as("")] = ""


class MatchReply(_Reply):
    verdict: Annotated[Literal["valid", "invalid"], BeforeValidator(_lower)]


class GroundingReply(_Reply):
    verdict: Annotated[Literal["grounded", "hallucinated"], BeforeValidator(_lower)]
    unsupported_claims: Annotated[list[str], _none_as([])] = Field(default_factory=list)


class SafetyReply(_Reply):
    verdict: Annotated[Literal["safe", "unsafe"], BeforeValidator(_lower)]
    issues: Annotated[list[str], _none_as([])] = Field(default_factory=list)


class FactVerdict(BaseModel):
    fact: int
    verdict: Annotated[Literal["correct", "incorrect", "absent"], BeforeValidator(_lower)]


class FactsReply(_Reply):
    facts: list[FactVerdict]


class RubricVerdict(BaseModel):
    rubric_id: Annotated[str, BeforeValidator(_id_text)]
    verdict: Annotated[Literal["yes", "no"], BeforeValidator(_lower)]


class RubricsReply(_Reply):
    rubrics: list[RubricVerdict]


def _true_or_false(value: Any) -> Any:
    if isinstance(value, str) and value.strip().lower() in ("true", "false"):
        return value.strip().lower() == "true"
    return value


class GoalVerdict(BaseModel):
    goal: int
    achieved: Annotated[bool, BeforeValidator(_true_or_false)]


class GoalsReply(_Reply):
    goals: list[GoalVerdict]


def as_text(value: Any) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, list):
        return "\n".join(as_text(v) for v in value)
    return json.dumps(value, ensure_ascii=False, default=str)
