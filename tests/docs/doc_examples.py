"""Running the docs' examples with Sybil: every fenced block of a page, in order, in one
temporary folder per page.

- ```` ```python ```` runs (top-level ``await`` allowed), the page's blocks sharing one
  namespace and one event loop, so a later block uses what an earlier one defined.
- A block with ``title="PATH"`` (any language) is a file of the example: it is written
  to PATH in the page's folder, as the reader would save it, and not run.
- ```` ```console ```` runs each ``$ `` line in a shell in the page's folder (with this
  environment's ``tenxeval-tui``; a line ending in ``\\`` goes on to the next), or, given
  an in-process runner (``tests/cli/conftest.py``'s ``in_process``), a plain
  ``tenxeval-tui ARGS`` line (no shell syntax, no quotes) through the console script's entry
  point in the test's process (what the page shows is what the command prints, not how a
  process starts; each ``tenxeval-tui`` line inside shell syntax still starts the script,
  and so does every line of the pages' tests without a runner); each line
  after it must appear in what the command printed (stdout and stderr); ``...`` in such a
  line stands for any text (of that line), and what changes from run to run matches any
  value of its kind: durations (``0.01s``), times (``2026-12-05 05:55``), short commits
  (``98e20574``) and the time stamps of report names (``_20261205_055535``, or
  ``_20261205_055535_2`` for a second run in that second, ``matrix-20261205-055535``).
- ``<!-- invisible-code-block: python ... -->`` runs as a Python block that the site does
  not show: the set-up an example needs and a reader has already (their agent, a file).
  ``SAMPLES`` there is the repository's ``sample_evals/`` folder.
- ``<!-- skip: next "why" -->`` before a block leaves it out (Sybil's skip directive; the
  reason is shown in the source of the page, not on the site).

Sybil (maintained, releases through 2026) was chosen over pytest-examples and
pytest-markdown-docs because a page is one document with one namespace (a tutorial's
blocks build on each other), because its directives live in HTML comments that the site
does not show, and because a parser of our own for ``title=`` files and ``console``
sessions plugs into it in a few lines.
"""

from __future__ import annotations

import ast
import asyncio
import inspect
import os
import re
import subprocess
import sys
import textwrap
import unittest
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, Protocol

from sybil import Document, Example, Region, Sybil
from sybil.parsers.markdown import SkipParser
from sybil.parsers.markdown.lexers import DirectiveInHTMLCommentLexer, RawFencedCodeBlockLexer

from tests.waiting import scaled

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
BIN = Path(sys.executable).parent
INFO = re.compile(r"(?P<language>[\w-]*)(?P<attrs>[^\n]*)$\n", re.MULTILINE)
TITLE = re.compile(r'title="(?P<title>[^"]+)"')
# what changes from run to run, each compared as its kind; a duration with the spaces
# before it, since a right-aligned "12.5s" takes the place of " 2.5s"
VARYING = [
    (re.compile(r" *\b\d+\.\d+s\b"), " <duration>"),
    (re.compile(r'"duration": \d+(\.\d+)?'), '"duration": <duration>'),  # a recorded tool call's
    (re.compile(r"\b\d{4}-\d\d-\d\d \d\d:\d\d\b"), "<time>"),
    (re.compile(r"_\d{8}_\d{6}(?:_\d+)?\b"), "_<stamp>"),  # _2: a run in the same second
    (re.compile(r"-\d{8}-\d{6}\b"), "-<stamp>"),  # a matrix report's
    (re.compile(r"\b[0-9a-f]{8}\b"), "<commit>"),
]
FOLDER = "__doc_folder__"
LOOP = "__doc_loop__"
CLI = "__doc_cli__"
# What makes a command line more than a program and its words: it goes to the shell.
SHELL_SYNTAX = frozenset(";&|<>$`(){}[]*?~!#\\\"'\n")
# Each console line's environment: what the page's reader has (this environment's scripts
# first on PATH, no colour) and the width a pipe gets when nothing says otherwise.
CONSOLE_ENV = {"NO_COLOR": "1", "COLUMNS": "80"}


class Outcome(Protocol):
    """What an in-process command did (``tests.cli.conftest.Outcome``)."""

    returncode: int
    stdout: str
    stderr: str


Cli = Callable[..., Outcome]
"""``cli(cwd, *args, env=...)``: ``tenxeval-tui ARGS`` in this process (``in_process``)."""


def _folder(example: Example) -> Path:
    folder: Path = example.namespace[FOLDER]
    return folder


def write_file(example: Example) -> None:
    """Save a ``title=`` block where the reader would."""
    path = _folder(example) / example.parsed["title"]
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(example.parsed["source"], encoding="utf-8")


def run_python(example: Example) -> None:
    """Run a Python block in the page's namespace; a top-level ``await`` runs on the page's loop."""
    source = example.parsed["source"]
    padded = "\n" * example.line + source  # tracebacks give the page's line numbers
    code = compile(
        padded, str(example.path), "exec", flags=ast.PyCF_ALLOW_TOP_LEVEL_AWAIT, dont_inherit=True
    )
    result = eval(code, example.namespace)
    if inspect.iscoroutine(result):
        loop: asyncio.AbstractEventLoop = example.namespace[LOOP]
        loop.run_until_complete(result)


def plain_command(command: str) -> list[str] | None:
    """The arguments of a ``tenxeval-tui ARGS`` line with no shell syntax nor quotes in it
    (what runs the same in this process), else ``None``."""
    words = command.split()
    if len(words) < 2 or words[0] != "tenxeval-tui" or SHELL_SYNTAX.intersection(command):
        return None
    return words[1:]


def run_console(example: Example) -> None:
    """Run each ``$ `` command; the lines that follow it must appear in its output."""
    cli: Cli | None = example.namespace.get(CLI)
    for command, expected in example.parsed["session"]:
        args = plain_command(command) if cli is not None else None
        if cli is not None and args is not None:
            environ = dict(os.environ)
            try:  # what a command exports (run: the judge's settings) ends with it
                done: Outcome = cli(_folder(example), *args, env=CONSOLE_ENV)
            finally:
                os.environ.clear()
                os.environ.update(environ)
        else:
            done = subprocess.run(
                command,
                shell=True,
                cwd=_folder(example),
                capture_output=True,
                text=True,
                timeout=scaled(300),
                env={
                    **os.environ,
                    "PATH": f"{BIN}{os.pathsep}{os.environ['PATH']}",
                    **CONSOLE_ENV,
                },
            )
        output = done.stdout + done.stderr
        said = _steady(output)
        missing = [line for line in expected if not _pattern(line).search(said)]
        assert not missing, (
            f"{example.path}:{example.line}: `{command}` (exit {done.returncode}) did not print "
            f"{missing!r}; it printed:\n{textwrap.indent(output, '    ')}"
        )


def _steady(text: str) -> str:
    """``text`` with what changes from run to run replaced by its kind."""
    for pattern, kind in VARYING:
        text = pattern.sub(kind, text)
    return text


def _pattern(line: str) -> re.Pattern[str]:
    """What an expected line matches: itself (the varying parts by kind) within one line
    of the output, ``...`` standing for any text."""
    parts = _steady(line.strip()).split("...")
    return re.compile(".*".join(re.escape(part) for part in parts))


def _session(source: str) -> list[tuple[str, list[str]]]:
    """The ``$ `` commands of a console block with the lines each must print.

    A command whose line ends in a backslash goes on to the next line, as in a shell.
    """
    session: list[tuple[str, list[str]]] = []
    continued = False
    for line in source.splitlines():
        if continued:
            command, expected = session[-1]
            session[-1] = (f"{command[:-1].rstrip()} {line.strip()}", expected)
        elif line.startswith("$ "):
            session.append((line[2:], []))
        elif session and line.strip():
            session[-1][1].append(line.strip())
        continued = bool(session) and not session[-1][1] and session[-1][0].endswith("\\")
    return session


class FencedBlockParser:
    """The regions of a page that run: Python blocks, ``title=`` files, console sessions."""

    def __init__(self) -> None:
        self.lexer = RawFencedCodeBlockLexer(info_pattern=INFO)
        self.hidden = DirectiveInHTMLCommentLexer(
            directive="invisible-code-block", arguments="python"
        )

    def __call__(self, document: Document) -> Iterable[Region]:
        for region in self.hidden(document):
            region.parsed = {"source": str(region.lexemes["source"])}
            region.evaluator = run_python
            yield region
        for region in self.lexer(document):
            language = region.lexemes["language"]
            source = str(region.lexemes["source"])
            title = TITLE.search(region.lexemes["attrs"])
            if title is not None:
                region.parsed = {"title": title["title"], "source": source}
                region.evaluator = write_file
            elif language == "python":
                region.parsed = {"source": source}
                region.evaluator = run_python
            elif language == "console":
                region.parsed = {"session": _session(source)}
                region.evaluator = run_console
            else:
                continue
            yield region


def setup(namespace: dict[str, Any], folder: Path, cli: Cli | None = None) -> None:
    namespace[FOLDER] = folder
    namespace[CLI] = cli
    namespace[LOOP] = asyncio.new_event_loop()
    namespace["__name__"] = "__doc__"
    namespace["SAMPLES"] = ROOT / "sample_evals"


def teardown(namespace: dict[str, Any]) -> None:
    namespace[LOOP].close()


SYBIL = Sybil(parsers=[FencedBlockParser(), SkipParser()], path=str(DOCS), patterns=["*.md"])


def pages() -> list[Path]:
    """Every page of the site's sources (the generated reference pages have no examples)."""
    return sorted(p for p in DOCS.rglob("*.md") if "scripts" not in p.parts)


def run_page(path: Path, folder: Path, cli: Cli | None = None) -> tuple[int, list[str]]:
    """Run every example of ``path`` in ``folder``; returns how many ran, and the reasons of
    those a skip directive left out (the page's other examples run all the same). With
    ``cli``, the plain ``tenxeval-tui`` lines of console blocks run through it."""
    document = SYBIL.parse(path)
    setup(document.namespace, folder, cli)
    old_cwd, old_path = Path.cwd(), list(sys.path)
    os.chdir(folder)
    sys.path[:0] = [str(folder), str(ROOT)]
    ran, skipped = 0, []
    try:
        for example in document:
            try:
                example.evaluate()
            except unittest.SkipTest as skip:
                skipped.append(str(skip))
                continue
            ran += 1
    finally:
        os.chdir(old_cwd)
        sys.path[:] = old_path
        for name, module in list(sys.modules.items()):
            if str(getattr(module, "__file__", "") or "").startswith(str(folder)):
                del sys.modules[name]
        teardown(document.namespace)
    return ran, skipped


__all__ = ["DOCS", "Cli", "pages", "plain_command", "run_page"]
