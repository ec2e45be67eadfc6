"""Loading the agent from a MODULE:ATTR spec: every accepted kind, every error."""

from __future__ import annotations

import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest

from tenxeval_tui.evaluation import EvalCase, EvalSet
from tenxeval_tui.evaluation.collectors.trajectory_collector import TrajectoryCollector
from tenxeval_tui.evaluation.evaluator import AgentEvaluator
from tenxeval_tui.evaluation.targets.agent import AgentApp
from tenxeval_tui.evaluation.targets.loader import (
    AgentLoadError,
    agent_source_folder,
    load_agent,
    parse_spec,
)

PROJECT = Path(__file__).resolve().parents[3]

PLAIN_AGENT = """
async def agent(message, trace):
    trace.node("MAIN", response="pong")
    return "pong: " + message
"""

GRAPH_MODULE = """
from sample_evals.weather_graph import build_graph

graph = build_graph()
compiled = build_graph().compile()
"""


@pytest.fixture
def project(tmp_path: Path) -> Iterator[Path]:
    """A working folder whose modules are forgotten (sys.modules, sys.path) afterwards."""
    before = set(sys.modules)
    path_before = list(sys.path)
    yield tmp_path
    for name in set(sys.modules) - before:
        if name.startswith("lt_"):
            del sys.modules[name]
    sys.path[:] = path_before


def write(folder: Path, relative: str, source: str) -> None:
    path = folder / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(source), encoding="utf-8")


def one_case(text: str = "Weather in Paris?") -> EvalSet:
    return EvalSet(eval_set_id="s", eval_cases=[EvalCase.single_turn("c", text, "")])


async def test_plain_agent_from_a_module_in_the_working_folder(project: Path) -> None:
    write(project, "lt_plain.py", PLAIN_AGENT)
    app, collector = load_agent("lt_plain:agent", cwd=project)
    assert isinstance(app, AgentApp)
    assert isinstance(collector, TrajectoryCollector)
    report = await AgentEvaluator(app, collector).evaluate(one_case("hi"), run_reporters=False)
    assert report.results[0].actual_response == "pong: hi"
    assert report.results[0].node_visits == ["MAIN"]


async def test_state_graph_object_and_factory_in_a_package(project: Path) -> None:
    sys.path.insert(0, str(PROJECT))  # sample_evals lives in the project
    write(project, "lt_pkg/__init__.py", "")
    write(project, "lt_pkg/agents.py", GRAPH_MODULE)
    for spec in ("lt_pkg.agents:graph", "lt_pkg.agents:build_graph"):
        app, collector = load_agent(spec, cwd=project)
        report = await AgentEvaluator(app, collector).evaluate(one_case(), run_reporters=False)
        result = report.results[0]
        assert result.error is None, spec
        assert [call.name for call in result.actual_tool_calls] == ["get_weather"]
        assert result.node_visits == ["MAIN", "TOOL", "MAIN"]


async def test_factory_returning_a_built_pair_is_used_as_it_is(project: Path) -> None:
    write(
        project,
        "lt_pair.py",
        PLAIN_AGENT
        + textwrap.dedent(
            """
            from tenxeval_tui.evaluation import create_eval_app
            PAIR = create_eval_app(agent)

            def make():
                return PAIR
            """
        ),
    )
    module_pair = load_agent("lt_pair:PAIR", cwd=project)
    made_pair = load_agent("lt_pair:make", cwd=project)
    assert made_pair == module_pair
    assert made_pair == sys.modules["lt_pair"].PAIR


async def test_agent_object_with_ainvoke_and_agent_class(project: Path) -> None:
    write(
        project,
        "lt_obj.py",
        """
        class Echo:
            async def ainvoke(self, message, trace):
                return message.upper()

        echo = Echo()
        """,
    )
    for spec in ("lt_obj:echo", "lt_obj:Echo"):
        app, collector = load_agent(spec, cwd=project)
        report = await AgentEvaluator(app, collector).evaluate(one_case("abc"), run_reporters=False)
        assert report.results[0].actual_response == "ABC", spec


def test_dotted_attribute(project: Path) -> None:
    write(project, "lt_dotted.py", PLAIN_AGENT + "\nclass Registry:\n    main = agent\n")
    app, _ = load_agent("lt_dotted:Registry.main", cwd=project)
    assert isinstance(app, AgentApp)


@pytest.mark.parametrize(
    "spec",
    ["nocolon", "mod:", ":attr", "a-b:c", "mod:attr:extra", "mod:1x", "", "mod.:x"],
)
def test_malformed_spec(spec: str) -> None:
    with pytest.raises(AgentLoadError, match=r"expected MODULE:ATTR") as caught:
        parse_spec(spec)
    assert repr(spec) in str(caught.value)


@pytest.mark.parametrize(
    ("files", "spec", "pattern"),
    [
        ({}, "lt_missing:agent", r"module 'lt_missing' not found"),
        ({"lt_pk/__init__.py": ""}, "lt_pk.nothere:agent", r"module 'lt_pk.nothere' not found"),
        (
            {"lt_dep.py": "import lt_not_installed_dependency\n"},
            "lt_dep:agent",
            r"importing 'lt_dep' failed: ModuleNotFoundError: No module named "
            r"'lt_not_installed_dependency' \(.*lt_dep.py:1\)",
        ),
        (
            {"lt_boom.py": "x = 1\nraise RuntimeError('no API key set')\n"},
            "lt_boom:agent",
            r"importing 'lt_boom' raised RuntimeError: no API key set \(.*lt_boom.py:2\)",
        ),
        (
            {"lt_syntax.py": "def broken(:\n"},
            "lt_syntax:agent",
            r"importing 'lt_syntax' raised SyntaxError: .*\(.*lt_syntax.py:1\)",
        ),
        (
            {"lt_exit.py": "import sys\nsys.exit(3)\n"},
            "lt_exit:agent",
            r"importing 'lt_exit' raised SystemExit: 3",
        ),
        ({"lt_attr.py": PLAIN_AGENT}, "lt_attr:agnet", r"'lt_attr' has no attribute 'agnet'"),
        ({"lt_int.py": "agent = 42\n"}, "lt_int:agent", r"got an int object; expected a 10xGraph"),
        (
            {"lt_cls.py": "class Needs:\n    def __init__(self, key):\n        pass\n"},
            "lt_cls:Needs",
            r"got class Needs \(which needs constructor arguments\); expected",
        ),
        (
            {"lt_fac.py": "def make():\n    return 'not an agent'\n"},
            "lt_fac:make",
            r"the factory returned a str object; expected",
        ),
        (
            {"lt_facboom.py": "def make():\n    raise KeyError('MODEL')\n"},
            "lt_facboom:make",
            r"calling the factory raised KeyError: 'MODEL' \(.*lt_facboom.py:2\)",
        ),
        (
            {"lt_async0.py": "async def make():\n    return None\n"},
            "lt_async0:make",
            r"got an async function that takes no \(message, trace\) arguments; expected",
        ),
    ],
)
def test_errors_name_the_spec_and_the_problem(
    project: Path, files: dict[str, str], spec: str, pattern: str
) -> None:
    for relative, source in files.items():
        write(project, relative, source)
    with pytest.raises(AgentLoadError, match=pattern) as caught:
        load_agent(spec, cwd=project)
    error = caught.value
    assert str(error).startswith(f"agent {spec!r}: ")
    assert error.spec == spec
    # nothing chained: printing it shows one message, never "during handling of ..."
    assert error.__cause__ is None
    assert error.__context__ is None or error.__suppress_context__


def test_compiled_graph_is_refused_with_the_fix(project: Path) -> None:
    sys.path.insert(0, str(PROJECT))
    write(project, "lt_compiled.py", GRAPH_MODULE)
    with pytest.raises(AgentLoadError, match=r"got a compiled 10xGraph graph; name the uncompiled"):
        load_agent("lt_compiled:compiled", cwd=project)


def test_working_folder_goes_first_on_sys_path(project: Path) -> None:
    write(project, "lt_first.py", PLAIN_AGENT)
    load_agent("lt_first:agent", cwd=project)
    assert sys.path[0] == str(project.resolve())


def test_agent_source_folder_does_not_import(project: Path) -> None:
    write(project, "lt_src/__init__.py", "raise RuntimeError('imported!')\n")
    write(project, "lt_src/agent.py", PLAIN_AGENT)
    write(project, "lt_top.py", PLAIN_AGENT)
    assert agent_source_folder("lt_src.agent:agent", cwd=project) == project.resolve() / "lt_src"
    assert agent_source_folder("lt_top:agent", cwd=project) == project.resolve()
    assert agent_source_folder("lt_nowhere:agent", cwd=project) is None
    assert agent_source_folder("bad spec", cwd=project) is None
    assert "lt_src" not in sys.modules


FACTORY_WITH_PARAMS = """
def make(model="small", temperature=0.0):
    async def agent(message, trace):
        return f"{model}@{temperature}: {message}"
    return agent

async def plain(message, trace):
    return message
"""


async def test_params_are_the_factory_s_keyword_arguments(project: Path) -> None:
    write(project, "lt_params.py", FACTORY_WITH_PARAMS)
    app, collector = load_agent("lt_params:make", cwd=project, params={"model": "large"})
    report = await AgentEvaluator(app, collector).evaluate(one_case("hi"), run_reporters=False)
    assert report.results[0].actual_response == "large@0.0: hi"


def test_params_a_factory_does_not_take_or_for_a_non_factory_are_errors(project: Path) -> None:
    write(project, "lt_params2.py", FACTORY_WITH_PARAMS)
    with pytest.raises(AgentLoadError, match=r"does not take these params: .*'colour'"):
        load_agent("lt_params2:make", cwd=project, params={"colour": "red"})
    with pytest.raises(AgentLoadError, match="params model given, but it is not a factory"):
        load_agent("lt_params2:plain", cwd=project, params={"model": "x"})
