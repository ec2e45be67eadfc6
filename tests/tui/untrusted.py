"""Helpers of the untrusted-text tests: a hostile workspace and the bytes the app writes.

The workspace holds the hostile corpus (:mod:`tests.hostile_text`) everywhere a file, an
agent or a report can put text: eval set id and name, case id, name, description, tags,
user message, expected reply, tool name and arguments, the agent's reply, node and tool
names, errors and judges' reasons. :class:`RecordingDriver` is Textual's headless driver
that says it is not headless, so the app renders as to a terminal, and keeps every string
it is given to write.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from textual.drivers.headless_driver import HeadlessDriver

from tests.hostile_text import HOSTILE, RAW_CONTROL
from tests.report_samples import case as report_case

# Every hostile string but the lone surrogate (a file cannot hold one), in one line.
HOSTILE_TEXT = " | ".join(v for k, v in HOSTILE.items() if k != "lone_surrogate")
SET_ID = "set\x1b]0;PWNED\x07\x9b2J"
CASE_ID = "case\x1b[2J\x1b]52;c;cm0=\x07"

AGENT = r'''
"""Echoes hostile text everywhere an agent can: node names, tool name and args, reply."""

from tenxeval_tui.evaluation import Trace

HOSTILE = "\x1b]0;PWNED\x07|\x1b[2J|\x1b]52;c;cm0=\x07|\x9b2J|\x1bP1$qm\x1b\\|\u202egnp"


def lookup(q: str) -> str:
    return "result " + HOSTILE


async def agent(message: str, trace: Trace) -> str:
    trace.node("ROUTER" + HOSTILE, tool_calls=["look\x1b[2Jup"])
    await trace.tool("look\x1b[2Jup", {"q": HOSTILE}, lookup)
    reply = "reply " + HOSTILE + " to " + message
    trace.node("ANSWER\x1b]2;PWNED\x07", response=reply)
    return reply
'''


def hostile_case(eval_id: str = CASE_ID) -> dict[str, object]:
    """One eval case with the corpus in every text field."""
    return {
        "eval_id": eval_id,
        "name": "name " + HOSTILE_TEXT,
        "description": "description\n" + HOSTILE_TEXT,
        "conversation": [
            {
                "invocation_id": "i1",
                "user_content": {"role": "user", "content": "user " + HOSTILE_TEXT},
                "expected_tool_trajectory": [
                    {"name": "look\x1b[2Jup", "args": {"q": "args " + HOSTILE_TEXT}}
                ],
                "expected_node_order": ["ROUTER\x1b]0;PWNED\x07"],
                "expected_intermediate_responses": [],
                "expected_final_response": {
                    "role": "assistant",
                    "content": "expected " + HOSTILE_TEXT,
                },
            }
        ],
        "session_input": {"app_name": "", "user_id": "u\x1b[6n", "state": {}, "config": {}},
        "tags": ["tag\x1b]0;PWNED\x07"],
        "metadata": {"note": HOSTILE_TEXT},
    }


def write_hostile_eval_set(path: Path) -> Path:
    """An eval set file whose every text holds the hostile corpus."""
    data = {
        "eval_set_id": SET_ID,
        "name": "set name " + HOSTILE_TEXT,
        "description": "set description " + HOSTILE_TEXT,
        "eval_cases": [hostile_case()],
    }
    path.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    return path


def write_hostile_reports(folder: Path) -> tuple[Path, Path]:
    """Two reports of the hostile eval set (a baseline and a current run)."""
    from tenxeval_tui.evaluation import EvalReport, ToolCall

    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for n, score in ((1, 0.9), (2, 0.1)):
        result = report_case(
            CASE_ID,
            name="name " + HOSTILE_TEXT,
            response=f"reply {n} " + HOSTILE_TEXT,
            expected_response="expected " + HOSTILE_TEXT,
            expected_tools=[ToolCall(name="look\x1b[2Jup", args={"q": HOSTILE_TEXT})],
            actual_tools=[ToolCall(name="look\x1b[2Jup", args={"q": "other " + HOSTILE_TEXT})],
            rouge=score,
            reason="judge " + HOSTILE_TEXT,
            question="user " + HOSTILE_TEXT,
            tags=["tag\x1b]0;PWNED\x07"],
            error=None if n == 1 else "error " + HOSTILE_TEXT,
        )
        result.node_visits = ["ROUTER\x1b]0;PWNED\x07", "ANSWER"]
        result.metadata["eval_set_id"] = SET_ID
        report = EvalReport.create(SET_ID, [result], eval_set_name="set name " + HOSTILE_TEXT)
        report.timestamp = 1779200581.0 + n * 86400
        path = folder / f"hostile_2026052{n}_000000.json"
        report.to_file(path)
        paths.append(path)
    return paths[0], paths[1]


def write_hostile_workspace(root: Path) -> Path:
    """A project: settings, the echoing agent, the hostile eval set, two hostile reports."""
    root.mkdir(parents=True, exist_ok=True)
    (root / "pyproject.toml").write_text(
        '[tool.tenxeval]\nagent = "echo_bot:agent"\noutput_dir = "reports"\nconcurrency = 1\n',
        encoding="utf-8",
    )
    (root / "echo_bot.py").write_text(AGENT, encoding="utf-8")
    write_hostile_eval_set(root / "hostile.evalset.json")
    write_hostile_reports(root / "reports")
    return root


class RecordingDriver(HeadlessDriver):
    """A headless driver the app renders to as to a terminal; ``written`` keeps the output."""

    written: list[str] = []

    @property
    def is_headless(self) -> bool:
        return False

    def write(self, data: str) -> None:
        RecordingDriver.written.append(data)


# Textual's own output: SGR, cursor moves, synchronized output, cursor visibility,
# links (OSC 8) and the pointer shape (OSC 22). Anything else came from the data.
_SEQUENCE = re.compile(
    r"\x1b\[[0-?]*[ -/]*[@-~]"  # CSI
    r"|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?"  # OSC, to BEL or ST
    r"|\x1b[P^_X][^\x1b]*(?:\x1b\\)?"  # DCS, PM, APC, SOS
    r"|\x1b[\s\S]?"  # any other escape
)
_TEXTUAL_CSI = re.compile(r"\x1b\[(?:[0-9;:]*[mH]|\?(?:25|2026)[hl])")
_TEXTUAL_OSC = re.compile(r"\x1b\](?:8;|22;)")


def plain_output(output: str) -> str:
    """``output`` without its escape sequences (each line's text, as the screen shows it)."""
    return _SEQUENCE.sub("\n", output)


def foreign_sequences(output: str) -> list[str]:
    """The escape sequences in ``output`` that Textual does not write itself."""
    found = []
    for match in _SEQUENCE.finditer(output):
        seq = match.group()
        if _TEXTUAL_CSI.fullmatch(seq) or _TEXTUAL_OSC.match(seq):
            continue
        found.append(seq)
    return found


def assert_inert_output(output: str) -> None:
    """No escape sequence but Textual's own, and no raw control character, in ``output``."""
    assert output, "the app wrote nothing: the check would be empty"
    assert foreign_sequences(output) == []
    text = _SEQUENCE.sub("", output)
    assert RAW_CONTROL.findall(text) == []
    for payload in ("\x1b]0;", "\x1b]2;", "\x1b]52;", "\x1b[2J", "\x1b[6n", "\x1bP", "\x9b"):
        assert payload not in output
