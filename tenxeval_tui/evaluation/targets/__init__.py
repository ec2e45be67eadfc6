"""How an agent is run: 10xGraph graphs (:mod:`.graph`) and plain Python agents (:mod:`.agent`).

Both end up as the same ``(app, collector)`` pair: ``await app.ainvoke(input,
config)`` runs one turn, and the collector receives the events of the run.
"""

from __future__ import annotations

import importlib
import inspect
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from tenxeval_tui.evaluation.collectors.trajectory_collector import TrajectoryCollector
    from tenxeval_tui.evaluation.targets.agent import AgentApp, Trace, wrap_agent

# Loaded on first use (see __getattr__): describing an agent (the editor's schema child,
# .loader and .schema) needs neither the collectors nor the event models they build on.
_FROM_AGENT = frozenset({"AgentApp", "Trace", "wrap_agent"})


def __getattr__(name: str) -> Any:
    if name not in _FROM_AGENT:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from tenxeval_tui.evaluation.targets import agent

    value = getattr(agent, name)
    globals()[name] = value  # later lookups skip __getattr__
    return value


def _is_tenxgraph(obj: Any) -> bool:
    # Checked by module name so that plain agents never import 10xGraph.
    return type(obj).__module__.startswith("tenxgraph.")


def make_eval_app(
    target: Any, *, capture_all_events: bool = True
) -> tuple[Any, TrajectoryCollector]:
    """The ``(app, collector)`` pair for a 10xGraph ``StateGraph`` or a plain agent.

    A compiled 10xGraph graph raises ``AttributeError`` (pass the uncompiled
    graph); an :class:`AgentApp` is returned with its own collector.
    """
    from tenxeval_tui.evaluation.collectors.trajectory_collector import TrajectoryCollector
    from tenxeval_tui.evaluation.targets.agent import AgentApp, wrap_agent

    if isinstance(target, AgentApp):
        return target, target.collector
    if _is_tenxgraph(target):
        from tenxeval_tui.evaluation.targets.graph import compile_graph

        collector = TrajectoryCollector(capture_all_events=capture_all_events)
        app = compile_graph(target, collector)
        # So that an API given the app alone (10xGraph's UserSimulator.run) finds its collector.
        app.tenxeval_collector = collector  # type: ignore[attr-defined]
        return app, collector
    return wrap_agent(target, capture_all_events=capture_all_events)


def turn_input(app: Any, text: str, state: dict[str, Any] | None = None) -> dict[str, Any]:
    """The input of one user turn for ``app`` (10xGraph messages for a 10xGraph graph)."""
    message: Any
    if _is_tenxgraph(app):
        from tenxeval_tui.evaluation.targets.graph import user_message

        message = user_message(text, app)
    else:
        message = {"role": "user", "content": text}
    data: dict[str, Any] = {"messages": [message]}
    if state:
        data["state"] = dict(state)
    return data


async def forget_thread(app: Any, config: dict[str, Any]) -> None:
    """Forget the conversation thread ``config["thread_id"]`` of ``app`` (its history and
    state; a 10xGraph graph's checkpointed state), for a run that never goes back to a
    finished case's thread: memory then holds the cases running, not every case run."""
    from tenxeval_tui.evaluation.targets.agent import AgentApp

    if isinstance(app, AgentApp):
        app.forget_thread(str(config.get("thread_id", "")))
    elif _is_tenxgraph(app):
        from tenxeval_tui.evaluation.targets.graph import forget_graph_thread

        await forget_graph_thread(app, config)


def response_text(result: Any) -> str:
    """The final reply in what ``app.ainvoke`` returned ("" when there is none)."""
    if isinstance(result, str):
        return result
    if not isinstance(result, dict):
        return ""
    if isinstance(result.get("response"), str):
        return str(result["response"])
    for message in reversed(result.get("messages") or []):
        role = message.get("role") if isinstance(message, dict) else getattr(message, "role", "")
        if role != "assistant":
            continue
        if isinstance(message, dict):
            content = message.get("content", "")
            return content if isinstance(content, str) else ""
        text = message.text() if callable(getattr(message, "text", None)) else ""
        if text:
            return str(text)
    return ""


def load_target(spec: str, *, search_path: str | Path | None = None) -> Any:
    """The object named by ``"module:attribute"`` (a graph, a factory of one, or an agent).

    A factory (a callable taking no arguments) is called. ``search_path`` (e.g.
    the project root) is put on ``sys.path`` first. Errors name the spec.
    """
    module_name, _, attribute = spec.partition(":")
    if not module_name or not attribute:
        raise ValueError(f"agent {spec!r}: expected 'module:attribute'")
    if search_path is not None and str(search_path) not in sys.path:
        sys.path.insert(0, str(search_path))
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise ImportError(f"agent {spec!r}: cannot import {module_name!r}: {exc}") from exc
    obj: Any = module
    for part in attribute.split("."):
        try:
            obj = getattr(obj, part)
        except AttributeError:
            raise AttributeError(f"agent {spec!r}: {module_name!r} has no {attribute!r}") from None
    if _is_factory(obj):
        obj = obj()
    return obj


def _is_factory(obj: Any) -> bool:
    if not callable(obj) or isinstance(obj, type) or hasattr(obj, "ainvoke"):
        return False
    if _is_tenxgraph(obj):
        return False
    try:
        parameters = inspect.signature(obj).parameters.values()
    except (TypeError, ValueError):
        return False
    required = [
        p
        for p in parameters
        if p.default is p.empty and p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)
    ]
    return not required and not inspect.iscoroutinefunction(obj)


__all__ = [
    "AgentApp",
    "Trace",
    "forget_thread",
    "load_target",
    "make_eval_app",
    "response_text",
    "turn_input",
    "wrap_agent",
]
