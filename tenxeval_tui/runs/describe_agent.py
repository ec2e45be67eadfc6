"""The child that reads an agent's schema for the editor (:mod:`.agent_schema`).

``python -m tenxeval_tui.runs.describe_agent SPEC FOLDER`` imports the agent (``FOLDER``
first on the path), describes it (:func:`~tenxeval_tui.evaluation.targets.schema.describe_target`)
and prints one JSON line: ``{"schema": ..., "files": {path: mtime}}`` (the files of every
module it imported from ``FOLDER``), or ``{"error": message}``.

It imports only what describing needs: neither asyncio nor the event models and
collectors a run builds on (an agent that imports them itself loads them, of course).
The editor starts one each time it shows an agent's cases afresh.
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
from pathlib import Path
from typing import Any


def _source_files(folder: Path) -> dict[str, float]:
    root = folder.resolve()
    files: dict[str, float] = {}
    for name, module in list(sys.modules.items()):
        path = getattr(module, "__file__", None)
        if not path or name.split(".")[0] == "tenxeval_tui":
            continue
        resolved = Path(path).resolve()
        if resolved.is_relative_to(root) and ".venv" not in resolved.parts:
            with contextlib.suppress(OSError):
                files[str(resolved)] = resolved.stat().st_mtime
    return files


def main(argv: list[str] | None = None) -> int:
    """``python -m tenxeval_tui.runs.describe_agent SPEC FOLDER``: print the schema line."""
    from tenxeval_tui.evaluation.targets.loader import AgentLoadError, build_target
    from tenxeval_tui.evaluation.targets.schema import describe_target

    args = list(sys.argv[1:] if argv is None else argv)
    out = sys.stdout
    sys.stdout = sys.stderr  # the agent's prints stay off the result line
    data: dict[str, Any]
    if len(args) != 2:
        data = {"error": "usage: tenxeval_tui.runs.describe_agent SPEC FOLDER"}
    else:
        spec, folder = args[0], Path(args[1])
        try:
            schema = describe_target(build_target(spec, cwd=folder))
            data = {"schema": schema.model_dump(mode="json"), "files": _source_files(folder)}
        except AgentLoadError as exc:
            data = {"error": str(exc)}
        except Exception as exc:  # describing it failed: say so, the editor goes on
            data = {
                "error": f"agent {spec!r}: describing its tools raised {type(exc).__name__}: {exc}"
            }
    out.write(json.dumps(data, default=str) + "\n")
    out.flush()
    return 0


__all__ = ["main"]


if __name__ == "__main__":
    code = main()
    sys.stdout.flush()
    os._exit(code)  # no wait for threads the agent left running
