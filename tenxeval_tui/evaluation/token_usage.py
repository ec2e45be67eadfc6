"""Token counts of model calls (the agent's and the judge's)."""

from __future__ import annotations

from collections.abc import Iterable

from pydantic import BaseModel, ConfigDict, computed_field


class TokenUsage(BaseModel):
    """Token counts of model calls; ``a + b`` adds field by field and ``sum()`` works."""

    model_config = ConfigDict(extra="ignore", frozen=True)

    input_tokens: int = 0
    output_tokens: int = 0
    cache_read_tokens: int = 0
    cache_creation_tokens: int = 0

    def __init__(
        self,
        input_tokens: int = 0,
        output_tokens: int = 0,
        cache_read_tokens: int = 0,
        cache_creation_tokens: int = 0,
        **extra: object,
    ) -> None:
        """Counts by keyword or, as 10xGraph's dataclass takes them, by position."""
        super().__init__(
            input_tokens=input_tokens,
            output_tokens=output_tokens,
            cache_read_tokens=cache_read_tokens,
            cache_creation_tokens=cache_creation_tokens,
            **extra,
        )

    # Validation (a report's or a journal's thousands of nested usages) need not go through
    # this __init__, which only adds positional arguments to pydantic's own: marked as
    # pydantic's, it is called for ``TokenUsage(...)`` only, and validating a report's
    # usages stays in pydantic's core (a tenth of the time of loading a report).
    __init__.__pydantic_base_init__ = True  # type: ignore[attr-defined]

    @computed_field  # type: ignore[prop-decorator]
    @property
    def total_tokens(self) -> int:
        """Input plus output tokens."""
        return self.input_tokens + self.output_tokens

    def __add__(self, other: TokenUsage) -> TokenUsage:
        if not isinstance(other, TokenUsage):
            return NotImplemented
        # Frozen: adding nothing gives the other side itself, not a copy (every case adds
        # its judges' usage, most often none, to its agent's).
        if not other and type(self) is TokenUsage:
            return self
        if not self and type(other) is TokenUsage:
            return other
        return TokenUsage(
            input_tokens=self.input_tokens + other.input_tokens,
            output_tokens=self.output_tokens + other.output_tokens,
            cache_read_tokens=self.cache_read_tokens + other.cache_read_tokens,
            cache_creation_tokens=self.cache_creation_tokens + other.cache_creation_tokens,
        )

    @classmethod
    def total(cls, usages: Iterable[TokenUsage]) -> TokenUsage:
        """The sum of ``usages``, made once (``sum()`` makes a new object per term)."""
        inp = out = read = creation = 0
        for usage in usages:
            inp += usage.input_tokens
            out += usage.output_tokens
            read += usage.cache_read_tokens
            creation += usage.cache_creation_tokens
        if cls is TokenUsage and not (inp or out or read or creation):
            return _NONE  # frozen: one for every total of nothing (most cases' judges)
        return cls(
            input_tokens=inp,
            output_tokens=out,
            cache_read_tokens=read,
            cache_creation_tokens=creation,
        )

    def __radd__(self, other: object) -> TokenUsage:
        if other == 0:
            return self
        return NotImplemented

    def __bool__(self) -> bool:
        return bool(
            self.input_tokens
            or self.output_tokens
            or self.cache_read_tokens
            or self.cache_creation_tokens
        )

    def to_dict(self) -> dict[str, int]:
        """The counts as a plain dict (with ``total_tokens``)."""
        return self.model_dump()


_NONE = TokenUsage()
"""No tokens: what :meth:`TokenUsage.total` gives for usages that add up to nothing."""
