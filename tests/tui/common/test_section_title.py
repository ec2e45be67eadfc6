"""A section title and its body in one widget's content."""

from __future__ import annotations

from rich.text import Text

from tenxeval_tui.widgets.common.section_title import TITLE_STYLE, titled


def test_title_above_the_body_keeps_the_body_styles() -> None:
    content = titled("Tokens", Text.assemble(("agent", "bold"), " 10 in"))
    assert content.plain == "Tokens\nagent 10 in"
    styles = {(span.start, span.end): str(span.style) for span in content.spans}
    assert styles[(0, 6)] == TITLE_STYLE
    assert "bold" in styles[(7, 12)]


def test_no_title_gives_the_body_alone() -> None:
    assert titled("", Text("only")).plain == "only"
