"""Which reports a run writes, and what they contain."""

from __future__ import annotations

from pydantic import BaseModel


class ReporterConfig(BaseModel):
    """Which reports are written after a run, and what they contain."""

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
