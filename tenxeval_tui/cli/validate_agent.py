"""``validate --check-agent``: expected tool calls and node orders checked against the agent.

The same checks as the editor's warnings (:mod:`tenxeval_tui.authoring.agent_checks`):
an unknown tool, an unknown or missing argument, a value of the wrong type, an unknown
node; each printed as ``file:line:column: json.path: warning: ...``. They are warnings:
they do not change the exit status (a case may pin down a call on purpose). The agent
is the eval set's own (``metadata.agent``) or ``[tool.tenxeval]``'s, unless one is given
(``--agent SPEC``, which wins, as for ``run``); it is described in a child process.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tenxeval_tui.authoring.agent_checks import agent_notes, tool_section_notes
from tenxeval_tui.evaluation.errors import Problem
from tenxeval_tui.evaluation.files.jsonlocate import PathPart, format_path, locate_many
from tenxeval_tui.evaluation.tools.spec import TOOLS_KEY
from tenxeval_tui.runs.agent_schema import SchemaResult, read_schema
from tenxeval_tui.settings.workspace import open_workspace

_LEAVES = {"name": "name", "args": "args", "nodes": "expected_node_order"}


def json_path(case_index: int, key: str) -> list[PathPart]:
    """Where field ``key`` of case ``case_index`` is in the file (``turns.0.tools.1.args``
    -> ``eval_cases[i].conversation[0].expected_tool_trajectory[1].args``)."""
    parts = key.split(".")
    path: list[PathPart] = ["eval_cases", case_index, "conversation", int(parts[1])]
    if parts[2] == "tools":
        path += ["expected_tool_trajectory", int(parts[3]), _LEAVES[parts[4]]]
    else:
        path.append(_LEAVES[parts[2]])
    return path


class AgentChecker:
    """Checks eval set files against their agents, each agent described once."""

    def __init__(self, agent: str | None) -> None:
        self.agent = agent or None
        """The agent given on the command line (wins over the eval sets' own)."""
        self._schemas: dict[tuple[str, Path], SchemaResult] = {}

    def _spec(self, path: Path, data: dict[str, Any]) -> tuple[str, Path]:
        workspace = open_workspace(path)
        folder = (
            workspace.settings_file.parent if workspace.settings_file else Path.cwd()
        ).resolve()
        metadata = data.get("metadata")
        own = metadata.get("agent") if isinstance(metadata, dict) else None
        spec = self.agent or (own if isinstance(own, str) else "") or workspace.settings.agent
        return (spec or "").strip(), folder

    def check(self, path: Path) -> list[Problem]:
        """The agent warnings of the eval set in ``path`` (a file that loads)."""
        text = path.read_text(encoding="utf-8")
        data = json.loads(text)
        spec, folder = self._spec(path, data)
        if not spec:
            return [Problem(str(path), "warning: no agent to check against (--agent MODULE:ATTR)")]
        key = (spec, folder)
        if key not in self._schemas:
            self._schemas[key] = read_schema(spec, folder)
        result = self._schemas[key]
        if result.schema is None:
            return [Problem(str(path), f"warning: {result.error}")]
        found: list[tuple[list[PathPart], str]] = _tool_notes(result.schema, [], data)
        for index, case in enumerate(data.get("eval_cases") or []):
            if isinstance(case, dict):
                for field, message in agent_notes(result.schema, case).items():
                    found.append((json_path(index, field), message))
                found += _tool_notes(result.schema, ["eval_cases", index], case)
        places = locate_many(text, [where for where, _ in found])
        return [
            Problem(str(path), f"warning: {message}", line, column, format_path(where))
            for (where, message), (line, column) in zip(found, places, strict=True)
        ]


def _tool_notes(
    schema: Any, where: list[PathPart], holder: Any
) -> list[tuple[list[PathPart], str]]:
    """The agent warnings of ``holder``'s ``metadata.tools`` (``holder`` at ``where``)."""
    metadata = holder.get("metadata") if isinstance(holder, dict) else None
    section = metadata.get(TOOLS_KEY) if isinstance(metadata, dict) else None
    return [
        ([*where, "metadata", TOOLS_KEY, *place], message)
        for place, message in tool_section_notes(schema, section)
    ]


__all__ = ["AgentChecker", "json_path"]
