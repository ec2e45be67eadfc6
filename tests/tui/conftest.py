"""Helpers of the TUI tests: eval set files on disk, an app driven by Pilot, the
notifications an app showed."""

from __future__ import annotations

import asyncio
import inspect
import time
from collections.abc import Awaitable, Callable, Iterable
from pathlib import Path
from typing import Any, NamedTuple
from weakref import WeakKeyDictionary

import pytest
from textual.app import App
from textual.pilot import Pilot

from tenxeval_tui.evaluation import EvalSetBuilder, ToolCall
from tests.waiting import scaled
from tests.waiting import wait_for as wait_for  # the one wait helper, re-exported


class Shown(NamedTuple):
    """One notification as the app showed it (after the app's own escaping)."""

    title: str
    message: str


_SHOWN: WeakKeyDictionary[App[Any], list[Shown]] = WeakKeyDictionary()


@pytest.fixture(autouse=True)
def _record_notifications(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every app of a test keeps what it notified (see :func:`notifications`)."""
    notify = App.notify

    def recording(self: App[Any], message: str, **options: Any) -> None:
        shown = Shown(str(options.get("title", "")), str(message))
        _SHOWN.setdefault(self, []).append(shown)
        notify(self, message, **options)

    monkeypatch.setattr(App, "notify", recording)


# What Textual's Pilot gives the screen to settle after each key and click: a fixed 30 s.
PILOT_SETTLE_TIMEOUT = 30.0


@pytest.fixture(autouse=True)
def _pilot_settles_in_scaled_time(monkeypatch: pytest.MonkeyPatch) -> None:
    """Pilot's press and click wait up to 30 s for the screen to process its events, then
    raise ``WaitForScreenTimeout``: a fixed timeout a busy machine can miss. It gets
    :func:`tests.waiting.scaled` time like every other wait of the suite."""
    settle = Pilot._wait_for_screen

    async def settle_scaled(self: Pilot[Any], timeout: float = PILOT_SETTLE_TIMEOUT) -> bool:
        return await settle(self, scaled(timeout))

    monkeypatch.setattr(Pilot, "_wait_for_screen", settle_scaled)


# The step in which Pilot waits for the app to go idle after a key it presses (Textual's
# is 20 ms).
PILOT_KEY_IDLE_STEP = 0.005


async def _idle_in_short_steps(min_sleep: float = 0.0, max_sleep: float = 1.0) -> None:
    """``textual._wait.wait_for_idle`` in steps of :data:`PILOT_KEY_IDLE_STEP`, judged as
    it judges them: the app is idle after a step in which the process used under 1/20 of
    it, or after ``max_sleep``."""
    start = time.monotonic()
    while True:
        cpu = time.process_time()
        await asyncio.sleep(PILOT_KEY_IDLE_STEP)
        elapsed = time.monotonic() - start
        if elapsed >= max_sleep:
            return
        if elapsed > min_sleep and time.process_time() - cpu < PILOT_KEY_IDLE_STEP / 20:
            return


@pytest.fixture(autouse=True)
def _keys_wait_for_idle_in_short_steps(monkeypatch: pytest.MonkeyPatch) -> None:
    """After each key it presses, Pilot waits twice for the app to go idle: it sleeps in
    steps of 20 ms until a step passes in which the process used under 1/20 of it. Each
    key cost at least 40 ms of sleep, when the app had long been done with it; a typing
    test was mostly that sleep, and the suite's cores sat idle while its workers slept.
    The key's waits go in steps of 5 ms (judged by the same 1/20); Pilot's ``pause()``
    keeps Textual's steps, which some tests take as time for a layout to settle. (2 ms
    steps were slower on a loaded machine: a step's own wake-up passes for work, and the
    wait runs on to its 1 s limit.)"""
    import textual.app

    monkeypatch.setattr(textual.app, "wait_for_idle", _idle_in_short_steps)


def footer_shows_its_keys(app: App[Any]) -> bool:
    """Whether every footer of the screen shows the keys its screen has now, each enabled
    or dimmed as it is: a footer is rebuilt a step after the bindings change (a focus that
    moved, a file that finished loading), so a picture taken in between shows last
    moment's keys (a snapshot failed so at load ~4, every key of the editor still dimmed)."""
    from textual.widgets import Footer
    from textual.widgets._footer import FooterKey

    screen = app.screen
    for footer in screen.query(Footer):
        wanted: dict[str, bool] = {}
        for _, binding, enabled, _ in screen.active_bindings.values():
            if binding.show:
                wanted.setdefault(binding.action, enabled)
        shown = [
            (key.action, not key.has_class("-disabled"))
            for key in footer.query(FooterKey)
            if not key.has_class("-command-palette")
        ]
        if shown != list(wanted.items()):
            return False
    return True


@pytest.fixture
def snap_compare(snap_compare: Any) -> Any:
    """pytest-textual-snapshot's ``snap_compare``, taking its picture once the footer
    shows the screen's keys (:func:`footer_shows_its_keys`), after the test's
    ``run_before`` and ``press``."""

    def compare(
        app: App[Any],
        press: Iterable[str] = (),
        terminal_size: tuple[int, int] = (80, 24),
        run_before: Callable[[Pilot[Any]], Awaitable[None] | None] | None = None,
    ) -> bool:
        async def settled(pilot: Pilot[Any]) -> None:
            if run_before is not None:
                result = run_before(pilot)
                if inspect.isawaitable(result):
                    await result
            await pilot.pause()
            await pilot.press(*press)
            await wait_for(
                pilot, lambda: footer_shows_its_keys(pilot.app), what="the footer's keys"
            )

        return bool(snap_compare(app, terminal_size=terminal_size, run_before=settled))

    return compare


def notifications(app: App[Any]) -> list[str]:
    """The messages of every notification ``app`` has shown, oldest first, as shown (after
    the app's own escaping); a toast that has timed out or been dismissed is still here, so
    a test on a slow machine does not miss it."""
    return [shown.message for shown in _SHOWN.get(app, [])]


def notifications_with_titles(app: App[Any]) -> list[Shown]:
    """As :func:`notifications`, each with its title."""
    return list(_SHOWN.get(app, []))


@pytest.fixture
def weather_set(tmp_path: Path) -> Path:
    """A folder with one two-case eval set, written the way EvalSetBuilder writes it."""
    path = tmp_path / "weather.evalset.json"
    (
        EvalSetBuilder("weather")
        .add_case(
            "Weather in London?",
            "Sunny in London.",
            expected_tools=[ToolCall(name="get_weather", args={"city": "London"})],
            case_id="london",
            tags=["smoke"],
        )
        .add_multi_turn([("Hi", "Hello!"), ("Paris?", "18C in Paris.")], case_id="paris")
        .save(path)
    )
    return path


async def wait_for_form(pilot: Pilot[Any]) -> None:
    """Wait until the case form shows a case (the file has been checked and drawn)."""
    await wait_for(pilot, lambda: bool(pilot.app.screen.query("#f-eval_id")))


def focused_field(app: Any) -> str | None:
    """The key of the case form's field that has the focus (``None`` when none has)."""
    from tenxeval_tui.widgets.editor.case_form import CaseForm

    forms = app.screen.query(CaseForm)
    return forms.first().focused_key() if forms else None


async def to_field(pilot: Pilot[Any], key: str, *keys: str) -> None:
    """Press ``keys`` and wait until the case form's field ``key`` has the focus: a key
    typed before it has would go to the widget that had it (the app forwards each key to
    the widget focused when the key comes, before an earlier key's action has run)."""
    await pilot.press(*keys)
    await wait_for(pilot, lambda: focused_field(pilot.app) == key, what=f"the focus on {key}")


async def to_widget(pilot: Pilot[Any], widget_id: str, *keys: str) -> None:
    """Press ``keys`` and wait until the widget ``#widget_id`` has the focus (as
    :func:`to_field`, for any widget: a dialog's inputs, the file list)."""
    await pilot.press(*keys)
    await wait_for(
        pilot,
        lambda: getattr(pilot.app.focused, "id", None) == widget_id,
        what=f"the focus on #{widget_id}",
    )


def highlighted_command(app: Any) -> str:
    """The prompt of the command the palette would run on enter ('' while it searches)."""
    from textual.command import CommandList

    lists = app.screen.query(CommandList)
    if not lists:
        return ""
    options = lists.first()
    if options.highlighted is None or options.option_count == 0:
        return ""
    return str(options.get_option_at_index(options.highlighted).prompt)


async def search_palette(pilot: Pilot[Any], query: str, expected: str) -> None:
    """Open the command palette, type ``query`` and wait until ``expected`` is highlighted."""
    await pilot.press("ctrl+p")
    await pilot.press(*query)
    await wait_for(
        pilot,
        lambda: expected in highlighted_command(pilot.app),
        what=f"palette search {query!r} highlighting {expected!r}",
    )
