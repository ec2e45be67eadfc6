"""The Textual app: the workbench's screens (as modes), global keys and command palette.

A screen joins the workbench with one entry in ``MODES`` and one single-key binding in
``BINDINGS`` (``Binding("r", "go('run')", "Run view")``); the footer, the help
screen (``?``) and the command palette pick it up from there. A screen that may hold
unsaved work registers an async check with :meth:`WorkbenchApp.register_leave_guard`;
quitting asks every check first.

One navigation model: a screen's key shows that screen itself (its mode's first
screen, not a report or case opened from it), from every screen but a dialog that
waits for an answer; ``esc`` goes back one step (closes what was opened on top, and
at a mode's first screen returns to the mode it was reached from).
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable
from contextlib import suppress
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from textual import work
from textual.app import App, ScreenStackError, SystemCommand
from textual.binding import Binding, BindingType
from textual.command import DiscoveryHit, Hit, Hits, Provider
from textual.content import Content
from textual.dom import DOMNode
from textual.driver import Driver
from textual.drivers.linux_driver import LinuxDriver
from textual.notifications import SeverityLevel
from textual.screen import ModalScreen, Screen
from textual.widget import AwaitMount

from tenxeval_tui.evaluation.files.fileio import freeze_alive
from tenxeval_tui.evaluation.inert import inert, quoted
from tenxeval_tui.screens.common.help import HelpScreen, format_keys
from tenxeval_tui.screens.common.host import (
    CASE_ACTIONS,
    CaseRequest,
    FlakinessRequest,
    HangUpKeeper,
    LeaveGuard,
)
from tenxeval_tui.screens.common.preferences import Preferences, binding_ids, rebound
from tenxeval_tui.screens.common.shared_styles import APP_STYLE_SHEETS, SharedStylesheet
from tenxeval_tui.screens.common.terminal_driver import TerminalGone, TerminalWatchDriver
from tenxeval_tui.screens.common.typing_keys import from_palette, hidden_while_typing
from tenxeval_tui.screens.editor.editor import EditorScreen
from tenxeval_tui.settings.workspace import Workspace, open_workspace

if TYPE_CHECKING:
    from tenxeval_tui.evaluation.eval_result import EvalCaseResult


class WorkbenchCommands(Provider):
    """Every command that applies now, with its key: the screens and the focused screen's
    bindings."""

    def _commands(self) -> list[tuple[str, str, str, DOMNode]]:
        found: dict[str, tuple[str, str, str, DOMNode]] = {}
        for key, active in self.screen.active_bindings.items():
            binding = active.binding
            if not binding.description or not active.enabled or binding.system:
                continue
            title = f"{binding.description}  ({format_keys(key)})"
            found.setdefault(
                binding.description, (title, binding.tooltip, binding.action, active.node)
            )
        app_bindings = self.app.BINDINGS
        if isinstance(self.app, WorkbenchApp):
            app_bindings = rebound(app_bindings, self.app.preferences.keymap)
        for item in app_bindings:
            if isinstance(item, Binding) and item.description:
                title = f"{item.description}  ({format_keys(item.key)})"
                found.setdefault(item.description, (title, item.tooltip, item.action, self.app))
        return sorted(found.values(), key=lambda command: command[0])

    def _run(self, action: str, node: DOMNode) -> None:
        self.app.call_later(self._run_chosen, action, node)

    async def _run_chosen(self, action: str, node: DOMNode) -> None:
        with from_palette(self.app):  # a text box may have the focus again: it was chosen
            await self.app.run_action(action, node)

    async def discover(self) -> Hits:
        for title, help_text, action, node in self._commands():
            yield DiscoveryHit(title, partial(self._run, action, node), help=help_text or None)

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for title, help_text, action, node in self._commands():
            score = matcher.match(title)
            if score > 0:
                yield Hit(
                    score,
                    matcher.highlight(title),
                    partial(self._run, action, node),
                    help=help_text or None,
                )


WARM_UP_AFTER_S = 1.0
"""Seconds after start before the other modes' screens are imported (see
:meth:`WorkbenchApp._warm_up_modes`): the first screen's form has shown by then (0.8 s on
a quiet 2-core machine), so the import does not compete with it."""


class LazyScreen:
    """A screen class for ``MODES``, named as ``"module:Class"`` and imported when first
    needed (so the app starts without importing the screens it does not show yet)."""

    def __init__(self, target: str) -> None:
        self.target = target

    def load(self) -> type[Screen[Any]]:
        """The screen class."""
        module, name = self.target.split(":")
        screen: type[Screen[Any]] = getattr(importlib.import_module(module), name)
        return screen

    def __call__(self) -> Screen[Any]:
        return self.load()()

    def help_sections(self) -> list[tuple[str, list[Any]]]:
        """The screen class's help sections."""
        screen: Any = self.load()
        sections: list[tuple[str, list[Any]]] = screen.help_sections()
        return sections


class WorkbenchApp(App[None]):
    """tenxeval-tui: author eval sets, run them, browse reports."""

    TITLE = "tenxeval"
    CSS_PATH = APP_STYLE_SHEETS
    MODES: ClassVar[dict[str, Any]] = {
        "editor": EditorScreen,
        "run": LazyScreen("tenxeval_tui.screens.run.run:RunScreen"),
        "reports": LazyScreen("tenxeval_tui.screens.reports.reports:ReportsScreen"),
    }
    COMMANDS = App.COMMANDS | {WorkbenchCommands}
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(
            "e", "go('editor')", "Editor", tooltip="Author and fix eval sets", id="workbench.editor"
        ),
        Binding(
            "r",
            "go('run')",
            "Run view",
            tooltip="Run eval sets and watch them live",
            id="workbench.run",
        ),
        Binding(
            "b",
            "go('reports')",
            "Reports",
            tooltip="Every report: browse and compare runs",
            id="workbench.reports",
        ),
        Binding(
            "ctrl+r",
            "run_now",
            "Run",
            priority=True,
            tooltip="Run what the run view's options select, from any screen and any box",
            id="workbench.run_now",
        ),
        Binding("question_mark", "help", "Help", tooltip="Every key binding", id="workbench.help"),
        Binding(
            "ctrl+q",
            "quit",
            "Quit",
            priority=True,
            tooltip="Quit (asks about unsaved work)",
            id="workbench.quit",
        ),
        Binding(
            "ctrl+p",
            "command_palette",
            "Commands",
            show=False,  # the footer shows it once, at its right end
            tooltip="Search every command",
            id="workbench.commands",
        ),
    ]
    """The global keys; their ids are what ``[keys]`` of the user's settings rebinds."""

    def __init__(
        self, path: str | Path = ".", *, watch_files: bool = True, watch_runs: bool = False
    ) -> None:
        super().__init__()
        self.stylesheet = SharedStylesheet(variables=self.get_css_variables())
        self.workspace: Workspace = open_workspace(path)
        self.watch_files = watch_files
        self.watch_runs = watch_runs
        """Open on the run screen with watch mode on (``tenxeval-tui --watch``)."""
        self._leave_guards: list[LeaveGuard] = []
        self._hang_up_keepers: list[HangUpKeeper] = []
        self.switching_mode = False
        """True while :meth:`switch_mode` runs (the screen shown again keeps its styles)."""
        self._switch_builds = False
        """Whether the switch under way builds its mode's screen (the first showing)."""
        self._mode_history: list[str] = []
        """The modes reached before the current one (``esc`` at a mode's first screen)."""
        self.preferences = Preferences()
        """The user's settings file: theme, key rebindings, the run view's last options."""
        self.set_keymap(self.preferences.keymap)

    def switch_mode(self, mode: str) -> AwaitMount:
        """Textual's mode switch; the mode's screen, shown again, is not restyled whole
        (see ``screens/common/mode_screen.py``)."""
        self.switching_mode = True
        self._switch_builds = mode not in self._screen_stacks  # its screen is kept once built
        try:
            return super().switch_mode(mode)
        finally:
            self.switching_mode = False

    def delay_update(self, delay: float = 0.05) -> None:
        """Textual's pause of the screen's updates (a mode switch masks its transition
        with 50 ms of them); not when a switch shows a mode's screen again as it was
        left: nothing is built or restyled to mask, and every switch took 50 ms more."""
        if self.switching_mode and not self._switch_builds:
            return
        super().delay_update(delay)

    def clear_selection(self) -> None:
        """Clear the text selection, tolerating the moment before a mode's screen is stacked.

        Under ``App.run()`` Textual starts tasks eagerly (Python 3.12+), so an
        ``Input`` nested in a mode's screen mounts before that screen is on its
        stack and asks the app to clear the selection; Textual only tolerates
        ``NoScreen`` there, not ``ScreenStackError``, and the app would crash at
        start-up. There is nothing to clear yet, so ignore it.
        """
        with suppress(ScreenStackError):
            super().clear_selection()

    def update_styles(self, node: DOMNode, animate: bool = True) -> None:
        """Textual's restyle of ``node`` and all it holds, but not of a node in no DOM
        (not mounted yet, or removed): it is styled as it mounts. Textual restyled a
        widget whose classes change in its ``__init__`` (every ``Input``, ``TextArea`` and
        ``Button`` of a form) at once, then again as it mounted."""
        if node is not self and node.parent is None:
            return
        super().update_styles(node, animate)

    def notify(
        self,
        message: str,
        *,
        title: str = "",
        severity: SeverityLevel = "information",
        timeout: float | None = None,
        markup: bool = True,
    ) -> None:
        """A toast in plain text: messages name files and cases, so never markup, and
        their control characters are shown, never written (``markup`` is ignored)."""
        super().notify(
            inert(message, multiline=True),
            title=inert(title),
            severity=severity,
            timeout=timeout,
            markup=False,
        )

    def format_title(self, title: str, sub_title: str) -> Content:
        """The header's title and sub-title (file names) with control characters shown."""
        return super().format_title(inert(title), inert(sub_title))

    def on_mount(self) -> None:
        # Not DEFAULT_MODE: with it, Textual 8 mounts the mode's Input widgets before the
        # screen stack exists when run headless (as snapshot tests do), and they fail.
        # `tenxeval-tui --watch` opens on the run screen with watch mode on.
        self.switch_mode("run" if self.watch_runs else "editor")
        self._apply_preferences()
        self.set_timer(WARM_UP_AFTER_S, self._warm_up_modes)

    @work(thread=True, exclusive=True, group="warm-up", exit_on_error=False)
    def _warm_up_modes(self) -> None:
        """Import the screens of the modes not shown yet, in the background: most of a
        first switch to the run view (``r``) was the import of its screen. A failing
        import is left to that switch, which shows its error.

        Then everything alive is left out of later collections (:func:`freeze_alive`):
        the modules, the first screen, the open eval set. A full collection walked them
        all again, 30-60 ms in the middle of a first switch or a report's opening.
        """
        for screen in self.MODES.values():
            if isinstance(screen, LazyScreen):
                with suppress(Exception):
                    screen.load()
        freeze_alive()

    def _apply_preferences(self) -> None:
        """The user's theme and what is wrong with their settings file, then remember each
        theme the user picks."""
        prefs = self.preferences
        problems = list(prefs.problems)
        if prefs.keymap:
            problems += prefs.unknown_binding_ids(self.known_binding_ids())
        theme = prefs.theme
        if theme and theme in self.available_themes:
            if theme != self.theme:
                prefs.starting_theme = theme
                self.theme = theme
        elif theme:
            problems.append(
                f"{prefs.path}: theme: no theme {theme!r} "
                f"(there are: {', '.join(sorted(self.available_themes))})"
            )
        for problem in problems:
            self.notify(problem, title="Settings", severity="warning", timeout=10)
        self.theme_changed_signal.subscribe(self, self._remember_theme)

    def _remember_theme(self, theme: Any) -> None:
        problem = self.preferences.save_theme(theme.name)
        if problem is not None:
            self.notify(problem, title="Settings", severity="warning")

    def known_binding_ids(self) -> list[str]:
        """Every binding id ``[keys]`` may rebind: the app's and its screens'."""
        ids = binding_ids(self.BINDINGS)
        for screen in self.MODES.values():
            provider = getattr(screen, "help_sections", None)
            if callable(provider):
                for _, bindings in provider():
                    ids += binding_ids(bindings)
        return ids

    def get_system_commands(self, screen: Screen[Any]) -> Iterable[SystemCommand]:
        """Textual's system commands but its Quit: the workbench's own (``ctrl+q``, which
        asks about unsaved work) is the one Quit of the palette."""
        for command in super().get_system_commands(screen):
            if command.title != "Quit":
                yield command

    @property
    def can_go_back(self) -> bool:
        """Whether ``esc`` at a mode's first screen has a mode to return to."""
        return bool(self._mode_history)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if hidden_while_typing(self, action, rebound(self.BINDINGS, self.preferences.keymap)):
            return False  # e, r, b, ? would be typed into the focused box
        # A screen that runs something of its own (the variants view) takes ctrl+r itself.
        if action == "run_now" and getattr(self.screen, "RUNS_ITSELF", False):
            return False
        # A dialog that asks is answered (or cancelled) before going anywhere.
        return not (action in ("go", "run_now") and _waits_for_answer(self.screen))

    async def action_run_now(self) -> None:
        """Run what the run view's options select, from any screen: the run view, then
        its run (``ctrl+r`` there and everywhere)."""
        await self.goto_mode("run", first_screen=True)
        start = getattr(self.screen, "action_start", None)
        if callable(start):
            start()

    async def action_go(self, mode: str) -> None:
        """Show ``mode``'s own first screen (from any screen, any mode)."""
        await self.goto_mode(mode, first_screen=True)

    async def goto_mode(self, mode: str, *, first_screen: bool = False) -> None:
        """Switch to ``mode`` (remembered for ``esc``); ``first_screen`` closes what was
        opened on top of its first screen."""
        if isinstance(self.screen, HelpScreen):
            await self.pop_screen()
        if mode != self.current_mode:
            if mode in self._mode_history:
                self._mode_history.remove(mode)
            self._mode_history.append(self.current_mode)
            await self.switch_mode(mode)
        if first_screen:
            root = self.screen_stack[0]
            while self.screen is not root:
                await self.pop_screen()
            # the screen itself as its key promises: the report list at its newest report
            start = getattr(root, "show_from_start", None)
            if callable(start):
                start()

    async def go_back(self) -> None:
        """Return to the mode this one was reached from, as it was left."""
        if self._mode_history:
            await self.switch_mode(self._mode_history.pop())

    def get_driver_class(self) -> type[Driver]:
        """Textual's driver for this terminal; on Linux and macOS one that notices the
        terminal going away (:mod:`~tenxeval_tui.screens.common.terminal_driver`)."""
        driver = super().get_driver_class()
        return TerminalWatchDriver if driver is LinuxDriver else driver

    async def on_terminal_gone(self, event: TerminalGone) -> None:
        """The terminal went away (a tmux session killed, an ssh connection dropped):
        nobody can answer a question any more, so each screen keeps its unsaved work
        where it says, and the app exits with 129 (128 + SIGHUP, as a shell reports it)."""
        for keep in list(self._hang_up_keepers):
            await keep()
        self.exit(return_code=129)

    def register_hang_up_keeper(self, keeper: HangUpKeeper) -> None:
        """Call ``keeper`` (it keeps unsaved work) before exiting when the terminal went
        away."""
        self._hang_up_keepers.append(keeper)

    def forget_hang_up_keeper(self, keeper: HangUpKeeper) -> None:
        """Call ``keeper`` no more when the terminal goes away (its screen closed)."""
        if keeper in self._hang_up_keepers:
            self._hang_up_keepers.remove(keeper)

    def register_leave_guard(self, guard: LeaveGuard) -> None:
        """Ask ``guard`` before quitting; it returns ``False`` to keep the app open."""
        self._leave_guards.append(guard)

    def help_sections(self, current: Screen[Any] | None = None) -> list[tuple[str, list[Any]]]:
        """Every binding, grouped by where it applies (for the help screen); the sections of
        ``current`` (the screen help is asked on) first, then the keys of every screen."""
        sections: list[tuple[str, list[Any]]] = []
        for screen in self.MODES.values():
            provider = getattr(screen, "help_sections", None)
            if callable(provider):
                sections += provider()
        own = getattr(current, "HELP_WHERE", None)
        first = [section for section in sections if own is not None and section[0] == own]
        rest = [section for section in sections if section not in first]
        keymap = self.preferences.keymap
        first = [(where, rebound(bindings, keymap)) for where, bindings in first]
        rest = [(where, rebound(bindings, keymap)) for where, bindings in rest]
        return [*first, ("everywhere", rebound(self.BINDINGS, keymap)), *rest]

    def action_help(self) -> None:
        """Show every key binding, the current screen's first."""
        if not isinstance(self.screen, HelpScreen):
            keys = rebound(self.BINDINGS, self.preferences.keymap)
            go = [b for b in keys if isinstance(b, Binding) and b.action.startswith("go(")]
            self.push_screen(HelpScreen(self.help_sections(self.screen), passthrough=go))

    case_requests = CASE_ACTIONS
    """The case requests the workbench answers (see :meth:`on_case_request`)."""
    accepts_in_editor = True
    """Accepted runs are written through the editor (see :meth:`accept_actual`)."""

    def on_case_request(self, request: CaseRequest) -> None:
        """A screen asks to edit a case, run it again or continue its conversation: the
        app's action of that name does it, in a worker (it may wait for a dialog, which
        needs the app's messages flowing)."""
        action = f"{request.action}({request.eval_set_id!r}, {request.eval_id!r})"
        self.run_worker(self.run_action(action), group="case-request")

    def on_flakiness_request(self, request: FlakinessRequest) -> None:
        """A screen asks for an eval set's cases ranked by how unstable they are."""
        from tenxeval_tui.screens.reports.flakiness import FlakinessScreen

        self.push_screen(FlakinessScreen(request.folder, request.eval_set_id))

    async def action_edit_case(self, eval_set_id: str, eval_id: str) -> None:
        """Open the case ``eval_id`` of eval set ``eval_set_id`` in the editor (from a report)."""
        from tenxeval_tui.settings.workspace import find_eval_set_file

        path = find_eval_set_file(self.workspace.eval_set_files(), eval_set_id)
        if path is None:
            self.notify(
                f"No eval set {quoted(eval_set_id)} in this workspace.",
                severity="warning",
                markup=False,
            )
            return
        await self.goto_mode("editor")
        editor = self.screen
        if not isinstance(editor, EditorScreen):
            return
        problem = await editor.show_case(path, eval_id)
        if problem is not None:
            self.notify(problem, severity="warning")

    async def action_continue_conversation(self, eval_set_id: str, eval_id: str) -> None:
        """Continue case ``eval_id``'s conversation with the agent (from a report): the case
        in the editor, then a chat with its user messages replayed (f6 there)."""
        await self.action_edit_case(eval_set_id, eval_id)
        editor = self.screen
        if isinstance(editor, EditorScreen):
            editor.continue_conversation(eval_id)

    async def action_rerun_case(self, eval_set_id: str, eval_id: str) -> None:
        """Run the case ``eval_id`` of eval set ``eval_set_id`` again in the run view."""
        from tenxeval_tui.screens.run.run import RunScreen
        from tenxeval_tui.settings.workspace import find_eval_set_file

        path = find_eval_set_file(self.workspace.run_files(), eval_set_id)
        if path is None:
            self.notify(
                f"No eval set {quoted(eval_set_id)} in this workspace.",
                severity="warning",
                markup=False,
            )
            return
        await self.goto_mode("run")
        run = next((s for s in self.screen_stack if isinstance(s, RunScreen)), None)
        if run is None:
            return
        while self.screen is not run:  # a report opened from the run view sits on top
            await self.pop_screen()
        run.launch([path], only={str(path): [eval_id]}, chosen_by="run_again")

    async def accept_actual(
        self, path: Path, run: EvalCaseResult, parts: tuple[str, ...]
    ) -> str | None:
        """Accept ``run`` into its case in ``path`` through the editor (ctrl+z there undoes
        it); why not, or ``None`` once saved (see ``screens/accept/one_case``)."""
        from tenxeval_tui.screens.accept.in_editor import accept_in_editor

        await self.goto_mode("editor")
        editor = self.screen
        if not isinstance(editor, EditorScreen):
            return "The editor did not open: nothing was written."
        return await accept_in_editor(editor, path, run, parts)

    async def accept_actual_many(
        self, path: Path, runs: list[EvalCaseResult], parts: tuple[str, ...]
    ) -> str | None:
        """Accept several runs into their cases in ``path`` through the editor, as one undo
        step there; why not, or ``None`` once saved (see ``screens/accept/report_cases``)."""
        from tenxeval_tui.screens.accept.in_editor import accept_many_in_editor

        await self.goto_mode("editor")
        editor = self.screen
        if not isinstance(editor, EditorScreen):
            return "The editor did not open: nothing was written."
        return await accept_many_in_editor(editor, path, runs, parts)

    async def action_quit(self) -> None:
        """Quit, once every screen with unsaved work has had its say."""
        self._quit_flow()

    @work(exclusive=True, group="quit")
    async def _quit_flow(self) -> None:
        for guard in self._leave_guards:
            if not await guard():
                return
        self.exit()


def _waits_for_answer(screen: Screen[Any]) -> bool:
    """A dialog waiting for an answer (not the help, which is only read)."""
    return isinstance(screen, ModalScreen) and not isinstance(screen, HelpScreen)
