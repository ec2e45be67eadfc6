"""Review mode by Pilot, at 80x24: blind labels by keyboard, each on disk as it is given."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import Static

from tenxeval_tui.browsing.labels import append_label, read_labels, reply_sha256
from tenxeval_tui.screens.reports.review import ReviewScreen
from tenxeval_tui.screens.reports.review_dialogs import NoteDialog, QueueDialog
from tenxeval_tui.widgets.reports.report_list import ReportList
from tenxeval_tui.widgets.reports.review_case import HIDDEN
from tests.browsing.label_samples import (
    JUDGED,
    REPORT_NAME,
    human,
    judged_report,
    reply_of,
    write_eval_set,
    write_report,
)
from tests.tui.browser_app import BrowserApp, plain
from tests.tui.conftest import notifications
from tests.waiting import wait_for

SIZE = (80, 24)
JUDGE = [True] * 8 + [False] * 4  # c00-c07 passed by the judge, c08-c11 failed


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An eval set, one report of it in ./reports, the reviewer alice; run from there."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("TENXEVAL_REVIEWER", "alice")
    write_eval_set(tmp_path, len(JUDGE))
    (tmp_path / "reports").mkdir()
    write_report(tmp_path / "reports", judged_report(JUDGE))
    return tmp_path


def labels_file(project: Path) -> Path:
    return project / "weather.labels.jsonl"


def lines(project: Path) -> list[dict[str, Any]]:
    path = labels_file(project)
    return [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []


async def open_from_list(pilot: Pilot[Any], key: str, ready: Callable[[Any], object]) -> Any:
    """From the report list, ``key``; wait until the screen it opens is ``ready``."""
    app = pilot.app
    await wait_for(pilot, lambda: len(app.screen.query_one(ReportList).entries) == 1)
    await pilot.press(key)
    await wait_for(pilot, lambda: ready(app.screen))
    return app.screen


async def open_review(pilot: Pilot[Any]) -> ReviewScreen:
    """``R``: review mode, once its queue is on screen."""
    screen = await open_from_list(
        pilot, "R", lambda s: isinstance(s, ReviewScreen) and s.session is not None
    )
    assert isinstance(screen, ReviewScreen)
    return screen


def shown(screen: ReviewScreen, widget: str) -> str:
    return plain(screen.query_one(widget, Static))


def on_case(screen: ReviewScreen, eval_id: str, criterion: str | None = None) -> bool:
    item = screen.session.current if screen.session is not None else None
    return item is not None and item.key == (eval_id, criterion, reply_sha256(reply_of(eval_id)))


async def test_blind_labels_by_keyboard_each_appended_as_given(project: Path) -> None:
    app = BrowserApp(project / "reports")
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_review(pilot)
        assert on_case(screen, "c00")
        assert "0 of 12 reviewed" in shown(screen, "#review-progress")
        assert HIDDEN in screen.view.judge_shown  # blind: the verdict waits for the label
        assert "you: not labelled" in shown(screen, "#review-status")

        await pilot.press("p")
        await wait_for(pilot, lambda: len(lines(project)) == 1)
        (first,) = lines(project)
        assert first == {
            "eval_id": "c00",
            "criterion": None,
            "label": "pass",
            "reviewer": "alice",
            "report": REPORT_NAME,
            "reply_sha256": reply_sha256(reply_of("c00")),
            "note": None,
            "time": first["time"],
        }
        await wait_for(pilot, lambda: on_case(screen, "c01"))  # auto-advance
        assert "1 of 12 reviewed" in shown(screen, "#review-progress")
        assert HIDDEN in screen.view.judge_shown
        assert "last: c00 case: you PASS, judge PASS" in shown(screen, "#review-status")

        await pilot.press("V")  # the verdict now, before labelling
        await wait_for(pilot, lambda: HIDDEN not in screen.view.judge_shown)
        assert "whole case PASS" in screen.view.judge_shown
        await pilot.press("f")
        await wait_for(pilot, lambda: len(lines(project)) == 2 and on_case(screen, "c02"))
        assert "you FAIL, judge PASS  disagree" in shown(screen, "#review-status")

        await pilot.press("backspace")  # back: labelled, so the verdict shows
        await wait_for(pilot, lambda: on_case(screen, "c01"))
        assert "you FAIL" in shown(screen, "#review-status")
        assert "whole case PASS" in screen.view.judge_shown
        await pilot.press("space", "space")  # skip c01 and c02, no label
        await wait_for(pilot, lambda: on_case(screen, "c03"))
        await pilot.press("backspace", "u")  # the next unlabelled after c02 is c03
        await wait_for(pilot, lambda: on_case(screen, "c03"))
        assert len(lines(project)) == 2
        # the case on screen: what was asked, the reply, the expected reply
        conversation = shown(screen, "#review-conversation")
        assert "Weather in c03?" in conversation
        assert reply_of("c03") in shown(screen, "#review-reply")
        assert reply_of("c03") in shown(screen, "#review-expected")


async def test_a_note_goes_with_the_label_and_can_be_added_after(project: Path) -> None:
    app = BrowserApp(project / "reports")
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_review(pilot)
        await pilot.press("n")
        await wait_for(pilot, lambda: isinstance(app.screen, NoteDialog))
        await pilot.press(*"says sunny, it rained", "enter")
        await wait_for(pilot, lambda: app.screen is screen and screen.pending_note is not None)
        assert "note for your label: “says sunny, it rained”" in shown(screen, "#review-status")
        await pilot.press("f")
        await wait_for(pilot, lambda: len(lines(project)) == 1)
        assert lines(project)[0]["note"] == "says sunny, it rained"
        assert screen.pending_note is None
        # a note on a label already given: the same label again, with the note
        await pilot.press("backspace", "n")
        await wait_for(pilot, lambda: isinstance(app.screen, NoteDialog))
        await pilot.press("ctrl+u", *"checked twice", "enter")
        await wait_for(pilot, lambda: len(lines(project)) == 2)
        assert (lines(project)[1]["label"], lines(project)[1]["note"]) == ("fail", "checked twice")
        assert "“checked twice”" in shown(screen, "#review-status")


async def test_the_queue_narrowed_by_keyboard(project: Path) -> None:
    app = BrowserApp(project / "reports")
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_review(pilot)
        await pilot.press("slash")
        await wait_for(pilot, lambda: isinstance(app.screen, QueueDialog))
        # per criterion (focused first), then failed only, then a sample of 2
        await pilot.press("space", "tab", "tab", "space", "tab", "tab", "tab")
        await pilot.press(*"2", "enter")
        await wait_for(pilot, lambda: app.screen is screen)
        session = screen.session
        assert session is not None
        assert session.chosen.per_criterion and session.chosen.failed_only
        assert session.chosen.sample == 2 and len(session.items) == 2
        # the failed verdicts are c08-c11's judged criterion
        assert all(item.criterion == JUDGED and item.judge is False for item in session.items)
        assert "per criterion · failed only · sample of 2 (seed 0)" in shown(
            screen, "#review-progress"
        )
        await pilot.press("c")  # back to whole cases, the other filters kept
        await wait_for(pilot, lambda: not session.chosen.by_criterion)
        assert len(session.items) == 2
        assert all(item.criterion is None and item.judge is False for item in session.items)
        assert all(item.case.eval_id in ("c08", "c09", "c10", "c11") for item in session.items)


async def test_it_resumes_at_the_first_case_left_and_shows_what_others_said(
    project: Path,
) -> None:
    for eval_id in ("c00", "c01", "c02"):
        append_label(labels_file(project), human(eval_id, "pass", criterion=None))
    append_label(labels_file(project), human("c03", "fail", criterion=None, reviewer="bob"))
    # alice labelled c03 once, on an earlier run's reply: history, not a label of this one
    append_label(
        labels_file(project),
        human("c03", "pass", criterion=None, reply="It rained.", time="2026-05-01T09:00:00Z"),
    )
    app = BrowserApp(project / "reports")
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_review(pilot)
        assert on_case(screen, "c03")
        assert "3 of 12 reviewed" in shown(screen, "#review-progress")
        status = shown(screen, "#review-status")
        assert "you: not labelled" in status
        assert "bob FAIL" in status
        assert "earlier reply: you PASS  2026-05-01 09:00:00" in status
        assert HIDDEN in screen.view.judge_shown  # bob's label does not unblind alice


async def test_show_verdicts_setting_turns_blind_review_off(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TENXEVAL_REVIEW_SHOW_VERDICTS", "1")
    app = BrowserApp(project / "reports")
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_review(pilot)
        assert "whole case PASS" in screen.view.judge_shown
        assert "verdicts shown" in shown(screen, "#review-progress")


async def test_auto_advance_off_stays_on_the_case(project: Path) -> None:
    app = BrowserApp(project / "reports")
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_review(pilot)
        await pilot.press("ctrl+a")
        await wait_for(pilot, lambda: not screen.auto_advance)
        await pilot.press("f")
        await wait_for(pilot, lambda: len(lines(project)) == 1)
        assert on_case(screen, "c00")
        assert "whole case PASS" in screen.view.judge_shown  # labelled: revealed in place
        await pilot.press("p")  # changed my mind: the newest label counts
        await wait_for(pilot, lambda: len(lines(project)) == 2)
        assert "1 of 12 reviewed" in shown(screen, "#review-progress")
        assert read_labels(labels_file(project)).labels[-1].label == "pass"


async def test_a_label_that_cannot_be_written_is_said_and_not_counted(project: Path) -> None:
    # the file links into a folder that is gone (permissions would not stop root)
    labels_file(project).symlink_to(project / "gone" / "weather.labels.jsonl")
    app = BrowserApp(project / "reports")
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_review(pilot)
        await pilot.press("p")
        await wait_for(pilot, lambda: any("was not saved" in n for n in notifications(app)))
        assert on_case(screen, "c00")
        assert "0 of 12 reviewed" in shown(screen, "#review-progress")


async def test_malformed_label_lines_are_named_and_the_rest_used(project: Path) -> None:
    append_label(labels_file(project), human("c00", "pass", criterion=None))
    with labels_file(project).open("a") as out:
        out.write("{broken\n")
    app = BrowserApp(project / "reports")
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_review(pilot)
        await wait_for(pilot, lambda: any("malformed" in n for n in notifications(app)))
        message = next(n for n in notifications(app) if "malformed" in n)
        assert f"{labels_file(project)}:2: not valid JSON" in message
        assert on_case(screen, "c01")


@pytest.mark.parametrize("broken", ["no eval set", "labels file a folder"])
async def test_a_report_that_cannot_be_reviewed_says_why(project: Path, broken: str) -> None:
    if broken == "no eval set":
        (project / "weather.evalset.json").unlink()
        why = "no eval set with id 'weather-agent'"
    else:
        labels_file(project).mkdir()
        why = f"cannot read the labels: {labels_file(project)}"
    app = BrowserApp(project / "reports")
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_from_list(pilot, "R", lambda s: isinstance(s, ReviewScreen))
        await wait_for(pilot, lambda: "Cannot review" in shown(screen, "#review-progress"))
        assert why in shown(screen, "#review-progress")
        await pilot.press("p")  # nothing to label: the key does nothing
        await pilot.pause()
        assert not labels_file(project).is_file()
