"""A small driver for real headless Chromium over the DevTools protocol (``--remote-debugging-pipe``).

Chromium reads protocol messages on file descriptor 3 and writes them on 4,
each a JSON object ended by a NUL byte; no websocket client or extra package
is needed. :func:`find_chromium` installs Debian's ``chromium`` when missing
(``.ci/run`` does the same) and returns ``None`` only when it truly cannot.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import shutil
import subprocess
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from tests.waiting import scaled, wait_sync

FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
    "--remote-debugging-pipe",
]


def find_chromium() -> tuple[str | None, str]:
    """The Chromium executable (installing Debian's package if needed), or None and why."""
    for candidate in (os.environ.get("CHROMIUM"), "/usr/bin/chromium", shutil.which("chromium")):
        if candidate and os.access(candidate, os.X_OK):
            return candidate, ""
    apt = shutil.which("apt-get")
    if apt is None:
        return None, "no chromium on PATH and no apt-get to install it"
    if os.geteuid() != 0:
        return None, "no chromium on PATH and not root, so apt-get cannot install it"
    log = []
    for command in ([apt, "update", "-qq"], [apt, "install", "-y", "-qq", "chromium"]):
        done = subprocess.run(
            command, capture_output=True, text=True, timeout=scaled(600), check=False
        )
        log.append(f"{' '.join(command)} -> {done.returncode}: {done.stderr.strip()[-300:]}")
    path = shutil.which("chromium")
    return (path, "") if path else (None, "apt-get install chromium failed: " + " | ".join(log))


class CDPError(RuntimeError):
    """The browser answered a command with an error."""


class Chromium:
    """One headless Chromium with one page, driven synchronously."""

    def __init__(self, executable: str, timeout: float = 20.0) -> None:
        self.timeout = scaled(timeout)
        self._profile = tempfile.TemporaryDirectory(prefix="tenxeval-chromium-")
        to_browser_r, self._to_browser = os.pipe()
        self._from_browser, from_browser_w = os.pipe()

        def wire_fds() -> None:  # runs in the child, before exec: the pipe ends become fds 3 and 4
            high_r = fcntl.fcntl(to_browser_r, fcntl.F_DUPFD, 10)
            high_w = fcntl.fcntl(from_browser_w, fcntl.F_DUPFD, 10)
            os.dup2(high_r, 3)
            os.dup2(high_w, 4)

        self._stderr = tempfile.TemporaryFile()  # noqa: SIM115 - closed in close()

        self.process = subprocess.Popen(
            [executable, *FLAGS, f"--user-data-dir={self._profile.name}", "about:blank"],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=self._stderr,
            preexec_fn=wire_fds,
            close_fds=False,
        )
        os.close(to_browser_r)
        os.close(from_browser_w)
        self._next_id = 0
        self._lock = threading.Condition()
        self._replies: dict[int, dict[str, Any]] = {}
        self.events: list[dict[str, Any]] = []
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()
        self.session = self._open_page()

    # -- protocol ---------------------------------------------------------------

    def _read(self) -> None:
        buffer = b""
        while True:
            try:
                chunk = os.read(self._from_browser, 1 << 16)
            except OSError:
                chunk = b""
            if not chunk:
                with self._lock:
                    self._lock.notify_all()
                return
            buffer += chunk
            while b"\0" in buffer:
                raw, buffer = buffer.split(b"\0", 1)
                message = json.loads(raw)
                with self._lock:
                    if "id" in message:
                        self._replies[message["id"]] = message
                    else:
                        self.events.append(message)
                    self._lock.notify_all()

    def send(self, method: str, params: dict[str, Any] | None = None, session: bool = True) -> Any:
        """Send one command (to the page's session unless ``session`` is False); its result."""
        with self._lock:
            self._next_id += 1
            ident = self._next_id
        message: dict[str, Any] = {"id": ident, "method": method, "params": params or {}}
        if session and getattr(self, "session", None):
            message["sessionId"] = self.session
        os.write(self._to_browser, json.dumps(message).encode() + b"\0")
        deadline = time.monotonic() + self.timeout
        with self._lock:
            while ident not in self._replies:
                left = deadline - time.monotonic()
                if left <= 0 or self.process.poll() is not None:
                    raise TimeoutError(f"no reply to {method} ({self._stderr_tail()})")
                self._lock.wait(left)
            reply = self._replies.pop(ident)
        if "error" in reply:
            raise CDPError(f"{method}: {reply['error']}")
        return reply.get("result", {})

    def wait_for_event(self, method: str, since: int = 0) -> dict[str, Any]:
        """The first event called ``method`` at or after index ``since`` of :attr:`events`."""
        deadline = time.monotonic() + self.timeout
        with self._lock:
            while True:
                for event in self.events[since:]:
                    if event.get("method") == method:
                        return event
                left = deadline - time.monotonic()
                if left <= 0:
                    raise TimeoutError(f"no {method} event")
                self._lock.wait(left)

    def _open_page(self) -> str:
        target = self.send("Target.createTarget", {"url": "about:blank"}, session=False)
        attached = self.send(
            "Target.attachToTarget", {"targetId": target["targetId"], "flatten": True}, False
        )
        self.session = attached["sessionId"]
        for domain in ("Page", "Runtime", "Log"):
            self.send(f"{domain}.enable")
        return str(self.session)

    def _stderr_tail(self) -> str:
        self._stderr.seek(0)
        return self._stderr.read().decode(errors="replace")[-800:] or "no output"

    # -- page helpers -----------------------------------------------------------

    def open(self, path: Path) -> None:
        """Load ``path`` and wait for its load event."""
        mark = len(self.events)
        self.send("Page.navigate", {"url": path.resolve().as_uri()})
        self.wait_for_event("Page.loadEventFired", since=mark)

    def evaluate(self, expression: str) -> Any:
        """The value of a JavaScript expression in the page (promises are awaited)."""
        result = self.send(
            "Runtime.evaluate",
            {"expression": expression, "returnByValue": True, "awaitPromise": True},
        )
        if "exceptionDetails" in result:
            raise CDPError(f"{expression!r} raised: {result['exceptionDetails']}")
        return result["result"].get("value")

    def click(self, selector: str) -> None:
        """A real mouse click in the middle of the element ``selector`` (scrolled into view)."""
        box = self.evaluate(
            f"(() => {{ const e = document.querySelector({json.dumps(selector)});"
            " e.scrollIntoView({block: 'center'}); const r = e.getBoundingClientRect();"
            " return [r.left + r.width / 2, r.top + r.height / 2]; })()"
        )
        x, y = box
        for kind in ("mousePressed", "mouseReleased"):
            self.send(
                "Input.dispatchMouseEvent",
                {"type": kind, "x": x, "y": y, "button": "left", "clickCount": 1},
            )

    def type_text(self, selector: str, text: str) -> None:
        """Focus ``selector`` and type ``text`` as keyboard input."""
        self.evaluate(f"document.querySelector({json.dumps(selector)}).focus()")
        self.send("Input.insertText", {"text": text})

    def flush(self) -> None:
        """Let the page's pending tasks and one animation frame run (no fixed pause)."""
        self.evaluate("new Promise(r => requestAnimationFrame(() => setTimeout(r, 0)))")

    def wait_for_js(self, expression: str, what: str, timeout: float = 30.0) -> None:
        """Poll the JavaScript ``expression`` until it is truthy; fail naming ``what``."""
        wait_sync(lambda: self.evaluate(f"!!({expression})"), timeout, what)

    def wait_for_filter(self, query: str = "", failed_only: bool = False) -> None:
        """Wait until the report's case list shows the filter ``query`` (and failed-only)."""
        applied = ("failed:" if failed_only else "all:") + query.strip().lower()
        self.wait_for_js(
            f"document.documentElement.dataset.filter === {json.dumps(applied)}",
            f"the case list filtered by {applied!r}",
        )

    def problems(self) -> list[str]:
        """Console errors, uncaught exceptions and error log entries (CSP violations...)."""
        found = []
        with self._lock:
            events = list(self.events)
        for event in events:
            method, params = event.get("method"), event.get("params", {})
            if method == "Runtime.exceptionThrown":
                found.append(f"exception: {params['exceptionDetails'].get('text')}")
            elif method == "Runtime.consoleAPICalled" and params.get("type") in {"error", "assert"}:
                found.append(f"console.{params['type']}: {params.get('args')}")
            elif method == "Log.entryAdded" and params["entry"].get("level") == "error":
                found.append(f"log: {params['entry'].get('text')}")
        return found

    def close(self) -> None:
        """Quit the browser and remove its profile."""
        with contextlib.suppress(TimeoutError, CDPError, OSError):
            self.send("Browser.close", session=False)
        try:
            self.process.wait(timeout=scaled(10))
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        for fd in (self._to_browser, self._from_browser):
            with contextlib.suppress(OSError):
                os.close(fd)
        self._stderr.close()
        self._profile.cleanup()
