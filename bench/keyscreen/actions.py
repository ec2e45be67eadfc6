"""The actions timed, screen by screen, each with what the screen shows once it is done.

Each ``check`` waits for the whole effect of a key a user would look for: moving in the
case list is done when the list's cursor is on the case *and* the form shows it; a screen
switch when the screen's title, its content and its footer are there.
"""

from __future__ import annotations

import json
import re
import time
from pathlib import Path
from typing import Any

from keyscreen.fixtures import CASES, case_id
from keyscreen.session import Session, highlighted
from keyscreen.terminal import Check, Screen

BURST = "".join(chr(ord("a") + index % 26) for index in range(100))


def report_case(index: int) -> str:
    """What the report's case view shows of case ``index`` in its title line."""
    return f"case_{index:05d}  Order status {index} "


def _footer(screen: Screen) -> str:
    return screen.lines[-1]


def editor_shown(screen: Screen) -> bool:
    """The editor with its form, the case list focused."""
    return (
        "tenxeval · editor" in screen.lines[0]
        and screen.find("Case #") is not None
        and "Delete case" in _footer(screen)
    )


def run_view_shown(screen: Screen) -> bool:
    """The run view with its case table and its keys."""
    return (
        "tenxeval · run" in screen.lines[0]
        and screen.find("╭─ cases") is not None
        and "Watch" in _footer(screen)
    )


def reports_shown(screen: Screen) -> bool:
    """The report list with the big report listed."""
    return (
        screen.lines[0].startswith(" Reports in")
        and screen.find("10000  big_") is not None
        and "Refresh" in _footer(screen)
    )


def report_shown(screen: Screen) -> bool:
    """One report: its summary and its first cases."""
    return (
        screen.find("pass rate") is not None
        and screen.find("case_00000") is not None
        and "Status filter" in _footer(screen)
    )


class Editor:
    """The editor's actions, on the 1,000-case eval set."""

    def __init__(self, session: Session, path: Path) -> None:
        self.session = session
        self.path = path
        screen = session.app.screen
        title = screen.find("Case #1 ")
        assert title is not None
        split = screen.line(title[0]).index("▏")
        self.sidebar = (0, split)
        self.form = (split + 1, session.app.columns)
        first = screen.find(case_id(0), self.sidebar)
        assert first is not None
        self.cursor_bg = screen.cell(*first).bg
        second = screen.find(case_id(1), self.sidebar)
        assert second is not None and screen.cell(*second).bg != self.cursor_bg
        self.first_row = first[0]
        self.list_rows = sum(1 for line in screen.lines if line[:split].strip().startswith("case_"))
        self.index = 0
        self.ids, self.searchable = _search_texts(path)

    def shows_case(self, index: int) -> Check:
        """The list's cursor on case ``index`` and the form showing it."""
        title = f"Case #{index + 1} "
        cid = case_id(index)
        return lambda s: (
            s.find(title, self.form) is not None
            and highlighted(s, cid, self.cursor_bg, self.sidebar)
        )

    def move(self, presses: int) -> None:
        """Down ``presses`` times, then up as many."""
        session = self.session
        for key, step, name in (("down", 1, "next"), ("up", -1, "previous")):
            for _ in range(presses):
                self.index += step
                session.time_key(f"editor: {name} case", "key", key, self.shows_case(self.index))

    def _list_focused(self, screen: Screen) -> bool:
        return "Delete case" in _footer(screen) and highlighted(
            screen, case_id(self.index), self.cursor_bg, self.sidebar
        )

    def open_case(self, rounds: int) -> None:
        """Enter (the form's first field takes the focus), then back to the list."""
        session = self.session
        for _ in range(rounds):
            session.time_key(
                "editor: open a case", "open", "enter", lambda s: not self._list_focused(s)
            )
            session.press("escape", self._list_focused)

    def undo_redo(self, rounds: int) -> None:
        """A character typed into ``eval_id``, then ``ctrl+z`` and ``ctrl+y`` in turn."""
        session = self.session
        cid = case_id(self.index)
        edited = cid + "x"
        session.press("enter", lambda s: not self._list_focused(s))
        session.press("end")  # the field's text is selected on focus: typing would replace it
        session.press("x", lambda s: s.find(edited, self.form) is not None)

        def undone(s: Screen) -> bool:
            return (
                s.find(edited) is None
                and s.find(cid, self.form) is not None
                and s.find(cid, self.sidebar) is not None
            )

        def redone(s: Screen) -> bool:
            return (
                s.find(edited, self.form) is not None and s.find(edited, self.sidebar) is not None
            )

        for _ in range(rounds):
            session.time_key("editor: ctrl+z (undo)", "key", "ctrl+z", undone)
            session.time_key("editor: ctrl+y (redo)", "key", "ctrl+y", redone)
        session.press("escape", self._list_focused)

    def burst(self, rounds: int) -> list[str]:
        """100 keys typed at once into the name field; once shown, saved and read back.
        Returns what went wrong (a key lost or misplaced)."""
        session = self.session
        app = session.app
        problems: list[str] = []
        session.press("enter", lambda s: not self._list_focused(s))  # to eval_id
        session.press("tab")  # to the name
        session.press("end")
        before = _saved_case(self.path, self.index)["name"]
        for round_ in range(rounds):

            def type_burst() -> float:
                last = 0.0
                for char in BURST:
                    last = app.write(char.encode())
                return last

            tail = BURST[-30:]
            session.time_with(
                "editor: 100-key burst, last key to shown",
                "burst",
                type_burst,
                lambda s, tail=tail: s.find(tail, self.form) is not None,
                what="the burst typed into the name field",
            )
            session.press("ctrl+s")
            expected = before + BURST * (round_ + 1)
            name = _wait_saved_name(self.path, self.index, expected)
            if name != expected:
                problems.append(f"burst {round_ + 1}: saved name ends {name[-40:]!r}")
        session.press("escape", self._list_focused)
        return problems

    def filter(self) -> None:
        """Typing into the filter, a key at a time; each key is done when the filter box
        shows the text and the list shows the cases it matches."""
        session = self.session
        self.ids, self.searchable = _search_texts(self.path)  # as saved, edits included
        session.press("ctrl+f")
        typed = ""
        keys = [*"case_012", *["backspace"] * 8, *"status 1", *["backspace"] * 8]
        for key in keys:
            typed = typed[:-1] if key == "backspace" else typed + key
            session.time_key("editor: filter 1,000 cases, a key", "key", key, self._filtered(typed))
        session.press("escape", lambda s: "Delete case" in _footer(s))
        title = session.app.screen.find("Case #", self.form)
        assert title is not None
        number = session.app.screen.line(title[0], self.form).split("#")[1].split()[0]
        self.index = int(number) - 1  # the filter moved the cursor

    def _filtered(self, typed: str) -> Check:
        words = typed.casefold().split()
        matching = [i for i, text in enumerate(self.searchable) if all(w in text for w in words)]
        ids_matching = [self.ids[i] for i in matching]
        box_row = self.first_row - 2
        shown = typed.strip() or "filter: words, #tag"

        def check(s: Screen) -> bool:
            if s.line(box_row, self.sidebar).strip() != shown:
                return False
            rows = [
                s.line(row, self.sidebar).split(maxsplit=1)
                for row in range(self.first_row, self.first_row + self.list_rows)
            ]
            ids = [row[0] for row in rows if row and row[0].startswith("case_")]
            if len(matching) <= self.list_rows:
                return ids == ids_matching
            if len(ids) != self.list_rows or ids[0] not in ids_matching:
                return False
            start = ids_matching.index(ids[0])
            return ids == ids_matching[start : start + len(ids)]

        return check

    def switch(self, rounds: int) -> None:
        """``r``, ``b``, ``e`` in turn; the first round (each screen's first showing,
        which builds it) is timed apart."""
        session = self.session
        for round_ in range(rounds + 1):
            first = " (first time)" if round_ == 0 else ""
            kind = "first" if round_ == 0 else "switch"
            session.time_key(f"switch: to the run view{first}", kind, "r", run_view_shown)
            session.time_key(f"switch: to reports{first}", kind, "b", reports_shown)
            session.time_key(f"switch: to the editor{first}", kind, "e", editor_shown)


def _search_texts(path: Path) -> tuple[list[str], list[str]]:
    """The cases' ids and the text the filter matches against, as the file holds them."""
    from tenxeval_tui.authoring.case_fields import case_search_text

    cases = json.loads(path.read_text(encoding="utf-8"))["eval_cases"]
    assert len(cases) == CASES
    return [case["eval_id"] for case in cases], [case_search_text(case) for case in cases]


def _saved_case(path: Path, index: int) -> dict[str, Any]:
    case: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))["eval_cases"][index]
    return case


def _wait_saved_name(path: Path, index: int, expected: str, timeout: float = 30.0) -> str:
    deadline = time.monotonic() + timeout
    name = ""
    while time.monotonic() < deadline:
        try:
            name = _saved_case(path, index)["name"]
        except (OSError, ValueError, KeyError, IndexError):
            name = ""
        if name == expected:
            return name
        time.sleep(0.05)  # polling a file the app writes: a wait, not a measurement
    return name


class Reports:
    """The report browser's actions, on the 10,000-case report."""

    def __init__(self, session: Session) -> None:
        self.session = session

    def open_report(self, rounds: int) -> None:
        """Enter on the report, back to the list, again."""
        session = self.session
        session.press("b", reports_shown)
        for _ in range(rounds):
            session.time_key("reports: open a report", "switch", "enter", report_shown)
            session.press("escape", reports_shown)

    def cases(self, rounds: int, nexts: int) -> None:
        """Open a case of the report, then the next ones with the case open."""
        session = self.session
        session.press("enter", report_shown)
        index = 0
        for _ in range(rounds):
            session.time_key("report: open a case", "open", "enter", _shows(report_case(index)))
            for _ in range(nexts):
                index += 1
                session.time_key(
                    "report: next case (case open)", "key", "down", _shows(report_case(index))
                )
            closed = report_case(index)
            session.press("escape", lambda s, closed=closed: s.find(closed) is None)
            index += 1
            session.press("down")
        session.press("escape", reports_shown)


def _shows(text: str) -> Check:
    return lambda s: s.find(text) is not None


class RunView:
    """The run view's actions: watch on and off, starting a run."""

    def __init__(self, session: Session) -> None:
        self.session = session

    def toggle_watch(self, rounds: int) -> None:
        """``w`` on, ``w`` off (turning it on starts a run of the 1,000 cases)."""
        session = self.session
        session.press("r", run_view_shown)
        screen = session.app.screen
        box = screen.find("▐X▌ watch")
        assert box is not None, screen.text()
        where = (box[0], box[1] + 1)
        off = screen.cell(*where)
        for _ in range(rounds):
            session.time_key("run view: toggle watch", "key", "w", lambda s: s.cell(*where) != off)
            session.time_key("run view: toggle watch", "key", "w", lambda s: s.cell(*where) == off)
        self._cancel()

    def _cancel(self) -> None:
        """Cancel the run in progress (answering its dialog), or see it finished."""
        session = self.session
        session.press("ctrl+k", lambda s: s.find(ASK_CANCEL) is not None or _finished(s))
        if session.app.screen.find(ASK_CANCEL) is not None:
            session.press("y", lambda s: s.find(ASK_CANCEL) is None and _finished(s))

    def start(self, rounds: int) -> None:
        """``ctrl+r``, timed to the first running row (or, when the rows on screen ran
        between two frames, to the progress line counting the new run); then the run is
        cancelled."""
        session = self.session
        for _ in range(rounds):
            session.time_key(
                "run view: start a run, to the first running row",
                "start",
                "ctrl+r",
                lambda s: s.find("▶") is not None or _under_way(s),
            )
            self._cancel()


ASK_CANCEL = "Cancel the run?"


def _under_way(screen: Screen) -> bool:
    """The progress line counts fewer cases done than the run has."""
    found = re.search(r"\b(\d+)/(\d+) done", screen.text())
    return found is not None and int(found[1]) < int(found[2])


def _finished(screen: Screen) -> bool:
    return screen.find("Run finished") is not None or screen.find("(cancelled)") is not None
