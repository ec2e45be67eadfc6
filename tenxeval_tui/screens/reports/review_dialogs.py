"""The review screen's two dialogs: a note for a label, and how to narrow the queue."""

from __future__ import annotations

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Checkbox, Input, Select, Static

from tenxeval_tui.browsing.review_queue import QueueFilter
from tenxeval_tui.evaluation.inert import inert

DIALOG_CSS = """
{name} {{ align: center middle; }}
{name} > Vertical {{
    width: 76; max-width: 100%; height: auto; max-height: 100%;
    border: round $accent; padding: 0 1; background: $surface;
}}
{name} .dialog-hint {{ color: $text-muted; }}
{name} .dialog-problem {{ color: $error; }}
{name} Horizontal {{ height: auto; }}
{name} Horizontal > Input {{ width: 1fr; }}
"""


class NoteDialog(ModalScreen[str | None]):
    """Ask for a note on the label; dismisses with the text ("" clears it), or ``None`` on
    escape."""

    DEFAULT_CSS = DIALOG_CSS.format(name="NoteDialog")
    BINDINGS = [Binding("escape", "dismiss(None)", "Cancel")]

    def __init__(self, note: str = "") -> None:
        super().__init__()
        self.note = note

    def compose(self) -> ComposeResult:
        with Vertical() as dialog:
            dialog.border_title = "Note"
            yield Static("A note kept with your label (enter saves, esc cancels):")
            yield Input(inert(self.note), id="note-input", placeholder="why pass or fail")

    @on(Input.Submitted, "#note-input")
    def _submitted(self, event: Input.Submitted) -> None:
        self.dismiss(event.value.strip())


class QueueDialog(ModalScreen[QueueFilter | None]):
    """Choose which verdicts the review goes through; dismisses with the new filter, or
    ``None`` on escape. ``tab`` moves between the fields, ``space`` ticks a box, ``enter`` in
    a number field or on Apply applies."""

    DEFAULT_CSS = DIALOG_CSS.format(name="QueueDialog")
    BINDINGS = [Binding("escape", "dismiss(None)", "Cancel")]

    def __init__(self, chosen: QueueFilter, criteria: list[str]) -> None:
        super().__init__()
        self.chosen = chosen
        self.criteria = criteria

    def compose(self) -> ComposeResult:
        chosen = self.chosen
        with Vertical() as dialog:
            dialog.border_title = "Narrow the review queue"
            yield Checkbox(
                "One item per criterion (else one per case)",
                chosen.per_criterion,
                id="queue-per-criterion",
            )
            yield Select(
                [(inert(name), name) for name in self.criteria],
                prompt="every criterion",
                value=chosen.criterion if chosen.criterion in self.criteria else Select.NULL,
                id="queue-criterion",
            )
            yield Checkbox("Failed verdicts only", chosen.failed_only, id="queue-failed")
            yield Checkbox(
                "Disagreements with a label only", chosen.disagreements_only, id="queue-disagree"
            )
            yield Checkbox("Never labelled only", chosen.unlabelled_only, id="queue-unlabelled")
            with Horizontal():
                yield Input(
                    str(chosen.sample) if chosen.sample is not None else "",
                    placeholder="sample of N (empty: all)",
                    type="integer",
                    id="queue-sample",
                )
                yield Input(str(chosen.seed), placeholder="seed", type="integer", id="queue-seed")
            yield Static("", classes="dialog-problem", id="queue-problem")
            yield Static(
                "tab: next · space: tick · enter: apply · esc: cancel", classes="dialog-hint"
            )
            yield Button("Apply", id="queue-apply", variant="primary")

    def filter(self) -> QueueFilter | str:
        """The filter the fields give, or what is wrong with them."""
        sample_text = self.query_one("#queue-sample", Input).value.strip()
        seed_text = self.query_one("#queue-seed", Input).value.strip() or "0"
        try:
            sample = int(sample_text) if sample_text else None
            seed = int(seed_text)
        except ValueError:
            return "the sample size and the seed are whole numbers"
        if sample is not None and sample < 1:
            return "a sample holds at least 1 verdict"
        criterion = self.query_one("#queue-criterion", Select).value
        return QueueFilter(
            per_criterion=self.query_one("#queue-per-criterion", Checkbox).value,
            criterion=criterion if isinstance(criterion, str) else None,
            failed_only=self.query_one("#queue-failed", Checkbox).value,
            disagreements_only=self.query_one("#queue-disagree", Checkbox).value,
            unlabelled_only=self.query_one("#queue-unlabelled", Checkbox).value,
            sample=sample,
            seed=seed,
        )

    def _apply(self) -> None:
        chosen = self.filter()
        if isinstance(chosen, str):
            self.query_one("#queue-problem", Static).update(Text(chosen))
            return
        self.dismiss(chosen)

    @on(Input.Submitted)
    def _submitted(self) -> None:
        self._apply()

    @on(Button.Pressed, "#queue-apply")
    def _pressed(self) -> None:
        self._apply()


__all__ = ["NoteDialog", "QueueDialog"]
