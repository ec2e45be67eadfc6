"""``tool_end_state``: the state the case's fake tools left, checked at JSON paths."""

from __future__ import annotations

from typing import Any

from tenxeval_tui.evaluation.criteria.base import SyncCriterion, register_criterion
from tenxeval_tui.evaluation.dataset.eval_set import EvalCase
from tenxeval_tui.evaluation.eval_result import CriterionResult
from tenxeval_tui.evaluation.execution.result import ExecutionResult
from tenxeval_tui.evaluation.tools.spec import ToolSpecError, tool_spec
from tenxeval_tui.evaluation.tools.state_paths import MISSING, read_path


@register_criterion
class ToolEndStateCriterion(SyncCriterion):
    """``tool_end_state``: after the case, the fakes' state holds the expected values.

    Expected: the case's ``metadata.tools.end_state``, JSON path -> value (see
    :mod:`~tenxeval_tui.evaluation.tools.state_paths`: ``$.refunds[0].order_id``,
    ``$.refunds.`len```); actual: the state the case's fakes shared
    (``ExecutionResult.tool_state``). The score is the share of paths whose value equals
    the expected one (JSON equality: ``1`` equals ``1.0``, key order does not count).
    ``details["paths"]`` gives each path's expected and actual value.

    Nothing expected: 1.0 with ``details["note"]`` saying so. Expected values but no state
    (no fake ran, or the case set none): 0.0, saying so.
    """

    name = "tool_end_state"
    description = "The fake tools' state after the case against the expected values"

    def evaluate_sync(self, actual: ExecutionResult, expected: EvalCase) -> CriterionResult:
        try:
            wanted = tool_spec(expected.metadata, f"case {expected.eval_id!r}").end_state
        except ToolSpecError as exc:
            return self.failure(str(exc))
        if not wanted:
            note = "no expectation: the case has no metadata.tools.end_state"
            return self.result(1.0, details={"note": note, "reason": note})
        state = actual.tool_state
        if state is None:
            reason = "the case's tools kept no state (no fake ran and no metadata.tools.state)"
            return self.result(0.0, details={"reason": reason, "expected": wanted})
        paths: list[dict[str, Any]] = []
        for path, value in wanted.items():
            found = read_path(state, path)
            ok = found is not MISSING and found == value
            entry: dict[str, Any] = {"path": path, "expected": value, "passed": ok}
            entry["actual"] = None if found is MISSING else found
            if found is MISSING:
                entry["missing"] = True
            paths.append(entry)
        wrong = [p["path"] for p in paths if not p["passed"]]
        reason = (
            f"every one of {len(paths)} path(s) holds its expected value"
            if not wrong
            else f"{len(wrong)} of {len(paths)} path(s) differ: {', '.join(wrong)}"
        )
        score = (len(paths) - len(wrong)) / len(paths)
        return self.result(score, details={"reason": reason, "paths": paths, "state": state})
