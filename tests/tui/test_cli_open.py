"""`tenxeval-tui [PATH]` opens the workbench; `--help` stays free of Textual."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tenxeval_tui import cli
from tenxeval_tui.app import WorkbenchApp


def test_help_does_not_import_textual() -> None:
    code = (
        "import sys\n"
        "from tenxeval_tui.cli import main\n"
        "try:\n    main(['--help'])\nexcept SystemExit:\n    pass\n"
        "assert 'textual' not in sys.modules, 'textual imported'\n"
        "print('ok')\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stderr
    assert "tenxeval-tui [PATH]" in result.stdout


@pytest.mark.parametrize(
    ("argv", "expected"),
    [([], "."), (["evals"], "evals"), (["one.evalset.json"], "one.evalset.json")],
)
def test_no_command_opens_the_app_on_path(
    argv: list[str], expected: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    opened: list[WorkbenchApp] = []
    monkeypatch.chdir(tmp_path)
    (tmp_path / "one.evalset.json").write_text('{"eval_cases": []}', encoding="utf-8")
    monkeypatch.setattr(WorkbenchApp, "run", lambda self: opened.append(self))
    assert cli.main(argv) == 0
    workspace = opened[0].workspace
    assert str(workspace.single_file or workspace.root) == expected


def test_subcommands_still_parse(tmp_path: Path) -> None:
    assert cli.main(["validate", str(tmp_path)]) == 2  # no eval set files there
