"""The pytest helpers, run through real pytest sessions on generated test files (pytester).

Covers every row of the seeds' "Common errors" table against the offline sample agents.
"""

from __future__ import annotations

import shutil
import sys
import textwrap
from pathlib import Path

import pytest

# Imported once here: in-process sessions forget the modules they import themselves, and
# modules holding registries or caches must not be imported twice.
import sample_evals.plain_agent
import sample_evals.weather_graph
import tenxeval_tui.evaluation.evaluator
import tenxeval_tui.evaluation.reporters  # noqa: F401
from tenxeval_tui.evaluation import (
    CriterionResult,
    EvalCaseResult,
    EvalReport,
    EvalTestCase,
    assert_criterion_passed,
    assert_eval_passed,
)

ROOT = Path(__file__).resolve().parents[2]
WEATHER = ROOT / "sample_evals" / "weather_graph.evalset.json"
PLAIN = ROOT / "sample_evals" / "plain_agent.evalset.json"

HEADER = """
from tenxeval_tui.evaluation import (
    EvalConfig, create_eval_app, eval_test, parametrize_eval_cases,
    assert_criterion_passed, assert_eval_passed, run_eval,
)
from sample_evals.weather_graph import build_graph
from sample_evals.plain_agent import support_agent
"""


@pytest.fixture
def suite(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> pytest.Pytester:
    """A project with the sample eval sets where eval_test probes for them."""
    pytester.syspathinsert(ROOT)
    # Importing the generated tests in this process writes no __pycache__ beside them, where
    # the tests look at what the folder holds (make pytest writes bytecode).
    monkeypatch.setattr(sys, "dont_write_bytecode", True)
    pytester.makeini(
        "[pytest]\nasyncio_mode = auto\nasyncio_default_fixture_loop_scope = function\n"
    )
    (pytester.path / "tests/fixtures").mkdir(parents=True)
    shutil.copy(WEATHER, pytester.path / "tests/fixtures/weather_graph.evalset.json")
    (pytester.path / "eval").mkdir()
    shutil.copy(PLAIN, pytester.path / "eval/plain_agent.evalset.json")
    return pytester


def run(pytester: pytest.Pytester, *args: str) -> pytest.RunResult:
    """An in-process pytest session, lean: no plugins the generated tests do not use (the
    snapshot plugin's session state belongs to the outer session), no assertion rewriting."""
    lean = ["-p", "no:cacheprovider", "-p", "no:textual-snapshot", "-p", "no:hypothesispytest"]
    return pytester.runpytest(*lean, "-p", "no:syrupy", "--assert=plain", *args)


def make_tests(pytester: pytest.Pytester, body: str, name: str = "test_agents") -> None:
    pytester.makepyfile(**{name: HEADER + textwrap.dedent(body)})


def test_eval_test_threshold_and_the_list_of_failed_cases(suite: pytest.Pytester) -> None:
    make_tests(
        suite,
        """
        @eval_test("tests/fixtures/weather_graph.evalset.json", threshold=0.7)
        async def test_lenient():
            return create_eval_app(build_graph())

        @eval_test("tests/fixtures/weather_graph.evalset.json")
        async def test_strict():
            return create_eval_app(build_graph())
        """,
    )
    result = run(suite)
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines(
        [
            "*Eval pass rate 77.8% is below the threshold 100.0% (7/9 cases passed*",
            "*- wrong_forecast (*): response_match_score 0.* < 0.80",
            "*- model_outage (*): ERROR RuntimeError: model backend unavailable*",
        ]
    )
    result.stdout.no_fnmatch_line("*- paris_weather (*")  # passing cases are not listed


def test_eval_test_probes_the_documented_paths(suite: pytest.Pytester) -> None:
    make_tests(
        suite,
        """
        @eval_test(threshold=0.7)
        async def test_weather_graph():  # tests/fixtures/weather_graph.evalset.json
            return create_eval_app(build_graph())

        @eval_test(threshold=0.7)
        async def test_plain_agent():  # eval/plain_agent.evalset.json
            return create_eval_app(support_agent)

        @eval_test()
        async def test_nothing_here():
            return create_eval_app(build_graph())
        """,
    )
    (suite.path / "tests/eval").mkdir()
    result = run(suite, "-rf")
    result.assert_outcomes(passed=2, failed=1)
    result.stdout.fnmatch_lines(
        [
            "*Eval file not found",
            "*(for test_nothing_here, probed tests/fixtures/nothing_here.evalset.json, "
            "tests/eval/nothing_here.evalset.json, eval/nothing_here.evalset.json from *",
            "FAILED test_agents.py::test_nothing_here - Failed: Eval file not found",
        ]
    )


def test_eval_test_return_values(suite: pytest.Pytester) -> None:
    make_tests(
        suite,
        """
        @eval_test("tests/fixtures/weather_graph.evalset.json")
        async def test_returns_none():
            return None

        @eval_test("tests/fixtures/weather_graph.evalset.json")
        async def test_returns_graph_only():
            return build_graph()

        @eval_test("tests/fixtures/weather_graph.evalset.json")
        async def test_returns_three():
            app, collector = create_eval_app(build_graph())
            return app, collector, "extra"

        @eval_test("tests/fixtures/no_such.evalset.json")
        async def test_explicit_missing_file():
            return create_eval_app(build_graph())
        """,
    )
    result = run(suite, "-rfs")
    result.assert_outcomes(skipped=1, failed=3)
    result.stdout.fnmatch_lines(
        [
            "*_ test_returns_graph_only _*",
            "eval_test decorated function must return (graph, collector) tuple",
            "(test_returns_graph_only returned a StateGraph; *",
            "*_ test_returns_three _*",
            "eval_test decorated function must return (graph, collector) tuple",
            "*_ test_explicit_missing_file _*",
            "Eval file not found",
            "(tests/fixtures/no_such.evalset.json, from *",
        ]
    )
    result.stdout.fnmatch_lines(["SKIPPED * test_returns_none returned None"])
    assert "Traceback" not in result.stdout.str()


def test_eval_test_refuses_a_sync_function(suite: pytest.Pytester) -> None:
    make_tests(
        suite,
        """
        @eval_test("tests/fixtures/weather_graph.evalset.json")
        def test_sync():
            return create_eval_app(build_graph())
        """,
    )
    result = run(suite)
    assert result.ret == pytest.ExitCode.INTERRUPTED  # a collection error
    result.stdout.fnmatch_lines(
        ["*TypeError: eval_test decorates async test functions only: make test_sync `async def`"]
    )


def test_eval_test_runs_without_asyncio_auto_mode(pytester: pytest.Pytester) -> None:
    pytester.syspathinsert(ROOT)
    shutil.copy(WEATHER, pytester.path / "weather.evalset.json")
    make_tests(
        pytester,
        """
        @eval_test("weather.evalset.json", threshold=0.7)
        async def test_weather():
            return create_eval_app(build_graph())
        """,
    )
    result = run(
        pytester, "-o", "asyncio_mode=strict", "-o", "asyncio_default_fixture_loop_scope=function"
    )
    result.assert_outcomes(passed=1)


def test_parametrize_eval_cases_one_test_per_case(suite: pytest.Pytester) -> None:
    make_tests(
        suite,
        """
        import pytest
        from tenxeval_tui.evaluation import AgentEvaluator

        @pytest.fixture(scope="module")
        def trajectory_app():
            return create_eval_app(build_graph())

        @parametrize_eval_cases("tests/fixtures/weather_graph.evalset.json")
        async def test_single_case(eval_case, trajectory_app):
            app, collector = trajectory_app
            evaluator = AgentEvaluator(app, collector)
            result = await evaluator.evaluate_case(eval_case)
            assert result.passed
        """,
    )
    collected = run(suite, "--collect-only", "-q")
    collected.stdout.fnmatch_lines(
        [
            "test_agents.py::test_single_case[paris_weather]",
            "test_agents.py::test_single_case[london_weather]",
            "test_agents.py::test_single_case[model_outage]",
        ]
    )
    result = run(suite, "-rf")
    result.assert_outcomes(passed=7, failed=2)
    result.stdout.fnmatch_lines_random(
        ["FAILED *test_single_case?wrong_forecast?*", "FAILED *test_single_case?model_outage?*"]
    )


def test_parametrize_eval_cases_missing_file_fails_collection(suite: pytest.Pytester) -> None:
    make_tests(
        suite,
        """
        @parametrize_eval_cases("tests/fixtures/typo.evalset.json")
        async def test_single_case(eval_case):
            pass
        """,
    )
    result = run(suite)
    assert result.ret == pytest.ExitCode.INTERRUPTED
    result.stdout.fnmatch_lines(["*ERROR collecting test_agents.py*", "*FileNotFoundError*typo*"])


def test_common_errors_of_criteria_graphs_and_reports(suite: pytest.Pytester) -> None:
    make_tests(
        suite,
        """
        import os
        import pytest
        from tenxeval_tui.evaluation import (
            ReporterConfig, ReporterManager, TrajectoryCollector,
        )

        FILE = os.path.abspath("tests/fixtures/weather_graph.evalset.json")

        async def test_criterion_name_not_name_of_field():
            report = await run_eval(*create_eval_app(build_graph()), FILE)
            assert_criterion_passed(report, "tool_trajectory_avg_score", min_score=0.95)
            assert_criterion_passed(report, "trajectory")

        async def test_compiled_graph_is_refused():
            create_eval_app(build_graph().compile())

        @eval_test(FILE)
        async def test_graph_compiled_without_the_collector():
            return build_graph().compile(), TrajectoryCollector()

        async def test_no_report_files_when_reporting_is_off(tmp_path, monkeypatch):
            monkeypatch.chdir(tmp_path)
            config = EvalConfig.default()
            config.reporter.enabled = False
            await run_eval(*create_eval_app(build_graph()), FILE, config)
            assert not os.path.exists("eval_reports")
            await run_eval(*create_eval_app(build_graph()), FILE)  # under pytest: no folder set
            assert not os.path.exists("eval_reports")

        async def test_one_reporter_failing_does_not_stop_the_others(tmp_path):
            config = EvalConfig.default()
            config.reporter.enabled = False
            report = await run_eval(*create_eval_app(build_graph()), FILE, config)

            class BrokenHTML(ReporterManager):
                def html_reporter(self):
                    raise OSError("template missing")

            output = BrokenHTML(ReporterConfig(output_dir=str(tmp_path))).run_all(report)
            assert output.has_errors
            assert [message for _, message in output.errors] == ["OSError: template missing"]
            assert output.console_output and os.path.isfile(output.json_path)
            assert output.html_path is None
        """,
    )
    result = run(suite, "-rf")
    result.assert_outcomes(passed=2, failed=3)
    result.stdout.fnmatch_lines_random(
        [
            "E *AssertionError: Criterion 'trajectory' not found in report (criteria in it: "
            "response_match_score, tool_trajectory_avg_score)",
            "E *AttributeError: create_eval_app() needs the uncompiled StateGraph*",
            "*- paris_weather (*): tool_trajectory_avg_score 0.00 < 1.00*",
        ]
    )


def test_eval_fixtures_and_the_registered_plugin(suite: pytest.Pytester) -> None:
    suite.makeconftest(
        """
        import pytest
        from tenxeval_tui.evaluation import EvalConfig, EvalFixtures

        @pytest.fixture
        def make_evaluator():
            return EvalFixtures(default_config=EvalConfig.default()).evaluator_factory()
        """
    )
    make_tests(
        suite,
        """
        from tenxeval_tui.evaluation import AgentEvaluator, EvalPlugin

        def test_factory(make_evaluator):
            app, collector = create_eval_app(build_graph())
            made = make_evaluator(app, collector)
            assert isinstance(made, AgentEvaluator)
            assert made.config == EvalConfig.default()  # strict() needs a judge now
            default = make_evaluator(app, collector, EvalConfig.relaxed())
            assert default.config == EvalConfig.relaxed()

        def test_plugin_registered(pytestconfig):
            plugin = pytestconfig.pluginmanager.get_plugin("tenxeval-eval-plugin")
            assert isinstance(plugin, EvalPlugin)
        """,
    )
    run(suite).assert_outcomes(passed=2)
    run(suite, "-p", "no:tenxeval").assert_outcomes(passed=1, failed=1)


def test_eval_fixtures_without_default_config() -> None:
    from tenxeval_tui.evaluation import EvalConfig, EvalFixtures, create_eval_app

    factory = EvalFixtures().evaluator_factory()
    evaluator = factory(*create_eval_app(sample_evals.plain_agent.support_agent))
    assert evaluator.config == EvalConfig.default()


def _report(*cases: tuple[str, str, bool, float]) -> EvalReport:
    return EvalReport.create(
        "s",
        [
            EvalCaseResult(
                eval_id=eval_id,
                name=name,
                passed=passed,
                criterion_results=[
                    CriterionResult(
                        criterion="rouge_match", score=score, passed=passed, threshold=0.5
                    )
                ],
            )
            for eval_id, name, passed, score in cases
        ],
    )


def test_assert_eval_passed_lists_names_or_ids() -> None:
    report = _report(("a", "", True, 1.0), ("b", "Bee", False, 0.2), ("c", "", False, 0.1))
    assert_eval_passed(report, min_pass_rate=0.3)
    with pytest.raises(AssertionError, match=r"33.3% is below 50.0%.*Failed cases: Bee, c$"):
        assert_eval_passed(report, min_pass_rate=0.5)


def test_assert_criterion_passed_scores() -> None:
    report = _report(("a", "", True, 1.0), ("b", "", False, 0.2))
    assert_criterion_passed(report, "rouge_match", min_score=0.6)
    with pytest.raises(AssertionError, match=r"'rouge_match' average score 0.600 is below 0.700"):
        assert_criterion_passed(report, "rouge_match", min_score=0.7)
    with pytest.raises(AssertionError, match=r"Criterion 'rouge' not found in report"):
        assert_criterion_passed(report, "rouge")


def test_eval_test_case_is_metadata_only() -> None:
    case = EvalTestCase("weather_paris")
    assert (case.eval_id, case.name, case.description) == ("weather_paris", "", "")
    assert not hasattr(case, "conversation")


def test_eval_test_runs_without_pytest_asyncio(suite: pytest.Pytester) -> None:
    # A project without pytest-asyncio: the plugin is off and its module cannot be imported.
    suite.makeini("[pytest]\n")
    suite.makeconftest(
        f"import sys\nsys.path.insert(0, {str(ROOT)!r})\nsys.modules['pytest_asyncio'] = None\n"
    )
    make_tests(
        suite,
        """
        @eval_test("eval/plain_agent.evalset.json", threshold=0.5)
        async def test_plain():
            return create_eval_app(support_agent)
        """,
    )
    result = suite.runpytest_subprocess("-p", "no:asyncio", "-p", "no:cacheprovider")
    result.assert_outcomes(passed=1)


MARKED = """
import os
import pytest

@eval_test("tests/fixtures/weather_graph.evalset.json")
async def test_weather():
    return create_eval_app(build_graph())

@parametrize_eval_cases("eval/plain_agent.evalset.json")
async def test_case(eval_case):
    pass

def test_plain():
    pass

async def test_run_eval_writes_where_pytest_says(pytestconfig):
    await run_eval(*create_eval_app(build_graph()), "tests/fixtures/weather_graph.evalset.json")
"""


def _plain_cases() -> int:
    from tenxeval_tui.evaluation import EvalSet

    return len(EvalSet.from_file(PLAIN).eval_cases)


def test_eval_marker_selects_eval_tests(suite: pytest.Pytester) -> None:
    make_tests(suite, MARKED)
    selected = run(suite, "-m", "eval", "--collect-only", "-q")
    names = [line for line in selected.outlines if line.startswith("test_agents.py::")]
    assert "test_agents.py::test_weather" in names
    assert sum("test_case[" in n for n in names) == _plain_cases()
    assert not any("test_plain" in n or "run_eval" in n for n in names)
    others = run(suite, "-m", "not eval", "--collect-only", "-q")
    others.stdout.fnmatch_lines(
        ["test_agents.py::test_plain", "test_agents.py::test_run_eval_writes_where_pytest_says"]
    )
    others.stdout.no_fnmatch_line("*test_weather*")
    others.stdout.no_fnmatch_line("*test_case?*")


def _written(folder: Path) -> list[str]:
    return sorted(Path(name).suffix for name in (p.name for p in folder.iterdir()))


def test_no_reports_in_the_current_folder_by_default(suite: pytest.Pytester) -> None:
    make_tests(suite, MARKED)
    result = run(suite, "-k", "weather or run_eval", "--tenxeval-threshold", "0.7")
    result.assert_outcomes(passed=2)
    assert not (suite.path / "eval_reports").exists()
    assert sorted(p.name for p in suite.path.iterdir() if p.is_dir()) == ["eval", "tests"]


def test_report_dir_from_the_command_line_and_the_ini(suite: pytest.Pytester) -> None:
    make_tests(suite, MARKED)
    args = ("-k", "weather or run_eval", "--tenxeval-threshold", "0.7")
    run(suite, *args, "--tenxeval-report-dir", "out/cli").assert_outcomes(passed=2)
    assert _written(suite.path / "out/cli") == [".html", ".html", ".json", ".json"]
    suite.makeini(
        "[pytest]\nasyncio_mode = auto\nasyncio_default_fixture_loop_scope = function\n"
        "tenxeval_report_dir = out/ini\n"
    )
    run(suite, *args).assert_outcomes(passed=2)
    assert _written(suite.path / "out/ini") == [".html", ".html", ".json", ".json"]
    # --tenxeval-no-reports wins over the ini folder; so does the ini key.
    shutil.rmtree(suite.path / "out")
    run(suite, *args, "--tenxeval-no-reports").assert_outcomes(passed=2)
    suite.makeini(
        "[pytest]\nasyncio_mode = auto\nasyncio_default_fixture_loop_scope = function\n"
        "tenxeval_report_dir = out/ini\ntenxeval_no_reports = true\n"
    )
    run(suite, *args, "-o", "tenxeval_no_reports=true").assert_outcomes(passed=2)
    run(suite, *args).assert_outcomes(passed=2)
    assert not (suite.path / "out").exists()
    assert not (suite.path / "eval_reports").exists()


def test_threshold_from_the_command_line_and_the_ini(suite: pytest.Pytester) -> None:
    make_tests(
        suite,
        """
        @eval_test("tests/fixtures/weather_graph.evalset.json")
        async def test_default():
            return create_eval_app(build_graph())

        @eval_test("tests/fixtures/weather_graph.evalset.json", threshold=1.0)
        async def test_explicit():  # the decorator's own threshold wins
            return create_eval_app(build_graph())
        """,
    )
    run(suite).assert_outcomes(failed=2)
    run(suite, "--tenxeval-threshold", "0.7").assert_outcomes(passed=1, failed=1)
    run(suite, "--tenxeval-threshold", "0.8").assert_outcomes(failed=2)
    bad = run(suite, "--tenxeval-threshold", "high")
    assert bad.ret == pytest.ExitCode.USAGE_ERROR
    bad.stderr.fnmatch_lines(["*--tenxeval-threshold: 'high' is not a number from 0 to 1"])
    suite.makeini(
        "[pytest]\nasyncio_mode = auto\nasyncio_default_fixture_loop_scope = function\n"
        "tenxeval_threshold = 0.7\n"
    )
    run(suite).assert_outcomes(passed=1, failed=1)
    run(suite, "--tenxeval-threshold", "0.9").assert_outcomes(failed=2)  # command line wins
    suite.makeini(
        "[pytest]\nasyncio_mode = auto\nasyncio_default_fixture_loop_scope = function\n"
        "tenxeval_threshold = 1.5\n"
    )
    bad_ini = run(suite)
    assert bad_ini.ret == pytest.ExitCode.USAGE_ERROR
    bad_ini.stderr.fnmatch_lines(
        ["*tox.ini: tenxeval_threshold: '1.5' is not a number from 0 to 1"]
    )


def test_scores_in_junitxml(suite: pytest.Pytester) -> None:
    import xml.etree.ElementTree as ET

    make_tests(
        suite,
        """
        @eval_test("tests/fixtures/weather_graph.evalset.json", threshold=0.7)
        async def test_lenient():
            return create_eval_app(build_graph())

        @eval_test("tests/fixtures/weather_graph.evalset.json")
        async def test_strict():
            return create_eval_app(build_graph())
        """,
    )
    xml = suite.path / "junit.xml"
    run(suite, f"--junitxml={xml}").assert_outcomes(passed=1, failed=1)
    cases = {case.get("name"): case for case in ET.parse(xml).getroot().iter("testcase")}
    assert set(cases) == {"test_lenient", "test_strict"}
    for case in cases.values():  # a failed test carries its scores too
        props = {p.get("name"): p.get("value") for p in case.iter("property")}
        assert props["tenxeval.eval_set"] == "weather_graph"
        assert props["tenxeval.passed_cases"] == "7"
        assert props["tenxeval.total_cases"] == "9"
        assert props["tenxeval.pass_rate"] == "0.7778"
        assert 0.0 < float(props["tenxeval.response_match_score.avg_score"]) < 1.0
        assert 0.0 < float(props["tenxeval.tool_trajectory_avg_score.pass_rate"]) <= 1.0
