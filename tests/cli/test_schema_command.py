"""`tenxeval-tui schema KIND`: the first test through the real console script, the rest
in-process through its entry point (``in_process``)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tenxeval_tui.evaluation.schemas import shipped_schema_text
from tests.cli.conftest import InProcess
from tests.waiting import scaled

SCRIPT = Path(sys.executable).parent / "tenxeval-tui"


def cli(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(SCRIPT), *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=scaled(60),
        env=os.environ,
    )


def test_schema_prints_the_shipped_schema(tmp_path: Path) -> None:
    done = cli(tmp_path, "schema", "evalset")
    assert done.returncode == 0, done.stderr
    assert done.stdout == shipped_schema_text("evalset")


def test_schema_writes_a_file_with_o(tmp_path: Path, in_process: InProcess) -> None:
    done = in_process(tmp_path, "schema", "config", "-o", "schemas/config.schema.json")
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "schemas/config.schema.json").read_text() == shipped_schema_text("config")


def test_schema_refuses_an_unknown_kind_and_an_unwritable_file(
    tmp_path: Path, in_process: InProcess
) -> None:
    unknown = in_process(tmp_path, "schema", "reports")
    assert unknown.returncode == 2
    assert "evalset" in unknown.stderr
    (tmp_path / "a_file").write_text("")
    unwritable = in_process(tmp_path, "schema", "labels", "-o", "a_file/labels.schema.json")
    assert unwritable.returncode == 2
    assert "a_file/labels.schema.json" in unwritable.stderr
