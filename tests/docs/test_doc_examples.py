"""Every example of the docs runs (see tests/docs/doc_examples.py for how), so none rots."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.cli.conftest import InProcess
from tests.docs.doc_examples import DOCS, pages, plain_command, run_page


@pytest.fixture
def cli(in_process: InProcess, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> InProcess:
    """The console script's entry point in this process, for the pages' plain
    ``tenxeval-tui`` lines (``in_process``: nothing left running, this process's state put
    back). The working folder is the page's from here on and the one before after the test
    (``in_process`` changes it through the test's own ``monkeypatch``)."""
    monkeypatch.chdir(tmp_path)
    return in_process


@pytest.mark.parametrize("page", pages(), ids=lambda p: str(p.relative_to(DOCS)))
def test_the_examples_of_the_page_run(page: Path, tmp_path: Path, cli: InProcess) -> None:
    ran, skipped = run_page(page, tmp_path, cli)
    # a block left out says why (`<!-- skip: next "why" -->`), and nothing else is left out
    assert all(reason.strip() for reason in skipped), skipped
    if "```python" in page.read_text(encoding="utf-8") or "```console" in page.read_text(
        encoding="utf-8"
    ):
        assert ran > 0, "a page with examples ran none of them"


def test_the_examples_of_the_readme_run(tmp_path: Path, cli: InProcess) -> None:
    """The README's example is the first code a newcomer runs: it runs as the pages' do."""
    readme = DOCS.parent / "README.md"
    ran, skipped = run_page(readme, tmp_path, cli)
    assert ran > 0 and not skipped


def test_every_python_example_runs_but_the_few_that_say_why_not() -> None:
    """The examples left out are counted, so that skipping cannot spread unnoticed."""
    text = "".join(page.read_text(encoding="utf-8") for page in pages())
    assert text.count("<!-- skip: next") <= 4


def test_a_wrong_example_fails(tmp_path: Path, cli: InProcess) -> None:
    """The runner is no rubber stamp: a Python error, and a command that does not print
    what the page says, fail."""
    page = tmp_path / "page.md"
    page.write_text("```python\nassert 1 + 1 == 3\n```\n", encoding="utf-8")
    with pytest.raises(AssertionError):
        run_page(page, tmp_path)
    page.write_text(
        '<!-- skip: next "why" -->\n```python\n1 / 0\n```\n```python\nassert False\n```\n',
        encoding="utf-8",
    )
    with pytest.raises(AssertionError):  # the block after a skipped one still runs
        run_page(page, tmp_path)
    page.write_text("```console\n$ tenxeval-tui schema nothing\nwrote\n```\n", encoding="utf-8")
    with pytest.raises(AssertionError, match="did not print"):
        run_page(page, tmp_path)
    with pytest.raises(AssertionError, match="did not print"):  # the same, in this process
        run_page(page, tmp_path, cli)


def test_only_plain_command_lines_run_in_this_process() -> None:
    """A line of shell syntax (a loop, a pipe, a variable, quotes) is the shell's: its
    ``tenxeval-tui`` is the console script."""
    assert plain_command("tenxeval-tui run -q --output-dir out") == [
        "run",
        "-q",
        "--output-dir",
        "out",
    ]
    assert plain_command("tenxeval-tui compare previous latest --format markdown") is not None
    for line in (
        "for run in 1 2 3 4; do tenxeval-tui run -q; done",
        'tenxeval-tui trend reports --eval-set weather; echo "exit $?"',
        "tenxeval-tui run -q | head -1",
        "tenxeval-tui run -q > out.txt",
        "tenxeval-tui run --case 'two words'",
        "tenxeval-tui",
        "git commit -qam message",
    ):
        assert plain_command(line) is None, line


def test_what_changes_from_run_to_run_matches_any_value_of_its_kind(tmp_path: Path) -> None:
    """Times, commits, report stamps and durations match any of their kind, and ``...`` any
    text of one line; the rest of the line is still checked."""
    page = tmp_path / "page.md"
    said = "echo 'run of 2026-01-01 10:00 (abcdef12, w_20260101_100000.json): 7/9 in 12.5s'"
    shown = "run of 2026-12-05 05:55 (98e20574, w_20261205_055535.json): 7/9 in  2.5s"
    page.write_text(f"```console\n$ {said}\n{shown}\n```\n", encoding="utf-8")
    assert run_page(page, tmp_path) == (1, [])
    # a second report in the same second gets _2 after its stamp (reporters/naming.py)
    same_second = said.replace("w_20260101_100000.json", "w_20260101_100000_2.json")
    page.write_text(f"```console\n$ {same_second}\n{shown}\n```\n", encoding="utf-8")
    assert run_page(page, tmp_path) == (1, [])
    page.write_text(f"```console\n$ {said}\nrun of ... 7/9\n```\n", encoding="utf-8")
    assert run_page(page, tmp_path) == (1, [])
    for wrong in (shown.replace("7/9", "6/9"), "run of ... 6/9", "run of ... 7/9 ... more"):
        page.write_text(f"```console\n$ {said}\n{wrong}\n```\n", encoding="utf-8")
        with pytest.raises(AssertionError, match="did not print"):
            run_page(page, tmp_path)
    two_lines = "printf 'first\\nsecond\\n'"
    page.write_text(f"```console\n$ {two_lines}\nfirst...second\n```\n", encoding="utf-8")
    with pytest.raises(AssertionError, match="did not print"):  # `...` stays within a line
        run_page(page, tmp_path)
