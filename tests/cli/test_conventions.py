"""The command behaves as command-line users expect: --version, shell completion, colour."""

from __future__ import annotations

import io
import shutil
import subprocess
from pathlib import Path

import pytest

from tenxeval_tui import __version__
from tenxeval_tui.cli.colour import colour_wanted
from tests.cli.conftest import InProcess
from tests.waiting import scaled

from .test_run import AGENT, cli


class Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_version_prints_the_package_version(tmp_path: Path) -> None:
    done = cli(tmp_path, "--version")
    assert done.returncode == 0
    assert done.stdout.strip() == f"tenxeval-tui {__version__}"


@pytest.mark.parametrize("shell", ["bash", "zsh"])
def test_completion_scripts_know_the_commands_and_flags(
    tmp_path: Path, in_process: InProcess, shell: str
) -> None:
    # The script's text, in this process; bash runs the console script's own below.
    done = in_process(tmp_path, "completion", shell)
    assert done.returncode == 0, done.stderr
    for word in ("validate", "run", "compare", "--preset", "--output-dir", "--eval-set"):
        assert word in done.stdout


@pytest.mark.skipif(shutil.which("bash") is None, reason="bash is not installed")
def test_bash_completes_a_subcommand_from_the_script(tmp_path: Path) -> None:
    script = cli(tmp_path, "completion", "bash").stdout
    (tmp_path / "complete.bash").write_text(script)
    probe = (
        "source complete.bash; COMP_WORDS=(tenxeval-tui comp); COMP_CWORD=1; "
        "COMP_LINE='tenxeval-tui comp'; COMP_POINT=${#COMP_LINE}; "
        '_shtab_tenxeval_tui; printf "%s\\n" "${COMPREPLY[@]}"'
    )
    done = subprocess.run(
        ["bash", "-c", probe], cwd=tmp_path, capture_output=True, text=True, timeout=scaled(30)
    )
    assert done.stdout.split() == ["compare", "completion"], done.stderr


@pytest.mark.parametrize(
    ("env", "tty", "expected"),
    [
        ({}, False, False),
        ({}, True, True),
        ({"FORCE_COLOR": "1"}, False, True),
        ({"FORCE_COLOR": "0"}, False, False),
        ({"NO_COLOR": "1"}, True, False),
        ({"NO_COLOR": "1", "FORCE_COLOR": "1"}, False, False),
    ],
)
def test_colour_follows_no_color_and_force_color(
    env: dict[str, str], tty: bool, expected: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in ("NO_COLOR", "FORCE_COLOR"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    assert colour_wanted(Tty() if tty else io.StringIO()) is expected


def test_force_color_colours_a_piped_run_and_no_color_wins(project: Path) -> None:
    args = ("run", "evals", "--agent", AGENT, "--no-html", "--tags", "smoke")
    forced = cli(project, *args, env={"FORCE_COLOR": "1", "NO_COLOR": ""})
    assert forced.returncode == 0, forced.stderr
    assert "\x1b[" in forced.stdout
    both = cli(project, *args, env={"FORCE_COLOR": "1"})  # cli() sets NO_COLOR=1
    assert both.returncode == 0
    assert "\x1b[" not in both.stdout


def test_every_help_text_reads_as_written_and_names_real_actions() -> None:
    # argparse %-formats an argument's help but prints a description as it is: a "%%"
    # there showed doubled ("95%% interval").
    import argparse

    from tenxeval_tui.cli.main import build_parser

    parser = build_parser()
    commands = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction)).choices
    for name, command in commands.items():
        assert "%%" not in command.format_help(), name
    listing = parser.format_help()
    cache_line = next(line for line in listing.splitlines() if line.strip().startswith("cache"))
    actions = next(
        a for a in commands["cache"]._actions if isinstance(a, argparse._SubParsersAction)
    ).choices
    assert "show" not in cache_line and "show" not in actions  # `cache show` is no action
    assert all(action in cache_line for action in actions), cache_line
