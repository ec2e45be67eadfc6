"""The editor's commands that know the agent: completion from its schema, recording a case
by chatting with it, bulk edits of the selected cases, and a case's tools.

:class:`AgentCommands` is an object the editor screen owns next to its
:class:`~tenxeval_tui.screens.editor.case_commands.CaseCommands` (whose document it
edits); the screen declares the keys (:data:`AGENT_BINDINGS` among its own) and calls
:meth:`AgentCommands.read_agent_schema` when it shows a form. The agent is resolved as a
run resolves it; it is described and talked to in child processes
(:mod:`tenxeval_tui.runs.agent_schema`, :mod:`tenxeval_tui.runs.chat_process`).
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from textual.binding import Binding

from tenxeval_tui.authoring.recording import user_messages
from tenxeval_tui.evaluation.inert import quoted
from tenxeval_tui.runs.agent_schema import SchemaCache, SchemaResult
from tenxeval_tui.screens.common.host import host_of
from tenxeval_tui.screens.editor.case_commands import CaseCommands
from tenxeval_tui.screens.editor.record_chat import RecordScreen
from tenxeval_tui.screens.editor.recorded_calls import RecordedCallsScreen
from tenxeval_tui.screens.editor.tool_commands import edit_tool_section, show_recorded_calls
from tenxeval_tui.screens.editor.tool_section import ToolSectionScreen
from tenxeval_tui.widgets.editor.case_form import CaseForm
from tenxeval_tui.widgets.editor.case_table import CaseTable

AGENT_BINDINGS = [
    Binding("f6", "record_case", "Record a case", tooltip="Chat with the agent, save as case"),
    Binding(
        "shift+f6",
        "record_case(True)",
        "Continue the case's conversation",
        show=False,
        tooltip="A chat with the agent, the selected case's user messages replayed first",
    ),
    Binding(
        "f8",
        "recorded_calls",
        "Recorded tool calls",
        show=False,  # in the help and the command palette
        tooltip="The case's tool calls in its cassette (NAME.tools.jsonl): look, edit, save",
        id="editor.recorded_calls",
    ),
    Binding(
        "f9",
        "tool_section(False)",
        "Tools: fakes, faults, end state",
        show=False,
        tooltip="The case's metadata.tools, completed from the agent's tools",
        id="editor.tool_section",
    ),
    Binding(
        "shift+f9",
        "tool_section(True)",
        "Tools of every case (the eval set's)",
        show=False,
        tooltip="The eval set's metadata.tools, which every case adds to",
    ),
]
"""The keys of these commands, declared by the screen that owns them."""

OUTSIDE_KEEP = 60.0
"""Seconds the schema of an agent whose code lies outside the workspace (an installed
package, a module found on ``PYTHONPATH``) is kept: the cache follows only the
workspace's files, so it asked a child process again for every case shown (a fork and
an import competing with the keys on each move through the list)."""


def agent_help_sections() -> list[tuple[str, list[Any]]]:
    """The keys of the screens these commands open, for the help screen."""
    return [
        ("record a case (the chat, f6)", list(RecordScreen.BINDINGS)),
        ("recorded tool calls (f8)", list(RecordedCallsScreen.BINDINGS)),
        ("tools: fakes, faults, end state (f9)", list(ToolSectionScreen.BINDINGS)),
    ]


class AgentCommands:
    """Completion and checks from the agent's schema, recording, bulk edits, tools:
    commands on the document of ``cases``, shown on its screen."""

    def __init__(self, cases: CaseCommands) -> None:
        self.cases = cases
        self.schemas = SchemaCache()
        """The agents' tools and nodes the form completes from, read in child processes."""
        self.agent_schema_error: str | None = None
        """Why the open eval set's agent could not be described (``None``: it was)."""
        self._outside: dict[tuple[str, Path], SchemaResult] = {}
        """Schemas of agents whose files the cache does not follow (see OUTSIDE_KEEP)."""

    def enabled(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Whether ``action`` can run now (``None``: shown disabled), for ``check_action``."""
        if action in ("recorded_calls", "tool_section"):
            if not self.cases.editing:
                return None
            whole_set = action == "tool_section" and parameters == (True,)
            uid = self.cases.screen.query_one(CaseForm).uid
            return True if whole_set or uid is not None else None
        return True

    async def close(self) -> None:
        """End the agents' children (none outlives the editor)."""
        await self.schemas.close()

    def agent_spec(self) -> tuple[str, Path]:
        """The open eval set's agent (its ``metadata.agent``, else ``[tool.tenxeval]``'s,
        as a run resolves it) and the folder its module is found from."""
        ws = host_of(self.cases.screen.app).workspace
        folder = (ws.settings_file.parent if ws.settings_file else Path.cwd()).resolve()
        document = self.cases.document
        own = document.agent if document is not None else ""
        return (own or ws.settings.agent or "").strip(), folder

    async def read_agent_schema(self) -> None:
        """Read the agent's tools and nodes for completion and checks: in a child process
        (the agent cannot take the editor down), cached until its code changes."""
        screen = self.cases.screen
        spec, folder = self.agent_spec()
        form = screen.query_one(CaseForm)
        if not spec:
            form.completion.schema, self.agent_schema_error = None, None
        else:
            result = await self._schema(spec, folder)
            told = self.agent_schema_error
            form.completion.schema, self.agent_schema_error = result.schema, result.error
            if result.error is not None and result.error != told:  # once per problem
                screen.notify(
                    f"No completion from the agent: {result.error}",
                    severity="warning",
                    timeout=8,
                    markup=False,
                )
        form.show_agent_notes()

    async def _schema(self, spec: str, folder: Path) -> SchemaResult:
        kept = self._outside.get((spec, folder))
        if kept is not None and time.monotonic() - kept.read_at < OUTSIDE_KEEP:
            return kept
        result = await self.schemas.get(spec, folder)
        if result.schema is not None and not result.files:
            self._outside[(spec, folder)] = result
        return result

    def highlights(self, eval_id: str) -> bool:
        """Whether case ``eval_id`` is the highlighted one."""
        uid = self.cases.screen.query_one(CaseTable).highlighted_uid
        document = self.cases.document
        return document is not None and uid is not None and document.case(uid).eval_id == eval_id

    async def record_case(self, continued: bool = False) -> None:
        """Chat with the eval set's agent and add the conversation as a case (unsaved,
        undoable), after the selected one (see :mod:`.record_chat`); ``continued``: the
        selected case's user messages are replayed first, and the chat goes on from there.
        Run it in a worker: it waits for the chat."""
        cases = self.cases
        screen = cases.screen
        await cases.settle()
        document = cases.document
        spec, folder = self.agent_spec()
        if document is None:  # a chat needs no checked file; adding its case does
            screen.notify("Open an eval set that loads first.")
            return
        selected = screen.query_one(CaseTable).highlighted_uid
        replay = user_messages(document.case(selected).data) if continued and selected else []
        if continued and not replay:
            screen.notify("Select a case with turns to continue its conversation.")
            return
        if not spec:
            screen.notify(
                "No agent to talk to: name one with f2 (metadata.agent) or in "
                "[tool.tenxeval] agent.",
                severity="warning",
            )
            return
        taken = [case.eval_id for case in document.cases]
        case = await screen.app.push_screen_wait(RecordScreen(spec, folder, taken, replay))
        if case is None:
            return
        if cases.document is not document or not cases.checked:
            screen.notify(
                "The eval set was reloaded (or does not load) meanwhile: the recorded case "
                "was not added."
            )
            return
        after = screen.query_one(CaseForm).uid
        index = document.index_of(after) + 1 if after is not None else len(document.cases)
        document.seal()
        uid = document.insert_case(index, case)
        await cases.reshow(uid, "eval_id")
        screen.notify(
            f"Added the recorded case {quoted(str(case.get('eval_id')))}: unsaved (ctrl+s writes it, "
            "ctrl+z removes it).",
            markup=False,
        )

    async def bulk_edit(self) -> None:
        """Apply one edit (a tag, an expected tool call, text in the expected replies) to
        every case selected in the list (space): one undo step. Run it in a worker."""
        from tenxeval_tui.screens.editor.bulk_edit import BulkEditScreen

        cases = self.cases
        screen = cases.screen
        await cases.settle()
        document = cases.document
        table = screen.query_one(CaseTable)
        chosen = table.chosen_uids
        if document is None or not cases.checked:
            return
        if not chosen:
            screen.notify("Select cases first: space in the case list.")
            return
        edit = await screen.app.push_screen_wait(BulkEditScreen(len(chosen)))
        if edit is None:
            return
        if cases.document is not document:
            screen.notify("The eval set was reloaded meanwhile: the bulk edit was not applied.")
            return
        present = {case.uid for case in document.cases}
        document.seal()
        changed = document.replace_cases(
            {uid: edit.apply(document.case(uid).data) for uid in chosen if uid in present}
        )
        document.seal()
        await cases.reshow(table.highlighted_uid)
        screen.notify(
            f"Bulk edit: {len(changed)} of {len(chosen)} case(s) changed (ctrl+z undoes it)."
        )

    async def recorded_calls(self) -> None:
        """Look at and edit the highlighted case's recorded tool calls (its cassette lines)."""
        await self.cases.settle()
        await show_recorded_calls(self.cases)

    async def tool_section(self, whole_set: bool = False) -> None:
        """Edit the ``metadata.tools`` of the highlighted case (``whole_set``: of the eval
        set): fakes, faults, state, end state, matching, redaction."""
        await self.cases.settle()
        await edit_tool_section(self.cases, whole_set, self.agent_spec()[1])


__all__ = ["AGENT_BINDINGS", "AgentCommands", "agent_help_sections"]
