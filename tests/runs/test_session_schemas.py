"""The suite's session-wide agent schemas (tests/agent_schemas.py) give a later test only
what the real child gave for the same agent and the same code."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from tenxeval_tui.runs.agent_schema import SchemaResult
from tests.agent_schemas import SessionSchemas
from tests.runs.test_agent_schema import AGENT

pytestmark = pytest.mark.agent_schema_child  # counts the real children itself


def project(root: Path, agent: str = AGENT) -> Path:
    root.mkdir()
    (root / "clock.py").write_text(agent, encoding="utf-8")
    (root / "tools.json").write_text("[]", encoding="utf-8")  # a file the agent does not import
    return root


def read(schemas: SessionSchemas, folder: Path) -> SchemaResult:
    return asyncio.run(schemas.read("clock:agent", folder))


def test_the_same_code_in_another_folder_is_read_once(tmp_path: Path) -> None:
    schemas = SessionSchemas()
    first = read(schemas, project(tmp_path / "one"))
    second = read(schemas, project(tmp_path / "two"))
    assert schemas.children == 1
    assert first.schema == second.schema and second.schema is not None
    assert list(second.files) == [str((tmp_path / "two" / "clock.py").resolve())]


@pytest.mark.parametrize("change", ["the module", "another file", "a new file"])
def test_any_changed_byte_in_the_folder_reads_again(tmp_path: Path, change: str) -> None:
    schemas = SessionSchemas()
    read(schemas, project(tmp_path / "one"))
    two = project(tmp_path / "two")
    if change == "the module":
        (two / "clock.py").write_text(AGENT.replace("noon", "noon!"), encoding="utf-8")
    elif change == "another file":
        (two / "tools.json").write_text("[1]", encoding="utf-8")
    else:
        (two / "plugin.py").write_text("", encoding="utf-8")
    read(schemas, two)
    assert schemas.children == 2


def test_a_changed_environment_reads_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    schemas = SessionSchemas()
    read(schemas, project(tmp_path / "one"))
    monkeypatch.setenv("PYTHONPATH", str(tmp_path))
    read(schemas, project(tmp_path / "two"))
    assert schemas.children == 2


def test_a_schema_naming_its_folder_or_an_error_is_not_given_to_another(tmp_path: Path) -> None:
    named = AGENT.replace('"""The time in a zone."""', "")
    named += "\nimport pathlib\nget_time.__doc__ = str(pathlib.Path(__file__).parent)\n"
    schemas = SessionSchemas()
    for name in ("one", "two"):
        schema = read(schemas, project(tmp_path / name, named)).schema
        assert schema is not None and str((tmp_path / name).resolve()) in schema.model_dump_json()
    for name in ("three", "four"):
        assert read(schemas, project(tmp_path / name, "raise SystemError\n")).error
    assert schemas.children == 4


def test_the_workspaces_settings_eval_sets_and_reports_are_not_the_agents_code(
    tmp_path: Path,
) -> None:
    schemas = SessionSchemas()
    read(schemas, project(tmp_path / "one"))
    two = project(tmp_path / "two")
    (two / "pyproject.toml").write_text("[tool.tenxeval]\nworkers = 2\n", encoding="utf-8")
    (two / "evals").mkdir()
    (two / "evals/cities.evalset.json").write_text("{}", encoding="utf-8")
    (two / "reports").mkdir()
    (two / "reports/cities.json").write_text("{}", encoding="utf-8")
    read(schemas, two)
    assert schemas.children == 1
