"""A real OpenAI-compatible server on 127.0.0.1 with scripted replies.

It speaks ``POST /v1/chat/completions`` and ``POST /v1/responses`` (the
Responses API): a scripted reply is sent in the shape of the route asked.
"""

from __future__ import annotations

import json
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass
class Scripted:
    """One reply of the fake judge."""

    content: str = ""
    status: int = 200
    delay: float = 0.0
    headers: dict[str, str] = field(default_factory=dict)
    prompt_tokens: int = 11
    completion_tokens: int = 7
    cached_tokens: int = 0
    raw_body: str | None = None
    """Sent as it is instead of a chat completion (a broken gateway)."""
    content_type: str = "application/json"
    trickle: float | None = None
    """Seconds between the bytes of the body, sent one at a time after the headers (a
    server that answers and then stalls); ``None``: the body at once."""
    usage: bool = True
    """``False``: the reply has no ``usage`` object (some gateways and local servers)."""


def verdict(value: str, reasoning: str = "because", **extra: Any) -> Scripted:
    """A well-formed judge reply ``{"reasoning": ..., "verdict": ...}``."""
    return Scripted(json.dumps({"reasoning": reasoning, "verdict": value, **extra}))


ROUTE_KEY = "_route"  # added to each recorded request body: the path it was posted to
PATH_KEY = "_path"  # ... the path with its query string
AUTHORIZATION_KEY = "_authorization"  # ... its Authorization header
CHAT = "/v1/chat/completions"
RESPONSES = "/v1/responses"


def prompt_of(body: dict[str, Any]) -> str:
    """The user prompt of a recorded request, whichever API style it used."""
    if body.get(ROUTE_KEY) == RESPONSES:
        given = body.get("input", "")
        if isinstance(given, str):
            return given
        return str(given[-1]["content"])  # a list of input messages
    return str(body["messages"][-1]["content"])


def chat_completion(reply: Scripted, body: dict[str, Any], number: int) -> dict[str, Any]:
    """``reply`` as a chat completion."""
    completion: dict[str, Any] = {
        "id": f"chatcmpl-{number}",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": body.get("model", ""),
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": reply.content},
                "finish_reason": "stop",
            }
        ],
        "usage": {
            "prompt_tokens": reply.prompt_tokens,
            "completion_tokens": reply.completion_tokens,
            "total_tokens": reply.prompt_tokens + reply.completion_tokens,
            "prompt_tokens_details": {"cached_tokens": reply.cached_tokens},
        },
    }
    if not reply.usage:
        del completion["usage"]
    return completion


def response_object(reply: Scripted, body: dict[str, Any], number: int) -> dict[str, Any]:
    """``reply`` as a Responses API response (one output message of one text part)."""
    response: dict[str, Any] = {
        "id": f"resp_{number}",
        "object": "response",
        "created_at": int(time.time()),
        "model": body.get("model", ""),
        "status": "completed",
        "error": None,
        "output": [
            {
                "type": "message",
                "id": f"msg_{number}",
                "status": "completed",
                "role": "assistant",
                "content": [{"type": "output_text", "text": reply.content, "annotations": []}],
            }
        ],
        "parallel_tool_calls": True,
        "tool_choice": "auto",
        "tools": [],
        "usage": {
            "input_tokens": reply.prompt_tokens,
            "output_tokens": reply.completion_tokens,
            "total_tokens": reply.prompt_tokens + reply.completion_tokens,
            "input_tokens_details": {"cached_tokens": reply.cached_tokens},
            "output_tokens_details": {"reasoning_tokens": 0},
        },
    }
    if not reply.usage:
        del response["usage"]
    return response


class _Server(ThreadingHTTPServer):
    request_queue_size = 128  # the default listen backlog of 5 drops bursts of connections
    daemon_threads = True


class JudgeServer:
    """Serves scripted replies in order (then ``fallback``), recording every request."""

    def __init__(self) -> None:
        self.requests: list[dict[str, Any]] = []
        self.replies: deque[Scripted] = deque()
        self.fallback: Callable[[dict[str, Any]], Scripted] | None = None
        self.in_flight = 0
        self.open_connections = 0
        self.max_in_flight = 0
        self.abandoned = 0
        """Replies the client hung up on before their last byte."""
        self._lock = threading.Lock()
        self._server = _Server(("127.0.0.1", 0), self._handler_class())
        self._thread = threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True
        )

    @property
    def base_url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host!s}:{port}/v1"

    def script(self, *replies: Scripted) -> None:
        """Queue replies, answered in arrival order of the requests."""
        self.replies.extend(replies)

    def prompts(self) -> list[str]:
        """The user prompt of every request so far (either API style)."""
        return [prompt_of(r) for r in self.requests]

    def routes(self) -> list[str]:
        """The path of every request so far."""
        return [r[ROUTE_KEY] for r in self.requests]

    def start(self) -> JudgeServer:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()

    def _next(self, body: dict[str, Any]) -> Scripted:
        with self._lock:
            self.requests.append(body)
            self.in_flight += 1
            self.max_in_flight = max(self.max_in_flight, self.in_flight)
            if self.replies:
                return self.replies.popleft()
        if self.fallback is not None:
            return self.fallback(body)
        return Scripted(status=500, content="no scripted reply left")

    def _handler_class(self) -> type[BaseHTTPRequestHandler]:
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            disable_nagle_algorithm = True  # headers and body go out as separate writes

            def log_message(self, format: str, *args: Any) -> None:
                pass

            def setup(self) -> None:
                super().setup()
                with server._lock:
                    server.open_connections += 1

            def finish(self) -> None:
                super().finish()
                with server._lock:
                    server.open_connections -= 1

            def do_GET(self) -> None:
                if self.path == "/stats":
                    self._send(200, {"requests": len(server.requests)})
                else:
                    self._send(404, {"error": {"message": f"no route {self.path}"}})

            def do_POST(self) -> None:
                length = int(self.headers.get("content-length", 0))
                body = json.loads(self.rfile.read(length) or b"{}")
                route = self.path.split("?", 1)[0]
                if route not in (CHAT, RESPONSES):
                    self._send(404, {"error": {"message": f"no route {self.path}"}})
                    return
                body[ROUTE_KEY] = route
                body[PATH_KEY] = self.path
                body[AUTHORIZATION_KEY] = self.headers.get("authorization", "")
                reply = server._next(body)
                try:
                    time.sleep(reply.delay)
                    if reply.raw_body is not None:
                        self._send_raw(reply.status, reply.raw_body, reply.content_type)
                        return
                    if reply.status != 200:
                        payload: dict[str, Any] = {
                            "error": {"message": reply.content or "error", "type": "scripted"}
                        }
                    else:
                        shape = response_object if route == RESPONSES else chat_completion
                        payload = shape(reply, body, len(server.requests))
                    self._send(reply.status, payload, reply.headers, reply.trickle)
                except (BrokenPipeError, ConnectionResetError):
                    with server._lock:  # the client gave up (a timeout test)
                        server.abandoned += 1
                finally:
                    with server._lock:
                        server.in_flight -= 1

            def _send_raw(self, status: int, body: str, content_type: str) -> None:
                data = body.encode("utf-8")
                self.send_response(status)
                self.send_header("content-type", content_type)
                self.send_header("content-length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def _send(
                self,
                status: int,
                payload: dict[str, Any],
                headers: dict[str, str] | None = None,
                trickle: float | None = None,
            ) -> None:
                data = json.dumps(payload).encode("utf-8")
                self.send_response(status)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(data)))
                for name, value in (headers or {}).items():
                    self.send_header(name, value)
                self.end_headers()
                if trickle is None:
                    self.wfile.write(data)
                    return
                for index in range(len(data)):
                    self.wfile.write(data[index : index + 1])
                    self.wfile.flush()
                    time.sleep(trickle)  # the server's pace, not a wait in a test

        return Handler


def main() -> None:
    """Serve ``{"verdict": "valid"}`` after ``--delay`` seconds until killed (for benchmarks)."""
    import argparse

    parser = argparse.ArgumentParser()
    parser.add_argument("--delay", type=float, default=0.0)
    delay = parser.parse_args().delay
    server = JudgeServer()
    server.fallback = lambda body: Scripted(verdict("valid").content, delay=delay)
    print(server.base_url, flush=True)
    server._server.serve_forever(poll_interval=0.05)


if __name__ == "__main__":
    main()
