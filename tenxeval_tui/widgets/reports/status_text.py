"""How a case's status, a score and a delta look: shared by the report-browser widgets."""

from __future__ import annotations

from rich.text import Text

# Shown after a report's title when its run was cancelled before every case finished.
PARTIAL_MARK = "   partial: the run was cancelled before every case finished"

STATUS_STYLES = {
    "invalid": "bold red reverse",
    "passed": "green",
    "failed": "bold red",
    "error": "bold magenta",
}
STATUS_LABELS = {"passed": "PASS", "failed": "FAIL", "error": "ERROR"}
STOPPED_MARK = "⏹"
"""After the status of a case stopped by hand and scored on what it did so far."""
STOPPED_WORDS = "stopped early: scored on what it did so far"


def status_text(status: str | None, *, stopped_early: bool = False) -> Text:
    """``PASS``/``FAIL``/``ERROR`` in its colour (``FAIL ⏹ stopped early`` for a case
    stopped by hand and scored on what it did so far); ``-`` for a case absent from a run."""
    if status is None:
        return Text("-", style="dim")
    text = Text(STATUS_LABELS.get(status, status.upper()), style=STATUS_STYLES.get(status, ""))
    if stopped_early:
        text.append(STOPPED_MARK, style="bold yellow")
    return text


def stopped_text() -> Text:
    """What a case stopped early is, in words (beside its status)."""
    return Text(f"{STOPPED_MARK} {STOPPED_WORDS}", style="bold yellow")


def score_text(score: float | None) -> Text:
    """A score with two decimals (``-`` when unknown)."""
    return Text("-", style="dim") if score is None else Text(f"{score:.2f}")


def delta_text(delta: float | None, *, points: bool = False) -> Text:
    """A signed change, green when up, red when down (``points``: a rate shown in % points)."""
    if delta is None:
        return Text("n/a", style="dim")
    shown = f"{delta * 100:+.1f} pts" if points else f"{delta:+.2f}"
    if abs(delta) < 1e-9:
        return Text(shown, style="dim")
    return Text(shown, style="green" if delta > 0 else "red")


def bar(fraction: float, width: int = 20) -> Text:
    """A horizontal bar filled to ``fraction`` (0..1) of ``width`` cells."""
    fraction = min(max(fraction, 0.0), 1.0)
    filled = round(fraction * width)
    style = "green" if fraction >= 0.8 else ("yellow" if fraction >= 0.5 else "red")
    return Text.assemble(("█" * filled, style), ("░" * (width - filled), "dim"))
