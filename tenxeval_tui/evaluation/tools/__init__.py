"""The agent's tools under control: record and replay them (cassettes), fake them, make
them fail, and check the state the fakes were left in.

- :mod:`.settings`: the run's mode (``live``, ``record``, ``replay``,
  ``replay-or-record``) and where its cassette is;
- :mod:`.spec`: ``metadata.tools`` of an eval set or a case (fakes, faults, state,
  matching, redaction, expected end state);
- :mod:`.current`: the case's tools now, the one place every tool call goes through
  (:func:`~.current.intercept`);
- :mod:`.session`: what decides a call when a run controls its tools (``CaseTools``);
- :mod:`.cassette`: the ``NAME.tools.jsonl`` files;
- :mod:`.run`: a run's tools (:class:`ToolRun`), handed to ``AgentEvaluator(tools=...)``.
"""

from tenxeval_tui.evaluation._lazy import lazy_exports

# Loaded on first access: the settings layer reads the modes without loading the rest.
_EXPORTS: dict[str, str] = {
    "CassetteError": "cassette",
    "RecordedCall": "cassette",
    "read_cassette": "cassette",
    "write_case": "cassette",
    "ToolFaultTimeout": "errors",
    "UnrecordedToolCall": "errors",
    "TOOL_CASSETTE_KEY": "run",
    "TOOL_MODES_KEY": "run",
    "TOOL_STATE_KEY": "run",
    "ToolRun": "run",
    "ToolCallInfo": "session",
    "intercept": "session",
    "CASSETTE_SUFFIX": "settings",
    "TOOL_MODES": "settings",
    "ToolMode": "settings",
    "ToolSettings": "settings",
    "cassette_path": "settings",
    "TOOLS_KEY": "spec",
    "FaultSpec": "spec",
    "ToolSpec": "spec",
    "ToolSpecError": "spec",
}
__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)

__all__ = sorted(_EXPORTS)
