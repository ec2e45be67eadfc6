"""The agents' schemas read once per test session for the tests whose subject is not the
schema's child process (``tests/conftest.py``).

The editor asks a child process to describe the agent each time it opens an eval set that
names one (:mod:`tenxeval_tui.runs.agent_schema`): an interpreter started and the agent
imported, 0.2-0.9 CPU-s. Every test has its own copy of the sample project, so the
product's caches (in memory, and on disk in the test's own cache folder) never see the
same folder twice, and a full suite started ~150 of these children for 4 distinct agents'
code. :class:`SessionSchemas` starts the real child the first time an agent is asked for
with a given code, and gives the later tests asking for that agent with the same code what
it gave, its files placed in their folder.

The same code means: the same spec; the same files under the folder, path by path and byte
by byte (every file, not only the modules the child imported: an agent may read a data
file, or list a folder, as it builds its tools), but for what the workbench reads and
writes there and no agent of the suite reads as it is built (:func:`counted`: the
workspace's settings, its eval sets, the runs' reports; each test writes its own); the
same environment but for the variables that name a test's own folders; and, since it is
one test session, the same interpreter and installs. A schema that names the folder it was
read in (an agent that puts its own path in a tool's description) is never given to
another folder, nor an error (which names its file). A folder of more than
:data:`MAX_FILES` files is never shared.

Tests whose subject is the child or the product's caches are marked ``agent_schema_child``
and always start it.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

from tenxeval_tui.runs.agent_schema import SchemaResult, read_schema_async

MAX_FILES = 400
"""Folders with more files than this are not hashed (each read is then the real child's)."""
SKIPPED_FOLDERS = frozenset({"__pycache__", "reports", "eval_reports"})
"""Compiled bytecode, and the folders the suite's runs write their reports into."""
PER_TEST_VARIABLES = frozenset(
    {"PYTEST_CURRENT_TEST", "TENXEVAL_STATE_DIR", "TENXEVAL_CACHE_DIR", "TENXEVAL_CONFIG_DIR"}
)
"""Variables set afresh for each test (its own folders): not part of the code's identity."""


def counted(name: str) -> bool:
    """Whether a file of this name is part of the agent's code as far as the suite knows:
    not the workspace's settings (``pyproject.toml``: the workbench's ``[tool.tenxeval]``)
    nor an eval set, which the tests write for each test and no agent of the suite reads as
    it is built (``sample_evals/*.py``; the run view tests' ``weather_bot``)."""
    return name != "pyproject.toml" and not name.endswith(".evalset.json")


def folder_digest(folder: Path) -> str | None:
    """A hash of each file under ``folder`` that is :func:`counted` (its path in the folder
    and its bytes), bytecode, hidden folders and reports aside; ``None`` past
    :data:`MAX_FILES` files or when one cannot be read."""
    digest = hashlib.sha256()
    count = 0
    for root, folders, names in os.walk(folder):
        folders[:] = sorted(
            f for f in folders if f not in SKIPPED_FOLDERS and not f.startswith(".")
        )
        for name in sorted(n for n in names if counted(n)):
            count += 1
            if count > MAX_FILES:
                return None
            path = Path(root, name)
            try:
                data = path.read_bytes()
            except OSError:
                return None
            digest.update(f"{path.relative_to(folder)}\0{len(data)}\0".encode())
            digest.update(data)
    return digest.hexdigest()


def environment_digest() -> str:
    """A hash of the environment a child would get, the per-test variables aside."""
    kept = {k: v for k, v in os.environ.items() if k not in PER_TEST_VARIABLES}
    return hashlib.sha256(json.dumps(sorted(kept.items())).encode()).hexdigest()


class SessionSchemas:
    """The real child's schemas, by spec and code (see the module), for one test session."""

    def __init__(self) -> None:
        self._read: dict[tuple[str, str, str], tuple[SchemaResult, Path]] = {}
        self.children = 0
        """How many children were started (a test of this helper counts them)."""

    async def read(self, spec: str, folder: Path) -> SchemaResult:
        """What :func:`read_schema_async` gives for ``spec`` in ``folder``."""
        root = folder.resolve()
        code = folder_digest(root)
        key = (spec, code or "", environment_digest())
        if code is not None and key in self._read:
            result, read_in = self._read[key]
            return self._moved(result, read_in, root)
        self.children += 1
        result = await read_schema_async(spec, folder)
        if code is not None and self._shareable(result, root) and folder_digest(root) == code:
            self._read[key] = (result, root)
        return result

    @staticmethod
    def _shareable(result: SchemaResult, root: Path) -> bool:
        if result.schema is None:
            return False
        files_inside = all(Path(path).is_relative_to(root) for path in result.files)
        return files_inside and str(root) not in result.schema.model_dump_json()

    @staticmethod
    def _moved(result: SchemaResult, read_in: Path, root: Path) -> SchemaResult:
        """``result`` with its files placed in ``root``, at their modification times now."""
        files = {}
        for path in result.files:
            here = root / Path(path).relative_to(read_in)
            files[str(here)] = here.stat().st_mtime
        return SchemaResult(result.schema, None, files)


__all__ = ["SessionSchemas", "counted", "environment_digest", "folder_digest"]
