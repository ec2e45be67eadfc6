"""The editor's commands that know the agent: completion from its schema, recording a case
by chatting with it, and bulk edits of the selected cases.

:class:`AgentCommandsScreen` sits between :class:`CaseCommandsScreen` (the editing
commands) and the editor screen, which calls :meth:`AgentCommandsScreen.read_agent_schema`
when it shows a form. The agent is resolved as a run resolves it; it is described and
talked to in child processes (:mod:`tenxeval_tui.runs.agent_schema`,
:mod:`tenxeval_tui.runs.chat_process`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textual import work
from textual.binding import Binding

from tenxeval_tui.authoring.recording import user_messages
from tenxeval_tui.evaluation.inert import quoted
from tenxeval_tui.runs.agent_schema import SchemaCache
from tenxeval_tui.screens.common.host import host_of
from tenxeval_tui.screens.editor.case_commands import CaseCommandsScreen
from tenxeval_tui.screens.editor.record_chat import RecordScreen
from tenxeval_tui.screens.editor.recorded_calls import RecordedCallsScreen
from tenxeval_tui.screens.editor.tool_commands import edit_tool_section, show_recorded_calls
from tenxeval_tui.screens.editor.tool_section import ToolSectionScreen
from tenxeval_tui.widgets.editor.case_form import CaseForm
from tenxeval_tui.widgets.editor.case_table import CaseTable


class AgentCommandsScreen(CaseCommandsScreen):
    """Completion and checks from the agent's schema, recording, bulk edits."""

    BINDINGS = [
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

    @classmethod
    def agent_help_sections(cls) -> list[tuple[str, list[Any]]]:
        """The keys of the screens these commands open, for the help screen."""
        return [
            ("record a case (the chat, f6)", list(RecordScreen.BINDINGS)),
            ("recorded tool calls (f8)", list(RecordedCallsScreen.BINDINGS)),
            ("tools: fakes, faults, end state (f9)", list(ToolSectionScreen.BINDINGS)),
        ]

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("recorded_calls", "tool_section"):
            if self.document is None or not self.checked:
                return None
            whole_set = action == "tool_section" and parameters == (True,)
            return True if whole_set or self.query_one(CaseForm).uid is not None else None
        return super().check_action(action, parameters)

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.schemas = SchemaCache()
        """The agents' tools and nodes the form completes from, read in child processes."""
        self.agent_schema_error: str | None = None
        """Why the open eval set's agent could not be described (``None``: it was)."""

    async def on_unmount(self) -> None:
        await self.schemas.close()  # no agent's child outlives the editor

    def agent_spec(self) -> tuple[str, Path]:
        """The open eval set's agent (its ``metadata.agent``, else ``[tool.tenxeval]``'s,
        as a run resolves it) and the folder its module is found from."""
        ws = host_of(self.app).workspace
        folder = (ws.settings_file.parent if ws.settings_file else Path.cwd()).resolve()
        own = self.document.agent if self.document is not None else ""
        return (own or ws.settings.agent or "").strip(), folder

    @work(exclusive=True, group="agent-schema")
    async def read_agent_schema(self) -> None:
        """Read the agent's tools and nodes for completion and checks: in a child process
        (the agent cannot take the editor down), cached until its code changes."""
        spec, folder = self.agent_spec()
        form = self.query_one(CaseForm)
        if not spec:
            form.completion.schema, self.agent_schema_error = None, None
        else:
            result = await self.schemas.get(spec, folder)
            told = self.agent_schema_error
            form.completion.schema, self.agent_schema_error = result.schema, result.error
            if result.error is not None and result.error != told:  # once per problem
                self.notify(
                    f"No completion from the agent: {result.error}",
                    severity="warning",
                    timeout=8,
                    markup=False,
                )
        form.show_agent_notes()

    def continue_conversation(self, eval_id: str) -> bool:
        """Continue case ``eval_id``'s conversation (it must be the highlighted case): a
        chat with its user messages replayed. ``False`` when another case is highlighted."""
        uid = self.query_one(CaseTable).highlighted_uid
        if self.document is None or uid is None or self.document.case(uid).eval_id != eval_id:
            return False
        self.action_record_case(True)
        return True

    @work(exclusive=True, group="dialog")
    async def action_record_case(self, continued: bool = False) -> None:
        """Chat with the eval set's agent and add the conversation as a case (unsaved,
        undoable), after the selected one (see :mod:`.record_chat`); ``continued``: the
        selected case's user messages are replayed first, and the chat goes on from there."""
        await self._settle()
        document = self.document
        spec, folder = self.agent_spec()
        if document is None:  # a chat needs no checked file; adding its case does
            self.notify("Open an eval set that loads first.")
            return
        selected = self.query_one(CaseTable).highlighted_uid
        replay = user_messages(document.case(selected).data) if continued and selected else []
        if continued and not replay:
            self.notify("Select a case with turns to continue its conversation.")
            return
        if not spec:
            self.notify(
                "No agent to talk to: name one with f2 (metadata.agent) or in "
                "[tool.tenxeval] agent.",
                severity="warning",
            )
            return
        taken = [case.eval_id for case in document.cases]
        case = await self.app.push_screen_wait(RecordScreen(spec, folder, taken, replay))
        if case is None:
            return
        if self.document is not document or not self.checked:
            self.notify(
                "The eval set was reloaded (or does not load) meanwhile: the recorded case "
                "was not added."
            )
            return
        after = self.query_one(CaseForm).uid
        index = document.index_of(after) + 1 if after is not None else len(document.cases)
        document.seal()
        uid = document.insert_case(index, case)
        await self._reshow(uid, "eval_id")
        self.notify(
            f"Added the recorded case {quoted(str(case.get('eval_id')))}: unsaved (ctrl+s writes it, "
            "ctrl+z removes it).",
            markup=False,
        )

    @work(exclusive=True, group="dialog")
    async def action_bulk_edit(self) -> None:
        """Apply one edit (a tag, an expected tool call, text in the expected replies) to
        every case selected in the list (space): one undo step."""
        from tenxeval_tui.screens.editor.bulk_edit import BulkEditScreen

        await self._settle()
        document = self.document
        table = self.query_one(CaseTable)
        chosen = table.chosen_uids
        if document is None or not self.checked:
            return
        if not chosen:
            self.notify("Select cases first: space in the case list.")
            return
        edit = await self.app.push_screen_wait(BulkEditScreen(len(chosen)))
        if edit is None:
            return
        if self.document is not document:
            self.notify("The eval set was reloaded meanwhile: the bulk edit was not applied.")
            return
        present = {case.uid for case in document.cases}
        document.seal()
        changed = document.replace_cases(
            {uid: edit.apply(document.case(uid).data) for uid in chosen if uid in present}
        )
        document.seal()
        await self._reshow(table.highlighted_uid)
        self.notify(
            f"Bulk edit: {len(changed)} of {len(chosen)} case(s) changed (ctrl+z undoes it)."
        )

    @work(exclusive=True, group="dialog")
    async def action_recorded_calls(self) -> None:
        """Look at and edit the highlighted case's recorded tool calls (its cassette lines)."""
        await self._settle()
        await show_recorded_calls(self)

    @work(exclusive=True, group="dialog")
    async def action_tool_section(self, whole_set: bool = False) -> None:
        """Edit the ``metadata.tools`` of the highlighted case (``whole_set``: of the eval
        set): fakes, faults, state, end state, matching, redaction."""
        await self._settle()
        await edit_tool_section(self, whole_set, self.agent_spec()[1])
