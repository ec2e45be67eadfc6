"""Opening a report's HTML twin in the browser (from the report list and a report)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textual.screen import Screen


def open_html_report(screen: Screen[Any], html: Path) -> None:
    """Open the HTML report in the browser, or say that there is none."""
    if not html.is_file():
        screen.notify(f"No HTML report next to it ({html.name}).", severity="warning", markup=False)
        return
    screen.app.open_url(html.resolve().as_uri())
    screen.notify(f"Opened {html.name} in the browser.", markup=False)


__all__ = ["open_html_report"]
