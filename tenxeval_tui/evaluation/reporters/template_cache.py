"""The HTML report's compiled templates, kept on disk from one run to the next (issue #38).

Compiling ``report.html.j2`` cost every process that wrote an HTML report 17 ms of CPU
(``tenxeval-tui run``'s parent compiles it while its worker runs the cases, on the core
the worker's imports could have had). jinja2's bytecode cache keeps the compiled code:
each load checks it against the template's source (a changed template is compiled again)
and the Python it was compiled by; the file's name holds jinja2's version and the
environment's options too, which the compiled code depends on. The files go in
``templates/`` of the cache folder
(:func:`~tenxeval_tui.evaluation.files.cache_folder.cache_dir`). A cache that cannot
be read or written only costs the compile: the page is the same.
"""

from __future__ import annotations

import hashlib
import logging
import os
import stat
from collections.abc import Mapping
from typing import Any

import jinja2
from jinja2.bccache import Bucket

from tenxeval_tui.evaluation.files.cache_folder import cache_dir

logger = logging.getLogger(__name__)

FOLDER = "templates"
"""The cache folder's subfolder the compiled templates go in."""


def private_folder(folder: str) -> bool:
    """Whether ``folder`` is a folder of this user that no one else may write to: the
    compiled code in it is run, so a folder another user could put a file in is not
    read (as jinja2 checks its own default folder)."""
    try:
        found = os.lstat(folder)
    except OSError:
        return False
    return (
        stat.S_ISDIR(found.st_mode)
        and found.st_uid == os.getuid()
        and not found.st_mode & (stat.S_IWGRP | stat.S_IWOTH)
    )


class QuietBytecodeCache(jinja2.FileSystemBytecodeCache):
    """jinja2's bytecode cache in a private folder made on first write, whose failures to
    read or write are logged, never raised (the template is compiled instead); code is
    read only from a folder :func:`private_folder` finds private."""

    def load_bytecode(self, bucket: Bucket) -> None:
        if not private_folder(self.directory):
            return  # not there yet, or others may write to it: compiled instead
        try:
            super().load_bytecode(bucket)
        except OSError as exc:
            bucket.reset()
            logger.debug("a compiled template was not read from %s: %s", self.directory, exc)

    def dump_bytecode(self, bucket: Bucket) -> None:
        try:
            os.makedirs(self.directory, mode=0o700, exist_ok=True)
            super().dump_bytecode(bucket)
        except OSError as exc:
            logger.debug("a compiled template was not kept in %s: %s", self.directory, exc)


def template_cache(options: Mapping[str, Any]) -> QuietBytecodeCache:
    """The cache of the templates of an environment made with ``options`` (its keyword
    arguments but the loader), in :data:`FOLDER` of the cache folder."""
    made_by = repr(sorted((name, repr(value)) for name, value in options.items()))
    key = hashlib.sha256(f"{jinja2.__version__} {made_by}".encode()).hexdigest()[:16]
    return QuietBytecodeCache(str(cache_dir() / FOLDER), f"{key}-%s.cache")


__all__ = ["FOLDER", "QuietBytecodeCache", "private_folder", "template_cache"]
