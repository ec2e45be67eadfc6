"""Watch mode of the run screen (filled in below)."""

from __future__ import annotations

from typing import Any


class WatchController:
    """Reruns on changes while watch mode is on."""

    def __init__(self, screen: Any) -> None:
        self.screen = screen
        self.active = False

    def start(self) -> None:
        self.active = True

    def stop(self) -> None:
        self.active = False
