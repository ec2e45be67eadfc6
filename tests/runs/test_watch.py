"""Watch mode's change detection: classification of real file changes, and real watching."""

from __future__ import annotations

import asyncio
import json
import os
from collections.abc import Callable
from pathlib import Path

import pytest

from tenxeval_tui.evaluation import EvalCase, EvalConfig, EvalSet
from tenxeval_tui.evaluation.dataset.selection import CaseSelection
from tenxeval_tui.runs.watch import (
    ChangeBatch,
    ChangeWatcher,
    Rerun,
    case_hash,
    diff_cases,
    rerun_for,
    rescores_only,
)
from tests.waiting import scaled


def make_set(*cases: tuple[str, str], set_id: str = "s") -> EvalSet:
    return EvalSet(
        eval_set_id=set_id,
        eval_cases=[EvalCase.single_turn(i, q, "answer") for i, q in cases],
    )


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "evals").mkdir()
    make_set(("a", "Weather in Paris?"), ("b", "Hello")).to_file(
        tmp_path / "evals/one.evalset.json"
    )
    make_set(("x", "Hi"), set_id="t").to_file(tmp_path / "evals/two.evalset.json")
    (tmp_path / "agent").mkdir()
    (tmp_path / "agent/__init__.py").write_text("")
    (tmp_path / "agent/graph.py").write_text("X = 1\n")
    (tmp_path / "config.json").write_text("{}")
    return tmp_path


def watcher_for(project: Path, **kwargs: object) -> ChangeWatcher:
    return ChangeWatcher(
        [project / "evals"],
        project / "agent",
        extra_files=[project / "config.json"],
        debounce_ms=100,
        **kwargs,  # type: ignore[arg-type]
    )


def ran(project: Path) -> dict[str, Path]:
    """Every case of the project's eval sets as run once (key -> file)."""
    files = [project / "evals/one.evalset.json", project / "evals/two.evalset.json"]
    return {
        f"{s.eval_set_id}::{c.eval_id}": f
        for f in files
        for s in [EvalSet.from_file(f)]
        for c in s.eval_cases
    }


def test_case_hash_ignores_key_order_but_not_content() -> None:
    case = EvalCase.single_turn("a", "Weather in Paris?", "sunny")
    reordered = EvalCase.model_validate(dict(reversed(list(case.model_dump().items()))))
    assert case_hash(case) == case_hash(reordered)
    changed = EvalCase.single_turn("a", "Weather in Paris?", "rainy")
    assert case_hash(case) != case_hash(changed)


def test_diff_cases() -> None:
    before = make_set(("a", "one"), ("b", "two"), ("c", "three"))
    a, _, c = (case.model_copy(deep=True) for case in before.eval_cases)
    c.conversation[0].user_content.content = "THREE"
    after = EvalSet(eval_set_id="s", eval_cases=[a, c, *make_set(("d", "four")).eval_cases])
    changes = diff_cases(before, after)
    assert changes.added == ("d",)
    assert changes.removed == ("b",)
    assert changes.modified == ("c",)
    assert changes.changed == ("d", "c")
    assert not diff_cases(after, after)
    assert diff_cases(None, after).added == ("a", "c", "d")


def test_classify_an_edited_case(project: Path) -> None:
    watcher = watcher_for(project)
    path = project / "evals/one.evalset.json"
    edited = EvalSet.from_file(path)
    edited.eval_cases[0].conversation[0].user_content.content = "Weather in Rome?"
    edited.add_case(EvalCase.single_turn("c", "new", "answer"))
    edited.to_file(path)  # atomic: temporary file, then rename
    temp_files = [project / "evals" / ".one.evalset.json.abc.tmp"]
    batch = watcher.classify([path, *temp_files])
    assert not batch.agent_changed and not batch.rerun_all
    assert batch.changed_eval_set_paths == (path.resolve(),)
    (change,) = batch.eval_sets
    assert change.eval_set == edited
    assert change.cases.modified == ("a",)
    assert change.cases.added == ("c",)
    assert rerun_for(batch, CaseSelection(), ran(project)).only == {path.resolve(): ["a", "c"]}
    # The edit is now the baseline: the same content again changes no case.
    assert not watcher.classify([path]).eval_sets[0].cases


def test_classify_agent_code_extra_files_and_noise(project: Path) -> None:
    watcher = watcher_for(project)
    (project / "agent/graph.py").write_text("X = 2\n")
    (project / "agent/__pycache__").mkdir()
    (project / "agent/__pycache__/graph.cpython-312.py").write_text("")
    (project / "agent/notes.txt").write_text("not code")
    noise = watcher.classify([project / "agent/__pycache__/graph.cpython-312.py"])
    assert not noise
    batch = watcher.classify([project / "agent/graph.py", project / "agent/notes.txt"])
    assert batch.agent_changed and batch.rerun_all
    assert batch.paths == ((project / "agent/graph.py").resolve(),)
    assert rerun_for(batch, CaseSelection(), ran(project)) == Rerun(everything=True)
    config = watcher.classify([project / "config.json"])
    assert config.extra_changed == ((project / "config.json").resolve(),) and config.rerun_all
    assert rerun_for(config, CaseSelection(), {}).everything


def test_classify_new_broken_and_removed_eval_sets(project: Path) -> None:
    watcher = watcher_for(project)
    before = ran(project)
    new = project / "evals/sub/three.evalset.json"
    new.parent.mkdir()
    make_set(("n", "new")).to_file(new)
    broken = project / "evals/two.evalset.json"
    broken.write_text('{"eval_set_id": "t", "eval_cases": [\n  {"eval_id": 3}\n]}')
    removed = project / "evals/one.evalset.json"
    removed.unlink()
    batch = watcher.classify([new, broken, removed])
    by_path = {c.path: c for c in batch.eval_sets}
    assert by_path[new.resolve()].cases.added == ("n",)
    broken_change = by_path[broken.resolve()]
    assert broken_change.eval_set is None
    assert broken_change.problems and broken_change.problems[0].line == 2
    assert batch.removed_eval_sets == (removed.resolve(),)
    # A changed file that does not load: nothing reruns until it does.
    rerun = rerun_for(batch, CaseSelection(), before)
    assert rerun.problems == broken_change.problems and not rerun.only and not rerun.everything
    fixed = watcher.classify([new])
    assert rerun_for(fixed, CaseSelection(), before).only == {new.resolve(): ["n"]}


def test_the_policy_reruns_the_selected_new_modified_or_never_run_cases(project: Path) -> None:
    watcher = watcher_for(project)
    path = project / "evals/one.evalset.json"
    before = ran(project)
    del before["s::b"]  # b never ran (say, a filter left it out then)
    edited = EvalSet.from_file(path)
    edited.eval_cases[0].conversation[0].user_content.content = "Weather in Rome?"
    edited.eval_cases[0].tags = ["smoke"]
    edited.eval_cases.append(EvalCase.single_turn("c", "new", "answer", tags=["smoke"]))
    edited.eval_cases.append(EvalCase.single_turn("d", "new", "answer"))
    edited.to_file(path)
    batch = watcher.classify([path])
    every = rerun_for(batch, CaseSelection(), before)
    assert every.only == {path.resolve(): ["a", "b", "c", "d"]} and not every.gone
    assert every.keys == {"s::a", "s::b", "s::c", "s::d"}
    smoke = rerun_for(batch, CaseSelection(tags=("smoke",)), before)
    assert smoke.only == {path.resolve(): ["a", "c"]}
    assert not smoke.gone  # a ran and is still selected; b never ran
    # Cases that ran and are no longer selected or in their file leave the view.
    narrowed = rerun_for(batch, CaseSelection(eval_ids=("c",)), before)
    assert narrowed.only == {path.resolve(): ["c"]} and narrowed.gone == {"s::a"}
    removed = EvalSet.from_file(path)
    removed.eval_cases = [c for c in removed.eval_cases if c.eval_id != "a"]
    removed.to_file(path)
    after = {**before, "s::b": path, "s::c": path, "s::d": path}
    gone = rerun_for(watcher.classify([path]), CaseSelection(), after)
    assert gone.only == {} and gone.gone == {"s::a"}


def test_explicit_eval_file_with_any_name_and_roots(project: Path) -> None:
    odd = project / "cases.json"
    make_set(("o", "odd")).to_file(odd)
    watcher = ChangeWatcher([odd], project / "agent", debounce_ms=100)
    assert watcher.is_eval_set(odd.resolve())
    assert not watcher.is_eval_set((project / "evals/one.evalset.json").resolve())
    # project/agent is inside project (the file's folder): only project is watched.
    assert watcher.roots() == [project.resolve()]


async def first_batch(
    watcher: ChangeWatcher, change: Callable[[], None], retouch: list[Path]
) -> ChangeBatch:
    """Start watching, make ``change``, return the first batch (touching ``retouch`` again
    if the watcher was not yet listening when the change was made)."""
    stop = asyncio.Event()
    batches = watcher.awatch(stop_event=stop)
    pending = asyncio.ensure_future(anext(batches))
    try:
        # A head start for the watcher; a change it misses is touched again below.
        await asyncio.sleep(0.3)
        change()
        for _ in range(30):
            done, _ = await asyncio.wait({pending}, timeout=scaled(1.0))
            if done:
                return pending.result()
            for path in retouch:
                os.utime(path)
        raise AssertionError("no change batch within 30 s")
    finally:
        stop.set()
        if not pending.done():
            pending.cancel()
        await batches.aclose()


async def test_watching_an_eval_set_edit(project: Path) -> None:
    watcher = watcher_for(project)
    path = project / "evals/one.evalset.json"

    def edit() -> None:
        data = json.loads(path.read_text())
        data["eval_cases"][1]["conversation"][0]["user_content"]["content"] = "Hello there"
        path.write_text(json.dumps(data))

    batch = await first_batch(watcher, edit, [path])
    assert not batch.agent_changed
    (change,) = batch.eval_sets
    assert change.path == path.resolve()
    assert change.cases.modified == ("b",) and not change.cases.added


async def test_watching_agent_code(project: Path) -> None:
    watcher = watcher_for(project)
    code = project / "agent/graph.py"
    batch = await first_batch(watcher, lambda: code.write_text("X = 3\n"), [code])
    assert batch.agent_changed
    assert batch.eval_sets == ()


def test_a_criteria_only_config_change_asks_for_a_rescore(project: Path) -> None:
    watcher = watcher_for(project)
    before = EvalConfig.default()
    criteria = before.model_copy(deep=True)
    criteria.criteria = EvalConfig.model_validate({"criteria": {"exact_match": {}}}).criteria
    criteria.reporter.html = not before.reporter.html
    slower = before.model_copy(update={"timeout": before.timeout * 2})
    assert rescores_only(before, criteria) and not rescores_only(before, slower)
    config = watcher.classify([project / "config.json"])
    assert rerun_for(config, CaseSelection(), {}, (before, criteria)) == Rerun(rescore=True)
    assert rerun_for(config, CaseSelection(), {}, (before, slower)).everything
    assert rerun_for(config, CaseSelection(), {}).everything  # a front end that cannot re-score
    (project / "agent/graph.py").write_text("X = 3\n")
    both = watcher.classify([project / "config.json", project / "agent/graph.py"])
    assert rerun_for(both, CaseSelection(), {}, (before, criteria)).everything
