"""Why a run session cannot run as asked (no UI import).

A front end shows a :class:`RunProblem` as it is (``tenxeval-tui run`` prints it and exits
2); an :class:`EmptyShard` is not a problem but a run with nothing to do.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path

from tenxeval_tui.evaluation.errors import EvalFileError


class RunProblem(Exception):
    """The run cannot start or go on as asked: the message names the file, the place or
    the flag, and the problem."""


class EmptyShard(Exception):
    """The ``--shard`` part holds none of the selected cases: nothing to run (exit code 0)."""


@contextlib.contextmanager
def journal_problems(journal: Path) -> Iterator[None]:
    """Reading ``journal`` inside: a missing or unreadable journal is a :class:`RunProblem`
    naming it."""
    try:
        yield
    except FileNotFoundError:
        raise RunProblem(f"{journal}: journal not found") from None
    except (EvalFileError, UnicodeDecodeError) as exc:
        raise RunProblem(f"{journal}: {exc}") from None


__all__ = ["EmptyShard", "RunProblem", "journal_problems"]
