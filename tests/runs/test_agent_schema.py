"""An agent's schema read in a child process, and kept until its code changes."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tenxeval_tui.runs.agent_schema import SchemaCache, read_schema
from tests.waiting import scaled

pytestmark = pytest.mark.agent_schema_child  # the subject: the child and its caches

AGENT = '''
def get_time(zone: str, military: bool = False) -> str:
    """The time in a zone."""
    return "noon"


async def agent(message, trace):
    return "ok"


agent.tools = [get_time]
agent.nodes = ["MAIN"]
'''


def test_the_schema_is_read_in_a_child_process(tmp_path: Path) -> None:
    (tmp_path / "clock.py").write_text(AGENT, encoding="utf-8")
    result = read_schema("clock:agent", tmp_path)
    assert result.error is None and result.schema is not None
    assert result.schema.tool_names == ["get_time"]
    assert result.schema.nodes == ["MAIN"]
    assert str((tmp_path / "clock.py").resolve()) in result.files


def test_an_agent_that_kills_its_process_on_import_is_an_error_not_a_crash(tmp_path: Path) -> None:
    (tmp_path / "rude.py").write_text("import os\nos._exit(9)\n", encoding="utf-8")
    result = read_schema("rude:agent", tmp_path)
    assert result.schema is None
    assert result.error is not None and "ended (9)" in result.error


def test_an_agent_that_does_not_load_says_why(tmp_path: Path) -> None:
    result = read_schema("missing_module:agent", tmp_path)
    assert result.schema is None
    assert result.error == (
        "agent 'missing_module:agent': module 'missing_module' not found "
        "(is the working folder right?)"
    )


def test_the_cache_reads_again_only_when_the_agents_code_changed(tmp_path: Path) -> None:
    source = tmp_path / "clock.py"
    source.write_text(AGENT, encoding="utf-8")
    cache = SchemaCache()

    async def scenario() -> list[list[str]]:
        seen = []
        for _ in range(2):
            result = await cache.get("clock:agent", tmp_path)
            assert result.schema is not None
            seen.append(result.schema.tool_names)
        source.write_text(AGENT.replace("get_time", "get_date"), encoding="utf-8")
        stat = source.stat()
        # Two seconds on: the edit keeps the file's size, and a .pyc written by the first
        # read records its source's mtime in whole seconds, so a change within the same
        # second would be read from the stale bytecode (as Python itself would).
        os.utime(source, ns=(stat.st_atime_ns, stat.st_mtime_ns + 2_000_000_000))
        result = await cache.get("clock:agent", tmp_path)
        assert result.schema is not None
        seen.append(result.schema.tool_names)
        return seen

    assert asyncio.run(scenario()) == [["get_time"], ["get_time"], ["get_date"]]
    assert cache.reads == 2


def test_a_failure_is_kept_a_while_then_read_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tenxeval_tui.runs import agent_schema

    cache = SchemaCache()

    async def twice() -> None:
        await cache.get("missing_module:agent", tmp_path)
        await cache.get("missing_module:agent", tmp_path)

    asyncio.run(twice())
    assert cache.reads == 1
    monkeypatch.setattr(agent_schema, "ERROR_RETRY", 0.0)
    asyncio.run(twice())
    assert cache.reads == 3


# Runs the schema child's main in this interpreter, then writes the names of the loaded
# modules to the file named first.
PROBE = """
import json, sys
from tenxeval_tui.runs.describe_agent import main

out, args = sys.argv[1], sys.argv[2:]
main(args)
with open(out, "w") as file:
    json.dump(sorted(sys.modules), file)
"""


def test_the_schema_child_loads_only_what_describing_needs(tmp_path: Path) -> None:
    """The editor starts this child each time it shows an agent's cases afresh: an agent
    that does not import the core loads neither the event models and collectors a run
    needs nor asyncio."""
    (tmp_path / "clock.py").write_text(AGENT, encoding="utf-8")
    modules = tmp_path / "modules.json"
    done = subprocess.run(
        [sys.executable, "-c", PROBE, str(modules), "clock:agent", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=scaled(60),
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(tmp_path)},
    )
    assert '"tools"' in done.stdout, done.stderr  # it did describe the agent
    loaded = set(json.loads(modules.read_text()))
    assert "clock" in loaded and "tenxeval_tui.evaluation.targets.schema" in loaded
    for heavy in (
        "asyncio",
        "tenxeval_tui.evaluation.events",
        "tenxeval_tui.evaluation.collectors.trajectory_collector",
    ):
        assert heavy not in loaded, heavy
