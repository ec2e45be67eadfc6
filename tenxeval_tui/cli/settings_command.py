"""``tenxeval-tui settings``: every layered setting's value and where it came from.

Shows the user's settings file (and whether it loads) and, for each setting of
:data:`~tenxeval_tui.settings.layers.SETTINGS`, the value that applies in the current
folder and its place: a ``TENXEVAL_*`` variable, the project's ``[tool.tenxeval]``, the
user's file, or the default. ``--path`` prints only the file's path (for ``$EDITOR
"$(tenxeval-tui settings --path)"``).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any

from tenxeval_tui.evaluation.redact import redact_values


def add_settings_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """The ``settings`` subcommand."""
    parser = sub.add_parser(
        "settings",
        help="show each setting's value here and where it comes from (env, project, user file)",
        description="Show the user's settings file and, for each setting, the value that "
        "applies in the current folder and where it comes from. Precedence: flag > "
        "TENXEVAL_* environment variable > [tool.tenxeval] of pyproject.toml > the user's "
        "settings.toml > default.",
    )
    parser.add_argument("--path", action="store_true", help="print only the settings file's path")
    parser.add_argument("--json", action="store_true", help="print the settings as JSON")
    parser.set_defaults(func=settings_command)


def settings_command(args: argparse.Namespace) -> int:
    """Print the settings; exit 1 when the user's file or the project's table does not load."""
    from tenxeval_tui.evaluation.inert import inert, inert_json
    from tenxeval_tui.settings.layers import SETTINGS, SettingsError, resolve_settings
    from tenxeval_tui.settings.user_settings import load_user_settings, settings_path
    from tenxeval_tui.settings.workspace import open_workspace

    path = settings_path()
    if args.path:
        print(inert(str(path)))
        return 0
    user, problems = load_user_settings(path)
    workspace = open_workspace(Path.cwd())
    problems = [*problems, *workspace.problems]
    try:
        resolved = resolve_settings({}, os.environ, workspace, user, path)
    except SettingsError as exc:
        print(inert(f"tenxeval-tui settings: {exc}", multiline=True), file=sys.stderr)
        return 2
    if args.json:
        data: dict[str, Any] = {
            "settings_file": str(path),
            "problems": [str(p) for p in problems],
            "settings": {
                s.name: {
                    "value": _plain(resolved[s.name].value),
                    "layer": resolved[s.name].layer,
                    "from": resolved[s.name].where,
                    "env": s.env,
                }
                for s in SETTINGS
            },
        }
        print(inert_json(json.dumps(data, indent=2)))
        return 1 if problems else 0
    state = "loads" if path.is_file() and not problems else "not found" if not path.exists() else ""
    print(inert(f"settings file: {path}" + (f" ({state})" if state else "")))
    for problem in problems:
        print(inert(f"problem: {problem}", multiline=True))
    width = max(len(s.name) for s in SETTINGS)
    for s in SETTINGS:
        item = resolved[s.name]
        value = "-" if item.value is None else str(_plain(item.value))
        print(inert(f"{s.name:<{width}}  {value}  ({item.where})"))
    return 1 if problems else 0


def _plain(value: Any) -> Any:
    """``value`` as shown: a path as text, an endpoint's credentials hidden."""
    return str(value) if isinstance(value, Path) else redact_values(value)


__all__ = ["add_settings_parser", "settings_command"]
