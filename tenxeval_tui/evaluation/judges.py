"""Judge models: who the LLM-judged criteria ask, how, how often at once, and the reply cache.

A judge is anything that satisfies :class:`JudgeModel` (``model`` and an async
``complete(prompt, sample=...)``). The one shipped here, :class:`OpenAIJudge`,
talks to any OpenAI-compatible endpoint (OpenAI, Ollama, vLLM, LM Studio,
OpenRouter, Gemini's compatible endpoint) through the official ``openai``
client (the ``llm`` extra), imported on first call, in one of two API styles
(``CriterionConfig.api_style``): ``"chat"`` (``/v1/chat/completions``, the one
every compatible server speaks) or ``"responses"`` (``/v1/responses``, OpenAI's
Responses API, 10xGraph's default).

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
                                                       timeouts, connection errors
cache                  ``judge_cache`` (on)            ``$TENXEVAL_JUDGE_CACHE_DIR``
=====================  ==============================  ===========================

Retries are the ``openai`` client's own: exponential backoff from 0.5 s to 8 s
with jitter, honouring ``Retry-After``. A :class:`JudgePool` is shared by the
criteria of one run: it bounds judge calls in flight (by the run's
``max_concurrency``), holds the clients, counts calls and owns the
:class:`JudgeCache`.
"""

from __future__ import annotations

import asyncio
import hashlib
import importlib.util
import json
import logging
import os
import tempfile
from collections.abc import AsyncGenerator, Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from tenxeval_tui.evaluation.config.eval_config import CriterionConfig
from tenxeval_tui.evaluation.token_usage import TokenUsage

if TYPE_CHECKING:
    from openai import AsyncOpenAI

logger = logging.getLogger(__name__)

ENV_JUDGE_MODEL = "TENXEVAL_JUDGE_MODEL"
ENV_BASE_URL = "OPENAI_BASE_URL"
ENV_CACHE_DIR = "TENXEVAL_JUDGE_CACHE_DIR"
DEFAULT_CACHE_DIR = Path(".tenxeval_cache") / "judge"
# Local servers (Ollama, vLLM, LM Studio) ignore the key, but the client insists on one.
_LOCAL_KEY = "not-needed"
SUPPORTED_API_STYLES = ("chat", "responses")


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
    api_style: str = "chat"

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
            api_style=config.api_style,
        )


def openai_available() -> bool:
    """Whether the ``openai`` package can be imported (without importing it)."""
    try:
        return importlib.util.find_spec("openai") is not None
    except (ImportError, ValueError):
        return False


@dataclass(frozen=True)
class JudgeReply:
    """One judge answer: its text, the tokens it cost now, and whether it came from the cache."""

    text: str
    token_usage: TokenUsage
    cached: bool = False
    retries: int = 0


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
        responses = self.settings.api_style == "responses"
        try:
            if responses:
                raw: Any = await client.responses.with_raw_response.create(
                    model=self.model, input=prompt, temperature=self.settings.temperature
                )
            else:
                raw = await client.chat.completions.with_raw_response.create(
                    model=self.model,
                    messages=[{"role": "user", "content": prompt}],
                    temperature=self.settings.temperature,
                )
        except openai.APITimeoutError:
            raise JudgeError(
                f"judge {self.model} at {self._where} timed out after "
                f"{self.settings.timeout:g} s ({self.settings.max_retries} retries)"
            ) from None
        except openai.APIStatusError as exc:
            raise JudgeError(
                f"judge {self.model} at {self._where} answered HTTP {exc.status_code}: "
                f"{str(exc.message)[:200]}"
            ) from None
        except openai.APIConnectionError as exc:
            raise JudgeError(
                f"could not reach judge {self.model} at {self._where}: {exc}"
            ) from None
        text, usage = self._read_response(raw) if responses else self._read_completion(raw)
        return JudgeReply(text=text, token_usage=usage, retries=raw.retries_taken)

    @property
    def _where(self) -> str:
        return self.settings.base_url or "the OpenAI API"

    def _read_completion(self, raw: Any) -> tuple[str, TokenUsage]:
        try:
            completion = raw.parse()
            usage = _usage(getattr(completion, "usage", None))
            choices = completion.choices
        except Exception as exc:  # an HTML page, a cut-off body: no chat completion at all
            raise JudgeError(
                f"judge {self.model} at {self._where} sent no chat completion "
                f"({type(exc).__name__}: {str(exc)[:200]})"
            ) from None
        if not choices:
            # Some gateways answer HTTP 200 with {"error": {...}}: say what they said.
            raise JudgeError(
                f"judge {self.model} at {self._where} answered: {_said(completion, 'no choices')}"
            )
        message = getattr(choices[0], "message", None)
        text = getattr(message, "content", None)
        return (text if isinstance(text, str) else ""), usage

    def _read_response(self, raw: Any) -> tuple[str, TokenUsage]:
        """The text and tokens of a Responses API answer (its ``output_text``)."""
        try:
            response = raw.parse()
            output = response.output
            usage = _responses_usage(getattr(response, "usage", None))
        except Exception as exc:
            raise JudgeError(
                f"judge {self.model} at {self._where} sent no Responses API response "
                f"({type(exc).__name__}: {str(exc)[:200]})"
            ) from None
        error = getattr(response, "error", None)
        if error is not None or not output:
            said = getattr(error, "message", None) or _said(response, "no output")
            raise JudgeError(f"judge {self.model} at {self._where} answered: {str(said)[:200]}")
        return response.output_text, usage


def _said(body: Any, default: str) -> str:
    """What an HTTP 200 body holding ``{"error": ...}`` says, or ``default``."""
    error = (getattr(body, "model_extra", None) or {}).get("error")
    said = (error.get("message") if isinstance(error, dict) else error) or default
    return str(said)[:200]


def _responses_usage(usage: Any) -> TokenUsage:
    if usage is None:
        return TokenUsage()
    details = getattr(usage, "input_tokens_details", None)
    return TokenUsage(
        input_tokens=getattr(usage, "input_tokens", 0) or 0,
        output_tokens=getattr(usage, "output_tokens", 0) or 0,
        cache_read_tokens=(getattr(details, "cached_tokens", None) or 0) if details else 0,
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


class JudgeCache:
    """Judge replies on disk, one JSON file per (model, temperature, prompt, sample index).

    Only replies that parsed are stored, so a malformed answer is asked again
    on the next run. A hit costs no tokens. Delete the folder to clear it.
    """

    def __init__(self, directory: str | Path) -> None:
        self.directory = Path(directory)

    @staticmethod
    def key(
        model: str,
        prompt: str,
        sample: int,
        temperature: float = 0.0,
        base_url: str | None = None,
    ) -> str:
        """The cache key (a SHA-256 hex digest); ``base_url`` keeps servers apart."""
        fields: dict[str, Any] = {
            "model": model,
            "prompt": prompt,
            "sample": sample,
            "temperature": temperature,
        }
        if base_url:  # the OpenAI API itself keeps the keys it always had
            fields["base_url"] = base_url.rstrip("/")
        blob = json.dumps(fields, sort_keys=True)
        return hashlib.sha256(blob.encode("utf-8")).hexdigest()

    def _path(self, key: str) -> Path:
        return self.directory / key[:2] / f"{key}.json"

    def get(self, key: str) -> JudgeReply | None:
        """The stored reply, or ``None`` (also for an unreadable entry, which is ignored)."""
        try:
            data = json.loads(self._path(key).read_text(encoding="utf-8"))
            text = data["text"]
        except (OSError, ValueError, KeyError, TypeError):
            return None
        if not isinstance(text, str):
            return None
        return JudgeReply(text=text, token_usage=TokenUsage(), cached=True)

    def forget(self, key: str) -> None:
        """Remove an entry (one that no longer parses is asked again)."""
        self._path(key).unlink(missing_ok=True)

    def put(self, key: str, model: str, reply: JudgeReply) -> None:
        """Store ``reply`` (atomically: readers never see half a file)."""
        path = self._path(key)
        path.parent.mkdir(parents=True, exist_ok=True)
        payload = json.dumps(
            {"model": model, "text": reply.text, "token_usage": reply.token_usage.to_dict()}
        )
        fd, tmp = tempfile.mkstemp(prefix=f".{key[:8]}.", suffix=".tmp", dir=path.parent)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                handle.write(payload)
            os.replace(tmp, path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise


def default_cache_dir(environ: Mapping[str, str] | None = None) -> Path:
    """``$TENXEVAL_JUDGE_CACHE_DIR``, else ``.tenxeval_cache/judge`` in the working folder."""
    env = os.environ if environ is None else environ
    value = env.get(ENV_CACHE_DIR)
    return Path(value) if value else Path.cwd() / DEFAULT_CACHE_DIR


JudgeFactory = Callable[[JudgeSettings], JudgeModel]


class JudgePool:
    """The judges of one run: shared clients, a bound on calls in flight, the cache.

    ``max_concurrency`` bounds judge requests in flight across every judged
    criterion and case (``build_criteria`` sizes it from the run's
    ``EvalConfig.effective_concurrency``). ``factory`` makes the judge for a
    setting (default :class:`OpenAIJudge`); pass your own to use another
    client. ``calls`` counts requests made (cache hits excluded).
    """

    def __init__(
        self,
        max_concurrency: int = 4,
        *,
        cache_dir: str | Path | None = None,
        factory: JudgeFactory | None = None,
    ) -> None:
        if max_concurrency < 1:
            raise ValueError("max_concurrency must be at least 1")
        self.max_concurrency = max_concurrency
        self.cache = JudgeCache(cache_dir if cache_dir is not None else default_cache_dir())
        self.calls = 0
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
            hit = self.cache.get(self._cache_key(settings, prompt, sample))
            if hit is not None:
                return hit
        async with self._limit():
            self.calls += 1
            return await self.judge(settings).complete(prompt, sample=sample)

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
            try:
                self.cache.put(self._cache_key(settings, prompt, sample), settings.model, reply)
            except OSError as exc:
                logger.warning("judge cache %s not written: %s", self.cache.directory, exc)

    def forget(self, settings: JudgeSettings, prompt: str, sample: int) -> None:
        """Drop the cached reply of ``sample`` of ``prompt`` (it no longer parses)."""
        if settings.cache:
            self.cache.forget(self._cache_key(settings, prompt, sample))
