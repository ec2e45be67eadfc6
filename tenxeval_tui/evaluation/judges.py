"""Judge models: who the LLM-judged criteria ask, how, how often at once, and the reply cache.

A judge is anything that satisfies :class:`JudgeModel` (``model`` and an async
``complete(prompt, sample=...)``). The one shipped here, :class:`OpenAIJudge`,
talks to any OpenAI-compatible ``/v1/chat/completions`` endpoint (OpenAI,
Ollama, vLLM, LM Studio, OpenRouter, Gemini's compatible endpoint) through the
official ``openai`` client (the ``llm`` extra), imported on first call.

Settings come from the criterion's :class:`CriterionConfig`, with environment
fallbacks (see :meth:`JudgeSettings.from_config`):

=====================  ==============================  ===========================
setting                config field                    fallback
=====================  ==============================  ===========================
model                  ``judge_model``                 ``$TENXEVAL_JUDGE_MODEL``
endpoint               ``judge_base_url``              ``$OPENAI_BASE_URL``, then
                                                       the client's default
API key                ``$<judge_api_key_env>``        (``OPENAI_API_KEY``)
temperature            ``judge_temperature`` (0.0)
per-call timeout       ``judge_timeout`` (60 s)
retries                ``judge_max_retries`` (4)       backoff on 408/409/429/5xx,
                                                       timeouts, connection errors;
                                                       0 fails fast
requests per minute    ``judge_rpm`` (none)
tokens per minute      ``judge_tpm`` (none)
cache                  ``judge_cache`` (on)            ``$TENXEVAL_JUDGE_CACHE_DIR``
cache expiry           ``judge_cache_ttl`` (never)     seconds
cache size cap         ``judge_cache_max_mb`` (none)   oldest entries go first
=====================  ==============================  ===========================

Retries are the ``openai`` client's own: exponential backoff from 0.5 s to 8 s
with jitter, honouring ``Retry-After``. A :class:`JudgePool` is shared by the
criteria of one run: it bounds judge calls in flight (by the run's
``max_concurrency``) and by the rate limits (:mod:`.ratelimit`), holds the
clients, counts calls and owns the :class:`JudgeCache` (:mod:`.judge_cache`).
"""

from __future__ import annotations

import asyncio
import importlib.util
import logging
import os
import time
from collections.abc import AsyncGenerator, Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from tenxeval_tui.evaluation.config.eval_config import CriterionConfig
from tenxeval_tui.evaluation.judge_cache import (
    DEFAULT_CACHE_DIR,
    ENV_CACHE_DIR,
    JudgeCache,
    default_cache_dir,
)
from tenxeval_tui.evaluation.judge_reply import JudgeReply
from tenxeval_tui.evaluation.ratelimit import Clock, Sleep, SlidingWindowLimiter
from tenxeval_tui.evaluation.token_usage import TokenUsage

if TYPE_CHECKING:
    from openai import AsyncOpenAI

logger = logging.getLogger(__name__)

ENV_JUDGE_MODEL = "TENXEVAL_JUDGE_MODEL"
ENV_BASE_URL = "OPENAI_BASE_URL"
# Local servers (Ollama, vLLM, LM Studio) ignore the key, but the client insists on one.
_LOCAL_KEY = "not-needed"
SUPPORTED_API_STYLES = ("chat",)


class JudgeError(RuntimeError):
    """A judge call failed for good: HTTP error after retries, timeout, unreachable endpoint."""


@dataclass(frozen=True)
class JudgeSettings:
    """Everything needed to call one judge model; hashable, so pools share clients."""

    model: str
    base_url: str | None
    api_key: str
    temperature: float = 0.0
    timeout: float = 60.0
    max_retries: int = 4
    cache: bool = True
    rpm: int | None = None
    tpm: int | None = None
    cache_ttl: float | None = None
    cache_max_mb: float | None = None

    @staticmethod
    def problems(
        criterion: str, config: CriterionConfig, environ: Mapping[str, str] | None = None
    ) -> list[str]:
        """What is missing before ``criterion`` can call its judge (empty when nothing)."""
        env = os.environ if environ is None else environ
        problems = []
        if not openai_available():
            problems.append(
                f"{criterion}: the 'openai' package is not installed; "
                "install the llm extra: pip install 'tenxeval-tui[llm]'"
            )
        if not (config.judge_model or env.get(ENV_JUDGE_MODEL)):
            problems.append(
                f"{criterion}: no judge model; set CriterionConfig.judge_model "
                f"or the {ENV_JUDGE_MODEL} environment variable"
            )
        base_url = config.judge_base_url or env.get(ENV_BASE_URL)
        if not env.get(config.judge_api_key_env) and not base_url:
            problems.append(
                f"{criterion}: no API key for the judge; set the "
                f"{config.judge_api_key_env} environment variable (or judge_base_url / "
                f"{ENV_BASE_URL} for a local server that needs none)"
            )
        if config.api_style not in SUPPORTED_API_STYLES:
            problems.append(
                f"{criterion}: api_style {config.api_style!r} is not supported "
                f"(supported: {', '.join(SUPPORTED_API_STYLES)})"
            )
        return problems

    @classmethod
    def from_config(
        cls, criterion: str, config: CriterionConfig, environ: Mapping[str, str] | None = None
    ) -> JudgeSettings:
        """Resolve ``config`` against the environment; ``ValueError`` lists what is missing."""
        env = os.environ if environ is None else environ
        problems = cls.problems(criterion, config, env)
        if problems:
            raise ValueError("; ".join(problems))
        base_url = config.judge_base_url or env.get(ENV_BASE_URL) or None
        return cls(
            model=config.judge_model or env[ENV_JUDGE_MODEL],
            base_url=base_url,
            api_key=env.get(config.judge_api_key_env) or _LOCAL_KEY,
            temperature=config.judge_temperature,
            timeout=config.judge_timeout,
            max_retries=config.judge_max_retries,
            cache=config.judge_cache,
            rpm=config.judge_rpm,
            tpm=config.judge_tpm,
            cache_ttl=config.judge_cache_ttl,
            cache_max_mb=config.judge_cache_max_mb,
        )

    @property
    def endpoint(self) -> tuple[str | None, str]:
        """``(base_url, model)``: what a provider's rate limits apply to."""
        return (self.base_url.rstrip("/") if self.base_url else None, self.model)


def openai_available() -> bool:
    """Whether the ``openai`` package can be imported (without importing it)."""
    try:
        return importlib.util.find_spec("openai") is not None
    except (ImportError, ValueError):
        return False


class JudgeModel(Protocol):
    """What a judged criterion needs from a judge."""

    model: str

    async def complete(self, prompt: str, *, sample: int) -> JudgeReply:
        """The judge's reply to ``prompt``; ``sample`` numbers repeated asks of one prompt."""
        ...


class OpenAIJudge:
    """A judge on an OpenAI-compatible chat-completions endpoint (official ``openai`` client)."""

    def __init__(self, settings: JudgeSettings) -> None:
        self.settings = settings
        self.model = settings.model
        self._client: AsyncOpenAI | None = None
        self._client_loop: asyncio.AbstractEventLoop | None = None
        self._lifetime: AsyncGenerator[None] | None = None

    async def _client_for_this_loop(self) -> AsyncOpenAI:
        # An HTTP client and its pooled connections belong to one event loop: a run on
        # a new loop gets a new client. The client's lifetime is an async generator
        # started on its loop, which asyncio.run() (and asyncio.Runner) close with
        # loop.shutdown_asyncgens() before the loop closes: that closes the client's
        # connections on their own loop, with no help from the caller.
        loop = asyncio.get_running_loop()
        if self._client is None or self._client_loop is not loop:
            from openai import AsyncOpenAI

            client = AsyncOpenAI(
                api_key=self.settings.api_key,
                base_url=self.settings.base_url,
                timeout=self.settings.timeout,
                max_retries=self.settings.max_retries,
            )
            self._client, self._client_loop = client, loop
            self._lifetime = _lifetime(client)
            await anext(self._lifetime)
        return self._client

    async def aclose(self) -> None:
        """Close the client now (optional: it is closed when its event loop shuts down)."""
        lifetime, self._lifetime, self._client = self._lifetime, None, None
        if lifetime is not None and self._client_loop is asyncio.get_running_loop():
            await lifetime.aclose()

    async def complete(self, prompt: str, *, sample: int) -> JudgeReply:
        """Ask once; raises :class:`JudgeError` when the endpoint fails after its retries."""
        import openai

        client = await self._client_for_this_loop()
        where = self.settings.base_url or "the OpenAI API"
        try:
            raw = await client.chat.completions.with_raw_response.create(
                model=self.model,
                messages=[{"role": "user", "content": prompt}],
                temperature=self.settings.temperature,
            )
        except openai.APITimeoutError:
            raise JudgeError(
                f"judge {self.model} at {where} timed out after {self.settings.timeout:g} s "
                f"({self.settings.max_retries} retries)"
            ) from None
        except openai.APIStatusError as exc:
            raise JudgeError(
                f"judge {self.model} at {where} answered HTTP {exc.status_code}: "
                f"{str(exc.message)[:200]}"
            ) from None
        except openai.APIConnectionError as exc:
            raise JudgeError(f"could not reach judge {self.model} at {where}: {exc}") from None
        try:
            completion = raw.parse()
            usage = _usage(getattr(completion, "usage", None))
            choices = completion.choices
        except Exception as exc:  # an HTML page, a cut-off body: no chat completion at all
            raise JudgeError(
                f"judge {self.model} at {where} sent no chat completion "
                f"({type(exc).__name__}: {str(exc)[:200]})"
            ) from None
        if not choices:
            # Some gateways answer HTTP 200 with {"error": {...}}: say what they said.
            error = (getattr(completion, "model_extra", None) or {}).get("error")
            said = (error.get("message") if isinstance(error, dict) else error) or "no choices"
            raise JudgeError(f"judge {self.model} at {where} answered: {str(said)[:200]}")
        message = getattr(choices[0], "message", None)
        text = getattr(message, "content", None)
        return JudgeReply(
            text=text if isinstance(text, str) else "",
            token_usage=usage,
            retries=raw.retries_taken,
        )


async def _lifetime(client: AsyncOpenAI) -> AsyncGenerator[None]:
    try:
        yield
    finally:
        await client.close()


def _usage(usage: Any) -> TokenUsage:
    if usage is None:
        return TokenUsage()
    details = getattr(usage, "prompt_tokens_details", None)
    return TokenUsage(
        input_tokens=usage.prompt_tokens or 0,
        output_tokens=usage.completion_tokens or 0,
        cache_read_tokens=(getattr(details, "cached_tokens", None) or 0) if details else 0,
    )


JudgeFactory = Callable[[JudgeSettings], JudgeModel]


def estimate_tokens(prompt: str) -> int:
    """A prompt's input tokens, roughly (four characters a token, at least one).

    What a call reserves against ``judge_tpm`` before it is sent; the reply's real
    usage (input and output) replaces the estimate once it arrives.
    """
    return max(1, len(prompt) // 4)


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


# The reply and the cache live in modules of their own; these names stay importable here.
__all__ = [
    "DEFAULT_CACHE_DIR",
    "ENV_BASE_URL",
    "ENV_CACHE_DIR",
    "ENV_JUDGE_MODEL",
    "JudgeCache",
    "JudgeError",
    "JudgeFactory",
    "JudgeModel",
    "JudgePool",
    "JudgeReply",
    "JudgeSettings",
    "OpenAIJudge",
    "default_cache_dir",
    "estimate_tokens",
    "openai_available",
]
