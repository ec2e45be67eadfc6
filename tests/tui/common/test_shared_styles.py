"""The workbench's style sheet shares parsed rules between the apps of a process
(``screens/common/shared_styles.py``): what it gives must be what Textual's own parse
gives, under every theme, and a second app must parse nothing."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import textual.css.stylesheet
from textual.app import App
from textual.css.model import RuleSet
from textual.css.stylesheet import Stylesheet
from textual.widgets import Input

from tenxeval_tui.app import WorkbenchApp
from tenxeval_tui.screens.common.shared_styles import APP_STYLE_SHEETS, SharedStylesheet
from tenxeval_tui.screens.reports.reports import ReportsScreen
from tenxeval_tui.screens.run.run import RunScreen
from tests.tui.conftest import wait_for


def described(rules: list[RuleSet]) -> list[tuple[object, ...]]:
    """What each rule set says (its styles by their repr: layouts compare by identity)."""
    return [
        (rule.selector_set, repr(rule.styles), rule.is_default_rules, rule.tie_breaker)
        for rule in rules
    ]


def textual_own_parse(app: WorkbenchApp) -> list[tuple[object, ...]]:
    """The app's style sources parsed by Textual's own style sheet, with the app's
    current theme variables."""
    plain = Stylesheet(variables=app.get_css_variables())
    plain.source = app.stylesheet.source.copy()
    plain.parse()
    return described(plain.rules)


async def test_its_rules_are_textual_s_own_under_each_theme(weather_set: Path) -> None:
    app = WorkbenchApp(weather_set)
    async with app.run_test() as pilot:
        await wait_for(pilot, lambda: bool(app.screen.query("#f-eval_id")))
        assert isinstance(app.stylesheet, SharedStylesheet)
        first_theme = app.theme
        assert described(app.stylesheet.rules) == textual_own_parse(app)
        for theme in ("nord", "gruvbox", first_theme):
            app.theme = theme
            # The theme's colours reach the parsed rules (the app parses them again in a
            # later step): a cache keyed without the variables would keep the first theme's.
            await wait_for(
                pilot,
                lambda: described(app.stylesheet.rules) == textual_own_parse(app),
                what=f"the rules of {theme}",
            )


def test_its_rules_are_hashed_by_identity_without_a_python_call() -> None:
    # Textual's restyle of a widget hashes every rule of the sheet (RuleSet.__hash__ is
    # Python); the shared sheet's rules hash in C, by identity as Textual's do.
    sheet = SharedStylesheet(variables=App().get_css_variables())
    sheet.read_all(APP_STYLE_SHEETS)
    sheet.parse()
    assert sheet.rules
    assert all(type(rule).__hash__ is object.__hash__ for rule in sheet.rules)


async def start_and_pick_nord(app: WorkbenchApp) -> None:
    async with app.run_test() as pilot:
        await wait_for(pilot, lambda: bool(app.screen.query("#f-eval_id")))
        app.theme = "nord"
        await pilot.pause()


async def test_two_apps_in_the_process_parse_each_source_once_per_theme(
    weather_set: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    parses: list[tuple[object, ...]] = []
    parse = textual.css.stylesheet.parse

    def recording(scope: str, css: str, read_from: tuple[str, str], **options: Any) -> Any:
        theme = repr(sorted(options["variable_tokens"].items()))
        place = (read_from, scope, options["is_default_rules"], options["tie_breaker"])
        parses.append((theme, css, place))
        return parse(scope, css, read_from, **options)

    monkeypatch.setattr(textual.css.stylesheet, "parse", recording)
    for _ in range(2):
        await start_and_pick_nord(WorkbenchApp(weather_set))
    # Textual's own style sheet parses the same source again at every reparse (a
    # theme, the first switch to a mode) and in every app.
    assert parses, "no style source was parsed at all"
    assert len(parses) == len(set(parses))


async def test_no_screen_reads_a_style_sheet_or_restyles_the_app_when_first_shown(
    weather_set: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = WorkbenchApp(weather_set)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(pilot, lambda: bool(app.screen.query("#f-eval_id")))
        read: list[str] = []
        restyled: list[object] = []
        update = app.stylesheet.update

        def updating(root: Any, **options: Any) -> None:
            restyled.append(root)
            update(root, **options)

        monkeypatch.setattr(app.stylesheet, "read", lambda path: read.append(str(path)))
        monkeypatch.setattr(app.stylesheet, "update", updating)
        await pilot.press("b")
        await wait_for(pilot, lambda: isinstance(app.screen, ReportsScreen))
        await pilot.press("r")
        await wait_for(pilot, lambda: isinstance(app.screen, RunScreen))
        # Before: the reports read reports.tcss (named by another path), and each first
        # showing of a mode restyled the whole app, every kept screen's every widget.
        assert read == []
        assert app not in restyled


async def test_the_report_sheet_does_not_restyle_the_run_view_s_case_filter(
    weather_set: Path,
) -> None:
    app = WorkbenchApp(weather_set)
    async with app.run_test(size=(160, 45)) as pilot:
        await wait_for(pilot, lambda: bool(app.screen.query("#f-eval_id")))
        await pilot.press("b")
        await wait_for(pilot, lambda: isinstance(app.screen, ReportsScreen))
        await pilot.press("r")
        await wait_for(pilot, lambda: isinstance(app.screen, RunScreen))
        case_filter = app.screen.query_one("RunOptions #case-filter", Input)
        await wait_for(pilot, lambda: case_filter.size.width > 0)
        # RunOptions says 24 columns; the reports' own filter rule (1fr) won once loaded
        assert case_filter.size.width == 24
