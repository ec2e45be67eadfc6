"""What the front end can ask of a running worker: command lines on the worker's stdin.

The worker reads one JSON object a line on its stdin (a thread reads; each command is
carried out on the run's event loop) and answers each with a ``worker_ack`` line on its
protocol stream:

- ``{"type": "stop_case", "eval_set_id": ..., "eval_id": ..., "score": false}``: stop
  that running case, the run going on; it ends cancelled, or with ``"score": true`` is
  scored on what it did so far. Ack: ``ok`` (whether it was running).
- ``{"type": "end_tool_call", "eval_set_id": ..., "eval_id": ...}``: end that case's tool
  calls in flight (each fails with a timeout the agent sees). Ack: ``tool_calls``, the
  names of those ended (none: nothing was in flight).

A worker whose stdin is closed or empty (``tenxeval-tui run``) just never gets a command.
With several workers (a process pool, Ray actors) the worker child routes each command to
the pooled workers running that case (:meth:`~tenxeval_tui.runs.case_pool.CasePool.command`),
which carry it out with :func:`apply_command` and answer with their own ``worker_ack``;
:func:`merged_ack` joins their answers into the one the front end gets. No UI import.
"""

from __future__ import annotations

import asyncio
import json
import sys
import threading
from collections.abc import Callable, Sequence
from typing import Any, Protocol, TextIO, runtime_checkable

from tenxeval_tui.evaluation.case_control import StopMode

STOP_CASE = "stop_case"
END_TOOL_CALL = "end_tool_call"
ACK = "worker_ack"


class Stoppable(Protocol):
    """What the commands act on (an :class:`~tenxeval_tui.evaluation.evaluator.EvaluationRunner`)."""

    def stop_case(self, eval_set_id: str, eval_id: str, mode: StopMode = ...) -> bool: ...

    def end_tool_calls(self, eval_set_id: str, eval_id: str) -> list[str]: ...


def stop_case_command(eval_set_id: str, eval_id: str, *, score: bool = False) -> dict[str, Any]:
    """The command that stops one case (scored on what it did when ``score``)."""
    return {"type": STOP_CASE, "eval_set_id": eval_set_id, "eval_id": eval_id, "score": score}


def end_tool_call_command(eval_set_id: str, eval_id: str) -> dict[str, Any]:
    """The command that ends one case's tool calls in flight."""
    return {"type": END_TOOL_CALL, "eval_set_id": eval_set_id, "eval_id": eval_id}


def is_command(data: dict[str, Any]) -> bool:
    """``data`` is one of the commands a worker carries out."""
    return data.get("type") in (STOP_CASE, END_TOOL_CALL)


def _ack_base(data: dict[str, Any]) -> dict[str, Any]:
    set_id, eval_id = str(data.get("eval_set_id", "")), str(data.get("eval_id", ""))
    return {"type": ACK, "command": data.get("type"), "eval_set_id": set_id, "eval_id": eval_id}


def apply_command(runner: Stoppable, data: dict[str, Any]) -> dict[str, Any] | None:
    """Carry out one command; the ``worker_ack`` line to write (``None``: not a command)."""
    kind = data.get("type")
    set_id, eval_id = str(data.get("eval_set_id", "")), str(data.get("eval_id", ""))
    ack = _ack_base(data)
    if kind == STOP_CASE:
        mode = StopMode.SCORE if data.get("score") else StopMode.CANCEL
        ack["ok"] = runner.stop_case(set_id, eval_id, mode)
        ack["score"] = mode == StopMode.SCORE
    elif kind == END_TOOL_CALL:
        ack["tool_calls"] = runner.end_tool_calls(set_id, eval_id)
    else:
        return None
    return ack


def merged_ack(data: dict[str, Any], acks: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """The one ``worker_ack`` for command ``data`` carried out by several workers, each
    answering with one of ``acks``: it stopped the case when any of them did, and ended
    every tool call each of them ended (none answering: the case was running nowhere)."""
    ack = _ack_base(data)
    if data.get("type") == STOP_CASE:
        ack["ok"] = any(bool(a.get("ok")) for a in acks)
        ack["score"] = bool(data.get("score"))
    else:
        ack["tool_calls"] = [str(c) for a in acks for c in a.get("tool_calls") or []]
    return ack


@runtime_checkable
class Router(Protocol):
    """What carries commands out elsewhere and answers later (a pool of workers)."""

    def command(self, data: dict[str, Any], emit: Callable[[dict[str, Any]], None]) -> None:
        """Carry out command ``data`` (called on the run's loop); its ack goes to ``emit``."""


def listen(
    runner: Stoppable | Router,
    emit: Callable[[dict[str, Any]], None],
    loop: asyncio.AbstractEventLoop,
    stream: TextIO | None = None,
) -> threading.Thread:
    """Read commands from ``stream`` (stdin) in a daemon thread; each is carried out on
    ``loop`` (by ``runner``, or routed by it when it is a :class:`Router`) and
    acknowledged through ``emit``."""
    source = stream if stream is not None else sys.stdin

    def on_loop(data: dict[str, Any]) -> None:
        if not is_command(data):
            return
        if isinstance(runner, Router):
            runner.command(data, emit)
            return
        ack = apply_command(runner, data)
        if ack is not None:
            emit(ack)

    def read() -> None:
        try:
            for line in source:
                try:
                    data = json.loads(line)
                except ValueError:
                    continue
                if isinstance(data, dict):
                    loop.call_soon_threadsafe(on_loop, data)
        except (OSError, ValueError, RuntimeError):
            return  # stdin closed, or the loop is gone: no more commands

    thread = threading.Thread(target=read, name="worker-commands", daemon=True)
    thread.start()
    return thread


__all__ = [
    "ACK",
    "END_TOOL_CALL",
    "STOP_CASE",
    "Router",
    "apply_command",
    "end_tool_call_command",
    "is_command",
    "listen",
    "merged_ack",
    "stop_case_command",
]
