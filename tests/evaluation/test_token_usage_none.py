"""TokenUsage: a total of nothing and a sum with nothing make no new model (frozen, so the
usage itself serves); the counts are the same as before."""

from __future__ import annotations

import pytest

from tenxeval_tui.evaluation.token_usage import TokenUsage


def test_totals_and_sums_of_nothing_make_no_new_usage(monkeypatch: pytest.MonkeyPatch) -> None:
    some = TokenUsage(input_tokens=3, output_tokens=4, cache_read_tokens=1)
    zero = TokenUsage()
    made: list[object] = []
    real_init = TokenUsage.__init__

    def counted(self: TokenUsage, *args: int, **kwargs: object) -> None:
        made.append(kwargs)
        real_init(self, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(TokenUsage, "__init__", counted)
    nothing = TokenUsage.total([zero, TokenUsage.model_validate({})])
    assert nothing == zero and nothing.total_tokens == 0
    assert TokenUsage.total([]) is nothing
    assert some + zero is some and zero + some is some
    assert made == []
    assert (some + some).input_tokens == 6 and len(made) == 1
    assert TokenUsage.total([some, some]).cache_read_tokens == 2


def test_a_subclass_still_gets_its_own_type() -> None:
    class Counted(TokenUsage):
        pass

    assert type(Counted.total([])) is Counted
    assert type(Counted(input_tokens=1) + TokenUsage()) is TokenUsage
