"""What the key-to-screen bench opens: a workspace with a 1,000-case eval set run by the
offline sample agent, and a 10,000-case report in its report folder."""

from __future__ import annotations

import json
from pathlib import Path

CASES = 1_000
REPORT_CASES = 10_000
AGENT = "sample_evals.plain_agent:support_agent"
EVAL_SET = "orders.evalset.json"
REPORT = "big_20260520_120000.json"


def case_id(index: int) -> str:
    """The ``eval_id`` of case ``index`` of the eval set (as the list shows it: 9 cells)."""
    return f"case_{index:04d}"


def case_name(index: int) -> str:
    """The name of case ``index``."""
    return f"Order status {index}"


def write_workspace(folder: Path) -> Path:
    """The workspace: ``pyproject.toml`` naming the agent, the eval set, the report folder
    with one big report. Returns the eval set's path."""
    from tenxeval_tui.evaluation import EvalCase, EvalSet, ToolCall

    (folder / "pyproject.toml").write_text(
        f'[tool.tenxeval]\nagent = "{AGENT}"\noutput_dir = "eval_reports"\nconcurrency = 4\n',
        encoding="utf-8",
    )
    cases = []
    for index in range(CASES):
        order = f"A{100 + index % 3 * 100}"
        tools = [ToolCall(name="lookup_order", args={"order_id": order})]
        tags = ["smoke", "tools"] if index % 10 == 0 else ["tools"]
        if index % 5 == 4:  # every fifth case has two turns: the form changes shape
            case = EvalCase.multi_turn(
                case_id(index),
                [(f"Where is order {order}?", None), ("And when does it arrive?", None)],
                expected_tools=tools,
                expected_node_order=["ROUTER", "ANSWER"],
                name=case_name(index),
                tags=tags,
            )
        else:
            case = EvalCase.single_turn(
                case_id(index),
                f"Where is order {order}?",
                f"Order {order} is shipped, expected Friday.",
                expected_tools=tools,
                expected_node_order=["ROUTER", "ANSWER"],
                name=case_name(index),
                tags=tags,
            )
        cases.append(case)
    path = folder / EVAL_SET
    EvalSet(eval_set_id="orders", name="orders", eval_cases=cases).to_file(path)
    data = json.loads(path.read_text(encoding="utf-8"))
    data["metadata"] = {"agent": AGENT}
    path.write_text(json.dumps(data, indent=2), encoding="utf-8")
    return path


def write_report(folder: Path) -> Path:
    """A 10,000-case report (bench/tui_reports.py's cases) in ``folder``."""
    from tui_reports import make_case  # the bench folder's own: run as bench/*.py

    from tenxeval_tui.evaluation import EvalReport

    folder.mkdir(parents=True, exist_ok=True)
    path = folder / REPORT
    EvalReport.create("big", [make_case(i) for i in range(REPORT_CASES)]).to_file(path)
    return path
