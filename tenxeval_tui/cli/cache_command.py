"""``tenxeval-tui cache list|clear|prune``: the judge reply cache on disk.

The work is done by :mod:`tenxeval_tui.evaluation.judges.cache`; this prints what it
found or removed. ``clear`` asks nothing (it is a cache: every entry can be asked again)
but says what it removed. Exit codes: 0, or 2 for a bad flag or a ``--dir`` that is no
folder.
"""

from __future__ import annotations

import argparse
import re
import sys
import time
from pathlib import Path

_UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400, "w": 7 * 86400}
_DURATION = re.compile(r"\s*(\d+(?:\.\d+)?)\s*([smhdw]?)\s*")


def parse_duration(text: str) -> float:
    """``90s``, ``15m``, ``12h``, ``7d``, ``2w`` (or plain seconds) in seconds."""
    match = _DURATION.fullmatch(text.lower())
    if match is None:
        raise argparse.ArgumentTypeError(
            f"{text!r} is no duration (a number and s, m, h, d or w: 30m, 12h, 7d)"
        )
    return float(match.group(1)) * _UNITS[match.group(2) or "s"]


def parse_megabytes(text: str) -> float:
    """A size in megabytes, zero or more."""
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not value >= 0:  # also NaN
        raise argparse.ArgumentTypeError(f"{text!r} is no size in MB (a number, 0 or more)")
    return value


def human_size(size: int) -> str:
    """``512 B``, ``3.4 kB``, ``12.0 MB`` (powers of 1024)."""
    value = float(size)
    for unit in ("B", "kB", "MB", "GB"):
        if value < 1024 or unit == "GB":
            return f"{size} B" if unit == "B" else f"{value:.1f} {unit}"
        value /= 1024
    return f"{size} B"  # not reached


def _when(stamp: float | None) -> str:
    if stamp is None:
        return "-"
    return time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(stamp))


def _entries(count: int) -> str:
    return f"{count} entr{'y' if count == 1 else 'ies'}"


def add_cache_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """The ``cache`` subcommand and its ``list``, ``clear`` and ``prune`` actions."""
    cache = sub.add_parser(
        "cache",
        help="list, clear or prune the judge reply cache",
        description="The judge reply cache (default: $TENXEVAL_JUDGE_CACHE_DIR, else "
        ".tenxeval_cache/judge in the current folder). Only the cache's own entry files "
        "are ever removed.",
    )
    actions = cache.add_subparsers(dest="cache_action", metavar="ACTION", required=True)

    def add(name: str, help_text: str) -> argparse.ArgumentParser:
        parser = actions.add_parser(name, help=help_text, description=help_text)
        parser.add_argument("--dir", metavar="DIR", help="the cache folder")
        parser.set_defaults(func=cmd_cache)
        return parser

    add("list", "entries and size of the cache, per judge model")
    add("clear", "remove every entry (asks nothing: each reply can be asked again)")
    prune = add(
        "prune",
        "remove unreadable entries, those older than --older-than, then the oldest "
        "until the cache fits in --max-mb",
    )
    prune.add_argument(
        "--older-than", type=parse_duration, metavar="DURATION", help="e.g. 12h, 7d, 2w"
    )
    prune.add_argument("--max-mb", type=parse_megabytes, metavar="N", help="size cap in MB")


def cmd_cache(args: argparse.Namespace) -> int:
    """Run ``cache list``, ``cache clear`` or ``cache prune``."""
    from tenxeval_tui.evaluation.inert import inert
    from tenxeval_tui.evaluation.judges.cache import (
        cache_summary,
        clear_cache,
        default_cache_dir,
        prune_cache,
    )

    directory = Path(args.dir) if args.dir else default_cache_dir()
    shown = inert(str(directory))
    if directory.exists() and not directory.is_dir():
        print(f"{shown}: is no folder", file=sys.stderr)
        return 2
    if not directory.exists():
        print(f"{shown}: no judge cache here (nothing to {args.cache_action})")
        return 0
    if args.cache_action == "list":
        summary = cache_summary(directory)
        print(f"{shown}: {_entries(summary.entries)}, {human_size(summary.bytes)}")
        if summary.entries:
            print(f"  oldest {_when(summary.oldest)}, newest {_when(summary.newest)}")
        for model, (count, size) in sorted(summary.by_model.items()):
            print(f"  {inert(model or '(no model)')}: {_entries(count)}, {human_size(size)}")
        if summary.unreadable:
            print(f"  unreadable: {_entries(summary.unreadable)} (`cache prune` removes them)")
        return 0
    if args.cache_action == "clear":
        removed = clear_cache(directory)
    else:
        max_bytes = None if args.max_mb is None else int(args.max_mb * 1024 * 1024)
        removed = prune_cache(directory, older_than=args.older_than, max_bytes=max_bytes)
    left = cache_summary(directory)
    print(
        f"{shown}: removed {_entries(removed.entries)} ({human_size(removed.bytes)}); "
        f"{_entries(left.entries)} ({human_size(left.bytes)}) left"
    )
    return 0
