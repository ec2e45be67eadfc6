"""The criterion contract, and the registry that builds criteria from a config by name.

A criterion scores one case: it receives what the agent did (``actual``, an
:class:`ExecutionResult`) and the case with its expectations (``expected``, an
:class:`EvalCase`) and returns a :class:`CriterionResult`.

Writing your own::

    from tenxeval_tui.evaluation import BaseCriterion, CriterionResult, register_criterion

    @register_criterion
    class PoliteCriterion(BaseCriterion):
        '''1.0 when the reply says please, else 0.0.'''
        name = "polite"

        async def evaluate(self, actual, expected):
            return self.result(1.0 if "please" in actual.actual_response.lower() else 0.0)

    config = EvalConfig.default()
    config.enable_criterion("polite", CriterionConfig(threshold=1.0))
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator, MutableMapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from tenxeval_tui.evaluation.config.eval_config import CriterionConfig, EvalConfig
from tenxeval_tui.evaluation.dataset.eval_set import EvalCase
from tenxeval_tui.evaluation.eval_result import CriterionResult
from tenxeval_tui.evaluation.execution.result import ExecutionResult
from tenxeval_tui.evaluation.results.verdicts import has_no_verdict, without_verdict
from tenxeval_tui.evaluation.token_usage import TokenUsage

if TYPE_CHECKING:
    from tenxeval_tui.evaluation.judges.pool import JudgePool


class CriterionConfigError(ValueError):
    """A criterion is configured in a way it cannot run (named criterion, what to set)."""


class BaseCriterion(ABC):
    """Base class of every criterion.

    Subclasses set ``name`` (the name reported in results and looked up in
    configs) and implement :meth:`evaluate`. Judged criteria set
    ``requires_judge = True``.
    """

    name: ClassVar[str] = ""
    description: ClassVar[str] = ""
    requires_judge: ClassVar[bool] = False

    def __init__(self, config: CriterionConfig | None = None) -> None:
        self.config = config or CriterionConfig()

    @property
    def threshold(self) -> float:
        """Minimum score to pass."""
        return self.config.threshold

    @property
    def is_enabled(self) -> bool:
        """Whether the criterion is switched on."""
        return self.config.enabled

    def validate_config(self) -> list[str]:
        """Problems with this criterion's settings (empty when it can run)."""
        problems = []
        if not 0.0 <= self.config.threshold <= 1.0:
            problems.append(f"{self.name}: threshold must be between 0 and 1")
        return problems

    def bind_judge_pool(self, pool: JudgePool) -> None:
        """Receive the run's shared judge pool (judged criteria use it; others ignore it)."""
        return None

    @property
    def shared_judge_pool(self) -> JudgePool | None:
        """The judge pool this criterion was bound to (``None`` when it has none)."""
        return None

    @abstractmethod
    async def evaluate(self, actual: ExecutionResult, expected: EvalCase) -> CriterionResult:
        """Score one case."""

    def result(
        self,
        score: float,
        details: dict[str, Any] | None = None,
        token_usage: TokenUsage | None = None,
    ) -> CriterionResult:
        """A result of this criterion; passes when ``score >= threshold``."""
        return CriterionResult.success(
            self.name, float(score), self.threshold, details=details, token_usage=token_usage
        )

    def failure(self, error: str, details: dict[str, Any] | None = None) -> CriterionResult:
        """This criterion failed to score, with ``error``."""
        return CriterionResult.failure(self.name, error, self.threshold, details=details)

    def __repr__(self) -> str:
        return f"{type(self).__name__}(name={self.name!r}, threshold={self.threshold})"


class SyncCriterion(BaseCriterion):
    """A criterion whose scoring is plain synchronous code: implement :meth:`evaluate_sync`."""

    @abstractmethod
    def evaluate_sync(self, actual: ExecutionResult, expected: EvalCase) -> CriterionResult:
        """Score one case synchronously."""

    async def evaluate(self, actual: ExecutionResult, expected: EvalCase) -> CriterionResult:
        return self.evaluate_sync(actual, expected)


class _InnerCriteria(BaseCriterion):
    """A criterion made of others: their settings are checked, the judge pool and
    tokens shared, and an inner criterion that failed to score fails this one."""

    @property
    def inner(self) -> list[BaseCriterion]:
        """The criteria this one combines."""
        raise NotImplementedError

    def validate_config(self) -> list[str]:
        return super().validate_config() + [p for c in self.inner for p in c.validate_config()]

    def bind_judge_pool(self, pool: JudgePool) -> None:
        for criterion in self.inner:
            criterion.bind_judge_pool(pool)

    async def _evaluate_inner(
        self, actual: ExecutionResult, expected: EvalCase
    ) -> tuple[list[CriterionResult], CriterionResult | None]:
        """The inner results, and this criterion's failure when one of them errored."""
        import asyncio  # here: `run`'s parent checks the criteria without asyncio (issue #38)

        results = list(await asyncio.gather(*(c.evaluate(actual, expected) for c in self.inner)))
        errors = [f"{r.criterion}: {r.error}" for r in results if r.error]
        if not errors:
            return results, None
        failed = self.failure("; ".join(errors), details=self._details(results))
        failed.token_usage = self._tokens(results)
        if any(has_no_verdict(r) for r in results):  # an inner judge gave none: nor does this
            without_verdict(failed)
        return results, failed

    @staticmethod
    def _tokens(results: list[CriterionResult]) -> TokenUsage:
        return sum((r.token_usage for r in results), TokenUsage())

    @staticmethod
    def _details(results: list[CriterionResult]) -> dict[str, Any]:
        return {"criteria": [r.model_dump(mode="json") for r in results]}


class CompositeCriterion(_InnerCriteria):
    """Inner criteria combined with AND (``require_all``, the default) or OR.

    AND: the score is the lowest inner score, and the criterion passes when every
    inner criterion passes. OR: the score is the highest, and it passes when any
    inner criterion passes. Either way the score must also reach this criterion's
    own threshold. (10xGraph's signature and scores.)
    """

    name = "composite_criterion"

    def __init__(
        self,
        criteria: Sequence[BaseCriterion],
        require_all: bool = True,
        config: CriterionConfig | None = None,
    ) -> None:
        super().__init__(config)
        self.criteria = list(criteria)
        self.require_all = require_all

    @property
    def inner(self) -> list[BaseCriterion]:
        return self.criteria

    async def evaluate(self, actual: ExecutionResult, expected: EvalCase) -> CriterionResult:
        inner, failed = await self._evaluate_inner(actual, expected)
        if failed is not None:
            return failed
        scores = [r.score for r in inner]
        combine, decide = (min, all) if self.require_all else (max, any)
        score = combine(scores) if scores else 0.0
        details = self._details(inner) | {"require_all": self.require_all}
        result = self.result(score, details=details, token_usage=self._tokens(inner))
        result.passed = bool(inner) and decide(r.passed for r in inner) and score >= self.threshold
        return result


class WeightedCriterion(_InnerCriteria):
    """The weighted mean of inner criteria's scores, against this criterion's threshold."""

    name = "weighted_criterion"

    def __init__(
        self,
        criteria_weights: Sequence[tuple[BaseCriterion, float]],
        config: CriterionConfig | None = None,
    ) -> None:
        super().__init__(config)
        if not criteria_weights or sum(w for _, w in criteria_weights) <= 0:
            raise ValueError("WeightedCriterion needs at least one positive weight")
        self.weighted = list(criteria_weights)

    @property
    def criteria_weights(self) -> list[tuple[BaseCriterion, float]]:
        """``(criterion, weight)`` pairs (10xGraph's name for :attr:`weighted`)."""
        return self.weighted

    @property
    def inner(self) -> list[BaseCriterion]:
        return [criterion for criterion, _ in self.weighted]

    async def evaluate(self, actual: ExecutionResult, expected: EvalCase) -> CriterionResult:
        inner, failed = await self._evaluate_inner(actual, expected)
        if failed is not None:
            return failed
        total_weight = sum(w for _, w in self.weighted)
        score = sum(r.score * w for r, (_, w) in zip(inner, self.weighted, strict=True))
        return self.result(
            round(score / total_weight, 12),  # 0.7 + 0.2 is 0.8999999999999999 in floats
            details={"criteria": {r.criterion: r.score for r in inner}},
            token_usage=self._tokens(inner),
        )


_REGISTRY: dict[str, type[BaseCriterion]] = {}


def register_criterion[C: type[BaseCriterion]](
    cls: C | None = None, *, name: str | None = None
) -> Any:
    """Register a criterion class under its ``name`` (or ``name=``); usable as a decorator."""

    def decorate(klass: C) -> C:
        key = name or klass.name
        if not key:
            raise ValueError(f"{klass.__name__} has no name to register under")
        if not klass.name:
            klass.name = key  # results and messages carry the name it is registered under
        if _loading_builtins and key in _REGISTRY:
            return klass  # a user's criterion registered first under this name stays
        _REGISTRY[key] = klass
        return klass

    return decorate(cls) if cls is not None else decorate


def registered_criteria() -> dict[str, type[BaseCriterion]]:
    """Every registered criterion class by name (built-ins are registered on first use)."""
    _load_builtins()
    return dict(_REGISTRY)


class CriteriaRegistry(MutableMapping[str, type[BaseCriterion]]):
    """The criterion registry as a mapping (10xGraph's ``CRITERIA_REGISTRY``).

    Reading it loads the built-ins first; ``registry[name] = cls`` registers
    ``cls`` under ``name`` as :func:`register_criterion` does.
    """

    def __getitem__(self, name: str) -> type[BaseCriterion]:
        if name not in _REGISTRY:
            _load_builtins(name)
        return _REGISTRY[name]

    def __setitem__(self, name: str, klass: type[BaseCriterion]) -> None:
        register_criterion(klass, name=name)

    def __delitem__(self, name: str) -> None:
        _load_builtins(name)
        del _REGISTRY[name]

    def __iter__(self) -> Iterator[str]:
        _load_builtins()
        return iter(dict(_REGISTRY))

    def __len__(self) -> int:
        _load_builtins()
        return len(_REGISTRY)


CRITERIA_REGISTRY = CriteriaRegistry()


def get_criterion_class(name: str) -> type[BaseCriterion]:
    """The class registered as ``name``; ``KeyError`` lists the known names."""
    if name not in _REGISTRY:
        _load_builtins(name)
    try:
        return _REGISTRY[name]
    except KeyError:
        _load_builtins()
        known = ", ".join(sorted(_REGISTRY))
        raise KeyError(f"unknown criterion {name!r}; known criteria: {known}") from None


def build_criteria(
    config: EvalConfig, *, judge_pool: JudgePool | None = None
) -> list[BaseCriterion]:
    """Instances of every enabled criterion of ``config``, in a stable order.

    Raises :class:`CriterionConfigError` listing every misconfigured criterion
    (unknown name, bad threshold, missing judge settings) before anything runs.
    Criteria with ``requires_judge`` share one judge pool: ``judge_pool``, or a
    new one bounding judge calls in flight by ``config.effective_concurrency``.
    """
    criteria: list[BaseCriterion] = []
    problems: list[str] = []
    for name, cfg in config.criteria.enabled_items():
        try:
            klass = get_criterion_class(name)
        except KeyError as exc:
            problems.append(str(exc.args[0]))
            continue
        criterion = klass(cfg)
        problems.extend(criterion.validate_config())
        criteria.append(criterion)
    if problems:
        raise CriterionConfigError("; ".join(problems))
    if any(c.requires_judge for c in criteria):
        if judge_pool is None:
            from tenxeval_tui.evaluation.judges.pool import JudgePool

            judge_pool = JudgePool(max_concurrency=config.effective_concurrency)
        for criterion in criteria:
            criterion.bind_judge_pool(judge_pool)
    return criteria


_loading_builtins = False
_BUILTIN_MODULES: dict[str, tuple[str, ...]] = {}
"""Each module whose import registers built-in criteria -> the names it registers."""
_loaded_modules: set[str] = set()


def add_builtin_module(module: str, names: Sequence[str] = ()) -> None:
    """Name a module whose import registers the built-in criteria ``names``: it is
    imported on the first lookup of one of them (or of a name no module declares, or of
    the whole registry)."""
    _BUILTIN_MODULES[module] = tuple(names)


def _load_builtins(name: str | None = None) -> None:
    """Import the module registering the built-in ``name`` (every built-in module when
    ``name`` is ``None`` or no module declares it): a run's processes import only the
    criteria they use (all ten modules took about 27 ms, a third of it JSONPath's parser
    for ``tool_end_state``). Built-ins register on their first lookup; a name a user
    registered before that keeps the user's class (registering after it replaces the
    built-in as well)."""
    modules = [module for module, names in _BUILTIN_MODULES.items() if name in names]
    for module in modules or list(_BUILTIN_MODULES):
        if module not in _loaded_modules:
            _import_builtin(module)


def _import_builtin(module: str) -> None:
    global _loading_builtins
    import importlib
    import importlib.util

    _loading_builtins = True
    try:
        if importlib.util.find_spec(module) is not None:
            importlib.import_module(module)
    finally:
        _loading_builtins = False
    _loaded_modules.add(module)


CriterionFactory = Callable[[CriterionConfig], BaseCriterion]
