"""`tenxeval-tui run --backend ray` with an agent that kills its actor and one that records a
tool integer too long for JSON readers: one lean run on a local Ray (Ray is slow to start).

The agent that kills its actor takes no other case down (the cases its batch held run
again, each alone; it errs after its retry), no case is lost, the run does not pass, and
nothing hangs.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from tests.cli.test_worker_faults import make_project, results, run

# Whether Ray is installed, not imported: the tests run it in their children, and importing it
# here cost each xdist worker 0.3 CPU-s and 34 MB at collection.
if importlib.util.find_spec("ray") is None:
    pytest.skip("the ray extra is not installed (pip install '.[ray]')", allow_module_level=True)


def test_an_agent_killing_its_ray_actor_and_a_huge_tool_integer(tmp_path: Path) -> None:
    messages = ["slow 1", "kill x", "slow 0.5", "a", "bigint", "b", "c", "d"]
    root = make_project(tmp_path, messages, {"bigint": "big"})
    done = run(root, "--backend", "ray", "--workers", "2", "--concurrency", "4")
    assert done.returncode == 1, done.stdout + done.stderr
    found = results(root)
    assert len(found) == len(messages)  # none lost
    assert {eval_id for eval_id, r in found.items() if not r["passed"]} == {"c1"}
    assert "the agent's process died while this case ran (Ray actor " in str(found["c1"]["error"])
    assert len(list(root.glob("pid-*"))) == 2  # it ran, and was retried once, alone
    (call,) = found["c4"]["actual_tool_calls"]  # type: ignore[misc]
    assert call["result"] == "<an integer of about 5001 digits: more than 4300, not recorded>"
    assert f"FAILED: {len(messages) - 1}/{len(messages)} passed, 0 failed, 1 errored" in done.stdout
