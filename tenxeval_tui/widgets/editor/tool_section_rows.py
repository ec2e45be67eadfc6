"""The rows of the tools dialog: a fake, a fault, an expected end-state value (field keys
as :mod:`tenxeval_tui.authoring.tool_section` names them)."""

from __future__ import annotations

from collections.abc import Callable

from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical

from tenxeval_tui.authoring.tool_completion import FakeIndex
from tenxeval_tui.authoring.tool_section import EndStateRow, FakeRow, FaultRow
from tenxeval_tui.widgets.editor.agent_completion import AgentCompletion, ToolNameSuggester
from tenxeval_tui.widgets.editor.case_field import CaseField
from tenxeval_tui.widgets.editor.tool_suggesters import (
    ErrorClassSuggester,
    FakeSuggester,
    FaultKindSuggester,
    StatePathSuggester,
)


class FakeRowFields(Horizontal):
    """Fake ``index``: the tool it answers and its ``module:attr``."""

    def __init__(
        self, index: int, row: FakeRow, completion: AgentCompletion, fakes: FakeIndex
    ) -> None:
        super().__init__(classes="section-row fake-row")
        self.index, self.row, self.completion, self.fakes = index, row, completion, fakes

    def compose(self) -> ComposeResult:
        key = f"fakes.{self.index}."
        yield CaseField(
            key + "tool",
            f"fake {self.index + 1}: tool",
            self.row.tool,
            placeholder="tool name",
            suggester=ToolNameSuggester(self.completion),
        )
        yield CaseField(
            key + "fake",
            "answered by (module:attr)",
            self.row.fake,
            placeholder="my_agent.fakes:refund",
            suggester=FakeSuggester(self.fakes),
        )


class FaultRowFields(Vertical):
    """Fault ``index``: which call of which tool, how it fails, with what."""

    def __init__(self, index: int, row: FaultRow, completion: AgentCompletion) -> None:
        super().__init__(classes="section-row fault-row")
        self.index, self.row, self.completion = index, row, completion

    def compose(self) -> ComposeResult:
        key = f"faults.{self.index}."
        kind = CaseField(
            key + "kind",
            "fails by",
            self.row.kind,
            placeholder="raises",
            suggester=FaultKindSuggester(),
        )
        with Horizontal(classes="fault-which"):
            yield CaseField(
                key + "tool",
                f"fault {self.index + 1}: tool",
                self.row.tool,
                placeholder="tool name",
                suggester=ToolNameSuggester(self.completion),
                classes="lead-field",
            )
            yield CaseField(key + "call", "call no.", self.row.call, placeholder="1")
            yield kind
        with Horizontal(classes="fault-how"):
            yield CaseField(
                key + "value",
                "error class / JSON returned",
                self.row.value,
                suggester=ErrorClassSuggester(lambda: kind.value),
            )
            yield CaseField(key + "message", "message (raises)", self.row.message)


class EndStateRowFields(Horizontal):
    """Expected value ``index``: a JSON path into the fakes' state and its value."""

    def __init__(self, index: int, row: EndStateRow, state: Callable[[], str]) -> None:
        super().__init__(classes="section-row end-state-row")
        self.index, self.row, self.state = index, row, state

    def compose(self) -> ComposeResult:
        key = f"end_state.{self.index}."
        yield CaseField(
            key + "path",
            f"expected {self.index + 1}: JSON path",
            self.row.path,
            placeholder="$.refunds[0].order_id",
            suggester=StatePathSuggester(self.state),
        )
        yield CaseField(key + "value", "value (JSON)", self.row.value, placeholder='"A100"')


__all__ = ["EndStateRowFields", "FakeRowFields", "FaultRowFields"]
