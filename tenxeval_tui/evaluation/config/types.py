"""Shared enumerations of the run configuration."""

from __future__ import annotations

from enum import StrEnum

# 10xGraph 0.10.3's default judge model name. Ours has no default model: a judged
# criterion without ``judge_model`` takes ``TENXEVAL_JUDGE_MODEL`` and fails when that
# is unset too, rather than calling a model nobody chose.
DEFAULT_JUDGE_MODEL = "gemini-2.5-flash"


class MatchType(StrEnum):
    """How an actual sequence (of tools or nodes) is compared with the expected one.

    ``EXACT``: the same items in the same order, nothing extra.
    ``IN_ORDER``: the expected items appear in order; extra items in between are allowed.
    ``ANY_ORDER``: every expected item appears, in any order; extras are allowed.
    """

    EXACT = "EXACT"
    IN_ORDER = "IN_ORDER"
    ANY_ORDER = "ANY_ORDER"

    @classmethod
    def _missing_(cls, value: object) -> MatchType | None:
        # Accept any spelling: "in_order", "in-order", "In Order"...
        if isinstance(value, str):
            key = value.strip().upper().replace("-", "_").replace(" ", "_")
            return cls.__members__.get(key)
        return None
