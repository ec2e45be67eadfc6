"""Which reports a run writes, and what they contain."""

from __future__ import annotations

from pydantic import BaseModel


class UserSimulatorConfig(BaseModel):
    """Settings of a simulated user (10xGraph's shape): its model, how many turns at
    most, its temperature, and which OpenAI API it is called through
    (``"responses"`` or ``"chat"``)."""

    model: str = "gemini-2.5-flash"
    max_invocations: int = 10
    temperature: float = 0.7
    thinking_enabled: bool = False
    thinking_budget: int = 10240
    api_style: str = "responses"


class ReporterConfig(BaseModel):
    """Which reports are written after a run, and what they contain.

    ``csv`` and ``jsonl`` (ours, off by default) add a CSV and a JSON Lines file with
    one row per case and criterion (see :class:`~tenxeval_tui.evaluation.reporters.CsvReporter`
    for how CSV cells that would start a spreadsheet formula are written).
    """

    enabled: bool = True
    output_dir: str = "eval_reports"
    console: bool = True
    json_report: bool = True
    html: bool = True
    junit_xml: bool = False
    verbose: bool = True
    include_details: bool = True
    include_trajectory: bool = True
    include_node_responses: bool = True
    include_actual_response: bool = True
    include_tool_call_details: bool = True
    timestamp_files: bool = True
    csv: bool = False
    jsonl: bool = False
