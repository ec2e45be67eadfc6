"""The agent's tools under control: record and replay them (cassettes), fake them, make
them fail, and check the state the fakes were left in.

- :mod:`.settings`: the run's mode (``live``, ``record``, ``replay``,
  ``replay-or-record``) and where its cassette is;
- :mod:`.spec`: ``metadata.tools`` of an eval set or a case (fakes, faults, state,
  matching, redaction, expected end state);
- :mod:`.session`: the one place every tool call goes through (:func:`intercept`);
- :mod:`.cassette`: the ``NAME.tools.jsonl`` files;
- :mod:`.run`: a run's tools (:class:`ToolRun`), handed to ``AgentEvaluator(tools=...)``.
"""

from tenxeval_tui.evaluation.tools.cassette import (
    CassetteError,
    RecordedCall,
    read_cassette,
    write_case,
)
from tenxeval_tui.evaluation.tools.errors import ToolFaultTimeout, UnrecordedToolCall
from tenxeval_tui.evaluation.tools.run import (
    TOOL_CASSETTE_KEY,
    TOOL_MODES_KEY,
    TOOL_STATE_KEY,
    ToolRun,
)
from tenxeval_tui.evaluation.tools.session import ToolCallInfo, intercept
from tenxeval_tui.evaluation.tools.settings import (
    CASSETTE_SUFFIX,
    TOOL_MODES,
    ToolMode,
    ToolSettings,
    cassette_path,
)
from tenxeval_tui.evaluation.tools.spec import TOOLS_KEY, FaultSpec, ToolSpec, ToolSpecError

__all__ = [
    "CASSETTE_SUFFIX",
    "TOOLS_KEY",
    "TOOL_CASSETTE_KEY",
    "TOOL_MODES",
    "TOOL_MODES_KEY",
    "TOOL_STATE_KEY",
    "CassetteError",
    "FaultSpec",
    "RecordedCall",
    "ToolCallInfo",
    "ToolFaultTimeout",
    "ToolMode",
    "ToolRun",
    "ToolSettings",
    "ToolSpec",
    "ToolSpecError",
    "UnrecordedToolCall",
    "cassette_path",
    "intercept",
    "read_cassette",
    "write_case",
]
