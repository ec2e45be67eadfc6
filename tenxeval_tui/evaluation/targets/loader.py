"""Load the agent under evaluation from a ``MODULE:ATTR`` spec, the way uvicorn loads an app.

The module is imported with a working folder (the project root, by default the
current folder) first on ``sys.path``, so ``my_agent.graph:build_graph`` finds
``./my_agent/graph.py``. ``ATTR`` may be dotted (``agents:registry.weather``).
What it names may be:

- an uncompiled 10xGraph ``StateGraph``;
- a plain Python agent: an async function ``(message, trace) -> reply`` or an
  object with ``ainvoke(message, trace)`` (see :mod:`.agent`);
- an ``(app, collector)`` pair already built (e.g. by ``create_eval_app``);
- a factory: a callable taking no arguments (a class too) that returns one of
  the above. It is called once per load.

Every failure (bad spec, module not found, module raising on import, missing
attribute, wrong kind of object, factory raising) is an :class:`AgentLoadError`
whose message names the spec and the problem, ready to show as it is.
"""

from __future__ import annotations

import importlib
import importlib.machinery
import inspect
import re
import sys
import traceback
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from tenxeval_tui.evaluation.collectors.trajectory_collector import TrajectoryCollector
    from tenxeval_tui.evaluation.dataset.eval_set import EvalSet

_SPEC = re.compile(
    r"^(?P<module>[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*):(?P<attr>[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*)$"
)

EXPECTED_KINDS = (
    "a 10xGraph StateGraph, a factory returning one, an (app, collector) pair, "
    "or a plain agent (async def agent(message, trace) -> reply)"
)


class AgentLoadError(Exception):
    """The agent named by ``spec`` cannot be loaded; ``problem`` says why.

    ``str(error)`` is ``agent 'spec': problem``: a complete message for the user.
    """

    def __init__(self, spec: str | None, problem: str) -> None:
        self.spec = spec
        self.problem = problem
        # spec None: no agent was named at all, so there is none to quote.
        super().__init__(problem if spec is None else f"agent {spec!r}: {problem}")


def parse_spec(spec: str) -> tuple[str, str]:
    """``(module, attribute)`` of a ``MODULE:ATTR`` spec; :class:`AgentLoadError` when malformed."""
    found = _SPEC.match(spec.strip())
    if found is None:
        raise AgentLoadError(
            spec, "expected MODULE:ATTR, e.g. 'my_agent.graph:build_graph' (dotted names only)"
        )
    return found.group("module"), found.group("attr")


def _where(exc: BaseException) -> str:
    """`` (file:line)`` of the innermost frame of ``exc``, or of a syntax error's place."""
    if isinstance(exc, SyntaxError) and exc.filename:
        return f" ({exc.filename}:{exc.lineno})"
    frames = traceback.extract_tb(exc.__traceback__)
    if not frames:
        return ""
    last = frames[-1]
    return f" ({last.filename}:{last.lineno})"


def _describe(exc: BaseException) -> str:
    text = str(exc)
    if isinstance(exc, SyntaxError):
        text = exc.msg
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def _import(spec: str, module_name: str) -> Any:
    try:
        return importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        # Missing the module itself (or one of its packages), or something it imports?
        missing = exc.name or ""
        if module_name == missing or module_name.startswith(missing + "."):
            raise AgentLoadError(
                spec, f"module {missing!r} not found (is the working folder right?)"
            ) from None
        raise AgentLoadError(
            spec, f"importing {module_name!r} failed: {_describe(exc)}{_where(exc)}"
        ) from None
    except (Exception, SystemExit) as exc:
        raise AgentLoadError(
            spec, f"importing {module_name!r} raised {_describe(exc)}{_where(exc)}"
        ) from None


def _is_tenxgraph(obj: Any) -> bool:
    # By module name, so that plain agents never import 10xGraph.
    return type(obj).__module__.startswith("tenxgraph.")


def _required_positional(obj: Any) -> int | None:
    """How many positional arguments ``obj`` needs (``None`` when it cannot be told)."""
    try:
        parameters = inspect.signature(obj).parameters.values()
    except (TypeError, ValueError):
        return None
    if any(p.kind is p.VAR_POSITIONAL for p in parameters):
        return 0
    return sum(
        1
        for p in parameters
        if p.default is p.empty and p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)
    )


def _is_agent(obj: Any) -> bool:
    if callable(getattr(obj, "ainvoke", None)) and not isinstance(obj, type):
        return True
    if isinstance(obj, type) or not callable(obj):
        return False
    needed = _required_positional(obj)
    return needed is not None and needed >= 1


_COLLECTORS = "tenxeval_tui.evaluation.collectors.trajectory_collector"


def _is_pair(obj: Any) -> bool:
    if not (isinstance(obj, tuple) and len(obj) == 2):
        return False
    # A pair's collector was made by code that imported the collectors: when they are not
    # loaded there is no pair, and describing an agent (the editor's schema child) never
    # loads them (nor the event models under them).
    collectors = sys.modules.get(_COLLECTORS)
    return collectors is not None and isinstance(obj[1], collectors.TrajectoryCollector)


def _is_factory(obj: Any) -> bool:
    if not callable(obj) or _is_tenxgraph(obj) or inspect.iscoroutinefunction(obj):
        return False
    if not isinstance(obj, type) and callable(getattr(obj, "ainvoke", None)):
        return False
    return _required_positional(obj) == 0


def _kind(obj: Any) -> str:
    if isinstance(obj, type):
        return f"class {obj.__name__} (which needs constructor arguments)"
    if inspect.iscoroutinefunction(obj):
        return "an async function that takes no (message, trace) arguments"
    name = type(obj).__name__
    return f"{'an' if name[0] in 'aeiouAEIOU' else 'a'} {name} object"


def _to_pair(
    spec: str, obj: Any, capture_all_events: bool, *, via: str = "got "
) -> tuple[Any, TrajectoryCollector]:
    from tenxeval_tui.evaluation.targets import make_eval_app

    if _is_pair(obj):
        app, collector = obj
        return app, collector
    if _is_tenxgraph(obj):
        from tenxeval_tui.evaluation.targets.graph import is_compiled_graph, is_state_graph

        if is_compiled_graph(obj):
            raise AgentLoadError(
                spec,
                f"{via}a compiled 10xGraph graph; name the uncompiled StateGraph "
                "(or a function returning it) so that its events can be captured",
            )
        if not is_state_graph(obj):
            raise AgentLoadError(spec, f"{via}{_kind(obj)}; expected {EXPECTED_KINDS}")
        try:
            app, collector = make_eval_app(obj, capture_all_events=capture_all_events)
        except Exception as exc:
            raise AgentLoadError(
                spec, f"compiling the graph failed: {_describe(exc)}{_where(exc)}"
            ) from None
        return app, collector
    if _is_agent(obj):
        app, collector = make_eval_app(obj, capture_all_events=capture_all_events)
        return app, collector
    raise AgentLoadError(spec, f"{via}{_kind(obj)}; expected {EXPECTED_KINDS}")


def import_target(spec: str, *, cwd: str | Path | None = None) -> Any:
    """Import the module of ``spec`` (``cwd`` first on ``sys.path``) and return the named object.

    Nothing is called: a factory is returned as it is.
    """
    module_name, attribute = parse_spec(spec)
    folder = str(Path(cwd).resolve()) if cwd is not None else str(Path.cwd())
    if folder not in sys.path:
        sys.path.insert(0, folder)
    obj: Any = _import(spec, module_name)
    walked = module_name
    for part in attribute.split("."):
        try:
            obj = getattr(obj, part)
        except AttributeError:
            raise AgentLoadError(spec, f"{walked!r} has no attribute {part!r}") from None
        except Exception as exc:
            raise AgentLoadError(
                spec, f"reading {walked}.{part} raised {_describe(exc)}{_where(exc)}"
            ) from None
        walked = f"{walked}.{part}"
    return obj


def load_agent(
    spec: str,
    *,
    cwd: str | Path | None = None,
    capture_all_events: bool = True,
    params: Mapping[str, Any] | None = None,
) -> tuple[Any, TrajectoryCollector]:
    """The ``(app, collector)`` pair of the agent named by ``spec`` (see the module docs).

    ``cwd`` (default: the current folder) is put first on ``sys.path`` before
    importing. ``params`` (a variant's: model, prompt file, temperature...) are the
    factory's keyword arguments; given to anything but a factory, they are an error.
    Raises :class:`AgentLoadError` only.
    """
    obj = import_target(spec, cwd=cwd)
    if _is_pair(obj) or _is_tenxgraph(obj) or not _is_factory(obj):
        if params:
            raise AgentLoadError(
                spec,
                f"params {', '.join(sorted(params))} given, but it is not a factory "
                "(a callable returning the agent) to pass them to",
            )
        return _to_pair(spec, obj, capture_all_events)
    made = _call_factory(spec, obj, params)
    return _to_pair(spec, made, capture_all_events, via="the factory returned ")


def _call_factory(spec: str, factory: Any, params: Mapping[str, Any] | None = None) -> Any:
    if params:
        try:
            inspect.signature(factory).bind(**params)
        except TypeError as exc:
            raise AgentLoadError(spec, f"the factory does not take these params: {exc}") from None
        except ValueError:  # no signature to check (a builtin): the call will say
            pass
    try:
        return factory(**(params or {}))
    except Exception as exc:
        raise AgentLoadError(
            spec, f"calling the factory raised {_describe(exc)}{_where(exc)}"
        ) from None


def build_target(spec: str, *, cwd: str | Path | None = None) -> Any:
    """What ``spec`` names, a factory called (once): the graph, plain agent or pair that
    :func:`load_agent` would wrap, not wrapped (to describe it, see :mod:`.schema`).

    Raises :class:`AgentLoadError` only.
    """
    obj = import_target(spec, cwd=cwd)
    if _is_pair(obj) or _is_tenxgraph(obj) or not _is_factory(obj):
        return obj
    return _call_factory(spec, obj)


def agent_source_folder(spec: str, *, cwd: str | Path | None = None) -> Path | None:
    """The folder holding the agent's code, found without importing anything.

    The top-level package's folder for ``pkg.module:attr``; the working folder
    for a top-level module (``agent:attr`` with ``./agent.py``). ``None`` when the
    spec is malformed or the module is not in ``cwd``.
    """
    try:
        module_name, _ = parse_spec(spec)
    except AgentLoadError:
        return None
    folder = Path(cwd).resolve() if cwd is not None else Path.cwd()
    top = module_name.split(".")[0]
    found = importlib.machinery.PathFinder.find_spec(top, [str(folder)])
    if found is None:
        return None
    if found.submodule_search_locations:
        return Path(next(iter(found.submodule_search_locations)))
    return folder


__all__ = [
    "EXPECTED_KINDS",
    "AgentLoadError",
    "agent_source_folder",
    "build_target",
    "import_target",
    "load_agent",
    "parse_spec",
]


# An eval set may name the agent it is written for in its metadata.
EVAL_SET_AGENT_KEY = "agent"


def agent_spec_for(eval_set: EvalSet, default: str | None, *, explicit: bool = False) -> str:
    """The agent spec to run ``eval_set`` with.

    An eval set whose ``metadata["agent"]`` names a ``MODULE:ATTR`` is run with
    that agent (one workspace can hold eval sets for several agents), unless
    the caller's agent is ``explicit`` (``--agent`` on the command line), which
    always wins. Otherwise ``default`` (the workspace's agent) is used.
    Raises :class:`AgentLoadError` when there is none, or the eval set's is malformed.
    """
    own = eval_set.metadata.get(EVAL_SET_AGENT_KEY)
    if explicit and default:
        return default
    if isinstance(own, str) and own.strip():
        parse_spec(own.strip())
        return own.strip()
    if default:
        return default
    raise AgentLoadError(
        None,
        f"no agent for eval set {eval_set.eval_set_id!r}: name one as MODULE:ATTR (--agent, "
        "or the run view's agent box), set agent in [tool.tenxeval], or name one in the eval "
        'set\'s metadata ("agent": "module:attr")',
    )
