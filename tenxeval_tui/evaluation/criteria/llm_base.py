"""What every judged criterion shares: prompt rendering, sampling, reply parsing, majority vote.

A judged criterion reduces each judge reply to yes/no verdicts on a fixed list
of items (one item for a single verdict such as "safe"; one per reference fact
or rubric). With ``num_samples`` samples, an item is "yes" when strictly more
than half the samples say yes: a tie breaks to "no", the verdict that does
not let a case pass on a split judge. The score is the weighted share of
items decided "yes" (so 1.0 or 0.0 for single-verdict criteria).

Any sample that fails (the endpoint fails after its retries, a timeout, or a
reply that cannot be parsed) fails the criterion with that error, marked as one
no judge scored (:mod:`..verdicts`: its case errors); tokens spent are still
reported. Nothing is ever scored by default.
"""

from __future__ import annotations

import asyncio
import functools
import json
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

from pydantic import ValidationError

from tenxeval_tui.evaluation.config.eval_config import CriterionConfig
from tenxeval_tui.evaluation.criteria.base import BaseCriterion
from tenxeval_tui.evaluation.dataset.eval_set import EvalCase
from tenxeval_tui.evaluation.eval_result import CriterionResult
from tenxeval_tui.evaluation.execution.result import ExecutionResult
from tenxeval_tui.evaluation.judges.models import JudgeError, JudgeReply, JudgeSettings
from tenxeval_tui.evaluation.judges.pool import JudgePool
from tenxeval_tui.evaluation.judges.usage import USAGE_ESTIMATED_KEY
from tenxeval_tui.evaluation.results.verdicts import without_verdict
from tenxeval_tui.evaluation.token_usage import TokenUsage

if TYPE_CHECKING:
    import jinja2

_QUOTE = 160  # characters of a bad reply quoted in the error
REASONING_CAP = 20_000
"""Characters of a judge's reasoning kept in a result (a reply of megabytes would be
written into every report and journal line of its case)."""


def capped(text: str, cap: int = REASONING_CAP) -> str:
    """``text``, cut at ``cap`` characters with a note of how much was left out."""
    if len(text) <= cap:
        return text
    return f"{text[:cap]}... [{len(text) - cap:,} more characters of the judge's reply not kept]"


class JudgeReplyError(ValueError):
    """A judge reply that does not have the shape the prompt asked for."""


@functools.cache
def _templates() -> jinja2.Environment:
    import jinja2

    return jinja2.Environment(
        loader=jinja2.PackageLoader("tenxeval_tui.evaluation", "prompts"),
        undefined=jinja2.StrictUndefined,
        autoescape=False,  # prompts are plain text; values are never re-evaluated as templates
        keep_trailing_newline=True,
    )


def render_prompt(template: str, **values: Any) -> str:
    """Render ``prompts/<template>`` with ``values`` (a missing value is an error)."""
    return _templates().get_template(template).render(**values)


_DECODER = json.JSONDecoder()


def parse_json_reply(text: str) -> dict[str, Any]:
    """The JSON object in a judge reply: bare, in a code fence, or amid prose.

    Models think aloud before answering (``<think>`` blocks, code they quote,
    braces in prose), so the answer is the **last** JSON object the reply holds.
    """
    body = text.strip()
    found: dict[str, Any] | None = None
    first_problem: str | None = None
    start = body.find("{")
    while start != -1:
        try:
            value, end = _DECODER.raw_decode(body, start)
        except json.JSONDecodeError as exc:
            first_problem = first_problem or exc.msg
            start = body.find("{", start + 1)
            continue
        found = value  # an object: it starts with "{"
        start = body.find("{", end)  # objects inside it are its own fields
    if found is not None:
        return found
    try:
        json.loads(body)
    except json.JSONDecodeError:
        if first_problem is None:
            raise JudgeReplyError("no JSON object in the reply") from None
        raise JudgeReplyError(f"invalid JSON ({first_problem})") from None
    raise JudgeReplyError("the reply is JSON but not an object")


@dataclass
class Sample:
    """One parsed judge reply: a verdict per item, the judge's reasoning, extra findings."""

    verdicts: dict[str, bool]
    reasoning: str = ""
    extra: dict[str, Any] = field(default_factory=dict)


class _Unparseable(Exception):
    def __init__(self, reply: JudgeReply, problem: str) -> None:
        super().__init__(problem)
        self.reply = reply
        self.problem = problem


def majority(samples: list[Sample], items: list[str]) -> tuple[dict[str, bool], dict[str, int]]:
    """``(decided, yes_votes)`` per item; yes needs a strict majority (ties break to no)."""
    yes = {item: sum(1 for s in samples if s.verdicts.get(item, False)) for item in items}
    return {item: 2 * count > len(samples) for item, count in yes.items()}, yes


class JudgedCriterion(BaseCriterion):
    """Base of the LLM-judged criteria; subclasses fill in the hooks below.

    ``template`` names the prompt in ``evaluation/prompts/``. The criterion
    asks ``config.num_samples`` samples through its :class:`JudgePool`
    (``build_criteria`` binds the run's; standalone use makes a private one).
    """

    requires_judge = True
    template: ClassVar[str] = ""

    def __init__(
        self, config: CriterionConfig | None = None, judge_pool: JudgePool | None = None
    ) -> None:
        super().__init__(config)
        self._pool = judge_pool

    def bind_judge_pool(self, pool: JudgePool) -> None:
        """Share ``pool`` (its concurrency bound and cache) with the run's other criteria."""
        self._pool = pool

    @property
    def shared_judge_pool(self) -> JudgePool | None:
        """The pool bound by :meth:`bind_judge_pool` (``None`` until one is bound or used)."""
        return self._pool

    @property
    def judge_pool(self) -> JudgePool:
        """The pool judge calls go through."""
        if self._pool is None:
            self._pool = JudgePool()
        return self._pool

    def validate_config(self) -> list[str]:
        return super().validate_config() + JudgeSettings.problems(self.name, self.config)

    # --- hooks ---------------------------------------------------------------------------

    def skip(self, actual: ExecutionResult, expected: EvalCase) -> tuple[float, str] | None:
        """``(score, note)`` when this case needs no judge call, else ``None``."""
        return None

    def prompt_values(self, actual: ExecutionResult, expected: EvalCase) -> dict[str, Any]:
        """Values for the template besides ``queries`` and ``reply``."""
        return {}

    def items(self, expected: EvalCase) -> list[tuple[str, float]]:
        """``(item id, weight)`` of every verdict the judge gives."""
        return [("verdict", 1.0)]

    def read_sample(self, data: dict[str, Any], expected: EvalCase) -> Sample:
        """Turn one parsed reply into a :class:`Sample` (raise on a wrong shape)."""
        raise NotImplementedError

    def extra_details(
        self, samples: list[Sample], decided: dict[str, bool], expected: EvalCase
    ) -> dict[str, Any]:
        """Criterion-specific details of the combined result."""
        return {}

    # --- the shared flow -----------------------------------------------------------------

    def render(self, actual: ExecutionResult, expected: EvalCase) -> str:
        """The prompt for this case."""
        return render_prompt(
            self.template,
            queries=expected.get_user_queries(),
            reply=actual.actual_response,
            **self.prompt_values(actual, expected),
        )

    async def _sample(
        self, settings: JudgeSettings, prompt: str, index: int, expected: EvalCase
    ) -> tuple[JudgeReply, Sample]:
        reply = await self.judge_pool.ask(settings, prompt, index)
        try:
            sample = self._read(reply, expected)
        except _Unparseable:
            if not reply.cached:
                raise
            # A cached reply that no longer reads (an older format, a hand edit): ask anew.
            self.judge_pool.forget(settings, prompt, index)
            reply = await self.judge_pool.ask(settings, prompt, index, fresh=True)
            sample = self._read(reply, expected)
        await self.judge_pool.remember_async(settings, prompt, index, reply)
        return reply, sample

    def _read(self, reply: JudgeReply, expected: EvalCase) -> Sample:
        try:
            return self.read_sample(parse_json_reply(reply.text), expected)
        except JudgeReplyError as exc:
            raise _Unparseable(reply, str(exc)) from None
        except ValidationError as exc:
            first = exc.errors()[0]
            where = ".".join(str(p) for p in first["loc"]) or "reply"
            raise _Unparseable(reply, f"{where}: {first['msg']}") from None

    async def evaluate(self, actual: ExecutionResult, expected: EvalCase) -> CriterionResult:
        skipped = self.skip(actual, expected)
        if skipped is not None:
            score, note = skipped
            return self.result(score, details={"note": note, "reason": note, "judge_calls": 0})
        try:
            settings = JudgeSettings.from_config(self.name, self.config)
        except ValueError as exc:
            return without_verdict(self.failure(str(exc)))
        prompt = self.render(actual, expected)
        outcomes = await asyncio.gather(
            *(self._sample(settings, prompt, i, expected) for i in range(self.config.num_samples)),
            return_exceptions=True,
        )
        replies: list[JudgeReply] = []
        samples: list[Sample] = []
        errors: list[str] = []
        for outcome in outcomes:
            if isinstance(outcome, _Unparseable):
                replies.append(outcome.reply)
                quoted = outcome.reply.text[:_QUOTE]
                more = "..." if len(outcome.reply.text) > _QUOTE else ""
                errors.append(f"unparseable judge reply ({outcome.problem}): {quoted!r}{more}")
            elif isinstance(outcome, JudgeError):
                errors.append(str(outcome))
            elif isinstance(outcome, Exception):  # a judge of the caller's own making
                errors.append(f"judge failed: {type(outcome).__name__}: {outcome}")
            elif isinstance(outcome, BaseException):  # cancelled: the run is stopping
                raise outcome
            else:
                replies.append(outcome[0])
                samples.append(outcome[1])
        tokens = sum((r.token_usage for r in replies), TokenUsage())
        details: dict[str, Any] = {
            "judge_model": settings.model,
            "samples": self.config.num_samples,
            "judge_calls": sum(1 for r in replies if not r.cached),
            "cache_hits": sum(1 for r in replies if r.cached),
            "retries": sum(r.retries for r in replies),
        }
        estimated = sum(1 for r in replies if r.usage_estimated)
        if estimated:  # the endpoint reported no usage: see judge_usage
            details[USAGE_ESTIMATED_KEY] = estimated
        if errors:
            failed = self.failure(errors[0], details={**details, "errors": errors})
            failed.token_usage = tokens
            return without_verdict(failed)
        return self._combine(samples, expected, details, tokens)

    def _combine(
        self,
        samples: list[Sample],
        expected: EvalCase,
        details: dict[str, Any],
        tokens: TokenUsage,
    ) -> CriterionResult:
        weighted = self.items(expected)
        decided, yes = majority(samples, [item for item, _ in weighted])
        total = sum(weight for _, weight in weighted)
        score = sum(w for item, w in weighted if decided[item]) / total if total else 0.0
        # Weights 0.7 + 0.2 make 0.8999999999999999, which fails a 0.9 threshold.
        score = round(score, 12)
        # The reasoning shown is that of the first sample that agrees with the outcome.
        agreeing = [
            s for s in samples if all(s.verdicts.get(i, False) == d for i, d in decided.items())
        ]
        shown = (agreeing or samples)[0]
        details.update(
            reason=capped(shown.reasoning),
            votes={item: f"{yes[item]}/{len(samples)}" for item, _ in weighted},
            **self.extra_details(samples, decided, expected),
        )
        if len(samples) > 1:  # one sample's reasoning is the reason: kept once
            details["reasons"] = [capped(s.reasoning) for s in samples]
        return self.result(score, details=details, token_usage=tokens)


def collect(samples: list[Sample], key: str) -> list[str]:
    """The distinct strings under ``extra[key]`` across samples, in first-seen order."""
    seen: dict[str, None] = {}
    for sample in samples:
        for value in sample.extra.get(key, []):
            seen.setdefault(str(value), None)
    return list(seen)


# 10xGraph's name for the base of its templated judge criteria. Ours has other hooks
# (``template``/``prompt_values``/``items``/``read_sample`` instead of ``_build_prompt``);
# subclass it, or mix LLMCallerMixin into a BaseCriterion, for a judge criterion of your own.
TemplatedLLMCriterion = JudgedCriterion
