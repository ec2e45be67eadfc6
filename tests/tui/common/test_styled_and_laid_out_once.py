"""A start styles each widget once and lays the first screen out once per terminal size:
what Textual did again (a widget restyled before it mounted, every case field restyled
for a rule on the order of children, two more layouts and frames at the start's own
size) was a quarter of a start's CPU; the restyles were also a part of every form built
afterwards."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from textual._compositor import Compositor
from textual.app import App
from textual.css.stylesheet import Stylesheet
from textual.dom import DOMNode
from textual.geometry import Size
from textual.widget import Widget

from tenxeval_tui.app import WorkbenchApp
from tenxeval_tui.screens.common.shared_styles import APP_STYLE_SHEETS
from tenxeval_tui.screens.editor.editor import EditorScreen
from tenxeval_tui.widgets.editor.case_field import CaseField
from tenxeval_tui.widgets.editor.tool_call_row import ToolCallRow
from tests.tui.conftest import wait_for

ORDER_PSEUDO_CLASSES = {
    "first-child",
    "last-child",
    "first-of-type",
    "last-of-type",
    "odd",
    "even",
    "empty",
}
"""Pseudo-classes on the order of children: Textual restyles a widget matched by a rule
with one (and all it holds) after every mount beside it."""


def test_no_rule_of_the_workbench_s_style_sheets_depends_on_the_order_of_children() -> None:
    sheet = Stylesheet(variables=App().get_css_variables())
    sheet.read_all(APP_STYLE_SHEETS)
    sheet.parse()
    on_order = [rule.css for rule in sheet.rules if rule.pseudo_classes & ORDER_PSEUDO_CLASSES]
    assert on_order == []


async def test_each_widget_of_the_case_form_is_styled_once_as_it_mounts(
    weather_set: Path,
) -> None:
    app = WorkbenchApp(weather_set)
    styled: Counter[DOMNode] = Counter()
    apply = app.stylesheet.apply

    def counting(node: DOMNode, **options: Any) -> None:
        styled[node] += 1
        apply(node, **options)

    app.stylesheet.apply = counting  # type: ignore[method-assign]
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(pilot, lambda: bool(app.screen.query("#f-turns-0-tools-0-name")))
        await pilot.pause()
        fields = list(app.screen.query(CaseField))
        # Before: twice each (a case field and its label, for a :first-child rule), an
        # input or text area three or four times (also as it was made, not mounted).
        assert {
            f"{type(node).__name__} {node.id or ''}": styled[node]
            for field in fields
            for node in field.walk_children(with_self=True)
            if styled[node] != 1
        } == {}
        # ... and styled as its classes say: a tool call's name field, the first of its
        # row (the class replacing :first-child), is 16 columns wide.
        row = app.screen.query_one(ToolCallRow)
        assert row.name_field.size.width == 16
        assert row.args_field.size.width > 16


async def test_the_editor_is_laid_out_once_at_its_start_size_and_again_at_a_new_one(
    weather_set: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    layouts: list[tuple[Size, bool]] = []  # the size, and whether the form showed yet
    reflow = Compositor.reflow

    def counting(compositor: Compositor, root: Widget, size: Size) -> Any:
        if isinstance(root, EditorScreen):
            layouts.append((size, bool(root.query("#f-eval_id"))))
        return reflow(compositor, root, size)

    monkeypatch.setattr(Compositor, "reflow", counting)
    app = WorkbenchApp(weather_set)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(pilot, lambda: bool(app.screen.query("#f-eval_id")))
        await pilot.pause()
        # Before: three times before the form (as first shown, for the resize posted by
        # that layout, for the terminal's first size kept by the app until idle).
        assert [size for size, form in layouts if not form] == [Size(120, 40)]
        await pilot.resize_terminal(100, 30)
        await wait_for(pilot, lambda: app.screen.size == Size(100, 30))
        assert (Size(100, 30), True) in layouts
        assert app.screen.query_one("#f-eval_id").region.right <= 100
