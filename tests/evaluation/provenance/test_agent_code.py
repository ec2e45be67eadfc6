"""Which files make an agent's code hash, and what moves it."""

from __future__ import annotations

import importlib
import shutil
from collections.abc import Sequence
from importlib.machinery import ModuleSpec
from pathlib import Path

import pytest

from tenxeval_tui.evaluation.provenance import agent_code

FILES = {
    "shop/__init__.py": "",
    "shop/agent.py": "import json\nimport pydantic\nfrom . import prompts\nimport helpers\n\n"
    "async def agent(message, trace):\n    return helpers.reply(message)\n",
    "shop/prompts.py": "SYSTEM = 'be nice'\n",
    "shop/tools/__init__.py": "",
    "shop/tools/search.py": "def search(q): return q\n",
    "helpers.py": "from util.text import clean\n\ndef reply(m): return clean(m)\n",
    "util/__init__.py": "",
    "util/text.py": "def clean(t): return t.strip()\n",
    "unrelated.py": "X = 1\n",
    "loose_agent.py": "import helpers\nimport tenxeval_tui.evaluation\n",
    ".venv/lib/site-packages/helpers_vendored.py": "",
}


def _project(root: Path) -> Path:
    for name, text in FILES.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return root


def test_the_package_and_the_project_files_it_imports_are_hashed(tmp_path: Path) -> None:
    code = agent_code("shop.agent", _project(tmp_path))
    assert code is not None
    assert [path for path, _ in code.files] == [
        "helpers.py",
        "shop/__init__.py",
        "shop/agent.py",
        "shop/prompts.py",
        "shop/tools/__init__.py",
        "shop/tools/search.py",
        "util/__init__.py",
        "util/text.py",
    ]
    assert code.imports == ("pydantic",)  # installed, not the standard library's json


def test_a_loose_module_brings_what_it_imports_from_the_project_only(tmp_path: Path) -> None:
    code = agent_code("loose_agent", _project(tmp_path))
    assert code is not None
    assert [path for path, _ in code.files] == [
        "helpers.py",
        "loose_agent.py",
        "util/__init__.py",
        "util/text.py",
    ]  # not tenxeval_tui itself, nor unrelated.py


def test_the_hash_moves_with_the_code_it_covers_only(tmp_path: Path) -> None:
    root = _project(tmp_path / "a")
    first = agent_code("shop.agent", root)
    assert first is not None
    (root / "unrelated.py").write_text("X = 2\n")
    again = agent_code("shop.agent", root)
    assert again is not None and again.sha256 == first.sha256
    (root / "util/text.py").write_text("def clean(t): return t\n")  # imported by helpers.py
    changed = agent_code("shop.agent", root)
    assert changed is not None and changed.sha256 != first.sha256


def test_the_same_code_elsewhere_hashes_the_same(tmp_path: Path) -> None:
    here = _project(tmp_path / "here")
    there = tmp_path / "somewhere" / "else"
    shutil.copytree(here, there)
    a, b = agent_code("shop.agent", here), agent_code("shop.agent", there)
    assert a is not None and b is not None and a.sha256 == b.sha256


def test_a_module_that_is_not_there_has_no_code(tmp_path: Path) -> None:
    assert agent_code("no_such_module_here", _project(tmp_path)) is None
    assert agent_code("shop.nothing", tmp_path) is None


def test_a_file_whose_imports_change_is_followed_anew_in_the_same_process(
    tmp_path: Path,
) -> None:
    root = _project(tmp_path)

    def hashed_after(source: str) -> list[str]:
        (root / "loose_agent.py").write_text(source)
        code = agent_code("loose_agent", root)
        assert code is not None
        return [path for path, _ in code.files]

    assert "unrelated.py" not in hashed_after(FILES["loose_agent.py"])
    assert hashed_after("import helpers\nimport unrelated\n") == [
        "helpers.py",
        "loose_agent.py",
        "unrelated.py",
        "util/__init__.py",
        "util/text.py",
    ]
    assert hashed_after("import util.text\n") == [
        "loose_agent.py",
        "util/__init__.py",
        "util/text.py",
    ]


NESTED_AGENT = """
import m_top


def agent(message, trace):
    import m_function
    return message


class Agent:
    import m_class

    async def run(self):
        async with self:
            from m_async_with import thing
        async for _ in self:
            import m_async_for


if m_top:
    import m_if
else:
    import m_else
try:
    import m_try
except ImportError:
    import m_except
else:
    import m_try_else
finally:
    import m_finally
try:
    pass
except* ValueError:
    import m_except_star
with open(__file__):
    import m_with
for _ in ():
    import m_for
else:
    import m_for_else
while False:
    import m_while
match m_top:
    case 1:
        import m_case
# import m_comment
NOT_AN_IMPORT = "import m_string"
"""


def test_imports_at_any_depth_of_the_code_are_followed(tmp_path: Path) -> None:
    (tmp_path / "nested_agent.py").write_text(NESTED_AGENT)
    nested = [
        "top", "function", "class", "async_with", "async_for", "if", "else", "try", "except",
        "try_else", "finally", "except_star", "with", "for", "for_else", "while", "case",
    ]  # fmt: skip
    for name in [*nested, "comment", "string"]:
        (tmp_path / f"m_{name}.py").write_text("")
    code = agent_code("nested_agent", tmp_path)
    assert code is not None
    found = {path for path, _ in code.files}
    assert found == {"nested_agent.py", *(f"m_{name}.py" for name in nested)}


def test_an_installed_package_is_looked_up_in_the_project_once_however_often_named(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every ``from x.y import z`` names ``x``, ``x.y`` and ``x.y.z``: none is the project's
    when ``x`` is not, so ``x`` is looked for in the project's folders once a walk."""
    _project(tmp_path)
    (tmp_path / "shop/agent.py").write_text(
        "from pydantic.main import BaseModel\nfrom pydantic.fields import Field\n"
        "import pydantic.types\nfrom pydantic import ConfigDict\nimport helpers\n"
    )
    module = importlib.import_module("tenxeval_tui.evaluation.provenance.agent_code")
    looked_up: list[str] = []
    find = module._spec

    def counting(name: str, search: Sequence[str]) -> ModuleSpec | None:
        looked_up.append(name)
        return find(name, search)

    monkeypatch.setattr(module, "_spec", counting)
    code = agent_code("shop.agent", tmp_path)
    assert code is not None and "pydantic" in code.imports
    assert "helpers.py" in [path for path, _ in code.files]
    assert [name for name in looked_up if name.partition(".")[0] == "pydantic"] == ["pydantic"]


def test_a_package_s_folder_is_resolved_once_and_a_linked_file_to_its_target(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    project = _project(tmp_path / "project")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "search.py").write_text("def search(q): return q\n")
    (project / "shop/tools/search.py").unlink()
    (project / "shop/tools/search.py").symlink_to(elsewhere / "search.py")
    for index in range(5):
        (project / f"shop/tools/extra{index}.py").write_text("X = 1\n")
    plain = agent_code("shop.agent", project)
    resolved: list[Path] = []
    resolve = Path.resolve

    def counting(self: Path, strict: bool = False) -> Path:
        resolved.append(self)
        return resolve(self, strict)

    monkeypatch.setattr(Path, "resolve", counting)
    code = agent_code("shop.agent", project)
    assert code is not None and code == plain
    assert "search.py" in [path for path, _ in code.files]  # the target, found outside
    tools = project / "shop/tools"
    assert [path for path in resolved if path.parent == tools] == [tools / "search.py"]
