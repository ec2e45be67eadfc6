"""``y``: copy a case's reply, its tool calls, its diff, or a report's path to the clipboard.

Through Textual's clipboard support (``App.copy_to_clipboard``, OSC 52: the terminal
must allow it; in tmux, ``set -g set-clipboard on``). What is copied is the original
text, not the escaped form shown on screen; the notification says what was copied
without repeating it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textual.screen import Screen

from tenxeval_tui.browsing import case_copy
from tenxeval_tui.browsing.case_diff import expectations_for
from tenxeval_tui.evaluation.dataset import EvalCase
from tenxeval_tui.evaluation.eval_result import EvalCaseResult
from tenxeval_tui.screens.common.choice import ChoiceScreen


def copy_text(screen: Screen[Any], copied: case_copy.Copied) -> None:
    """Put ``copied`` on the clipboard and say so (or say there is nothing to copy)."""
    if not copied.text:
        screen.notify(f"Nothing to copy: {copied.what} is empty.", severity="warning")
        return
    screen.app.copy_to_clipboard(copied.text)
    lines = copied.text.count("\n") + (not copied.text.endswith("\n"))
    size = f"{lines} lines" if lines > 1 else f"{len(copied.text)} characters"
    screen.notify(f"Copied {copied.what} ({size}) to the clipboard.")


def report_path(path: Path) -> case_copy.Copied:
    """A report file's absolute path."""
    return case_copy.Copied("the report's path", str(path.resolve()))


def copy_from_case(
    screen: Screen[Any],
    result: EvalCaseResult,
    *,
    baseline: EvalCaseResult | None = None,
    eval_case: EvalCase | None = None,
    path: Path | None = None,
) -> None:
    """Ask what to copy of ``result`` (its report's ``path`` too, when given), then copy it."""
    choices = {"reply": "Reply", "tools": "Tool calls", "diff": "Diff"}
    if path is not None:
        choices["path"] = "Path of the report"

    def chosen(answer: str | None) -> None:
        copied: case_copy.Copied | None
        if answer == "reply":
            copied = case_copy.reply(result)
        elif answer == "tools":
            copied = case_copy.tool_calls(result)
        elif answer == "diff":
            expected = expectations_for(result, eval_case)
            copied = case_copy.case_diff(result, expected, baseline)
            if copied is None:
                screen.notify("Nothing to diff: the report records no expectation.")
                return
        elif answer == "path" and path is not None:
            copied = report_path(path)
        else:
            return
        copy_text(screen, copied)

    screen.app.push_screen(
        ChoiceScreen("Copy to the clipboard:", choices, title="Copy (y)"), chosen
    )
