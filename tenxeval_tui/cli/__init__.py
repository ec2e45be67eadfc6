"""The ``tenxeval-tui`` command: argument parsing, the headless run, progress output.

No Textual at import: ``tenxeval-tui --help`` stays fast. :func:`main` is the entry point.
"""

from tenxeval_tui.cli.main import main

__all__ = ["main"]
