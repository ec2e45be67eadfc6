"""``tenxeval-tui schema KIND``: the JSON Schema of eval set, scenario, labels or config files.

Prints (or writes, ``-o FILE``) the schema the package ships, so an editor can validate
and complete the files as they are typed: name it in a file's ``"$schema"`` key, or map
a file pattern to it in the editor's settings.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from tenxeval_tui.evaluation.schemas import SCHEMA_FILES


def add_schema_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """The ``schema`` subcommand."""
    parser = sub.add_parser(
        "schema",
        help="print the JSON Schema of eval set, scenario, labels or config files (editors)",
        description="Print the JSON Schema of a kind of file, for editors that validate and "
        "complete JSON as it is typed (VS Code, JetBrains): "
        + ", ".join(f"{kind} ({pattern})" for kind, pattern in SCHEMA_FILES.items())
        + '. Name the written file in a file\'s "$schema" key, or map the file pattern '
        "to it in the editor's settings.",
    )
    parser.add_argument(
        "kind", choices=list(SCHEMA_FILES), metavar="KIND", help="|".join(SCHEMA_FILES)
    )
    parser.add_argument(
        "-o", "--output", metavar="FILE", help="write the schema to FILE instead of printing it"
    )
    parser.set_defaults(func=schema_command)


def schema_command(args: argparse.Namespace) -> int:
    """Print or write the schema; exit 2 when FILE cannot be written."""
    from tenxeval_tui.evaluation.files.fileio import atomic_write_text
    from tenxeval_tui.evaluation.inert import inert
    from tenxeval_tui.evaluation.schemas import shipped_schema_text

    text = shipped_schema_text(args.kind)
    if args.output is None:
        sys.stdout.write(text)
        return 0
    try:
        atomic_write_text(Path(args.output), text)
    except OSError as exc:
        reason = f"{args.output}: {exc.strerror}" if exc.strerror else str(exc)
        print(inert(f"tenxeval-tui schema: cannot write {reason}"), file=sys.stderr)
        return 2
    print(inert(f"wrote {args.output}"), file=sys.stderr)
    return 0
