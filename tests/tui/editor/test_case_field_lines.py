"""A case field's problem and note lines: none until the field has one, then under its box,
the problem above the note, each hidden again when it is cleared."""

from __future__ import annotations

from textual.app import App, ComposeResult
from textual.widgets import Static

from tenxeval_tui.widgets.editor.case_field import CaseField
from tests.tui.browser_app import plain
from tests.tui.conftest import wait_for


class FieldApp(App[None]):
    CSS_PATH = "../../../tenxeval_tui/styles/editor.tcss"

    def compose(self) -> ComposeResult:
        yield CaseField("name", "name", "Rome")
        noted = CaseField("tags", "tags", "")
        noted.set_problem("tags: not a list")
        noted.set_agent_note(None, "the agent reads no tags")
        yield noted


def lines(field: CaseField) -> list[tuple[str, str, bool]]:
    """(class, text, shown) of each line under the field's box."""
    return [
        (next(iter(line.classes)), plain(line).strip(), line.display and line.region.height > 0)
        for line in field.query(Static)
        if line.has_class("field-error") or line.has_class("field-note")
    ]


async def test_lines_are_made_when_first_needed_and_keep_their_order() -> None:
    app = FieldApp()
    async with app.run_test(size=(80, 20)) as pilot:
        plain_field, noted = app.query(CaseField).results(CaseField)
        assert lines(plain_field) == []  # nothing to say: no line at all
        assert lines(noted) == [
            ("field-error", "tags: not a list", True),
            ("field-note", "the agent reads no tags", True),
        ]
        plain_field.set_agent_note("not a field of the agent", None)
        plain_field.set_problem("name: empty")
        # the problem's line is mounted, then laid out: a later step than the call
        problem = [
            ("field-error", "name: empty", True),
            ("field-note", "", False),  # a problem of its own hides the warning
        ]
        await wait_for(pilot, lambda: lines(plain_field) == problem, what="the problem shown")
        plain_field.set_problem(None)
        warning = [("field-error", "", False), ("field-note", "⚠ not a field of the agent", True)]
        await wait_for(pilot, lambda: lines(plain_field) == warning, what="the warning shown")
