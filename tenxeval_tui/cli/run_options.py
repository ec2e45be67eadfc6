"""The newer flags of ``tenxeval-tui run`` resolved and checked before anything runs, and what
they add after it: ``--repeat``/``--pass-rule``/``--max-cost`` on the config, ``-o FILE``
report files, the ``--json`` summary and the ``--error-exit-code``.

Each problem is a :class:`FlagError` whose message names the flag;
:mod:`tenxeval_tui.cli.headless` turns it into a usage error (exit code 2).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from tenxeval_tui.evaluation.config.eval_config import EvalConfig, PassRule
    from tenxeval_tui.evaluation.tools.settings import ToolSettings
    from tenxeval_tui.runs.outcome import Published

MAX_REPEATS = 10_000


class FlagError(ValueError):
    """A flag's value is wrong; the message names the flag."""


def parse_pass_rule(raw: str) -> PassRule:
    """``all`` or a number in (0, 1]; :class:`FlagError` otherwise."""
    if raw.strip().lower() == "all":
        return "all"
    try:
        rate = float(raw)
    except ValueError:
        raise FlagError(f"--pass-rule: {raw!r} is neither 'all' nor a number") from None
    if not (0.0 < rate <= 1.0):
        raise FlagError(f"--pass-rule: {raw} is not a rate in (0, 1] (e.g. 0.8)")
    return rate


def with_run_flags(
    config: EvalConfig, repeat: int | None, raw_rule: str | None, max_cost: float | None
) -> EvalConfig:
    """``config`` with ``--repeat``, ``--pass-rule`` and ``--max-cost`` applied (a copy when
    any is given); :class:`FlagError` on a bad value."""
    from tenxeval_tui.evaluation.config.eval_config import with_repeats

    if repeat is not None and not 1 <= repeat <= MAX_REPEATS:
        raise FlagError(f"--repeat: {repeat} is not a whole number from 1 to {MAX_REPEATS:,}")
    rule = parse_pass_rule(raw_rule) if raw_rule is not None else None
    config = with_repeats(config, repeat, rule)
    if max_cost is not None:
        if not (max_cost > 0 and math.isfinite(max_cost)):
            raise FlagError(f"--max-cost: {max_cost} is not an amount of USD more than 0")
        config = config.model_copy(update={"max_cost": max_cost})
    return config


def check_outputs(outputs: Sequence[str] | None) -> None:
    """Every ``-o FILE`` names a report format by its ending; :class:`FlagError` otherwise."""
    from tenxeval_tui.evaluation.reporters.files import reporter_for_path

    for output in outputs or ():
        try:
            reporter_for_path(output)
        except ValueError as exc:
            raise FlagError(f"-o: {exc}") from None
        if Path(output).is_dir():
            raise FlagError(f"-o: {output}: is a folder, not a file")


def subset_fields(limit: int | None, sample: int | None, seed: int | None) -> dict[str, int | None]:
    """``--limit``, ``--sample`` and ``--seed`` as :class:`~tenxeval_tui.runs.plan.RunPlan`
    fields; :class:`FlagError` when they do not go together."""
    if limit is not None and sample is not None:
        raise FlagError("--limit and --sample: use one or the other")
    for name, count in (("--limit", limit), ("--sample", sample)):
        if count is not None and count < 1:
            raise FlagError(f"{name}: must be at least 1, not {count}")
    if seed is not None and sample is None:
        raise FlagError("--seed: only goes with --sample")
    return {"limit": limit, "sample": sample, "seed": seed}


def tool_settings(mode: str | None, cassette: str | None, files: Sequence[Path]) -> ToolSettings:
    """``--tools`` (``mode``, filled from the settings below it) and ``--cassette`` as the
    plan's tool settings; :class:`FlagError` when ``--cassette`` would hold several eval
    sets."""
    from tenxeval_tui.evaluation.tools.settings import ToolSettings

    if cassette is not None and len(files) > 1:
        raise FlagError(
            f"--cassette: one cassette holds one eval set's calls, and this run has "
            f"{len(files)} eval sets (leave it out: each gets NAME.tools.jsonl beside it)"
        )
    # validated: a mode from the settings' layers is a string as written
    return ToolSettings.model_validate(
        {"mode": mode or "live", "cassette": Path(cassette).absolute() if cassette else None}
    )


def check_error_exit_code(code: int | None) -> None:
    """``--error-exit-code`` is a usable exit status: 1 to 125, not 2 (usage errors)."""
    if code is not None and (not 1 <= code <= 125 or code == 2):
        raise FlagError(
            f"--error-exit-code: {code} is not an exit code from 1 to 125 other than 2 "
            "(2 means a usage error)"
        )


def json_summary(published: Sequence[Published], code: int, threshold: float) -> dict[str, Any]:
    """The ``--json`` summary of a run whose exit code is ``code``: totals, pass rate,
    errored cases, the cases retried and reused, cost (when priced), whether it is partial or stopped
    early and why (``incomplete``), and the report files."""
    from tenxeval_tui.evaluation.eval_result import NOT_RUN_KEY, STOPPED_KEY

    data: dict[str, Any] = {"exit_code": code, "threshold": threshold}
    if not published:
        return {**data, "total_cases": 0, "reports": []}
    last = published[-1]
    report, s = last.report, last.report.summary
    data.update(
        eval_set_id=report.eval_set_id,
        total_cases=s.total_cases,
        passed_cases=s.passed_cases,
        failed_cases=s.failed_cases,
        error_cases=s.error_cases,
        pass_rate=s.pass_rate,
        errored=[r.eval_id for r in report.results if r.is_error],
        retried=last.retried,
        reused=last.reused,
        partial=report.is_partial,
    )
    if last.incomplete is not None:
        data["incomplete"] = last.incomplete
    if s.total_cost_usd is not None:
        data["cost_usd"] = s.total_cost_usd
    if report.metadata.get(STOPPED_KEY):
        data["stopped_by"] = report.metadata[STOPPED_KEY]
        data["not_run"] = list(report.metadata.get(NOT_RUN_KEY) or [])
    if s.repeat_stats is not None:
        data["repeat_pass_rate"] = s.repeat_stats.repeat_pass_rate
    data["reports"] = [path for p in published for path in p.files]
    return data


__all__ = [
    "FlagError",
    "check_error_exit_code",
    "check_outputs",
    "json_summary",
    "parse_pass_rule",
    "subset_fields",
    "tool_settings",
    "with_run_flags",
]
