"""A file's ``$schema`` key: loaded, written back first, kept out of reports; and
10xgraph 0.10.3 (the real package) still loads files that carry one."""

from __future__ import annotations

import json
from pathlib import Path

from tenxgraph.qa.evaluation import EvalConfig as TheirEvalConfig
from tenxgraph.qa.evaluation import EvalSet as TheirEvalSet

from tenxeval_tui.evaluation import EvalConfig, EvalSet
from tenxeval_tui.evaluation.dataset.eval_set import validate_eval_set_file
from tenxeval_tui.evaluation.simulators.scenario import ScenarioSet, validate_scenario_file

ROOT = Path(__file__).resolve().parents[3]
SAMPLES = ROOT / "sample_evals"


def with_schema(source: Path, target: Path, ref: str) -> Path:
    data = json.loads(source.read_text())
    target.write_text(json.dumps({"$schema": ref, **data}, indent=2))
    return target


def test_an_eval_set_keeps_its_schema_key_through_load_and_save(tmp_path: Path) -> None:
    path = with_schema(
        SAMPLES / "weather_graph.evalset.json", tmp_path / "w.evalset.json", "./evalset.json"
    )
    assert validate_eval_set_file(path) == []
    loaded = EvalSet.from_file(path)
    loaded.save(tmp_path / "again.evalset.json")
    assert json.loads((tmp_path / "again.evalset.json").read_text())["$schema"] == "./evalset.json"


def test_a_scenario_file_with_a_schema_key_loads_and_saves_it_first(tmp_path: Path) -> None:
    path = with_schema(
        SAMPLES / "weather_graph.scenarios.json", tmp_path / "t.scenarios.json", "s.json"
    )
    assert validate_scenario_file(path) == []
    loaded = ScenarioSet.from_file(path)
    assert loaded.schema_ref == "s.json"
    saved = json.loads(loaded.save(tmp_path / "again.scenarios.json").read_text())
    assert next(iter(saved)) == "$schema"
    assert saved["$schema"] == "s.json"
    assert "schema_ref" not in saved


def test_a_config_keeps_its_schema_key_in_its_file_but_not_in_a_report(tmp_path: Path) -> None:
    path = tmp_path / "c.config.json"
    path.write_text(json.dumps({"$schema": "config.json", "criteria": {"exact_match": {}}}))
    config = EvalConfig.from_file(path)
    assert config.schema_ref == "config.json"
    config.to_file(tmp_path / "again.json")
    saved = json.loads((tmp_path / "again.json").read_text())
    assert next(iter(saved)) == "$schema"
    assert saved["$schema"] == "config.json"
    # what reports embed as config_used, and what a run plan hands its worker
    assert "$schema" not in config.model_dump(mode="json")
    assert "schema_ref" not in config.model_dump_json()
    # a config without the key writes none
    EvalConfig.default().to_file(tmp_path / "plain.json")
    assert "$schema" not in json.loads((tmp_path / "plain.json").read_text())


def test_10xgraph_loads_eval_sets_and_configs_that_carry_a_schema_key(tmp_path: Path) -> None:
    eval_set = with_schema(
        SAMPLES / "weather_graph.evalset.json", tmp_path / "w.evalset.json", "./e.json"
    )
    assert len(TheirEvalSet.from_file(str(eval_set)).eval_cases) == len(
        EvalSet.from_file(eval_set).eval_cases
    )
    config = tmp_path / "c.config.json"
    config.write_text(json.dumps({"$schema": "./c.json", "criteria": {"trajectory": {}}}))
    assert TheirEvalConfig.from_file(str(config)).criteria.trajectory is not None
