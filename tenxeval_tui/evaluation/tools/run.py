"""A run's tools: its :class:`~.settings.ToolSettings`, each eval set's cassette and
``metadata.tools``, and what becomes of each case's calls.

:class:`ToolRun` is handed to :class:`~tenxeval_tui.evaluation.evaluator.AgentEvaluator`
(``tools=``, or through :class:`~tenxeval_tui.evaluation.evaluator.EvaluationRunner`). For
each case it runs it opens a :class:`~.session.CaseTools` (:meth:`ToolRun.open_case`;
``None`` when nothing about the case's tools is controlled, so a plain live run costs
nothing) and, once the case has its result, :meth:`ToolRun.finish_case` writes in the
result's metadata:

- ``tool_modes``: how many calls were ``live``, ``replayed``, ``faked`` (``unrecorded``);
- ``tool_state``: the fakes' state at the end (what ``tool_end_state`` checked);
- ``tool_cassette``: the case's calls as cassette lines, when the mode records.

The cassette is written from those lines by :meth:`ToolRun.write_result` (a run
observer: :meth:`ToolRun.writer`), so the process that writes it is the one that gets
every case's result, whether the cases ran in it, in worker processes or on Ray.
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tenxeval_tui.evaluation.dataset.eval_set import EvalCase, EvalSet
from tenxeval_tui.evaluation.eval_result import EVAL_SET_ID_KEY, EvalCaseResult
from tenxeval_tui.evaluation.observers import RunObserver
from tenxeval_tui.evaluation.results.id_places import IdList
from tenxeval_tui.evaluation.tools.settings import ToolSettings, cassette_path
from tenxeval_tui.evaluation.tools.spec import TOOLS_KEY, ToolSpec, ToolSpecError, tool_spec

if TYPE_CHECKING:  # imported where a run's cases have tools to control (issue #38)
    from tenxeval_tui.evaluation.tools.cassette import RecordedCall
    from tenxeval_tui.evaluation.tools.session import CaseTools, Fake

TOOL_MODES_KEY = "tool_modes"
TOOL_STATE_KEY = "tool_state"
TOOL_CASSETTE_KEY = "tool_cassette"
TOOL_SPEC_ERROR = "ToolSpecError"
"""``error_info["error_type"]`` of a case whose ``metadata.tools`` cannot be used."""


@dataclass(slots=True)
class _EvalSetTools:
    """What the run knows of one eval set's tools."""

    spec: ToolSpec
    cassette: Path | None
    recorded: dict[str, list[RecordedCall]]
    order: Sequence[str]
    """The eval set's case ids, in order (where a case's first lines go)."""


class ToolRun:
    """The tools of one run (see the module's doc). ``write``: whether :meth:`writer`
    writes cassettes (off in a worker process whose driver writes them)."""

    def __init__(self, settings: ToolSettings | None = None, *, write: bool = True) -> None:
        self.settings = settings or ToolSettings()
        self.write = write
        self._sets: dict[str, _EvalSetTools] = {}
        self._fakes: dict[str, Fake] = {}

    def add_eval_set(self, eval_set: EvalSet, path: Path | None = None) -> None:
        """Know ``eval_set`` (read from ``path``): its ``metadata.tools`` and, when the mode
        replays, its cassette. :class:`ToolSpecError` or
        :class:`~.cassette.CassetteError` name the file and the place."""
        where = f"eval set {eval_set.eval_set_id!r}" + (f" ({path})" if path else "")
        spec = tool_spec(eval_set.metadata, where)
        cassette = self.settings.cassette or (cassette_path(path) if path is not None else None)
        recorded: dict[str, list[RecordedCall]] = {}
        if cassette and self.settings.replays:
            from tenxeval_tui.evaluation.tools.cassette import read_cassette

            recorded = read_cassette(cassette)
        # Kept for the whole run (a cassette's order): compactly, not a string object a case.
        order = IdList(case.eval_id for case in eval_set.eval_cases)
        self._sets[eval_set.eval_set_id] = _EvalSetTools(spec, cassette, recorded, order)

    def knows(self, eval_set_id: str) -> bool:
        """Whether :meth:`add_eval_set` was told of this eval set."""
        return eval_set_id in self._sets

    def open_case(self, eval_set_id: str, case: EvalCase) -> CaseTools | None:
        """The tools of one run of ``case``; ``None`` when the mode is live and neither the
        case nor its eval set says anything of its tools. :class:`ToolSpecError` names the
        case's problem."""
        known = self._sets.get(eval_set_id)
        if (
            self.settings.mode == "live"
            and (known is None or known.spec.is_empty)
            and (case.metadata or {}).get(TOOLS_KEY) is None
        ):
            return None  # what the spec below would find, without building it (every case)
        set_spec = known.spec if known is not None else ToolSpec()
        where = f"eval set {eval_set_id!r}, case {case.eval_id!r}"
        case_spec = tool_spec(case.metadata, where)
        if self.settings.mode == "live" and set_spec.is_empty and case_spec.is_empty:
            return None
        from tenxeval_tui.evaluation.tools.errors import check_error_type
        from tenxeval_tui.evaluation.tools.session import CaseTools

        spec = set_spec.joined(case_spec)
        for index, fault in enumerate(spec.faults):
            problem = check_error_type(fault.raises) if fault.raises else None
            if problem:
                raise ToolSpecError(f"{where}: metadata.tools.faults[{index}].raises: {problem}")
        fakes = {tool: self._fake(spec_text, where) for tool, spec_text in spec.fakes.items()}
        cassette = known.cassette if known is not None else self.settings.cassette
        if cassette is None and self.settings.mode != "live":
            raise ToolSpecError(
                f"{where}: the tools mode {self.settings.mode!r} needs a cassette: run the "
                "eval set from its file, or name one (--cassette)"
            )
        recorded = known.recorded.get(case.eval_id, []) if known is not None else []
        return CaseTools(
            case.eval_id,
            spec,
            self.settings.mode,
            recorded=recorded,
            cassette=cassette,
            fakes=fakes,
        )

    def _fake(self, spec: str, where: str) -> Fake:
        if spec not in self._fakes:
            module_name, _, attribute = spec.partition(":")
            try:
                found: Any = importlib.import_module(module_name)
                for part in attribute.split("."):
                    found = getattr(found, part)
            except Exception as exc:  # the fake's module may raise anything on import
                raise ToolSpecError(
                    f"{where}: metadata.tools.fakes: {spec!r}: {type(exc).__name__}: {exc}"
                ) from None
            if not callable(found):
                raise ToolSpecError(f"{where}: metadata.tools.fakes: {spec!r} is not callable")
            self._fakes[spec] = found
        return self._fakes[spec]

    def finish_case(self, tools: CaseTools | None, result: EvalCaseResult) -> None:
        """Write what ``tools`` saw in ``result``'s metadata (see the module's doc)."""
        if tools is None:
            return
        result.metadata[TOOL_MODES_KEY] = dict(sorted(tools.marks.items()))
        if tools.has_state:
            result.metadata[TOOL_STATE_KEY] = tools.state
        if tools.records:
            result.metadata[TOOL_CASSETTE_KEY] = [c.to_json() for c in tools.calls]

    def write_result(self, result: EvalCaseResult) -> None:
        """Store a finished case's recorded calls in its eval set's cassette (nothing when
        it recorded none, or this run does not write)."""
        lines = result.metadata.get(TOOL_CASSETTE_KEY)
        if not self.write or not isinstance(lines, list):
            return
        known = self._sets.get(str(result.metadata.get(EVAL_SET_ID_KEY, "")))
        cassette = known.cassette if known is not None else self.settings.cassette
        if cassette is None:
            return
        from tenxeval_tui.evaluation.tools.cassette import RecordedCall, write_case

        calls = [RecordedCall.from_json(line) for line in lines]
        write_case(cassette, result.eval_id, calls, known.order if known is not None else ())

    def writer(self) -> RunObserver:
        """A run observer writing each finished case's calls to its cassette."""
        return _CassetteWriter(self)


class _CassetteWriter(RunObserver):
    def __init__(self, tools: ToolRun) -> None:
        self.tools = tools

    def on_case_end(self, result: EvalCaseResult) -> None:
        self.tools.write_result(result)


__all__ = [
    "TOOL_CASSETTE_KEY",
    "TOOL_MODES_KEY",
    "TOOL_SPEC_ERROR",
    "TOOL_STATE_KEY",
    "ToolRun",
]
