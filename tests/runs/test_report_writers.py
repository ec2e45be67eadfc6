"""A run's parent loads the report writers its run will use while the worker runs."""

from __future__ import annotations

import json
import subprocess
import sys

from tests.waiting import scaled

PROBE = """
import json, sys
from tenxeval_tui.evaluation.config.reporter_config import ReporterConfig
from tenxeval_tui.runs.report_writers import load_report_writers
before = "tenxeval_tui.evaluation.reporters.html" in sys.modules
load_report_writers(ReporterConfig(html=sys.argv[1] == "html")).join()
from tenxeval_tui.evaluation.reporters import html
print(json.dumps([before, "tenxeval_tui.evaluation.reporters.json" in sys.modules,
                  html._environment.cache_info().currsize, html._asset.cache_info().currsize]))
"""


def _probe(*args: str) -> list[object]:
    done = subprocess.run(
        [sys.executable, "-c", PROBE, *args], capture_output=True, text=True, timeout=scaled(60)
    )
    assert done.returncode == 0, done.stderr
    loaded: list[object] = json.loads(done.stdout)
    return loaded


def test_the_html_writer_is_loaded_with_its_template_compiled() -> None:
    assert _probe("html") == [False, True, 1, 2]


def test_no_html_loads_no_template() -> None:
    assert _probe("no-html") == [False, True, 0, 0]
