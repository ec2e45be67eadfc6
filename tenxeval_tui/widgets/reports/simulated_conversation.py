"""A simulated conversation in the case view: each turn's user message, reply and tool
calls, then the scenario's goals with their verdicts. Hidden for every other case."""

from __future__ import annotations

import json

from rich.text import Text
from textual.widgets import Static

from tenxeval_tui.browsing.simulated_case import (
    goal_verdicts,
    goals_criterion,
    is_simulated,
    simulated_turns,
    simulation_info,
)
from tenxeval_tui.evaluation.eval_result import EvalCaseResult
from tenxeval_tui.evaluation.inert import inert
from tenxeval_tui.widgets.common.section_title import titled

SAVE_HINT = "ctrl+s: save this conversation as a multi-turn case of an eval set"


def conversation_text(result: EvalCaseResult) -> Text:
    """The turns, numbered: ``user``, ``agent`` and ``⚙ tool(args)`` lines (inert text)."""
    text = Text()
    turns = simulated_turns(result)
    if not turns:
        return Text("(no turn ran)", style="dim")
    for number, turn in enumerate(turns, 1):
        if number > 1:
            text.append("\n")
        text.append(f"{number:>2} user   ", style="bold cyan")
        text.append(inert(turn.user, multiline=True))
        text.append("\n   agent  ", style="bold green")
        text.append(inert(turn.reply, multiline=True) or "(no reply)")
        for name, args in turn.tool_calls:
            shown = ", ".join(
                f"{k}={json.dumps(v, ensure_ascii=False, default=str)}" for k, v in args.items()
            )
            text.append(f"\n          ⚙ {inert(name)}({inert(shown)})", style="dim")
    return text


def goals_text(result: EvalCaseResult) -> Text:
    """Each goal with ✓ or ✗, and who decided: the goal judge (its score and threshold) or,
    when none ran, the simulated user as the conversation went."""
    verdicts = goal_verdicts(result)
    if not verdicts:
        return Text("(the scenario has no goals)", style="dim")
    text = Text()
    for verdict in verdicts:
        mark, style = ("✓", "green") if verdict.achieved else ("✗", "red")
        text.append(f"{mark} ", style=f"bold {style}")
        text.append(inert(verdict.goal) + "\n")
    judge = goals_criterion(result)
    if judge is not None:
        text.append(
            f"judged by {judge.criterion}: {judge.score:.2f} "
            f"(threshold {judge.threshold:.2f}, {'passed' if judge.passed else 'failed'})",
            style="dim",
        )
    else:
        text.append("not judged: these are the simulated user's own checks", style="dim")
    return text


def heading(result: EvalCaseResult) -> str:
    """``Simulated conversation: 3 turns (at most 5), ended early / completed``."""
    info = simulation_info(result)
    turns = int(info.get("turns") or len(simulated_turns(result)))
    cap = info.get("max_turns")
    most = f" (at most {cap})" if cap else ""
    ended = "every goal reached" if info.get("completed") else "not every goal reached"
    return f"Simulated conversation: {turns} turn{'s' if turns != 1 else ''}{most}, {ended}"


class SimulatedConversation(Static):
    """Shows the simulated conversation of a case, or nothing for a case that is none."""

    DEFAULT_CSS = """
    SimulatedConversation {
        height: auto;
    }
    """

    def show_result(self, result: EvalCaseResult) -> None:
        """Fill with ``result``'s conversation and goals; hide for a case that is no
        simulated conversation."""
        self.display = is_simulated(result)
        if not self.display:
            return
        body = conversation_text(result)
        body.append("\n\n")
        body.append("Goals\n", style="bold underline")
        body.append_text(goals_text(result))
        body.append(f"\n{SAVE_HINT}", style="italic dim")
        self.update(titled(heading(result), body))


__all__ = ["SAVE_HINT", "SimulatedConversation", "conversation_text", "goals_text", "heading"]
