"""Pydantic's plugin lookup answered from the cache folder while the installs stay as they
were (evaluation/pydantic_plugins.py): a process whose install state is known to have no
plugin builds its models without importing ``importlib.metadata``; an install that changed
is looked up again, and a plugin found is pydantic's as always."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from tests.waiting import scaled

# Builds the core's first models in a fresh interpreter inside known_pydantic_plugins (the
# cache file given; the test's folders are new, so their states are kept at once), then
# prints what it imported and which plugins pydantic has.
PROBE = """
import json, sys
sys.path.insert(0, sys.argv[2])
from tenxeval_tui.evaluation import pydantic_plugins
from tenxeval_tui.evaluation.files import install_state
from pathlib import Path
install_state.RECENT_S = -1e9
with pydantic_plugins.known_pydantic_plugins(Path(sys.argv[1])):
    from tenxeval_tui.evaluation.dataset.selection import CaseSelection
from pydantic.plugin._loader import get_plugins
print(json.dumps({
    "metadata": "importlib.metadata" in sys.modules,
    "plugins": sorted(type(p).__name__ for p in get_plugins()),
    "selection": CaseSelection(tags=("a",)).tags,
}))
"""

PLUGIN = """
class FakePlugin:
    def new_schema_validator(self, *args, **kwargs):
        return None, None, None


plugin = FakePlugin()
"""


def _probe(cache: Path, site: Path, **env: str) -> dict[str, Any]:
    done = subprocess.run(
        # -B: the plugin's bytecode written beside it would change the folder, a new state
        [sys.executable, "-P", "-B", "-c", PROBE, str(cache), str(site)],
        capture_output=True,
        text=True,
        timeout=scaled(60),
        env={k: v for k, v in os.environ.items() if k != "PYDANTIC_DISABLE_PLUGINS"} | env,
    )
    assert done.returncode == 0, done.stderr
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def _install_plugin(site: Path) -> None:
    (site / "fakeplug.py").write_text(PLUGIN)
    info = site / "fakeplug-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: fakeplug\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text("[pydantic]\nfake = fakeplug:plugin\n")


def test_a_known_install_without_plugins_builds_models_without_importlib_metadata(
    tmp_path: Path,
) -> None:
    cache, site = tmp_path / "plugins.json", tmp_path / "site"
    site.mkdir()
    first = _probe(cache, site)
    assert first == {"metadata": True, "plugins": [], "selection": ["a"]}  # looked up
    assert list(json.loads(cache.read_text()).values()) == [[]]  # none, kept
    again = _probe(cache, site)
    assert again == {"metadata": False, "plugins": [], "selection": ["a"]}


def test_a_plugin_installed_since_is_looked_up_and_found(tmp_path: Path) -> None:
    cache, site = tmp_path / "plugins.json", tmp_path / "site"
    site.mkdir()
    assert _probe(cache, site)["plugins"] == []
    _install_plugin(site)
    assert _probe(cache, site) == {"metadata": True, "plugins": ["FakePlugin"], "selection": ["a"]}
    # a state with a plugin is kept as such: every process looks up, as pydantic does
    assert _probe(cache, site)["plugins"] == ["FakePlugin"]
    assert sorted(map(tuple, json.loads(cache.read_text()).values())) == [(), ("fakeplug:plugin",)]


def test_plugins_disabled_by_the_user_are_left_to_pydantic(tmp_path: Path) -> None:
    cache, site = tmp_path / "plugins.json", tmp_path / "site"
    site.mkdir()
    _install_plugin(site)
    assert _probe(cache, site, PYDANTIC_DISABLE_PLUGINS="fake")["plugins"] == []
    assert not cache.exists()


def test_the_agent_provenance_and_the_cache_folder_import_no_metadata_reader() -> None:
    """``importlib.metadata`` (and ``tempfile``) only when the distributions are looked up
    (or a cache file written): a run whose versions come from the cache needs neither."""
    code = (
        "import json, sys\n"
        "import tenxeval_tui.evaluation.provenance.agent_provenance\n"
        "import tenxeval_tui.evaluation.files.cache_folder\n"
        "print(json.dumps(['importlib.metadata' in sys.modules, 'tempfile' in sys.modules]))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=scaled(60)
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == [False, False]
