"""Opening a report's HTML twin in the browser (from the report list, a report and the run
view), or, with no browser at hand (an ssh session, a server), saying where it is."""

from __future__ import annotations

import webbrowser
from pathlib import Path
from typing import Any

from textual.screen import Screen


def browser_at_hand(screen: Screen[Any]) -> bool:
    """Whether a URL the app opens reaches a browser: the one the app is served in, or one
    ``webbrowser`` finds on this machine."""
    if screen.app.is_web:
        return True
    try:
        webbrowser.get()
    except webbrowser.Error:
        return False
    return True


def open_in_browser(screen: Screen[Any], html: Path) -> None:
    """Open ``html`` in the browser and say so; without a browser, say where it is."""
    if not browser_at_hand(screen):
        screen.notify(
            f"No browser to open it in here; the HTML report is {html.resolve()}",
            severity="warning",
            markup=False,
        )
        return
    screen.app.open_url(html.resolve().as_uri())
    screen.notify(f"Opened {html.name} in the browser.", markup=False)


def open_html_report(screen: Screen[Any], html: Path) -> None:
    """Open the HTML report in the browser, or say that there is none."""
    if not html.is_file():
        screen.notify(f"No HTML report next to it ({html.name}).", severity="warning", markup=False)
        return
    open_in_browser(screen, html)


__all__ = ["browser_at_hand", "open_html_report", "open_in_browser"]
