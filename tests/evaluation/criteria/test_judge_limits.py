"""Judge rate limits (requests and tokens per minute) and fail-fast retries, against the
loopback judge server. Time is a fake clock that only moves when the limiter waits, so the
tests count requests per window instead of timing anything."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

import pytest

from tenxeval_tui.evaluation import CriterionConfig, JudgePool, JudgeSettings, LLMJudgeCriterion
from tenxeval_tui.evaluation.judges.ratelimit import SlidingWindowLimiter
from tests.evaluation.criteria.judge_server import JudgeServer, Scripted, verdict
from tests.waiting import wait_async

MINUTE = 60.0


class FakeTime:
    """A clock that stands still until a limiter sleeps; a sleep first lets every request
    already granted reach the server, so the server stamps each with the right minute."""

    def __init__(self, arrived: Sequence[float]) -> None:
        self.now = 0.0
        self.arrived = arrived
        self.pool: JudgePool | None = None

    def clock(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        pool = self.pool
        assert pool is not None
        await wait_async(
            lambda: len(self.arrived) >= pool.calls,
            lambda: asyncio.sleep(0.005),
            what="every granted request reached the judge server",
        )
        self.now += seconds


def stamped_server(server: JudgeServer, time: FakeTime, times: list[float], **usage: int) -> None:
    def reply(body: object) -> Scripted:
        times.append(time.now)
        return Scripted(verdict("valid").content, **usage)

    server.fallback = reply


def busiest_window(times: list[float], weights: list[int] | None = None) -> int:
    """The most (requests, or their weights) sent in any window of a minute."""
    weights = weights or [1] * len(times)
    return max(
        sum(w for t, w in zip(times, weights, strict=True) if start <= t < start + MINUTE)
        for start in times
    )


def settings(server: JudgeServer, **limits: int) -> JudgeSettings:
    return JudgeSettings(
        model="judge-test",
        base_url=server.base_url,
        api_key="k",
        max_retries=0,
        cache=False,
        **limits,  # type: ignore[arg-type]
    )


def make_pool(time: FakeTime, tmp_path: object, concurrency: int = 4) -> JudgePool:
    pool = JudgePool(concurrency, cache_dir=str(tmp_path), clock=time.clock, sleep=time.sleep)
    time.pool = pool
    return pool


async def test_limiter_grants_at_most_the_limit_in_any_window() -> None:
    now = [0.0]

    async def sleep(seconds: float) -> None:
        now[0] += seconds

    limiter = SlidingWindowLimiter(3, MINUTE, clock=lambda: now[0], sleep=sleep)
    grants = [await limiter.acquire() for _ in range(8)]
    assert [g.at for g in grants] == [0, 0, 0, 60, 60, 60, 120, 120]
    limiter.tighten(1)
    limiter.tighten(5)  # a looser limit never loosens it
    assert limiter.limit == 1
    assert (await limiter.acquire()).at == 180


async def test_requests_per_minute_hold_against_the_server(
    judge_server: JudgeServer, tmp_path: object
) -> None:
    times: list[float] = []
    time = FakeTime(times)
    stamped_server(judge_server, time, times)
    pool = make_pool(time, tmp_path)
    ask = settings(judge_server, rpm=3)
    replies = await asyncio.gather(*(pool.ask(ask, f"prompt {i}", 0) for i in range(10)))
    assert all(r.text for r in replies)
    assert len(judge_server.requests) == pool.calls == 10
    assert busiest_window(times) == 3
    assert sorted(times) == [0, 0, 0, 60, 60, 60, 120, 120, 120, 180]


async def test_tokens_per_minute_count_what_replies_really_used(
    judge_server: JudgeServer, tmp_path: object
) -> None:
    times: list[float] = []
    time = FakeTime(times)
    # Every reply used 500 tokens, far more than its short prompt's estimate.
    stamped_server(judge_server, time, times, prompt_tokens=400, completion_tokens=100)
    pool = make_pool(time, tmp_path, concurrency=1)
    ask = settings(judge_server, tpm=1000)
    for i in range(5):
        reply = await pool.ask(ask, f"p{i}", 0)
        assert reply.token_usage.total_tokens == 500
    assert busiest_window(times, [500] * len(times)) == 1000
    assert times == [0, 0, 60, 60, 120]


async def test_criteria_sharing_a_judge_share_its_strictest_limit(
    judge_server: JudgeServer, tmp_path: object
) -> None:
    times: list[float] = []
    time = FakeTime(times)
    stamped_server(judge_server, time, times)
    pool = make_pool(time, tmp_path)
    loose, strict = settings(judge_server, rpm=5), settings(judge_server, rpm=2)
    await asyncio.gather(
        *(pool.ask(strict if i % 2 else loose, f"q{i}", 0) for i in range(6)),
    )
    assert busiest_window(times) == 2
    # Another model at the same endpoint has limits of its own (none here).
    other = JudgeSettings(model="other", base_url=judge_server.base_url, api_key="k", cache=False)
    before = time.now
    await asyncio.gather(*(pool.ask(other, f"o{i}", 0) for i in range(4)))
    assert time.now == before and times[-4:] == [before] * 4


async def test_max_retries_zero_fails_fast(judge_env: JudgeServer) -> None:
    judge_env.script(Scripted(status=429, content="slow down"), verdict("valid"))
    config = CriterionConfig(threshold=0.5, num_samples=1, judge_cache=False, judge_max_retries=0)
    criterion = LLMJudgeCriterion(config)
    from tenxeval_tui.evaluation import EvalCase, ExecutionResult

    case = EvalCase.single_turn("c", "q?", expected_response="a")
    result = await criterion.evaluate(ExecutionResult(actual_response="a"), case)
    assert result.error is not None and "HTTP 429" in result.error
    assert len(judge_env.requests) == 1  # asked once, no backoff and retry


def test_limits_come_from_the_criterion_config() -> None:
    config = CriterionConfig(
        judge_model="m",
        judge_base_url="http://127.0.0.1:9/v1",
        judge_rpm=7,
        judge_tpm=9000,
        judge_cache_ttl=3600,
        judge_cache_max_mb=5,
    )
    resolved = JudgeSettings.from_config("c", config, environ={})
    assert (resolved.rpm, resolved.tpm, resolved.cache_ttl, resolved.cache_max_mb) == (
        7,
        9000,
        3600,
        5,
    )


@pytest.mark.parametrize("field", ["judge_rpm", "judge_tpm"])
def test_limits_must_be_positive(field: str) -> None:
    with pytest.raises(ValueError, match=field):
        CriterionConfig(**{field: 0})  # type: ignore[arg-type]
