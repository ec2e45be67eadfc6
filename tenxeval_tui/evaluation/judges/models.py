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
endpoint               ``judge_base_url``              ``$TENXEVAL_JUDGE_BASE_URL``,
                                                       ``$OPENAI_BASE_URL``, then
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
clients, counts calls and owns the :class:`JudgeCache` (:mod:`.cache`).
"""

from __future__ import annotations

import asyncio
import importlib.util
import logging
import os
from collections.abc import AsyncGenerator, Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from tenxeval_tui.evaluation.config.eval_config import CriterionConfig
from tenxeval_tui.evaluation.judges.cache import (
    DEFAULT_CACHE_DIR,
    ENV_CACHE_DIR,
    JudgeCache,
    default_cache_dir,
)
from tenxeval_tui.evaluation.judges.environment import (
    ENV_BASE_URL,
    ENV_JUDGE_BASE_URL,
    ENV_JUDGE_MODEL,
)
from tenxeval_tui.evaluation.judges.errors import JudgeError
from tenxeval_tui.evaluation.judges.http import deadline_client
from tenxeval_tui.evaluation.judges.reply import JudgeReply
from tenxeval_tui.evaluation.judges.usage import estimated_usage, usage_problem
from tenxeval_tui.evaluation.redact import redact_url
from tenxeval_tui.evaluation.token_usage import TokenUsage

if TYPE_CHECKING:
    from openai import AsyncOpenAI


logger = logging.getLogger("tenxeval_tui.evaluation.judges")


def _base_url(config: CriterionConfig, env: Mapping[str, str]) -> str | None:
    return config.judge_base_url or env.get(ENV_JUDGE_BASE_URL) or env.get(ENV_BASE_URL) or None


# Local servers (Ollama, vLLM, LM Studio) ignore the key, but the client insists on one.
_LOCAL_KEY = "not-needed"
SUPPORTED_API_STYLES = ("chat", "responses")


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
        base_url = _base_url(config, env)
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
        base_url = _base_url(config, env)
        return cls(
            model=config.judge_model or env[ENV_JUDGE_MODEL],
            base_url=base_url,
            api_key=env.get(config.judge_api_key_env) or _LOCAL_KEY,
            temperature=config.judge_temperature,
            timeout=config.judge_timeout,
            max_retries=config.judge_max_retries,
            cache=config.judge_cache,
            api_style=config.api_style,
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
        self._warned = False  # about a reply without usage (once per judge)

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
                http_client=deadline_client(self.settings.timeout),
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
        problem = usage_problem(usage)
        if problem is not None:
            raise JudgeError(f"judge {self.model} at {self._where} reported {problem}")
        if usage is None:  # the endpoint reports no usage: estimated (see judge_usage)
            if not self._warned:
                self._warned = True
                logger.warning(
                    "judge %s at %s reports no token usage: estimated at 4 characters a token",
                    self.model,
                    self._where,
                )
            usage = estimated_usage(prompt, text)
            return JudgeReply(text, usage, retries=raw.retries_taken, usage_estimated=True)
        return JudgeReply(text=text, token_usage=usage, retries=raw.retries_taken)

    @property
    def _where(self) -> str:
        """The endpoint as errors name it (its credentials hidden: see :mod:`.redact`)."""
        return redact_url(self.settings.base_url) if self.settings.base_url else "the OpenAI API"

    def _read_completion(self, raw: Any) -> tuple[str, TokenUsage | None]:
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

    def _read_response(self, raw: Any) -> tuple[str, TokenUsage | None]:
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


def _responses_usage(usage: Any) -> TokenUsage | None:
    """A Responses API answer's tokens; ``None`` when it reports none."""
    return _counted(usage, "input_tokens", "output_tokens", "input_tokens_details")


def _counted(usage: Any, input_name: str, output_name: str, details_name: str) -> TokenUsage | None:
    """The tokens of a ``usage`` object; ``None`` when there is none or it counts nothing."""
    inputs = getattr(usage, input_name, None) if usage is not None else None
    outputs = getattr(usage, output_name, None) if usage is not None else None
    if inputs is None and outputs is None:
        return None
    details = getattr(usage, details_name, None)
    return TokenUsage(
        input_tokens=inputs or 0,
        output_tokens=outputs or 0,
        cache_read_tokens=(getattr(details, "cached_tokens", None) or 0) if details else 0,
    )


async def _lifetime(client: AsyncOpenAI) -> AsyncGenerator[None]:
    try:
        yield
    finally:
        await client.close()


def _usage(usage: Any) -> TokenUsage | None:
    """A chat completion's tokens; ``None`` when it reports none."""
    return _counted(usage, "prompt_tokens", "completion_tokens", "prompt_tokens_details")


JudgeFactory = Callable[[JudgeSettings], JudgeModel]


# The reply, the cache and the pool live in modules of their own; these names stay
# importable here.
__all__ = [
    "DEFAULT_CACHE_DIR",
    "ENV_BASE_URL",
    "ENV_CACHE_DIR",
    "ENV_JUDGE_BASE_URL",
    "ENV_JUDGE_MODEL",
    "JudgeCache",
    "JudgeError",
    "JudgeFactory",
    "JudgeModel",
    "JudgeReply",
    "JudgeSettings",
    "OpenAIJudge",
    "default_cache_dir",
    "openai_available",
]
