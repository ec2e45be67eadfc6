"""The judges of one run: shared clients, a bound on calls in flight, rate limits, the cache.

See :mod:`tenxeval_tui.evaluation.judges.models` for the settings and the judges themselves.
"""

from __future__ import annotations

import asyncio
import logging
import time
from pathlib import Path

from tenxeval_tui.evaluation.judges.cache import JudgeCache, default_cache_dir
from tenxeval_tui.evaluation.judges.models import (
    JudgeFactory,
    JudgeModel,
    JudgeSettings,
    OpenAIJudge,
)
from tenxeval_tui.evaluation.judges.ratelimit import Clock, Sleep, SlidingWindowLimiter
from tenxeval_tui.evaluation.judges.reply import JudgeReply
from tenxeval_tui.evaluation.judges.usage import estimate_tokens

logger = logging.getLogger("tenxeval_tui.evaluation.judges")


class JudgePool:
    """The judges of one run: shared clients, a bound on calls in flight, the cache.

    ``max_concurrency`` bounds judge requests in flight across every judged
    criterion and case (``build_criteria`` sizes it from the run's
    ``EvalConfig.effective_concurrency``). ``factory`` makes the judge for a
    setting (default :class:`OpenAIJudge`); pass your own to use another
    client. ``calls`` counts requests made (cache hits excluded).

    Rate limits (``judge_rpm``, ``judge_tpm``) hold per endpoint and model: every
    criterion calling the same model at the same ``base_url`` shares them, and when
    criteria set different limits the strictest holds. ``clock`` and ``sleep`` are
    what the limits measure and wait with (tests pass their own).
    """

    def __init__(
        self,
        max_concurrency: int = 4,
        *,
        cache_dir: str | Path | None = None,
        factory: JudgeFactory | None = None,
        clock: Clock = time.monotonic,
        sleep: Sleep = asyncio.sleep,
    ) -> None:
        if max_concurrency < 1:
            raise ValueError("max_concurrency must be at least 1")
        self.max_concurrency = max_concurrency
        self.cache = JudgeCache(cache_dir if cache_dir is not None else default_cache_dir())
        self.calls = 0
        self._clock = clock
        self._sleep = sleep
        self._rpm: dict[tuple[str | None, str], SlidingWindowLimiter] = {}
        self._tpm: dict[tuple[str | None, str], SlidingWindowLimiter] = {}
        self._factory: JudgeFactory = factory or OpenAIJudge
        self._judges: dict[JudgeSettings, JudgeModel] = {}
        self._semaphore: asyncio.Semaphore | None = None
        self._semaphore_loop: asyncio.AbstractEventLoop | None = None

    def judge(self, settings: JudgeSettings) -> JudgeModel:
        """The (shared) judge for ``settings``."""
        if settings not in self._judges:
            self._judges[settings] = self._factory(settings)
        return self._judges[settings]

    def limit_to(self, max_concurrency: int) -> None:
        """Bound judge calls in flight by ``max_concurrency`` from the next call on.

        The evaluator calls this as a run starts with the run's own concurrency
        (``evaluate(max_concurrency=...)`` included); calls already in flight
        keep the bound they started under.
        """
        if max_concurrency < 1:
            raise ValueError("max_concurrency must be at least 1")
        if max_concurrency != self.max_concurrency:
            self.max_concurrency = max_concurrency
            self._semaphore = None

    def _limit(self) -> asyncio.Semaphore:
        loop = asyncio.get_running_loop()
        if self._semaphore is None or self._semaphore_loop is not loop:
            self._semaphore = asyncio.Semaphore(self.max_concurrency)
            self._semaphore_loop = loop
        return self._semaphore

    @staticmethod
    def _cache_key(settings: JudgeSettings, prompt: str, sample: int) -> str:
        return JudgeCache.key(
            settings.model, prompt, sample, settings.temperature, settings.base_url
        )

    async def ask(
        self, settings: JudgeSettings, prompt: str, sample: int, *, fresh: bool = False
    ) -> JudgeReply:
        """Sample ``sample`` of ``prompt``: from the cache when allowed and present, else asked.

        ``fresh`` asks the judge even when the cache has a reply.
        """
        if settings.cache and not fresh:
            hit = self.cache.get(self._cache_key(settings, prompt, sample), ttl=settings.cache_ttl)
            if hit is not None:
                return hit
        async with self._limit():
            # Inside the concurrency bound, right before the request: a call counts
            # against the rate limits when it is sent, not while it queues.
            rpm, tpm = self._rate_limits(settings)
            if rpm is not None:
                await rpm.acquire(1)
            tokens = await tpm.acquire(estimate_tokens(prompt)) if tpm is not None else None
            self.calls += 1
            reply = await self.judge(settings).complete(prompt, sample=sample)
            if tokens is not None:
                tokens.settle(reply.token_usage.total_tokens or tokens.amount)
            return reply

    def _rate_limits(
        self, settings: JudgeSettings
    ) -> tuple[SlidingWindowLimiter | None, SlidingWindowLimiter | None]:
        """The requests- and tokens-per-minute limiters of ``settings``' endpoint, if any."""
        found = []
        for limit, limiters in ((settings.rpm, self._rpm), (settings.tpm, self._tpm)):
            if limit is None:
                found.append(limiters.get(settings.endpoint))
                continue
            limiter = limiters.get(settings.endpoint)
            if limiter is None:
                limiter = SlidingWindowLimiter(limit, 60.0, clock=self._clock, sleep=self._sleep)
                limiters[settings.endpoint] = limiter
            limiter.tighten(limit)
            found.append(limiter)
        return found[0], found[1]

    async def aclose(self) -> None:
        """Close every judge's HTTP client now (they also close with their event loop)."""
        for judge in self._judges.values():
            closer = getattr(judge, "aclose", None)
            if closer is not None:
                await closer()

    def remember(
        self, settings: JudgeSettings, prompt: str, sample: int, reply: JudgeReply
    ) -> None:
        """Store a reply that parsed (no-op when caching is off or it came from the cache).

        A cache that cannot be written costs the next run its calls, never this
        run its score: the failure is logged.
        """
        if settings.cache and not reply.cached:
            cap = None
            if settings.cache_max_mb is not None:
                cap = int(settings.cache_max_mb * 1024 * 1024)
            try:
                key = self._cache_key(settings, prompt, sample)
                self.cache.put(key, settings.model, reply, max_bytes=cap)
            except OSError as exc:
                logger.warning("judge cache %s not written: %s", self.cache.directory, exc)

    async def remember_async(
        self, settings: JudgeSettings, prompt: str, sample: int, reply: JudgeReply
    ) -> None:
        """:meth:`remember` in a worker thread: a cache write is flushed to disk (fsync),
        which would otherwise hold up every other case and judge call of the run."""
        if settings.cache and not reply.cached:
            await asyncio.to_thread(self.remember, settings, prompt, sample, reply)

    def forget(self, settings: JudgeSettings, prompt: str, sample: int) -> None:
        """Drop the cached reply of ``sample`` of ``prompt`` (it no longer parses)."""
        if settings.cache:
            self.cache.forget(self._cache_key(settings, prompt, sample))


__all__ = ["JudgePool", "estimate_tokens"]
