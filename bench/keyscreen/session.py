"""One bench session: the app and the floor app side by side, each key timed on both.

Every sample of an action is taken right after a sample of the floor (the floor app's
cursor moving one row), so a busy moment of the machine weighs on both alike.
"""

from __future__ import annotations

import math
import os
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from keyscreen.floor_app import ROWS, row_text
from keyscreen.terminal import Check, Screen, Terminal, python_argv

KEYS: dict[str, bytes] = {
    "down": b"\x1b[B",
    "up": b"\x1b[A",
    "end": b"\x1b[F",
    "enter": b"\r",
    "escape": b"\x1b",
    "tab": b"\t",
    "backspace": b"\x7f",
    "ctrl+f": b"\x06",
    "ctrl+k": b"\x0b",
    "ctrl+l": b"\x0c",
    "ctrl+q": b"\x11",
    "ctrl+r": b"\x12",
    "ctrl+s": b"\x13",
    "ctrl+y": b"\x19",
    "ctrl+z": b"\x1a",
}
"""What a terminal sends for each key (``xterm``); any other key is its own character."""

SETTLE_S = 0.15
"""Before each sample: no output for this long (the last key's work is done)."""


def key_bytes(key: str) -> bytes:
    """The bytes a terminal sends for ``key``."""
    return KEYS.get(key, key.encode())


def percentile(values: list[float], share: float) -> float:
    """The ``share`` (0..1) percentile of ``values``, nearest rank."""
    ordered = sorted(values)
    return ordered[max(math.ceil(share * len(ordered)) - 1, 0)]


@dataclass
class Figures:
    """The samples of one action (milliseconds), and the floor's taken beside them."""

    name: str
    kind: str
    samples: list[float] = field(default_factory=list)
    floor: list[float] = field(default_factory=list)
    loads: list[float] = field(default_factory=list)

    @property
    def median(self) -> float:
        return statistics.median(self.samples)

    @property
    def p95(self) -> float:
        return percentile(self.samples, 0.95)


def highlighted(screen: Screen, text: str, background: str, columns: tuple[int, int]) -> bool:
    """Whether ``text`` shows within ``columns`` on a row of ``background`` colour."""
    found = screen.find(text, columns)
    return found is not None and screen.cell(*found).bg == background


class Floor:
    """The floor app on a terminal of its own: one row down (or up) per sample."""

    def __init__(self, columns: int, rows: int, env: dict[str, str]) -> None:
        script = Path(__file__).with_name("floor_app.py")
        self.terminal = Terminal(python_argv(str(script)), columns=columns, rows=rows, env=env)
        self.started = time.perf_counter()
        self.terminal.wait_for(lambda s: s.find(row_text(1)) is not None, what="the floor app")
        self.ready_s = time.perf_counter() - self.started
        self.terminal.quiet(0.5)
        screen = self.terminal.screen
        self.cursor_bg = screen.cell(*_found(screen, row_text(0))).bg
        assert screen.cell(*_found(screen, row_text(1))).bg != self.cursor_bg
        self.index = 0
        self.step = 1

    def sample(self) -> float:
        """One cursor move: milliseconds from the key to the row highlighted."""
        if not 0 <= self.index + self.step < min(ROWS, 40):
            self.step = -self.step
        self.index += self.step
        target = row_text(self.index)
        terminal = self.terminal
        terminal.quiet(SETTLE_S)
        sent = terminal.write(KEYS["down" if self.step > 0 else "up"])
        columns = (0, terminal.columns)
        shown = terminal.wait_for(
            lambda s: highlighted(s, target, self.cursor_bg, columns), what=f"{target} highlighted"
        )
        return (shown - sent) * 1000


def _found(screen: Screen, text: str) -> tuple[int, int]:
    found = screen.find(text)
    assert found is not None, f"{text!r} is not on screen:\n{screen.text()}"
    return found


class Session:
    """The app under test and the floor, and the figures gathered so far."""

    def __init__(self, app: Terminal, floor: Floor) -> None:
        self.app = app
        self.floor = floor
        self.figures: dict[str, Figures] = {}

    def settle(self, seconds: float = SETTLE_S) -> None:
        """Wait until the app drew nothing for ``seconds``."""
        self.app.quiet(seconds)

    def press(self, key: str, check: Check | None = None, what: str = "") -> None:
        """Press ``key`` (not timed); wait for ``check`` if given, else for quiet."""
        self.app.write(key_bytes(key))
        if check is not None:
            self.app.wait_for(check, what=what or key)
        self.settle()

    def time_key(self, name: str, kind: str, key: str, check: Check, what: str = "") -> float:
        """A floor sample, then ``key`` pressed in the app and timed until ``check`` holds;
        both go to the figures of action ``name`` (``kind``: what its targets are)."""
        figures = self.figures.setdefault(name, Figures(name, kind))
        figures.floor.append(self.floor.sample())
        self.settle()
        figures.loads.append(os.getloadavg()[0])
        sent = self.app.write(key_bytes(key))
        shown = self.app.wait_for(check, what=what or f"the effect of {key} ({name})")
        elapsed = (shown - sent) * 1000
        figures.samples.append(elapsed)
        return elapsed

    def time_with(
        self, name: str, kind: str, act: Callable[[], float], check: Check, what: str
    ) -> float:
        """Like :meth:`time_key`, for an act that writes several keys and returns when its
        last one was written (a burst)."""
        figures = self.figures.setdefault(name, Figures(name, kind))
        figures.floor.append(self.floor.sample())
        self.settle()
        figures.loads.append(os.getloadavg()[0])
        last = act()
        shown = self.app.wait_for(check, what=what)
        elapsed = (shown - last) * 1000
        figures.samples.append(elapsed)
        return elapsed
