"""Custom criteria for ``tenxeval-tui run``: modules imported before the criteria are checked.

A criterion registered with ``@register_criterion`` in the agent's own module is unknown
when the config is checked, which happens before any agent is imported (and the agent
runs in a child process). ``criteria_modules`` in ``[tool.tenxeval]`` or
``--criteria-module MODULE`` name modules to import first, in the parent and in the
worker alike, so the early check knows them.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Sequence
from pathlib import Path


class CriteriaModuleError(Exception):
    """A criteria module that cannot be imported; the message names it and says why."""


def import_criteria_modules(modules: Sequence[str], folder: Path | None) -> None:
    """Import each of ``modules`` (``folder`` first on ``sys.path``), registering its criteria.

    Raises :class:`CriteriaModuleError` for the first that fails.
    """
    if not modules:
        return
    where = str((folder or Path.cwd()).resolve())
    if where not in sys.path:
        sys.path.insert(0, where)
    for name in modules:
        try:
            importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name and (name == exc.name or name.startswith(exc.name + ".")):
                raise CriteriaModuleError(
                    f"criteria module {name!r} not found in {where}"
                ) from None
            raise CriteriaModuleError(
                f"criteria module {name!r}: {type(exc).__name__}: {exc}"
            ) from None
        except (Exception, SystemExit) as exc:
            raise CriteriaModuleError(
                f"criteria module {name!r}: importing it raised {type(exc).__name__}: {exc}"
            ) from None


__all__ = ["CriteriaModuleError", "import_criteria_modules"]
