"""What to run and how: scope, case filter, agent, concurrency, repeats, workers, preset, the
agent's tools (live, record, replay, replay-or-record), watch."""

from __future__ import annotations

import importlib.util
from dataclasses import dataclass, field
from pathlib import Path

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widgets import Checkbox, Input, Label, Select

from tenxeval_tui.evaluation.config.presets import PRESETS
from tenxeval_tui.evaluation.inert import inert
from tenxeval_tui.evaluation.tools.settings import TOOL_MODES

ALL_SETS = "*all*"
TOOL_LABELS = {"replay-or-record": "rep+rec"}
"""Short labels of the tools modes (the options bar fits 80 columns)."""


def agent_problem(spec: str, search_path: Path | None) -> str | None:
    """Why ``spec`` cannot name an agent (``None`` when it can), without importing it.

    The form must be ``module:attribute``; the module must be a file or package under
    ``search_path`` or an installed top-level module.
    """
    from tenxeval_tui.evaluation.targets.loader import AgentLoadError, parse_spec

    spec = spec.strip()
    if not spec:
        return "no agent: type one as module:attribute, or set [tool.tenxeval] agent"
    try:
        module, _ = parse_spec(spec)
    except AgentLoadError as exc:
        return str(exc)
    parts = module.split(".")
    if search_path is not None:
        base = search_path.joinpath(*parts)
        if base.with_suffix(".py").is_file() or (base / "__init__.py").is_file():
            return None
    try:
        found = importlib.util.find_spec(parts[0])
    except (ImportError, ValueError):
        found = None
    if found is None:
        where = f" under {search_path}" if search_path is not None else ""
        return f"agent {spec!r}: no module {module!r}{where}"
    return None


@dataclass
class RunChoice:
    """The options as chosen on screen."""

    scope: str = ALL_SETS
    """:data:`ALL_SETS` or the path of one eval set."""
    filter: str = ""
    """``#tag`` words select by tag; other words are eval ids."""
    agent: str = ""
    concurrency: int | None = None
    repeats: int | None = None
    """Runs of each case; ``None`` (left empty): the config's (an eval set's own wins)."""
    workers: int | None = None
    """Worker processes the cases go to; ``None`` (left empty) or 1: the run's own process."""
    preset: str | None = None
    tools: str = "live"
    """The agent's tools: live, record, replay or replay-or-record (``run --tools``)."""
    watch: bool = False
    tags: list[str] = field(default_factory=list)
    eval_ids: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        for word in self.filter.replace(",", " ").split():
            if word.startswith("#") and len(word) > 1:
                self.tags.append(word[1:])
            elif not word.startswith("#"):
                self.eval_ids.append(word)


NARROW = 160
"""Below this many columns the options take two lines (what to run; how): on one line, the
scope (30) and the case filter (24) beside how to run (78) leave the agent box its 26
columns only from here (at 120 it got none)."""


class RunOptions(Vertical):
    """The options bar of the run screen: one line when wide, two when narrow."""

    DEFAULT_CSS = """
    RunOptions {
        height: auto;
        layout: horizontal;
    }
    RunOptions.-narrow {
        layout: vertical;
    }
    RunOptions Horizontal {
        height: 1;
        width: auto;
    }
    RunOptions #run-what {
        width: 1fr;
    }
    RunOptions Label {
        padding: 0 1;
    }
    RunOptions #scope { width: 30; }
    RunOptions #case-filter { width: 24; }
    RunOptions #agent { width: 1fr; }
    RunOptions #concurrency { width: 6; }
    RunOptions #repeats { width: 6; }
    RunOptions #workers { width: 4; }
    RunOptions #preset { width: 19; }
    RunOptions #tools { width: 10; }
    RunOptions.-narrow #scope { width: 1fr; max-width: 30; }
    RunOptions.-narrow #case-filter { width: 1fr; max-width: 24; }
    RunOptions.-narrow #agent { width: 2fr; }
    RunOptions #watch { margin-left: 2; }
    /* the box, list or switch with the focus, readable without colour (NO_COLOR, a
       monochrome terminal): a bar drawn at its left, a glyph rather than a tint */
    RunOptions Input:focus, RunOptions Select:focus, RunOptions Checkbox:focus {
        outline-left: outer $accent;
    }
    RunOptions Input:focus { padding-left: 1; }  /* the bar covers a cell, not the text */
    """

    def __init__(
        self,
        eval_sets: list[tuple[str, Path]],
        *,
        agent: str = "",
        concurrency: int = 4,
        workers: int | None = None,
        preset: str | None = None,
        tools: str = "live",
        id: str | None = None,
    ) -> None:
        super().__init__(id=id)
        self._tools = tools if tools in TOOL_MODES else "live"
        self._workers = workers
        self._eval_sets = eval_sets
        self._agent = agent
        self._concurrency = concurrency
        self._preset = preset if preset in PRESETS else "default"

    def _scopes(self) -> list[tuple[str | Text, str]]:
        scopes: list[tuple[str | Text, str]] = [("all eval sets", ALL_SETS)]
        return scopes + [(Text(inert(label)), str(p)) for label, p in self._eval_sets]

    def set_eval_sets(self, eval_sets: list[tuple[str, Path]]) -> None:
        """List ``eval_sets`` in the scope list (files made or removed since); the chosen
        one stays chosen while it is listed, else "all eval sets" is."""
        if eval_sets == self._eval_sets:
            return
        self._eval_sets = eval_sets
        scope = self.query_one("#scope", Select)
        chosen = scope.value
        scope.set_options(self._scopes())
        listed = {str(path) for _, path in eval_sets}
        scope.value = chosen if chosen in listed else ALL_SETS

    def compose(self) -> ComposeResult:
        with Horizontal(id="run-what"):
            yield Select(
                self._scopes(), value=ALL_SETS, allow_blank=False, id="scope", compact=True
            )
            yield Input(placeholder="case ids or #tags", id="case-filter", compact=True)
            yield Input(
                inert(self._agent), placeholder="agent module:attribute", id="agent", compact=True
            )
        with Horizontal(id="run-how"):
            yield Label("jobs")
            yield Input(
                str(self._concurrency), type="integer", id="concurrency", compact=True, max_length=3
            )
            yield Label("runs", id="repeats-label")
            yield Input(
                placeholder="1",
                type="integer",
                id="repeats",
                compact=True,
                max_length=5,
                tooltip="Runs of each case (empty: the config's; an eval set's own wins)",
            )
            yield Label("workers", id="workers-label")
            yield Input(
                str(self._workers) if self._workers else "",
                placeholder="1",
                type="integer",
                id="workers",
                compact=True,
                max_length=2,
                tooltip="Worker processes the cases go to, the jobs split between them "
                "(empty or 1: one process; the workers setting sets the default)",
            )
            presets = [(name, name) for name in PRESETS]
            yield Select(presets, value=self._preset, allow_blank=False, id="preset", compact=True)
            modes = [(f"⚙ {TOOL_LABELS.get(mode, mode)}", mode) for mode in TOOL_MODES]
            yield Select(
                modes,
                value=self._tools,
                allow_blank=False,
                id="tools",
                compact=True,
                tooltip="The agent's tools: run them, record every call to NAME.tools.jsonl, "
                "replay the recording (no real tool runs), or replay what is recorded and "
                "record the rest",
            )
            yield Checkbox("watch", False, id="watch", compact=True)

    def on_resize(self, event: events.Resize) -> None:
        self.set_class(event.size.width < NARROW, "-narrow")

    def choice(self) -> RunChoice:
        """What is chosen now."""
        scope = self.query_one("#scope", Select).value
        concurrency = self.query_one("#concurrency", Input).value.strip()
        repeats = self.query_one("#repeats", Input).value.strip()
        workers = self.query_one("#workers", Input).value.strip()
        preset = self.query_one("#preset", Select).value
        tools = self.query_one("#tools", Select).value
        return RunChoice(
            scope=str(scope) if isinstance(scope, str) else ALL_SETS,
            filter=self.query_one("#case-filter", Input).value,
            agent=self.query_one("#agent", Input).value.strip(),
            concurrency=max(1, int(concurrency)) if concurrency.isdigit() else None,
            repeats=int(repeats) if repeats.isdigit() else None,
            workers=max(1, int(workers)) if workers.isdigit() else None,
            preset=str(preset) if isinstance(preset, str) else None,
            tools=str(tools) if isinstance(tools, str) else "live",
            watch=self.query_one("#watch", Checkbox).value,
        )

    def set_watch(self, on: bool) -> None:
        """Turn the watch box on or off."""
        self.query_one("#watch", Checkbox).value = on


__all__ = ["ALL_SETS", "RunChoice", "RunOptions", "agent_problem"]
