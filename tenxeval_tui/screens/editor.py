"""The eval set editor: the workspace's files, the case list and the case form."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import ContentSwitcher, Footer, Header, Input, OptionList, Static

from tenxeval_tui.editing import (
    DeleteCase,
    EvalSetDocument,
    InsertCase,
    MoveCase,
    change_uid,
)
from tenxeval_tui.evaluation.errors import EvalFileError, Problem
from tenxeval_tui.screens.choice import ChoiceScreen
from tenxeval_tui.screens.new_eval_set import NewEvalSetScreen
from tenxeval_tui.widgets.case_form import CaseForm
from tenxeval_tui.widgets.case_table import CaseTable
from tenxeval_tui.widgets.error_view import ErrorView
from tenxeval_tui.widgets.eval_set_list import EvalSetList
from tenxeval_tui.widgets.messages import FieldEdited, FormCommand
from tenxeval_tui.widgets.tool_call_row import ToolCallRow
from tenxeval_tui.widgets.turn_editor import TurnEditor
from tenxeval_tui.workspace import EvalSetEntry, Workspace, describe_eval_set, open_workspace


class EditorScreen(Screen[None]):
    """Author eval sets: pick a file, filter its cases, edit the selected one."""

    BINDINGS = [
        Binding("ctrl+s", "save", "Save", priority=True),
        Binding("ctrl+z", "undo", "Undo", priority=True),
        Binding("ctrl+y", "redo", "Redo", priority=True),
        Binding("ctrl+n", "new_case", "New case", priority=True),
        Binding("ctrl+d", "duplicate_case", "Duplicate", priority=True),
        Binding("alt+up", "move_case(-1)", "Case up"),
        Binding("alt+down", "move_case(1)", "Case down"),
        Binding("ctrl+t", "add_turn", "Add turn"),
        Binding("ctrl+o", "add_call", "Add tool call"),
        Binding("ctrl+f", "focus_filter", "Filter"),
        Binding("ctrl+l", "focus_cases", "Cases"),
        Binding("ctrl+g", "focus_files", "Files"),
        Binding("escape", "focus_cases", "Back to list", show=False),
    ]

    @classmethod
    def help_sections(cls) -> list[tuple[str, list[Any]]]:
        """Bindings of the editor and of its widgets, for the help screen."""
        return [
            ("editor", list(cls.BINDINGS)),
            ("case list", list(CaseTable.BINDINGS)),
            ("file list", list(EvalSetList.BINDINGS)),
            ("turn (in the form)", list(TurnEditor.BINDINGS)),
            ("tool call (in the form)", list(ToolCallRow.BINDINGS)),
        ]

    def __init__(self) -> None:
        super().__init__(id="editor")
        self.document: EvalSetDocument | None = None
        self.entries: list[EvalSetEntry] = []
        self._workspace: Workspace | None = None

    # --- layout --------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield Header(icon="≡")
        with Horizontal(id="editor-main"):
            with Vertical(id="sidebar"):
                yield EvalSetList(id="files")
                yield Input(placeholder="filter: words, #tag", id="filter", compact=True)
                yield Static("", id="case-header")
                yield CaseTable(id="cases")
            with ContentSwitcher(initial="message", id="detail"):
                yield Static("", id="message")
                yield CaseForm(id="form")
                yield ErrorView(id="error")
        yield Footer()

    @property
    def workspace(self) -> Workspace:
        """The app's workspace (the current folder when the app has none)."""
        if self._workspace is None:
            self._workspace = getattr(self.app, "workspace", None) or open_workspace(".")
        return self._workspace

    def on_mount(self) -> None:
        self.title = "tenxeval · editor"
        register = getattr(self.app, "register_leave_guard", None)
        if register is not None:
            register(self.confirm_leave)
        self.query_one("#files", EvalSetList).border_title = "eval sets"
        workspace = self.workspace
        files = workspace.eval_set_files()
        self.entries = [EvalSetEntry(path) for path in files]
        self._show_entries()
        if workspace.problems and not files:
            self._show_message(
                "\n".join(str(p) for p in workspace.problems)
                + "\n\nn (in the file list) creates a new eval set here."
            )
            self.query_one("#files").focus()
        elif not files:
            self._show_message(
                f"No eval sets (*.evalset.json) in {workspace.root}.\n\n"
                "Press n in the file list (focused now) to create one."
            )
            self.query_one("#files").focus()
        else:
            self.open_file(files[0])
            if workspace.single_file is None:
                self.describe_files()
        self._update_title()

    def _show_entries(self) -> None:
        current = self.document.path if self.document else None
        shown = {entry.path: self.workspace.display_path(entry.path) for entry in self.entries}
        self.query_one("#files", EvalSetList).show_entries(self.entries, shown, current)

    def _show_message(self, message: str) -> None:
        self.query_one("#message", Static).update(Text(message))
        self.query_one(ContentSwitcher).current = "message"

    @work(thread=True, exclusive=True, group="describe")
    def describe_files(self) -> None:
        """Count the cases of every file (or find its error) off the UI thread."""
        described = [describe_eval_set(entry.path) for entry in self.entries]
        self.app.call_from_thread(self._described, described)

    def _described(self, described: list[EvalSetEntry]) -> None:
        self.entries = described
        self._show_entries()

    def _update_title(self) -> None:
        document = self.document
        if document is None or document.path is None:
            self.sub_title = str(self.workspace.root)
            return
        shown = self.workspace.display_path(document.path)
        self.sub_title = f"{shown} ● unsaved" if document.dirty else shown

    # --- opening files -------------------------------------------------------------

    @work(exclusive=True, group="open")
    async def open_file(self, path: Path, *, ask: bool = True) -> None:
        """Open ``path`` in the editor (asking first when there are unsaved changes)."""
        if ask and not await self.confirm_leave():
            return
        try:
            document = EvalSetDocument.load(path)
        except FileNotFoundError:
            self._show_problems(path, [Problem(path=str(path), message="file not found")])
            return
        except EvalFileError as exc:
            self._show_problems(path, exc.problems)
            return
        except OSError as exc:
            self._show_problems(path, [Problem(path=str(path), message=str(exc))])
            return
        await self.set_document(document)

    def _show_problems(self, path: Path, problems: list[Problem]) -> None:
        self.document = None
        self.query_one(CaseTable).set_cases([], set())
        self.query_one(ErrorView).show(
            f"{self.workspace.display_path(path)} does not load:",
            problems,
            "Fix the file in your editor; it reloads here when it changes.",
        )
        self.query_one(ContentSwitcher).current = "error"
        self._update_title()

    async def set_document(self, document: EvalSetDocument) -> None:
        """Edit ``document`` (replacing the open one without asking)."""
        self.document = document
        if document.path is not None and all(e.path != document.path for e in self.entries):
            self.entries.append(EvalSetEntry(document.path, len(document.cases)))
        self._show_entries()
        table = self.query_one(CaseTable)
        table.set_cases(document.cases, document.problem_uids())
        self.query_one(ContentSwitcher).current = "form"
        await self.query_one(CaseForm).show(document, table.highlighted_uid)
        self._update_title()
        table.focus()

    async def confirm_leave(self) -> bool:
        """``True`` when the open file may be closed: it is saved, or the user says so."""
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

    @on(OptionList.OptionSelected, "#files")
    def _file_chosen(self, event: OptionList.OptionSelected) -> None:
        entry = self.entries[event.option_index]
        if self.document is None or self.document.path != entry.path:
            self.open_file(entry.path)

    # --- the case list -------------------------------------------------------------

    @on(Input.Changed, "#filter")
    def _filter_changed(self, event: Input.Changed) -> None:
        self.query_one(CaseTable).set_filter(event.value)

    @on(Input.Submitted, "#filter")
    def _filter_done(self) -> None:
        self.query_one(CaseTable).focus()

    @on(CaseTable.ColumnsChanged)
    def _columns(self, event: CaseTable.ColumnsChanged) -> None:
        self.query_one("#case-header", Static).update(Text(event.header))

    @on(CaseTable.Highlighted)
    async def _highlighted(self, event: CaseTable.Highlighted) -> None:
        form = self.query_one(CaseForm)
        if self.document is not None and event.uid != form.uid:
            self.document.seal()
            await form.show(self.document, event.uid)

    @on(CaseTable.Chosen)
    def _chosen(self) -> None:
        self.query_one(CaseForm).focus_field("eval_id")

    # --- editing -------------------------------------------------------------------

    def _refresh_marks(self) -> None:
        assert self.document is not None
        self.query_one(CaseTable).set_marked(self.document.problem_uids())
        self._update_title()

    @on(FieldEdited)
    def _field_edited(self, event: FieldEdited) -> None:
        form = self.query_one(CaseForm)
        document = self.document
        if document is None or form.uid is None:
            return
        if not document.set_field(form.uid, event.key, event.text):
            return
        self.query_one(CaseTable).update_case(document.case(form.uid))
        form.show_problems(document.field_problems(form.uid))
        self._refresh_marks()

    async def _reshow(self, uid: int | None, focus_key: str | None = None) -> None:
        """Redraw the list and the form after a structural change."""
        assert self.document is not None
        table = self.query_one(CaseTable)
        table.set_cases(self.document.cases, self.document.problem_uids())
        if uid is not None and not table.select_uid(uid):
            self.query_one("#filter", Input).value = ""
            table.set_filter("")
            table.select_uid(uid)
        await self.query_one(CaseForm).show(self.document, table.highlighted_uid, focus_key)
        self._update_title()

    def _current_turn(self) -> int:
        form = self.query_one(CaseForm)
        key = form.focused_key() or ""
        parts = key.split(".")
        if len(parts) > 1 and parts[0] == "turns":
            return int(parts[1])
        assert self.document is not None and form.uid is not None
        return len(self.document.case(form.uid).data.get("conversation") or []) - 1

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        needs_case = {"duplicate_case", "delete_case", "move_case", "add_turn", "add_call"}
        needs_document = {"save", "undo", "redo", "new_case"} | needs_case
        if action in needs_document and self.document is None:
            return None
        if action in needs_case and self.query_one(CaseForm).uid is None:
            return None
        return True

    async def action_new_case(self) -> None:
        """Add a blank case after the selected one and start typing its id."""
        if self.document is None:
            return
        uid = self.document.add_case(after=self.query_one(CaseForm).uid)
        await self._reshow(uid, "eval_id")

    async def action_duplicate_case(self) -> None:
        """Copy the selected case (with a new id) right after it."""
        uid = self.query_one(CaseForm).uid
        if self.document is not None and uid is not None:
            await self._reshow(self.document.duplicate_case(uid))

    @work(exclusive=True, group="dialog")
    async def action_delete_case(self) -> None:
        """Delete the selected case, after asking."""
        uid = self.query_one(CaseForm).uid
        if self.document is None or uid is None:
            return
        case = self.document.case(uid)
        answer = await self.app.push_screen_wait(
            ChoiceScreen(
                f"Delete case {case.eval_id!r}? (ctrl+z undoes it)",
                {"delete": "Delete", "cancel": "Cancel"},
                title="Delete case",
            )
        )
        if answer != "delete":
            return
        visible = self.query_one(CaseTable).visible_uids
        position = visible.index(uid) if uid in visible else 0
        self.document.delete_case(uid)
        remaining = [u for u in visible if u != uid]
        next_uid = remaining[min(position, len(remaining) - 1)] if remaining else None
        await self._reshow(next_uid)
        self.query_one(CaseTable).focus()

    async def action_move_case(self, delta: int) -> None:
        """Move the selected case up or down."""
        uid = self.query_one(CaseForm).uid
        if self.document is not None and uid is not None and self.document.move_case(uid, delta):
            await self._reshow(uid, self.query_one(CaseForm).focused_key())

    async def action_add_turn(self) -> None:
        """Add a turn after the one holding the focus (or at the end)."""
        uid = self.query_one(CaseForm).uid
        if self.document is None or uid is None:
            return
        turns = self.document.case(uid).data.get("conversation") or []
        after = self._current_turn() if turns else None
        turn = self.document.add_turn(uid, after)
        await self._reshow(uid, f"turns.{turn}.user")

    async def action_add_call(self) -> None:
        """Add an expected tool call to the turn holding the focus (or the last turn)."""
        uid = self.query_one(CaseForm).uid
        if self.document is None or uid is None:
            return
        if not self.document.case(uid).data.get("conversation"):
            self.notify("Add a turn first (ctrl+t).", severity="warning")
            return
        turn = self._current_turn()
        call = self.document.add_tool_call(uid, turn)
        await self._reshow(uid, f"turns.{turn}.tools.{call}.name")

    @on(FormCommand)
    async def _form_command(self, event: FormCommand) -> None:
        uid = self.query_one(CaseForm).uid
        document = self.document
        if document is None or uid is None:
            return
        focus: str | None = None
        if event.name == "add_call":
            call = document.add_tool_call(uid, event.turn)
            focus = f"turns.{event.turn}.tools.{call}.name"
        elif event.name == "remove_call":
            document.remove_tool_call(uid, event.turn, event.call)
            focus = f"turns.{event.turn}.nodes"
        elif event.name == "move_call":
            if not document.move_tool_call(uid, event.turn, event.call, event.delta):
                return
            focus = f"turns.{event.turn}.tools.{event.call + event.delta}.args"
        elif event.name == "remove_turn":
            document.remove_turn(uid, event.turn)
            focus = f"turns.{max(event.turn - 1, 0)}.user"
        await self._reshow(uid, focus)

    async def _undo_or_redo(self, redo: bool) -> None:
        document = self.document
        if document is None:
            return
        form = self.query_one(CaseForm)
        focus = form.focused_key()
        change = document.redo() if redo else document.undo()
        if change is None:
            self.notify("Nothing to redo." if redo else "Nothing to undo.")
            return
        uid = change_uid(change)
        if isinstance(change, DeleteCase | InsertCase | MoveCase):
            present = {case.uid for case in document.cases}
            await self._reshow(uid if uid in present else None)
        elif uid is not None:
            await self._reshow(uid, focus)
        self._update_title()

    async def action_undo(self) -> None:
        """Undo the last edit."""
        await self._undo_or_redo(redo=False)

    async def action_redo(self) -> None:
        """Redo the last undone edit."""
        await self._undo_or_redo(redo=True)

    # --- saving --------------------------------------------------------------------

    async def _save(self) -> bool:
        document = self.document
        if document is None:
            return True
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
        if document.path is not None:
            self.entries = [
                EvalSetEntry(e.path, len(document.cases)) if e.path == document.path else e
                for e in self.entries
            ]
            self._show_entries()
            self.notify(f"Saved {self.workspace.display_path(document.path)}")
        self._update_title()
        return True

    @work(exclusive=True, group="dialog")
    async def action_save(self) -> None:
        """Save the file (atomically); with problems, list them and write nothing."""
        await self._save()

    # --- focus and files -----------------------------------------------------------

    def action_focus_filter(self) -> None:
        """Focus the filter box."""
        self.query_one("#filter", Input).focus()

    def action_focus_cases(self) -> None:
        """Focus the case list."""
        self.query_one(CaseTable).focus()

    def action_focus_files(self) -> None:
        """Focus the file list."""
        self.query_one("#files").focus()

    @work(exclusive=True, group="dialog")
    async def action_new_eval_set(self) -> None:
        """Create a new eval set file (asks for its name; written on first save)."""
        if not await self.confirm_leave():
            return
        path = await self.app.push_screen_wait(NewEvalSetScreen(self.workspace.root))
        if path is None:
            return
        await self.set_document(EvalSetDocument.new(path))
