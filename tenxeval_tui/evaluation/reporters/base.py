"""The contract every reporter implements, so that :class:`ReporterManager` runs them alike."""

from __future__ import annotations

import abc
import gc
import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from tenxeval_tui.evaluation.results import EvalReport


@contextmanager
def paused_gc() -> Iterator[None]:
    """Pause the cyclic garbage collector while a large report is rendered.

    Rendering allocates many short-lived objects next to a report that may hold
    millions; without the pause, full collections rescan that report again and
    again and can double the time taken. Nothing rendering allocates needs the
    cycle collector, and it is switched back on (if it was on) afterwards.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def atomic_write_bytes(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` so that readers see the old file or the new one, never half."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp_name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        # mkstemp makes the file private; a report gets the usual rw-r--r-- (or keeps
        # the mode of the file it replaces).
        os.chmod(tmp_name, path.stat().st_mode & 0o7777 if path.exists() else 0o644)
        os.replace(tmp_name, path)
    except BaseException:
        Path(tmp_name).unlink(missing_ok=True)
        raise


class BaseReporter(abc.ABC):
    """A way of presenting an :class:`EvalReport` (console text, or a file).

    File reporters implement :meth:`render` (the file's text) and get
    :meth:`save` and :meth:`generate` from here; the console reporter overrides
    :meth:`generate`. Subclass it for a reporter of your own::

        class MarkdownReporter(BaseReporter):
            extension = ".md"

            def render(self, report):
                return f"# {report.eval_set_id}: {report.summary.pass_rate:.0%}\\n"
    """

    #: File name ending used by :meth:`generate` when it picks the file name itself.
    extension: str = ".txt"

    @property
    def name(self) -> str:
        """The reporter's name as it appears in ``ReporterOutput.errors`` and logs."""
        return type(self).__name__

    @abc.abstractmethod
    def render(self, report: EvalReport) -> str:
        """The report as text."""

    def render_bytes(self, report: EvalReport) -> bytes:
        """The report as the UTF-8 bytes of its file (override when that is quicker)."""
        return self.render(report).encode("utf-8")

    def save(self, report: EvalReport, path: str | Path) -> Path:
        """Write the report to ``path`` atomically (folders are created) and return the path."""
        target = Path(path)
        with paused_gc():
            data = self.render_bytes(report)
        atomic_write_bytes(target, data)
        return target

    def generate(self, report: EvalReport, output_dir: str | Path | None = None) -> str | None:
        """Write ``report.<extension>`` into ``output_dir`` and return its path.

        Without ``output_dir`` nothing is written and the rendered text is returned
        (as 10xGraph's reporters do).
        """
        if output_dir is None:
            return self.render(report)
        return str(self.save(report, Path(output_dir) / f"report{self.extension}"))
