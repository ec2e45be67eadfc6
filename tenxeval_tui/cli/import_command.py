"""``tenxeval-tui import FILE``: an eval set file from a CSV, JSONL or Google ADK file.

Exit codes as ``validate``'s: 0 written, 1 bad rows (every one printed as file:line, and
nothing written), 2 usage errors and files that cannot be read (or an output that exists,
without ``--force``). The conversion itself is :mod:`tenxeval_tui.evaluation.dataset.importing`.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path


def add_import_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """The ``import`` subcommand."""
    parser = sub.add_parser(
        "import",
        help="make an eval set from a CSV, JSONL or Google ADK file (exit 1: bad rows)",
        description="Make an eval set file from a CSV (or .tsv), JSON Lines or Google ADK "
        "*.evalset.json file: one row, one single-turn case. Columns are found by name "
        "(query/input/question/prompt, expected/expected_response/answer/output, tags, "
        "id/eval_id, name, description, expected_tools: a JSON list of tool calls) unless "
        "--map names them; other columns go into each case's metadata. Exit codes: 0 "
        "written, 1 bad rows (each printed as file:line, nothing written), 2 usage errors, "
        "unreadable files, or an output that exists (without --force).",
    )
    parser.add_argument("file", metavar="FILE", help="a .csv, .tsv, .jsonl or ADK .json file")
    parser.add_argument(
        "-o",
        "--output",
        metavar="OUT",
        help="the eval set file to write (default: FILE's name as NAME.evalset.json beside it)",
    )
    parser.add_argument(
        "--map",
        action="append",
        default=[],
        metavar="FIELD=COLUMN,...",
        help="which column holds a field: query, expected, tags, id, name, description, "
        "tools (e.g. --map query=question,expected=answer,tags=labels; repeatable)",
    )
    parser.add_argument(
        "--eval-set-id", metavar="ID", help="the eval set's id (default: FILE's base name)"
    )
    parser.add_argument(
        "--format",
        choices=["csv", "tsv", "jsonl", "adk"],
        help="the input's format (default: from its extension)",
    )
    parser.add_argument("--force", action="store_true", help="replace OUT when it exists")
    parser.set_defaults(func=cmd_import)


def _error(message: str) -> None:
    from tenxeval_tui.evaluation.inert import inert

    print(inert(message, multiline=True), file=sys.stderr)


def _default_output(source: Path) -> Path:
    from tenxeval_tui.evaluation.dataset.importing import base_name

    out = source.with_name(f"{base_name(source)}.evalset.json")
    if out.resolve() == source.resolve():  # an ADK file named *.evalset.json
        out = source.with_name(f"{base_name(source)}.imported.evalset.json")
    return out


def cmd_import(args: argparse.Namespace) -> int:
    """Import ``args.file`` and write the eval set; see the module's exit codes."""
    from tenxeval_tui.evaluation.dataset.importing import (
        ColumnMap,
        MappingError,
        UnreadableFileError,
        describe_columns,
        import_eval_set,
    )
    from tenxeval_tui.evaluation.errors import EvalFileError
    from tenxeval_tui.evaluation.inert import inert

    source = Path(args.file)
    try:
        mapping = ColumnMap()
        for text in args.map:
            mapping = mapping.merged(ColumnMap.parse(text))
    except MappingError as exc:
        _error(str(exc))
        return 2
    output = Path(args.output) if args.output else _default_output(source)
    if output.exists() and not args.force:
        _error(f"{output}: exists; give --force to replace it")
        return 2
    try:
        result = import_eval_set(
            source, format=args.format, mapping=mapping, eval_set_id=args.eval_set_id
        )
    except FileNotFoundError:
        _error(f"{source}: no such file")
        return 2
    except MappingError as exc:
        _error(str(exc))
        return 2
    except UnreadableFileError as exc:
        for problem in exc.problems:
            _error(str(problem))
        if exc.first.message.startswith("not UTF-8"):
            _error("save it as UTF-8 (in Excel: CSV UTF-8) and import it again")
        return 2
    except EvalFileError as exc:
        for problem in exc.problems:
            _error(str(problem))
        _error(f"{len(exc.problems)} problem(s); nothing written")
        return 1
    except ValueError as exc:  # no format
        _error(str(exc))
        return 2
    try:
        result.eval_set.to_file(output)
    except OSError as exc:
        _error(f"{output}: cannot be written: {exc.strerror or exc}")
        return 2
    count = len(result.eval_set)
    where = f" ({describe_columns(result.columns)})" if result.columns else ""
    print(
        inert(
            f"{output}: {count} case{'s' if count != 1 else ''} from {source} "
            f"[{result.format}]{where}"
        )
    )
    return 0
