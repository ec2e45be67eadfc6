"""The two lines above the case under review: where the reviewer is, and the labels."""

from __future__ import annotations

from rich.text import Text

from tenxeval_tui.browsing.labels import Label
from tenxeval_tui.browsing.review_queue import ReviewItem
from tenxeval_tui.browsing.review_session import ReviewSession
from tenxeval_tui.evaluation.inert import inert
from tenxeval_tui.widgets.reports.review_case import labels_text, verdict_word


def progress_text(session: ReviewSession, *, blind: bool, auto_advance: bool) -> Text:
    """``Review Weather agent  37 of 120 reviewed · item 38 of 120 · per case · blind ...``."""
    at = f"{session.position + 1} of {len(session.items)}" if session.items else "empty"
    return Text.assemble(
        ("Review ", "bold"),
        (inert(session.report.title), "bold"),
        "  ",
        (session.progress(), "bold cyan"),
        f"  · item {at} · {inert(session.chosen.describe())}",
        " · blind" if blind else " · verdicts shown",
        f" · auto-advance {'on' if auto_advance else 'off'}",
        (f" · {inert(session.reviewer)}", "dim"),
    )


def status_text(
    session: ReviewSession,
    item: ReviewItem,
    pending_note: str | None,
    last: tuple[ReviewItem, Label] | None,
) -> Text:
    """The item (case and what is labelled), every label of its reply and earlier replies,
    the note waiting for a label, and what the label given last met (while on another
    item: the judge's verdict it was blind to)."""
    text = Text.assemble((inert(item.case.eval_id), "bold"))
    if item.case.name and item.case.name != item.case.eval_id:
        text.append(f"  {inert(item.case.name)}")
    text.append("   labelling: ", style="dim")
    text.append("the whole case" if item.criterion is None else inert(item.criterion))
    text.append("\n")
    text.append_text(
        labels_text(
            session.mine(item), session.given(item), session.history(item), session.reviewer
        )
    )
    if pending_note:
        text.append(f"\nnote for your label: “{inert(pending_note)}”", style="italic")
    if last is not None and last[0].key != item.key:
        done, label = last
        text.append("\nlast: ", style="dim")
        text.append(f"{inert(done.case.eval_id)} {inert(done.name)}: you ")
        text.append_text(verdict_word(label.passed))
        text.append(", judge ")
        text.append_text(verdict_word(done.judge))
        if done.judge != label.passed:
            text.append("  disagree", style="bold yellow")
    return text


__all__ = ["progress_text", "status_text"]
