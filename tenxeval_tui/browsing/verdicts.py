"""What a report says of each reply: the case's verdict and each criterion's, with the
judge's reason, and the hash that ties a human label to the reply.

Read from the report's JSON as parsed (:class:`ReportDocument`), without validating each
case into a model: agreement over a 10,000-case report needs five fields per case. A case
that ran several times is its top level (the repeat the report shows for it). No UI.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tenxeval_tui.browsing.labels import CASE, reply_sha256
from tenxeval_tui.browsing.report_document import ReportDocument
from tenxeval_tui.evaluation.errors import EvalFileError, Problem
from tenxeval_tui.evaluation.eval_result import EVAL_SET_ID_KEY
from tenxeval_tui.evaluation.files.fileio import parse_json, read_text


@dataclass(frozen=True, slots=True)
class CriterionVerdict:
    """One criterion's verdict on a reply."""

    name: str
    passed: bool | None
    """``None`` when the criterion errored: it gave no verdict."""
    score: float
    threshold: float
    reason: str
    """The judge's explanation (``details.reason``/``reasoning``), or the error."""


@dataclass(frozen=True, slots=True)
class CaseVerdicts:
    """A case of a report: its reply and every verdict on it."""

    index: int
    """Where the case is in the report's results."""
    eval_set_id: str
    eval_id: str
    name: str
    status: str
    """``passed``, ``failed`` or ``error``."""
    reply: str
    reply_sha256: str
    criteria: tuple[CriterionVerdict, ...]

    @property
    def label(self) -> str:
        """The case's name, else its id."""
        return self.name or self.eval_id

    def verdict(self, criterion: str | None) -> bool | None:
        """The verdict on the whole case (``criterion`` ``None``) or on one criterion;
        ``None`` when there is none: an errored case (none of its verdicts counts, they
        judged a run that did not finish), an errored criterion, or a criterion the case
        was not scored on."""
        if self.status == "error":
            return None
        if criterion is None:
            return self.status == "passed"
        found = self.criterion(criterion)
        return found.passed if found is not None else None

    def criterion(self, name: str) -> CriterionVerdict | None:
        """The criterion called ``name``, if the case was scored on it."""
        return next((c for c in self.criteria if c.name == name), None)

    def verdict_name(self, criterion: str | None) -> str:
        """How a verdict is reported: the criterion's name, or :data:`CASE`."""
        return criterion if criterion is not None else CASE


def _reason(data: dict[str, Any]) -> str:
    if data.get("error") is not None:
        return f"error: {data['error']}"
    details = data.get("details")
    if isinstance(details, dict):
        value = details.get("reason", details.get("reasoning"))
        if value is not None:
            return str(value)
    return ""


def _criterion(data: Any) -> CriterionVerdict:
    if not isinstance(data, dict) or not isinstance(data.get("criterion"), str):
        raise ValueError("a criterion result without a criterion name")
    errored = data.get("error") is not None
    return CriterionVerdict(
        name=data["criterion"],
        passed=None if errored else bool(data.get("passed")),
        score=float(data.get("score") or 0.0),
        threshold=float(data.get("threshold") or 0.0),
        reason=_reason(data),
    )


def case_verdicts(index: int, data: Any, eval_set_id: str = "") -> CaseVerdicts:
    """The verdicts of one case result's JSON; ``ValueError`` when it is no case result.
    ``eval_set_id``: the report's, for a case that does not name its own."""
    if not isinstance(data, dict) or not isinstance(data.get("eval_id"), str):
        raise ValueError("not a case result (no eval_id)")
    reply = data.get("actual_response") or ""
    if not isinstance(reply, str):
        raise ValueError("actual_response is not a string")
    error = data.get("error")
    status = "error" if error is not None else ("passed" if data.get("passed") else "failed")
    metadata = data.get("metadata")
    own_set = metadata.get(EVAL_SET_ID_KEY) if isinstance(metadata, dict) else None
    criteria = data.get("criterion_results") or []
    if not isinstance(criteria, list):
        raise ValueError("criterion_results is not a list")
    return CaseVerdicts(
        index=index,
        eval_set_id=str(own_set or eval_set_id),
        eval_id=data["eval_id"],
        name=str(data.get("name") or ""),
        status=status,
        reply=reply,
        reply_sha256=reply_sha256(reply),
        criteria=tuple(_criterion(item) for item in criteria),
    )


@dataclass
class ReportVerdicts:
    """Every case's verdicts in one report."""

    path: Path
    eval_set_id: str
    title: str
    cases: list[CaseVerdicts]
    document: ReportDocument | None = None
    """The report as opened for browsing (a case's full result, for showing it); ``None``
    when only the verdicts were read (:func:`read_verdicts`)."""

    @property
    def criteria(self) -> list[str]:
        """Every criterion some case was scored on, in the order first met."""
        seen: dict[str, None] = {}
        for case in self.cases:
            for criterion in case.criteria:
                seen.setdefault(criterion.name, None)
        return list(seen)


def _all_verdicts(path: Path, raw: Sequence[Any], eval_set_id: str) -> list[CaseVerdicts]:
    cases: list[CaseVerdicts] = []
    for index, data in enumerate(raw):
        try:
            cases.append(case_verdicts(index, data, eval_set_id))
        except (TypeError, ValueError) as exc:
            problem = Problem(str(path), str(exc), json_path=f"results[{index}]")
            raise EvalFileError([problem]) from None
    return cases


def document_verdicts(document: ReportDocument) -> ReportVerdicts:
    """The verdicts of every case of ``document`` (read whole); a case result that is not
    one is an :class:`EvalFileError` naming the file and ``results[i]``."""
    cases = _all_verdicts(document.path, document.raw_results, document.eval_set_id)
    return ReportVerdicts(document.path, document.eval_set_id, document.title, cases, document)


def read_verdicts(path: Path) -> ReportVerdicts:
    """The verdicts of the report at ``path``, read as plain JSON (no case, summary or
    token count is validated into a model: what ``agreement`` needs of 10,000 cases);
    :class:`EvalFileError` (file, place, problem) or ``OSError`` when it cannot be used."""
    data = parse_json(path, read_text(path))
    if not isinstance(data, dict) or not isinstance(data.get("eval_set_id"), str):
        raise EvalFileError([Problem(str(path), "not a JSON report (no eval_set_id)")])
    raw = data.get("results") or []
    if not isinstance(raw, list):
        raise EvalFileError([Problem(str(path), "results is not a list", json_path="results")])
    eval_set_id = data["eval_set_id"]
    title = str(data.get("eval_set_name") or eval_set_id)
    return ReportVerdicts(path, eval_set_id, title, _all_verdicts(path, raw, eval_set_id))


__all__ = [
    "CaseVerdicts",
    "CriterionVerdict",
    "ReportVerdicts",
    "case_verdicts",
    "document_verdicts",
    "read_verdicts",
]
