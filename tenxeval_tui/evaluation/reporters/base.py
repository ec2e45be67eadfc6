"""The contract every reporter implements, so that :class:`ReporterManager` runs them alike."""

from __future__ import annotations

import abc
from collections.abc import Iterable
from pathlib import Path

from tenxeval_tui.evaluation.eval_result import EvalReport
from tenxeval_tui.evaluation.files.fileio import atomic_write_bytes, gc_paused


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

    def render_parts(self, report: EvalReport) -> Iterable[bytes]:
        """The bytes of :meth:`render_bytes` in pieces, written as they come (override for a
        report too big to hold whole: a case of many steps)."""
        return [self.render_bytes(report)]

    def save(self, report: EvalReport, path: str | Path) -> Path:
        """Write the report to ``path`` atomically (folders are created) and return the path."""
        target = Path(path)
        # Rendering allocates many short-lived objects next to a report that may hold
        # millions; full collections would rescan that report again and again.
        with gc_paused():
            atomic_write_bytes(target, self.render_parts(report))
        return target

    def generate(self, report: EvalReport, output_dir: str | Path | None = None) -> str | None:
        """Write ``report.<extension>`` into ``output_dir`` and return its path.

        Without ``output_dir`` nothing is written and the rendered text is returned
        (as 10xGraph's reporters do).
        """
        if output_dir is None:
            return self.render(report)
        return str(self.save(report, Path(output_dir) / f"report{self.extension}"))
