"""Threshold what-if: a report's verdicts under other criterion thresholds, no agent run.

UI-free. :class:`WhatIf` holds a report, the config it was scored with (its
``config_used``; a report without one gets each criterion it holds at the threshold
its results record), and the user's changes: a new threshold for a criterion, or the
criterion turned off. :meth:`WhatIf.apply` makes the report those settings give:

- criteria the workbench can score itself (registered, deterministic) are scored
  again on what the report stored, by the core's
  :func:`~tenxeval_tui.evaluation.rescore.rescore_report`;
- judged criteria and criteria this process does not know (a project's own,
  registered in its worker) keep the score the report holds, passed again against
  the new threshold (``score >= threshold``, as a criterion decides): a what-if never
  calls a judge;
- a criterion turned off is left out, and the case passes on the others;
- repeats are decided again by the config's pass rule.

:func:`verdict_changes` lists the cases whose verdict moved.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tenxeval_tui.evaluation.config.criterion_config import CriterionConfig
from tenxeval_tui.evaluation.config.eval_config import EvalConfig
from tenxeval_tui.evaluation.criteria.base import registered_criteria
from tenxeval_tui.evaluation.eval_result import CriterionResult, EvalCaseResult, EvalReport
from tenxeval_tui.evaluation.repeats import aggregate_repeats
from tenxeval_tui.evaluation.rescore import rescore_report

STEP = 0.05
"""How much one key press moves a threshold."""


@dataclass
class CriterionSetting:
    """One criterion of the what-if: its threshold in the report and the one tried."""

    name: str
    threshold: float
    new_threshold: float
    rescored: bool
    """Scored again (deterministic); else its stored score meets the new threshold."""
    enabled: bool = True

    @property
    def changed(self) -> bool:
        """Whether the user changed it."""
        return not self.enabled or abs(self.new_threshold - self.threshold) > 1e-9


def base_config(report: EvalReport) -> EvalConfig:
    """The config ``report`` was scored with; without ``config_used``, each criterion of its
    results at the threshold they record (defaults otherwise) and its repeats' pass rule."""
    if report.config_used:
        return EvalConfig.model_validate(report.config_used)
    config = EvalConfig()
    for name, threshold in _recorded_thresholds(report).items():
        try:
            config.enable_criterion(name, CriterionConfig(threshold=threshold))
        except ValueError:
            continue  # not known in this process: kept with its stored scores
    rule = next((r.repeat_stats.pass_rule for r in report.results if r.repeat_stats), None)
    if rule is not None:
        config.pass_rule = rule  # type: ignore[assignment]
    return config


def _recorded_thresholds(report: EvalReport) -> dict[str, float]:
    thresholds: dict[str, float] = {}
    for result in report.results:
        for cr in result.criterion_results:
            thresholds.setdefault(cr.criterion, cr.threshold)
    return thresholds


class WhatIf:
    """A report and the thresholds being tried on it."""

    def __init__(self, report: EvalReport) -> None:
        self.report = report
        self.base = base_config(report)
        self.from_config = bool(report.config_used)
        known = registered_criteria()
        recorded = _recorded_thresholds(report)
        configured = dict(self.base.criteria.enabled_items())
        self.settings: dict[str, CriterionSetting] = {}
        for name in [*recorded, *(n for n in configured if n not in recorded)]:
            cfg = configured.get(name)
            threshold = cfg.threshold if cfg is not None else recorded[name]
            klass = known.get(name)
            rescored = cfg is not None and klass is not None and not klass.requires_judge
            self.settings[name] = CriterionSetting(name, threshold, threshold, rescored)

    @property
    def changed(self) -> bool:
        """Whether any criterion differs from the report's."""
        return any(s.changed for s in self.settings.values())

    def nudge(self, name: str, steps: int) -> None:
        """Move ``name``'s threshold by ``steps`` of :data:`STEP`, within 0 and 1."""
        setting = self.settings[name]
        # rounded to the step and to 4 places: 12 * 0.05 is 0.6000000000000001, above 0.6
        value = round(round((setting.new_threshold + steps * STEP) / STEP) * STEP, 4)
        setting.new_threshold = min(max(value, 0.0), 1.0)

    def toggle(self, name: str) -> None:
        """Turn ``name`` off, or on again."""
        self.settings[name].enabled = not self.settings[name].enabled

    def reset(self) -> None:
        """Every criterion as the report had it."""
        for setting in self.settings.values():
            setting.new_threshold, setting.enabled = setting.threshold, True

    def config(self) -> EvalConfig:
        """The config of the settings tried (what saving the what-if records)."""
        config = self.base.model_copy(deep=True)
        for s in self.settings.values():
            cfg = config.get_criterion_config(s.name)
            if cfg is None:
                if not s.enabled:
                    continue
                try:
                    config.enable_criterion(s.name, CriterionConfig(threshold=s.new_threshold))
                except ValueError:
                    continue  # unknown here: the saved config cannot name it
                continue
            cfg.threshold = s.new_threshold
            cfg.enabled = s.enabled
        return config

    def _rescoring_config(self) -> EvalConfig:
        config = self.config()
        for s in self.settings.values():
            if not s.rescored:
                config.disable_criterion(s.name)
        return config

    async def apply(self) -> EvalReport:
        """The report the settings give (see the module doc); nothing runs the agent."""
        rescored = await rescore_report(self.report, self._rescoring_config())
        kept = {s.name: s for s in self.settings.values() if not s.rescored}
        enabled = {s.name for s in self.settings.values() if s.enabled}
        results = [
            self._merge(original, new, kept, enabled)
            for original, new in zip(self.report.results, rescored.results, strict=True)
        ]
        return EvalReport.create(
            eval_set_id=self.report.eval_set_id,
            results=results,
            eval_set_name=self.report.eval_set_name,
            config_used=self.config().model_dump(mode="json"),
            metadata=rescored.metadata,
        )

    def _merge(
        self,
        original: EvalCaseResult,
        new: EvalCaseResult,
        kept: dict[str, CriterionSetting],
        enabled: set[str],
    ) -> EvalCaseResult:
        if not kept:
            return new
        runs = [
            _merged_run(o, n, kept, enabled) for o, n in zip(original.runs, new.runs, strict=True)
        ]
        if original.repeat_results is None:
            return runs[0]
        return aggregate_repeats(runs, self.base.pass_rule)


def _merged_run(
    original: EvalCaseResult,
    new: EvalCaseResult,
    kept: dict[str, CriterionSetting],
    enabled: set[str],
) -> EvalCaseResult:
    if new.is_error:
        return new
    scored = {cr.criterion: cr for cr in new.criterion_results}
    criteria: list[CriterionResult] = []
    for cr in original.criterion_results:
        setting = kept.get(cr.criterion)
        if setting is None:
            if cr.criterion in scored:
                criteria.append(scored.pop(cr.criterion))
        elif cr.criterion in enabled:
            threshold = setting.new_threshold
            passed = cr.error is None and cr.score >= threshold
            criteria.append(cr.model_copy(update={"threshold": threshold, "passed": passed}))
    criteria.extend(scored.values())  # criteria the original run did not have
    update: dict[str, Any] = {
        "criterion_results": criteria,
        "passed": all(c.passed for c in criteria),
    }
    return new.model_copy(update=update)


@dataclass(frozen=True, slots=True)
class VerdictChange:
    """A case whose status differs between two reports of the same run."""

    index: int
    eval_id: str
    name: str
    before: str
    after: str


def verdict_changes(before: EvalReport, after: EvalReport) -> list[VerdictChange]:
    """The cases (by position: a what-if keeps the order) whose status moved."""
    return [
        VerdictChange(i, a.eval_id, a.name, b.status, a.status)
        for i, (b, a) in enumerate(zip(before.results, after.results, strict=True))
        if b.status != a.status
    ]


__all__ = [
    "STEP",
    "CriterionSetting",
    "VerdictChange",
    "WhatIf",
    "base_config",
    "verdict_changes",
]
