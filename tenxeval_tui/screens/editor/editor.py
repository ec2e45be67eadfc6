"""The eval set editor: the workspace's files, the case list and the case form.

Opening, checking, saving and following files on disk live here. The editing commands
(cases, turns, tool calls, undo) are a :class:`CaseCommands` the screen owns, and the
commands that know the agent (completion, recording a case, bulk edits, tools) an
:class:`AgentCommands`: the screen declares every key (theirs too) and its ``action_*``
methods hand each to the command that carries it out.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import ContentSwitcher, Input, OptionList, Static

from tenxeval_tui.authoring.disk_merge import merge_disk_version
from tenxeval_tui.authoring.document import EvalSetDocument
from tenxeval_tui.authoring.kept_unsaved import find_kept, kept_file_path
from tenxeval_tui.browsing.case_flips import FLIP_MARK, FlipHistory
from tenxeval_tui.evaluation.errors import EvalFileError, Problem
from tenxeval_tui.evaluation.files.fileio import atomic_write_text, gc_paused, read_text
from tenxeval_tui.evaluation.inert import inert, quoted
from tenxeval_tui.evaluation.unknown_keys import unknown_keys_in_file
from tenxeval_tui.runs.agent_schema import SchemaCache
from tenxeval_tui.screens.common.back import can_go_back, go_back_one_step
from tenxeval_tui.screens.common.choice import ChoiceScreen
from tenxeval_tui.screens.common.flip_marks import FlipMarks
from tenxeval_tui.screens.common.host import FlakinessRequest, host_of
from tenxeval_tui.screens.common.mode_screen import ModeScreen
from tenxeval_tui.screens.common.typing_keys import hidden_while_typing
from tenxeval_tui.screens.editor.agent_commands import (
    AGENT_BINDINGS,
    AgentCommands,
    agent_help_sections,
)
from tenxeval_tui.screens.editor.case_commands import CASE_BINDINGS, CaseCommands
from tenxeval_tui.screens.editor.compare_versions import CompareVersionsScreen
from tenxeval_tui.screens.editor.eval_set_details import EvalSetDetails, EvalSetDetailsScreen
from tenxeval_tui.screens.editor.new_eval_set import NewEvalSetScreen
from tenxeval_tui.settings.first_steps import dismiss_hint, hint_dismissed
from tenxeval_tui.settings.workspace import (
    EvalSetEntry,
    Workspace,
    describe_eval_set,
)
from tenxeval_tui.settings.workspace_watch import WATCH_STEP_MS, follow_workspace_files
from tenxeval_tui.widgets.common.error_view import ErrorView
from tenxeval_tui.widgets.common.steady_footer import SteadyFooter
from tenxeval_tui.widgets.common.steady_header import SteadyHeader
from tenxeval_tui.widgets.common.steady_input import SteadyInput
from tenxeval_tui.widgets.editor.case_form import CaseForm
from tenxeval_tui.widgets.editor.case_table import CaseTable
from tenxeval_tui.widgets.editor.eval_set_list import EvalSetList
from tenxeval_tui.widgets.editor.first_steps_hint import FirstStepsHint, hint_text, key_name
from tenxeval_tui.widgets.editor.tool_call_row import ToolCallRow
from tenxeval_tui.widgets.editor.turn_editor import TurnEditor

RUN_KEY = "ctrl+r"
UNKNOWN_KEYS_LISTED = 8
"""Unknown keys listed in the notification of a file that holds some (then a count)."""
"""The run view's key that runs what its options select (its screen is imported lazily)."""


class EditorScreen(ModeScreen):
    """Author eval sets: pick a file, filter its cases, edit the selected one."""

    HELP_WHERE = "editor"

    BINDINGS = [
        Binding("ctrl+s", "save", "Save", priority=True),
        *CASE_BINDINGS,
        *AGENT_BINDINGS,
        # Priority: the focus moves when the key arrives (see screens/editor/case_commands.py).
        Binding("ctrl+f", "focus_filter", "Filter", priority=True),
        Binding("ctrl+l", "focus_cases", "Cases", priority=True),
        Binding("ctrl+g", "focus_files", "Files", priority=True),
        Binding(
            "escape",
            "back",
            "Back (case list, then the screen before)",
            show=False,
            priority=True,
        ),
        Binding("f2", "edit_eval_set", "Eval set name, id, agent", show=False),
        Binding(
            "f4",
            "import_rows",
            "Import rows…",
            show=False,  # in the help and the command palette
            tooltip="Add the rows of a CSV, TSV or JSONL file as cases (ctrl+z undoes)",
            id="editor.import",
        ),
        Binding("X", "hide_hint", "Hide the newcomer's tip", show=False),
        Binding(
            "h",
            "flaky_cases",
            f"Flaky cases ({FLIP_MARK} in the case list)",
            show=False,  # in the help, the command palette and the list's legend
            tooltip=f"The eval set's cases over its runs; {FLIP_MARK} marks those that flipped",
            id="editor.flaky_cases",
        ),
    ]

    @classmethod
    def help_sections(cls) -> list[tuple[str, list[Any]]]:
        """Bindings of the editor and of its widgets, for the help screen."""
        return [
            (cls.HELP_WHERE, list(cls.BINDINGS)),
            ("case list", list(CaseTable.BINDINGS)),
            ("file list", list(EvalSetList.BINDINGS)),
            ("turn (in the form)", list(TurnEditor.BINDINGS)),
            ("tool call (in the form)", list(ToolCallRow.BINDINGS)),
            *agent_help_sections(),
        ]

    def __init__(self) -> None:
        super().__init__(id="editor")
        self.cases = CaseCommands(self, self._update_title)
        """The editing commands; they hold the open document."""
        self.agent = AgentCommands(self.cases)
        """The commands that know the agent (its schema, recording, bulk edits, tools)."""
        self.entries: list[EvalSetEntry] = []
        self._set_while_counting: set[Path] = set()
        """Files listed by ``_set_entry`` while ``describe_files`` reads: theirs stays."""
        self._workspace: Workspace | None = None
        self._open_path: Path | None = None
        """The file shown (loaded, or in the error view); watched for changes."""
        self._refocus: str | None = None
        """The field to focus when the form is shown next (the one a reload removed)."""
        self._following = False
        """While the form follows a move of the list's cursor (:meth:`_follow_cursor`)."""
        self.flip_marks = FlipMarks(self, self._show_flips)
        """Which cases flipped over the eval set's last runs (the case list's marks)."""

    def compose(self) -> ComposeResult:
        yield SteadyHeader(icon="≡")
        with Horizontal(id="editor-main"):
            with Vertical(id="sidebar"):
                yield EvalSetList(id="files")
                yield SteadyInput(placeholder="filter: words, #tag", id="filter", compact=True)
                yield Static("", id="case-header")
                yield CaseTable(id="cases")
                yield Static("", id="case-legend")
            with ContentSwitcher(initial="message", id="detail"):
                yield Static("", id="message")
                yield CaseForm(on_field_edit=self.cases.apply_field_edit, id="form")
                yield ErrorView(id="error")
        yield FirstStepsHint(id="first-steps")
        yield SteadyFooter()

    @property
    def document(self) -> EvalSetDocument | None:
        """The open eval set (``None`` when none loads)."""
        return self.cases.document

    @document.setter
    def document(self, document: EvalSetDocument | None) -> None:
        changed = document is not self.cases.document
        self.cases.document = document
        if changed:  # the keys that need a document follow it (see _keys_follow)
            self._keys_follow()

    @property
    def checked(self) -> bool:
        """Whether the open document passed the full check (editing waits for it)."""
        return self.cases.checked

    @checked.setter
    def checked(self, checked: bool) -> None:
        changed = checked != self.cases.checked
        self.cases.checked = checked
        if changed:  # editing waits for the check: so do its keys
            self._keys_follow()

    def _keys_follow(self) -> None:
        """Have the footer look at the keys again: the focus may not move as a file opens
        (it stays on the case list), so Textual would not, and the footer kept a broken
        file's dimmed keys after a file that loads."""
        if self.is_attached:
            self.refresh_bindings()

    @property
    def schemas(self) -> SchemaCache:
        """The agents' tools and nodes the form completes from."""
        return self.agent.schemas

    @property
    def agent_schema_error(self) -> str | None:
        """Why the open eval set's agent could not be described (``None``: it was)."""
        return self.agent.agent_schema_error

    @property
    def workspace(self) -> Workspace:
        """The app's workspace (the current folder when the app has none)."""
        if self._workspace is None:
            self._workspace = host_of(self.app).workspace
        return self._workspace

    def on_mount(self) -> None:
        self.title = "tenxeval · editor"
        host_of(self.app).register_leave_guard(self.confirm_leave)
        host_of(self.app).register_hang_up_keeper(self.keep_unsaved)
        self.query_one(EvalSetList).border_title = "eval sets"
        self.query_one(CaseTable).follow = self._follow_cursor
        self.query_one("#filter", SteadyInput).on_change = self._filter_changed
        self._show_hint()
        workspace = self.workspace
        files = workspace.eval_set_files()
        self.entries = [EvalSetEntry(path) for path in files]
        self._show_entries()
        self._tell_kept({path.parent for path in files})
        self.flip_marks.start_following()
        if host_of(self.app).watch_files:
            self._follow_workspace()
        if not files:
            problems = "".join(f"{p}\n\n" for p in workspace.problems)
            self._show_message(
                f"{problems}No eval sets (*.evalset.json) in {workspace.root}.\n\n"
                "Press n in the file list (focused now) to create one."
            )
            self.query_one(EvalSetList).focus()
        else:
            self.open_file(files[0])
            if workspace.single_file is None:
                self._set_while_counting.clear()
                # The open file is counted as it loads; reading it twice at start slowed
                # its first case.
                if len(self.entries) > 1:
                    self.describe_files([entry.path for entry in self.entries[1:]])
        self._update_title()

    def _tell_kept(self, folders: set[Path]) -> None:
        """Say which unsaved work was kept beside its file when the terminal went away
        last time (see :mod:`~tenxeval_tui.authoring.kept_unsaved`): none is loaded."""
        kept = find_kept(folders)
        if kept:
            names = "\n".join(f"  {self.workspace.display_path(path)}" for path in kept)
            self.notify(
                f"{names}\nKept when the terminal went away; not loaded. Compare, copy what "
                "you need, then delete them.",
                title="Unsaved work kept",
                severity="warning",
                timeout=30,
                markup=False,
            )

    # --- the newcomer's tip --------------------------------------------------------

    def _show_hint(self) -> None:
        hint = self.query_one(FirstStepsHint)
        hint.display = not hint_dismissed()
        if not hint.display:
            return
        keys = {b.action: key_name(b) for b in self.app.BINDINGS if isinstance(b, Binding)}
        hint.update(  # keys that act from any focus, a text box's too
            hint_text(
                keys.get("run_now", RUN_KEY),
                keys.get("command_palette", "ctrl+p"),
                "shift+x",
            )
        )

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if hidden_while_typing(self, action):
            return False  # the focused box would type the key
        if action == "hide_hint":
            return self.query_one(FirstStepsHint).display
        if action == "flaky_cases":
            return self.document is not None and bool(self.document.header("eval_set_id"))
        if action == "back":  # to the case list first; from there, only where there is a step
            cases = self.query_one(CaseTable)
            here = self.focused is not cases and bool(cases.display)
            return here or bool(cases.chosen_uids) or can_go_back(self)
        if action in ("save", "import_rows"):
            return True if self.cases.editing else None
        if self.agent.enabled(action, parameters) is None:
            return None
        return self.cases.enabled(action)

    async def on_unmount(self) -> None:
        await self.agent.close()

    def action_import_rows(self) -> None:
        """Add the rows of a CSV, TSV, JSONL or ADK file as cases (one undo step)."""
        from tenxeval_tui.screens.editor.import_rows import ask_and_import

        ask_and_import(self)

    def action_hide_hint(self) -> None:
        """Hide the newcomer's tip, for good (remembered in the user's state folder)."""
        self.query_one(FirstStepsHint).display = False
        dismiss_hint()
        self.refresh_bindings()

    @on(FirstStepsHint.Dismissed)
    def _hint_clicked(self) -> None:
        self.action_hide_hint()

    # --- the case commands' keys ---------------------------------------------------

    async def action_undo(self) -> None:
        """Undo the last edit."""
        await self.cases.undo_or_redo(redo=False)

    async def action_redo(self) -> None:
        """Redo the last undone edit."""
        await self.cases.undo_or_redo(redo=True)

    async def action_new_case(self) -> None:
        """Add a blank case after the selected one and start typing its id."""
        await self.cases.new_case()

    async def action_duplicate_case(self) -> None:
        """Copy the selected case (with a new id) right after it."""
        await self.cases.duplicate_case()

    @work(exclusive=True, group="dialog")
    async def action_delete_case(self) -> None:
        """Delete the selected case, after asking."""
        await self.cases.delete_case()

    async def action_move_case(self, delta: int) -> None:
        """Move the selected case up or down."""
        await self.cases.move_case(delta)

    async def action_add_turn(self) -> None:
        """Add a turn after the one holding the focus (or at the end)."""
        await self.cases.add_turn()

    async def action_add_call(self) -> None:
        """Add an expected tool call to the turn holding the focus (or the last turn)."""
        await self.cases.add_call()

    def action_focus_field(self, direction: int) -> None:
        """Focus the next (1) or previous (-1) field of the form, or widget of the screen."""
        self.cases.focus_field(direction)

    async def action_form_command(self, name: str, turn: int, call: int, delta: int) -> None:
        """A structural edit asked from the form (see ``tool_call_row.form_command``)."""
        await self.cases.form_command(name, turn, call, delta)

    # --- the agent commands' keys --------------------------------------------------

    @work(exclusive=True, group="agent-schema")
    async def read_agent_schema(self) -> None:
        """Read the agent's tools and nodes for completion and checks, in a child process."""
        await self.agent.read_agent_schema()

    def continue_conversation(self, eval_id: str) -> bool:
        """Continue case ``eval_id``'s conversation (it must be the highlighted case): a
        chat with its user messages replayed. ``False`` when another case is highlighted."""
        if not self.agent.highlights(eval_id):
            return False
        self.action_record_case(True)
        return True

    @work(exclusive=True, group="dialog")
    async def action_record_case(self, continued: bool = False) -> None:
        """Chat with the eval set's agent and add the conversation as a case (unsaved,
        undoable); ``continued``: the selected case's user messages are replayed first."""
        await self.agent.record_case(continued)

    @work(exclusive=True, group="dialog")
    async def action_bulk_edit(self) -> None:
        """Apply one edit to every case selected in the list (space): one undo step."""
        await self.agent.bulk_edit()

    @work(exclusive=True, group="dialog")
    async def action_recorded_calls(self) -> None:
        """Look at and edit the highlighted case's recorded tool calls (its cassette lines)."""
        await self.agent.recorded_calls()

    @work(exclusive=True, group="dialog")
    async def action_tool_section(self, whole_set: bool = False) -> None:
        """Edit the ``metadata.tools`` of the highlighted case (``whole_set``: of the eval
        set): fakes, faults, state, end state, matching, redaction."""
        await self.agent.tool_section(whole_set)

    # --- the file list -------------------------------------------------------------

    def _show_entries(self) -> None:
        current = self.document.path if self.document else self._open_path
        shown = {entry.path: self.workspace.display_path(entry.path) for entry in self.entries}
        # None while the app closes and takes the screen apart: the workspace follower can
        # be handed a file event then (it failed a test's teardown once in ~2,300 tests).
        for file_list in self.query(EvalSetList):
            file_list.show_entries(self.entries, shown, current)

    @work(exclusive=True, group="workspace-watch")
    async def _follow_workspace(self) -> None:
        """List an eval set file made or removed outside (or saved new) without a restart."""
        await follow_workspace_files(self.workspace, self._workspace_changed)

    def _workspace_changed(self) -> None:
        """The workspace's files changed: list the new ones (their counts read in the
        background) and drop the gone ones, but the file open here."""
        files = self.workspace.eval_set_files()
        listed = {entry.path: entry for entry in self.entries}
        open_path = self.document.path if self.document else self._open_path
        keep = [p for p in listed if p in files or p == open_path]
        new = [path for path in files if path not in listed]
        self.entries = [listed[p] for p in keep] + [EvalSetEntry(p) for p in new]
        self._show_entries()
        if new:
            self.describe_files(new)

    def _count_unsaved_cases(self) -> None:
        """The open file's entry counts its cases as edited (added, deleted, unsaved)."""
        document = self.document
        if document is None or document.path is None:
            return
        entry = next((e for e in self.entries if e.path == document.path), None)
        if entry is None or entry.case_count != len(document.cases):
            self._set_entry(document)

    def _set_entry(self, document: EvalSetDocument) -> None:
        """List ``document``'s file (new files too) with its case count."""
        if document.path is None:
            return
        entry = EvalSetEntry(document.path, len(document.cases))
        self._set_while_counting.add(document.path)
        paths = [e.path for e in self.entries]
        if document.path in paths:
            self.entries[paths.index(document.path)] = entry
        else:
            self.entries.append(entry)
        self._show_entries()

    @work(thread=True, exclusive=True, group="describe")
    def describe_files(self, paths: list[Path]) -> None:
        """Count the cases of the files ``paths`` (or find their errors) off the UI thread."""
        described = [describe_eval_set(path) for path in paths]
        self.app.call_from_thread(self._described, described)

    def _described(self, described: list[EvalSetEntry]) -> None:
        # The counts read from disk, for the files listed when the reading began; a file
        # made, opened or saved meanwhile keeps what its entry says now (a new file is on
        # no disk yet, a saved one was counted before its save).
        read = {entry.path: entry for entry in described}
        self.entries = [
            read[entry.path]
            if entry.path in read and entry.path not in self._set_while_counting
            else entry
            for entry in self.entries
        ]
        self._show_entries()

    @on(OptionList.OptionSelected, "#files")
    def _file_chosen(self, event: OptionList.OptionSelected) -> None:
        path = self.entries[event.option_index].path
        if self.document is None or self.document.path != path:
            self.open_file(path)

    def _show_message(self, message: str) -> None:
        self.query_one("#message", Static).update(Text(inert(message, multiline=True)))
        self.query_one(ContentSwitcher).current = "message"

    def _update_title(self) -> None:
        document = self.document
        if document is None or document.path is None:
            shown = self._open_path and self.workspace.display_path(self._open_path)
            self.sub_title = f"{shown} (does not load)" if shown else str(self.workspace.root)
            return
        shown = self.workspace.display_path(document.path)
        self.sub_title = f"{shown} ● unsaved" if document.dirty else shown
        self._count_unsaved_cases()

    # --- opening and checking ------------------------------------------------------

    @work(exclusive=True, group="open")
    async def open_file(self, path: Path, *, ask: bool = True) -> None:
        """Open ``path`` (asking first when there are unsaved changes).

        The cases show as soon as the JSON is read; the full check of the file runs in a
        thread, and the form (editing) opens once it passes, or the error view if not.
        """
        if ask and not await self.confirm_leave():
            return
        self._follow(path)
        try:
            with gc_paused(freeze=True):  # the document lives long: collections skip it
                document = EvalSetDocument.load(path, validate=False)
        except FileNotFoundError:
            self._show_problems(path, [Problem(path=str(path), message="file not found")])
        except EvalFileError as exc:
            self._show_problems(path, exc.problems)
        except OSError as exc:
            self._show_problems(path, [Problem(path=str(path), message=str(exc))])
        else:
            await self.set_document(document, checked=False)

    def _show_problems(self, path: Path, problems: list[Problem]) -> None:
        self.document = None
        self.checked = False
        self.query_one(CaseForm).uid = None
        self.query_one(CaseTable).set_cases([], set())
        self.flip_marks.follow([])
        self.query_one(ErrorView).show(
            f"{self.workspace.display_path(path)} does not load:",
            problems,
            "Fix the file in your editor; it reloads here when it changes.",
        )
        self.query_one(ContentSwitcher).current = "error"
        paths = [e.path for e in self.entries]
        if path in paths:
            self.entries[paths.index(path)] = EvalSetEntry(path, problems=tuple(problems))
        self._show_entries()
        self._update_title()

    async def set_document(self, document: EvalSetDocument, *, checked: bool = True) -> None:
        """Edit ``document`` (replacing the open one without asking); a reload of the same
        file keeps the highlighted case."""
        keep_id: str | None = None
        form = self.query_one(CaseForm)
        if self.document is not None and self.document.path == document.path and form.uid:
            keep_id = self.document.case(form.uid).eval_id
            self._refocus = form.focused_key()  # typing goes on where it was
        form.uid = None
        if document.path is not None:
            self._follow(document.path)
        self.document = document
        self.checked = checked
        self._set_entry(document)
        table = self.query_one(CaseTable)
        table.set_cases(document.cases, set())
        for case in document.cases if keep_id is not None else []:
            if case.eval_id == keep_id:
                table.select_uid(case.uid)
                break
        if checked:
            await self._show_form()
        else:
            self._show_message(f"Checking {self.workspace.display_path(document.path or Path())}…")
            # After the first frame; the data as loaded, since edits wait for the check.
            self.call_after_refresh(self._check, document, document.to_data())
        if keep_id is None or self.focused is None:  # a reload removed the focused field
            table.focus()
        self._update_title()

    async def _show_form(self) -> None:
        assert self.document is not None
        self.cases.refresh_marks()
        self.query_one(ContentSwitcher).current = "form"
        refocus, self._refocus = self._refocus, None
        await self.query_one(CaseForm).show(
            self.document, self.query_one(CaseTable).highlighted_uid, refocus
        )
        if self.focused is None:  # the focused field went with the old form
            self.query_one(CaseTable).focus()
        # After the form's frame: reading the reports (a thread holding the GIL for a big
        # one) and the agent's schema (a child process) do not delay the case shown.
        self.call_after_refresh(self._follow_flips)
        self.call_after_refresh(self.read_agent_schema)

    @work(thread=True, exclusive=True, group="check", description="check the open file")
    def _check(self, document: EvalSetDocument, data: dict[str, Any]) -> None:
        """The full check of a file as loaded (``data``), off the UI thread (slow for big
        files)."""
        from tenxeval_tui.evaluation.dataset.eval_set import check_parsed_eval_set

        assert document.path is not None
        problems = check_parsed_eval_set(document.path, data)
        self.app.call_from_thread(self._checked, document, problems)
        if not problems:  # the form opens first; the typos' warning comes after
            unknown = unknown_keys_in_file(document.path)
            self.app.call_from_thread(self._warn_unknown_keys, document, unknown)

    def _checked(self, document: EvalSetDocument, problems: list[Problem]) -> None:
        if document is not self.document or document.path is None:
            return  # another file was opened meanwhile
        if problems:
            self._show_problems(document.path, problems)
            return
        self.checked = True
        self.call_later(self._show_form)

    def _warn_unknown_keys(self, document: EvalSetDocument, unknown: list[Problem]) -> None:
        if document is not self.document:
            return  # another file was opened meanwhile
        if unknown:  # typos that check nothing: each with its place and the nearest name
            shown = [str(p) for p in unknown[:UNKNOWN_KEYS_LISTED]]
            more = len(unknown) - len(shown)
            self.notify(
                "\n".join(shown + ([f"... and {more} more"] if more else [])),
                title=f"{len(unknown)} key(s) nothing reads (typos?)",
                severity="warning",
                timeout=15,
            )

    async def confirm_leave(self) -> bool:
        """``True`` when the open file may be closed: it is saved, or the user says so."""
        await self.cases.settle()  # the keys typed just before count
        document = self.document
        if document is None or not document.dirty:
            return True
        answer = await self.app.push_screen_wait(
            ChoiceScreen(
                f"{document.name or 'This eval set'} has unsaved changes.",
                {"save": "Save", "discard": "Discard changes", "cancel": "Cancel"},
                title="Unsaved changes",
            )
        )
        if answer == "save":
            return await self._save()
        return answer == "discard"

    async def keep_unsaved(self) -> str | None:
        """The terminal went away with nobody to ask: the open file's unsaved edits go to
        ``<file>.unsaved`` beside it (not over the file, which the user did not ask to
        save); the path written, or ``None`` when nothing was unsaved."""
        await self.cases.settle()  # the keys typed just before count
        document = self.document
        if document is None or not document.dirty or document.path is None:
            return None
        kept = kept_file_path(document.path)
        atomic_write_text(kept, document.to_text())
        return str(kept)

    # --- the case list -------------------------------------------------------------

    async def show_case(self, path: Path, eval_id: str) -> str | None:
        """Open ``path`` (unless it is open) and highlight its case ``eval_id``.

        Returns why the case is not shown (a message for the user), or ``None`` when it
        is, or when the file did not open (the editor says why, or the user kept the
        open file).
        """
        if not self._is_open(path):
            await self.open_file(path).wait()
        document = self.document
        if document is None or not self._is_open(path):
            return None
        uid = next((case.uid for case in document.cases if case.eval_id == eval_id), None)
        if uid is None:
            return f"No case {quoted(eval_id)} in {path.name}."
        if not self.query_one(CaseTable).select_uid(uid):
            return f"Case {quoted(eval_id)} is hidden by the filter."
        return None

    def _is_open(self, path: Path) -> bool:
        document = self.document
        return (
            document is not None
            and document.path is not None
            and document.path.resolve() == path.resolve()
        )

    def _filter_changed(self) -> None:
        """Filter the list in the step of the key typed (see :class:`SteadyInput`)."""
        self.query_one(CaseTable).set_filter(self.query_one("#filter", SteadyInput).value)

    @on(Input.Submitted, "#filter")
    def _filter_done(self) -> None:
        self.query_one(CaseTable).focus()

    @on(CaseTable.ColumnsChanged)
    def _columns(self, event: CaseTable.ColumnsChanged) -> None:
        self.query_one("#case-header", Static).update(Text(event.header))

    def _follow_cursor(self, uid: int | None) -> None:
        """A key moved the list's cursor: the form shows its case in the same step, so
        the frame that moves the cursor shows the case too, when nothing has to wait (a
        key still queued in a field, a widget to mount); else :meth:`_highlighted` does,
        a frame or more later."""
        form = self.query_one(CaseForm)
        document = self.document
        if document is None or not self.checked or uid is None or uid == form.uid:
            return
        if self._following:
            return  # storing the old case's texts moved the cursor again: shown below
        self._following = True
        try:
            if not self.cases.settle_now():
                return
            uid = self.query_one(CaseTable).highlighted_uid  # where a stored edit left it
            if uid is not None and uid != form.uid:
                document.seal()
                if form.show_now(document, uid):
                    self.read_agent_schema()
        finally:
            self._following = False

    @on(CaseTable.Highlighted)
    async def _highlighted(self) -> None:
        form = self.query_one(CaseForm)
        # The case highlighted now: the message may be older than a command that moved on.
        uid = self.query_one(CaseTable).highlighted_uid
        if self.document is not None and self.checked and uid != form.uid:
            await self.cases.settle()
            self.document.seal()
            await form.show(self.document, uid, unless_shown=True)
            self.read_agent_schema()  # cached: read again only when the agent's code changed

    @on(CaseTable.Selected)
    def _chosen(self) -> None:
        self.query_one(CaseForm).focus_field("eval_id", select=False)

    # --- saving --------------------------------------------------------------------

    async def _save(self) -> bool:
        document = self.document
        if document is None or not self.checked:
            return document is None
        try:
            problems = document.save()
        except OSError as exc:
            self.notify(f"Could not save {document.path}: {exc}", severity="error", timeout=10)
            return False
        if problems:
            await self.app.push_screen_wait(
                ChoiceScreen(
                    f"Not saved: {len(problems)} problem(s) to fix first. Nothing was written.",
                    {"ok": "OK"},
                    details="\n".join(problems),
                    title="Cannot save",
                )
            )
            return False
        self._set_entry(document)
        if document.path is not None:
            self.notify(f"Saved {self.workspace.display_path(document.path)}")
        self._update_title()
        return True

    async def action_save(self) -> None:
        """Save the file (atomically); with problems, list them and write nothing."""
        await self.cases.settle()  # with every key typed before ctrl+s
        self._save_in_dialog_group()

    @work(exclusive=True, group="dialog")
    async def _save_in_dialog_group(self) -> None:
        await self._save()

    @work(exclusive=True, group="dialog")
    async def action_new_eval_set(self) -> None:
        """Create a new eval set file (asks for its name; written on first save)."""
        if not await self.confirm_leave():
            return
        # resolved, as the file list's paths are: else the follower lists the saved file twice
        new = await self.app.push_screen_wait(NewEvalSetScreen(self.workspace.root.resolve()))
        if new is not None:
            document = EvalSetDocument.new(new.path, eval_set_id=new.eval_set_id, agent=new.agent)
            await self.set_document(document)

    @work(exclusive=True, group="dialog")
    async def action_edit_eval_set(self) -> None:
        """Edit the eval set's name, description, id and agent (undoable like any edit)."""
        document = self.document
        if document is None or not self.checked:
            self.notify("Open an eval set that loads first.")
            return
        edited = await self.app.push_screen_wait(EvalSetDetailsScreen(_details(document)))
        if edited is None:
            return
        if self.document is not document:
            # Reloaded while the dialog was up: the edit goes to the file as it is now.
            if self.document is None or self.document.path != document.path:
                self.notify("The eval set changed meanwhile: the edit was not applied.")
                return
            document = self.document
        current = _details(document)
        for key in ("name", "description", "eval_set_id"):
            after = getattr(edited, key)
            if after != getattr(current, key):  # each field changed is one undo step
                document.seal()
                document.set_header(key, after)
        if edited.eval_set_id != current.eval_set_id:
            self._follow_flips()
        if edited.agent != current.agent:
            document.set_agent(edited.agent)
            self.read_agent_schema()
        document.seal()
        self._update_title()

    # --- flipped cases -------------------------------------------------------------

    def _follow_flips(self) -> None:
        """Mark the cases of the open eval set that flipped in its last runs."""
        document = self.document
        self.flip_marks.follow([document.header("eval_set_id")] if document else [])

    def _show_flips(self, histories: dict[str, FlipHistory]) -> None:
        ids = self.flip_marks.eval_set_ids
        history = histories.get(ids[0]) if ids else None
        cases = history.cases if history is not None else {}
        self.query_one(CaseTable).set_flipped(frozenset(cases))
        self.query_one(CaseForm).set_flip_notes(
            {eval_id: flips.describe() for eval_id, flips in cases.items()}
        )
        legend = self.query_one("#case-legend", Static)
        legend.update(Text(f"{FLIP_MARK} flipped in recent runs · h: details"))
        legend.display = bool(cases)

    def action_flaky_cases(self) -> None:
        """The open eval set's cases over its runs in the report folder, most unstable first."""
        document = self.document
        if document is None:
            return
        self.post_message(FlakinessRequest(self.flip_marks.folder, document.header("eval_set_id")))

    def on_screen_resume(self) -> None:
        if self.document is not None and self.flip_marks.eval_set_ids:
            self.flip_marks.refresh()  # a run may have written a report meanwhile

    # --- focus ---------------------------------------------------------------------

    # The focus moves now, not after the next refresh (as ``Widget.focus`` does): the
    # keys typed right after these reach the widget they focus.

    def action_focus_filter(self) -> None:
        """Focus the filter box."""
        self.set_focus(self.query_one("#filter", Input))

    def action_focus_cases(self) -> None:
        """Focus the case list."""
        self.set_focus(self.query_one(CaseTable))

    def action_focus_files(self) -> None:
        """Focus the file list."""
        self.set_focus(self.query_one(EvalSetList))

    async def action_back(self) -> None:
        """One step back: to the case list; there, clear the cases selected for a bulk
        edit first (as every other list does); then to the screen before."""
        cases = self.query_one(CaseTable)
        if self.focused is not cases and cases.display:
            self.set_focus(cases)
        elif cases.chosen_uids:
            cases.clear_chosen()
        else:
            await go_back_one_step(self)

    # --- changes on disk -----------------------------------------------------------

    def _follow(self, path: Path) -> None:
        if path != self._open_path:
            self._open_path = path
            self._watch(path)

    @work(exclusive=True, group="watch")
    async def _watch(self, path: Path) -> None:
        """Follow changes of ``path`` (its folder is watched: saves replace the file)."""
        if not host_of(self.app).watch_files or not path.parent.is_dir():
            return
        from watchfiles import awatch

        target = path.resolve()

        def is_target(_change: object, changed: str) -> bool:
            return Path(changed) == target

        async for _ in awatch(
            target.parent, watch_filter=is_target, debounce=200, step=WATCH_STEP_MS, recursive=False
        ):
            await self._changed_on_disk(path)

    async def _changed_on_disk(self, path: Path) -> None:
        document = self.document
        if document is None or document.path != path:
            if self._open_path == path:
                self.open_file(path, ask=False)  # it did not load: try again
            return
        try:
            text = read_text(path)
        except (OSError, EvalFileError):
            shown = self.workspace.display_path(path)
            self.notify(f"{shown} was removed or cannot be read; ctrl+s writes yours back.")
            document.disk_text = None
            return
        if text == document.disk_text:
            return  # our own save, or a touch
        if not document.dirty:
            self.open_file(path, ask=False)
            self.notify(f"Reloaded {self.workspace.display_path(path)} (changed on disk)")
        else:
            self._ask_about_disk_change(document, text)

    # A group of its own: asking must not cancel a dialog already open (f2, delete).
    @work(exclusive=True, group="disk-change")
    async def _ask_about_disk_change(self, document: EvalSetDocument, disk: str) -> None:
        document.disk_text = disk  # ask once per version on disk
        name = self.workspace.display_path(document.path) if document.path else "the file"
        merge = merge_disk_version(document, disk)
        choices = {"reload": "Reload from disk", "keep": "Keep mine"}
        if merge.document is not None:
            choices["merge"] = "Merge: keep both"
            details = "Keep both: the version on disk, with your edits on top:\n" + "\n".join(
                f"  {line}" for line in merge.applied
            )
        else:
            details = "Cannot keep both:\n" + "\n".join(f"  {line}" for line in merge.conflicts)
        choices["both"] = "Show both"
        answer = await self.app.push_screen_wait(
            ChoiceScreen(
                f"{name} changed on disk, and you have unsaved changes.",
                choices,
                details=details,
                title="Changed on disk",
            )
        )
        if answer == "both":
            answer = await self.app.push_screen_wait(
                CompareVersionsScreen(
                    document.to_text(), disk, name, can_merge=merge.document is not None
                )
            )
        if self.document is not document:
            return  # another file was opened meanwhile
        if answer == "merge" and merge.document is not None:
            await self.set_document(merge.document)
            self.notify(f"Kept both: {name} as on disk, with your edits (unsaved).", markup=False)
        elif answer == "reload" and document.path is not None:
            self.open_file(document.path, ask=False)


def _details(document: EvalSetDocument) -> EvalSetDetails:
    return EvalSetDetails(
        name=document.header("name"),
        description=document.header("description"),
        eval_set_id=document.header("eval_set_id"),
        agent=document.agent,
    )
