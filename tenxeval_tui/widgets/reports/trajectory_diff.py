"""Expected and actual tool calls aligned: missing, extra and wrong-argument calls marked,
each call numbered, and under a call that matched nothing the argument that failed which
matcher (or what else kept it from matching)."""

from __future__ import annotations

import json
from collections.abc import Collection

from rich.text import Text

from tenxeval_tui.browsing.call_alignment import (
    AlignedStep,
    StepMatch,
    align_runs,
    align_trajectory,
)
from tenxeval_tui.evaluation.config.types import MatchType
from tenxeval_tui.evaluation.dataset.eval_set import ToolCall
from tenxeval_tui.evaluation.inert import inert
from tenxeval_tui.widgets.common.section_title import TitledStatic

_MARKS = {
    StepMatch.MATCH: ("✓ match", "green"),
    StepMatch.WRONG_ARGS: ("≠ wrong args", "yellow"),
    StepMatch.MISSING: ("- missing", "red"),
    StepMatch.EXTRA: ("+ extra", "magenta"),
}
MARK_WIDTH = 13
MAX_CALL_WIDTH = 60


def call_text(
    call: ToolCall | None, highlight: tuple[str, ...] = (), number: int | None = None
) -> Text:
    """``#3 name(arg=value, ...)`` with the arguments in ``highlight`` in yellow
    (``number``: the call's 0-based position, shown from 1; the actual calls are
    numbered, so each row says which call an expected one matched)."""
    if call is None:
        return Text("")
    text = Text()
    if number is not None:
        text.append(f"#{number + 1} ", style="dim")
    text.append(inert(call.name), style="bold")
    text.append("(")
    for i, (key, value) in enumerate(call.args.items()):
        if i:
            text.append(", ")
        shown = json.dumps(value, ensure_ascii=False, default=str)
        text.append(inert(f"{key}={shown}"), style="yellow" if key in highlight else "")
    text.append(")")
    return text


def _cell(text: Text, width: int) -> Text:
    cell = text.copy()
    cell.truncate(width, overflow="ellipsis", pad=True)
    return cell


class TrajectoryDiff(TitledStatic):
    """One line per aligned step: how it matches, the expected call, the actual call;
    under a call that matched nothing, why. Lines are cut at the edge, never wrapped (a
    wrapped row would break the columns); the criteria's reasons below say it all.

    ``title`` is shown above them as a section title.
    """

    DEFAULT_CSS = """
    TrajectoryDiff {
        height: auto;
        padding: 0 1;
        text-wrap: nowrap;
        text-overflow: ellipsis;
    }
    """

    def show_calls(
        self,
        expected: list[ToolCall] | None,
        actual: list[ToolCall],
        titles: tuple[str, str] = ("Expected", "Actual"),
        *,
        check_args: bool = True,
        match_type: MatchType = MatchType.IN_ORDER,
        ignore_args: Collection[str] = (),
        literal: bool = False,
    ) -> list[AlignedStep]:
        """Show the alignment (``expected=None``: not known) and return its rows.

        Expected calls are paired as the trajectory criterion pairs them (``match_type``,
        ``check_args``, argument matchers, ``ignore_args``); ``check_args`` off:
        differing arguments are highlighted, not marked wrong. ``literal``: two runs'
        calls, lined up by name with arguments compared as they are.
        """
        rows: list[tuple[Text, Text, Text, tuple[str, ...]]]
        if expected is None:
            rows = [
                (Text("?", style="dim"), Text("-", style="dim"), call_text(c, number=j), ())
                for j, c in enumerate(actual)
            ]
            aligned: list[AlignedStep] = []
        else:
            aligned = (
                align_runs(expected, actual)
                if literal
                else align_trajectory(
                    expected,
                    actual,
                    check_args=check_args,
                    match_type=match_type,
                    ignore_args=ignore_args,
                )
            )
            rows = [
                (
                    Text(*_MARKS[step.match]),
                    call_text(step.expected, step.differing_args),
                    call_text(step.actual, step.differing_args, step.actual_index),
                    step.why,
                )
                for step in aligned
            ]
        if not rows:
            rows = [(Text(""), Text("(none)", "dim"), Text("(none)", "dim"), ())]
        width = min(max([len(titles[0])] + [r[1].cell_len for r in rows]), MAX_CALL_WIDTH)
        text = Text.assemble(
            " " * (MARK_WIDTH + 1), _cell(Text(titles[0], "bold"), width), " ", (titles[1], "bold")
        )
        for mark, left, right, why in rows:
            text.append("\n")
            text.append_text(_cell(mark, MARK_WIDTH))
            text.append(" ")
            text.append_text(_cell(left, width))
            text.append(" ")
            text.append_text(right)
            for line in why:
                text.append("\n" + " " * (MARK_WIDTH + 1) + "↳ ", style="dim")
                text.append(inert(line), style="yellow")
        text.no_wrap = True
        text.overflow = "ellipsis"
        self.show_body(text)
        return aligned
