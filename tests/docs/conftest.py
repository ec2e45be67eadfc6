"""Fixtures of the docs' tests: the CLI's in-process runner (``tests/cli/conftest.py``), for
the pages' console lines."""

from tests.cli.conftest import in_process

__all__ = ["in_process"]
