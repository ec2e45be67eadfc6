"""One recorded tool call in the recorded calls dialog: tool, args, result or error."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical

from tenxeval_tui.authoring.recorded_calls import CallTexts
from tenxeval_tui.evaluation.inert import inert
from tenxeval_tui.widgets.editor.agent_completion import (
    AgentCompletion,
    ToolArgsSuggester,
    ToolNameSuggester,
)
from tenxeval_tui.widgets.editor.case_field import CaseField


def block_title(index: int, texts: CallTexts) -> Text:
    """``call 2 · lookup_order · 0.002 s`` (the tool's name shown inertly)."""
    parts = [f"call {index + 1}"]
    if texts.tool:
        parts.append(inert(texts.tool[:40]))
    if texts.duration:
        parts.append(f"{texts.duration:.3f} s")
    if texts.error_type:
        parts.append("raised")
    return Text(" · ".join(parts))


class RecordedCallBlock(Vertical):
    """The fields of recorded call ``index`` (keys ``{index}.tool`` ... see
    :mod:`tenxeval_tui.authoring.recorded_calls`)."""

    def __init__(self, index: int, texts: CallTexts, completion: AgentCompletion) -> None:
        super().__init__(classes="recorded-call")
        self.index = index
        self.texts = texts
        self.completion = completion
        self.border_title = block_title(index, texts)

    def compose(self) -> ComposeResult:
        key = f"{self.index}."
        with Horizontal(classes="tool-call-fields"):
            name = CaseField(
                key + "tool",
                "tool",
                self.texts.tool,
                placeholder="tool name",
                suggester=ToolNameSuggester(self.completion),
                classes="lead-field",
            )
            yield name
            yield CaseField(
                key + "args",
                "args (JSON object)",
                self.texts.args,
                placeholder="{}",
                suggester=ToolArgsSuggester(self.completion, lambda: name.value),
            )
        yield CaseField(
            key + "result", "result (JSON; empty: null)", self.texts.result, multiline=True
        )
        with Horizontal(classes="recorded-call-error"):
            yield CaseField(
                key + "error_type",
                "raised (error type)",
                self.texts.error_type,
                placeholder="none",
                classes="lead-field",
            )
            yield CaseField(key + "error_message", "its message", self.texts.error_message)
