"""HTML reporter: one self-contained, offline dashboard file per run.

The page is a jinja2 template (``templates/report.html.j2``) with its CSS and
JavaScript (``templates/report.css``, ``templates/report.js``) inlined, and the
criterion chart drawn as inline SVG: no network access, no CDN. The cases are
kept once, as JSON in a ``<script type="application/json">`` block; the script
draws a one-line ``<details>`` row per case and a case's full detail only when
its row is opened, which keeps a 10,000-case report small and quick to open.
Past :data:`MAX_CASES` cases (a run of a hundred thousand would make a page of hundreds
of megabytes no browser opens) the page shows that many: every failed and errored case
first, then passing ones, in report order, and says so above the list; the summary, the
chart and the JSON report count every case.

Everything that comes from agents or eval sets is escaped: jinja2 autoescapes
the markup, the embedded JSON has ``<``, ``>`` and ``&`` written as ``\\u``
escapes (so ``</script>`` in a response cannot end the block), and the script
only ever sets ``textContent``. A Content-Security-Policy allows just the
page's own script (by its hash) and no network at all.
"""

from __future__ import annotations

import base64
import hashlib
import itertools
import os
import tempfile
import uuid
from collections.abc import Iterable, Iterator, Sequence
from datetime import datetime
from functools import lru_cache
from importlib import resources
from typing import Any, overload

import jinja2
import pydantic_core

from tenxeval_tui.evaluation.config.eval_config import ReporterConfig
from tenxeval_tui.evaluation.eval_result import EvalCaseResult, EvalReport
from tenxeval_tui.evaluation.files.fileio import without_surrogates
from tenxeval_tui.evaluation.inert import inert
from tenxeval_tui.evaluation.reporters.base import BaseReporter
from tenxeval_tui.evaluation.reporters.casedata import ViewOptions, case_view
from tenxeval_tui.evaluation.reporters.template_cache import template_cache
from tenxeval_tui.evaluation.results.journal_results import JournalResults

_BAR_WIDTH = 360
MAX_CASES = 10_000
"""The most cases an HTML report lists (see the module); ``None`` in the reporter: all."""


_OPTIONS: dict[str, Any] = {
    "autoescape": True,
    "trim_blocks": True,
    "lstrip_blocks": True,
    "undefined": jinja2.StrictUndefined,
}


@lru_cache(maxsize=1)
def _environment() -> jinja2.Environment:
    # the templates compiled once, kept on disk for the next run (template_cache)
    return jinja2.Environment(
        loader=jinja2.PackageLoader("tenxeval_tui.evaluation.reporters", "templates"),
        bytecode_cache=template_cache(_OPTIONS),
        **_OPTIONS,
    )


@lru_cache(maxsize=2)
def _asset(name: str) -> str:
    return (resources.files(__package__) / "templates" / name).read_text(encoding="utf-8")


def load_page_template() -> None:
    """Load and compile the page's template and assets now, not at the first report
    (``tenxeval-tui run``'s parent does it while its worker runs the cases)."""
    _environment().get_template("report.html.j2")
    _asset("report.js")
    _asset("report.css")


def script_json(data: Any) -> str:
    """``data`` as JSON that is safe inside a ``<script>`` element of an HTML page."""
    try:
        text = pydantic_core.to_json(data).decode("utf-8")
    except pydantic_core.PydanticSerializationError:  # a lone surrogate from the agent
        text = pydantic_core.to_json(without_surrogates(data)).decode("utf-8")
    # str.replace is many times quicker than str.translate on megabytes of text
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def _csp_hash(script: str) -> str:
    digest = hashlib.sha256(script.encode("utf-8")).digest()
    return "sha256-" + base64.b64encode(digest).decode("ascii")


def _chart(report: EvalReport) -> list[dict[str, Any]]:
    stats = report.summary.criterion_stats
    thresholds: dict[str, float] = {}
    for result in report.results:
        for cr in result.criterion_results:
            thresholds.setdefault(cr.criterion, cr.threshold)
        if len(thresholds) >= len(stats):
            break
    bars = []
    for index, (name, entry) in enumerate(stats.items()):
        avg = min(max(float(entry.get("avg_score", 0.0)), 0.0), 1.0)
        rate = float(entry.get("pass_rate", 0.0))
        threshold = thresholds.get(name)
        bars.append(
            {
                "name": inert(name),
                "y": index * 34,
                "avg": avg,
                "rate": rate,
                "width": round(avg * _BAR_WIDTH, 1),
                "threshold_x": None
                if threshold is None
                else round(min(max(threshold, 0.0), 1.0) * _BAR_WIDTH, 1),
                "threshold": threshold,
                "passed": entry.get("passed", 0),
                "total": entry.get("total", 0),
                "ok": rate >= 1.0,
            }
        )
    return bars


class HTMLReporter(BaseReporter):
    """Writes a self-contained HTML dashboard of a report.

    It shows the summary (eval set, counts, pass rate, duration, tokens), a bar
    chart of each criterion's average score with its threshold and pass rate,
    and every case as an expandable row: its query or turns, actual and
    expected response, each criterion's score, threshold and the judge's
    reasoning, expected and actual tool trajectory, node order and errors. A
    search box and a failed-only switch filter the rows. The ``include_*``
    switches leave the corresponding parts out.
    """

    extension = ".html"

    def __init__(
        self,
        include_details: bool = True,
        include_actual_response: bool = True,
        include_tool_call_details: bool = True,
        include_node_responses: bool = True,
        include_trajectory: bool = True,
        title: str | None = None,
        max_cases: int | None = MAX_CASES,
    ) -> None:
        # The switches' positional order is 10xGraph 0.10.3's; ``title``, ``max_cases``
        # are ours.
        self.options = ViewOptions(
            include_details=include_details,
            include_trajectory=include_trajectory,
            include_node_responses=include_node_responses,
            include_actual_response=include_actual_response,
            include_tool_call_details=include_tool_call_details,
        )
        self.title = title
        self.max_cases = max_cases

    @classmethod
    def from_config(cls, config: ReporterConfig) -> HTMLReporter:
        """The reporter that ``config``'s ``include_*`` switches describe."""
        return cls(**ViewOptions.from_config(config).switches())

    def render(self, report: EvalReport) -> str:
        """The report as one HTML document."""
        return "".join(self._parts(report))

    def render_parts(self, report: EvalReport) -> Iterator[bytes]:
        """:meth:`render` in pieces: the cases' data a case (and a few hundred of a case's
        nodes) at a time, so a case of many steps is never held whole as views or text."""
        return (part.encode("utf-8") for part in self._parts(report))

    def _parts(self, report: EvalReport) -> Iterator[str]:
        mark = f"tenxeval-data-{uuid.uuid4().hex}"
        shown = shown_results(report.results, self.max_cases)
        head, _, tail = self._page(report, mark, len(shown)).partition(mark)
        yield head
        yield "["
        for index, item in enumerate(_prepared_or_read(shown, self.options)):
            if index:
                yield ","
            if isinstance(item, str):
                yield item
            else:
                yield from _case_parts(item, self.options)
        yield "]"
        yield tail

    def _page(self, report: EvalReport, data: str, shown: int) -> str:
        """The page, with ``data`` where the JSON of the ``shown`` cases goes."""
        script, css = _asset("report.js"), _asset("report.css")
        s = report.summary
        bars = _chart(report)
        return (
            _environment()
            .get_template("report.html.j2")
            .render(
                # the browser's tab and window title: shown, never sent (see inert)
                title=inert(self.title or report.eval_set_name or report.eval_set_id),
                report=report,
                summary=s,
                when=datetime.fromtimestamp(report.timestamp)
                .astimezone()
                .strftime("%Y-%m-%d %H:%M:%S %Z"),
                bars=bars,
                bar_width=_BAR_WIDTH,
                chart_height=max(len(bars) * 34, 1),
                css=css,
                style_hash=_csp_hash(css),
                script=script,
                script_hash=_csp_hash(script),
                data=data,
                shown=shown,
            )
        )


def shown_results(results: Sequence[EvalCaseResult], most: int | None) -> Sequence[EvalCaseResult]:
    """The results an HTML report lists: all of them, or past ``most`` that many, every
    failed and errored one first, then passing ones, in report order.

    One pass over ``results`` keeping at most ``most`` places of each kind, then the
    chosen ones read again (``results`` read from a file a case at a time are never held
    whole)."""
    if most is None or len(results) <= most:
        return results
    failing: list[int] = []
    passing: list[int] = []
    for index, result in enumerate(results):
        kind = passing if result.passed and not result.is_error else failing
        if len(kind) < most:
            kind.append(index)
    chosen = sorted(failing + passing[: most - len(failing)])
    if isinstance(results, list):
        return [results[i] for i in chosen]
    return _Chosen(results, chosen)


class _Chosen(Sequence[EvalCaseResult]):
    """Some of a sequence of results, each read from it when it is read (results read
    from a file a case at a time: the page's thousands of cases are not all held)."""

    def __init__(self, results: Sequence[EvalCaseResult], indices: list[int]) -> None:
        self.results = results
        self.indices = indices

    def __len__(self) -> int:
        return len(self.indices)

    @overload
    def __getitem__(self, index: int) -> EvalCaseResult: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[EvalCaseResult]: ...

    def __getitem__(self, index: int | slice) -> EvalCaseResult | Sequence[EvalCaseResult]:
        if isinstance(index, slice):
            return _Chosen(self.results, self.indices[index])
        return self.results[self.indices[index]]


def _prepared_or_read(
    shown: Sequence[EvalCaseResult], options: ViewOptions
) -> Iterable[str | EvalCaseResult]:
    """The ``shown`` cases, each as its data's text when it was made as the run went
    (:class:`PreparedCases`), else the result (its text to be made)."""
    results, indices = (
        (shown.results, shown.indices) if isinstance(shown, _Chosen) else (shown, None)
    )
    if not isinstance(results, JournalResults) or options not in results.prepared:
        return shown
    return results.texts(options, range(len(results)) if indices is None else indices)


class PreparedCases:
    """The page's data of a run's cases, made as they finish (``tenxeval-tui run``'s
    parent reads its worker's journal as it grows, on a core that is otherwise idle), for
    the report written after the last case: only the reading of the cases the page shows
    and the page itself are left then.

    Held in a temporary file by where each case's line starts in the journal
    (:class:`~tenxeval_tui.evaluation.results.journal_results.PreparedTexts`): the first
    ``most`` failed or errored cases and the first ``most`` passing ones that come (every
    case a page of ``most`` may show, when they come in report order). A case not made
    here is made as the page is written."""

    def __init__(self, options: ViewOptions, most: int | None = MAX_CASES) -> None:
        self.options = options
        self.most = most
        self._file = tempfile.TemporaryFile()  # noqa: SIM115 (held as long as the texts)
        self._size = 0
        self._places: dict[int, tuple[int, int]] = {}
        self._kinds = [0, 0]
        """Cases made of each kind: failing, passing."""

    def add(self, result: EvalCaseResult, start: int) -> None:
        """Make the data of ``result``, whose journal line starts at byte ``start``."""
        kind = int(result.passed and not result.is_error)
        if self.most is not None and self._kinds[kind] >= self.most:
            return
        self._kinds[kind] += 1
        data = "".join(_case_parts(result, self.options)).encode("utf-8")
        self._file.write(data)
        self._places[start] = (self._size, len(data))
        self._size += len(data)

    def text(self, start: int) -> str | None:
        """The data of the case whose journal line starts at byte ``start``."""
        place = self._places.get(start)
        if place is None:
            return None
        self._file.flush()
        offset, size = place
        return os.pread(self._file.fileno(), size, offset).decode("utf-8")

    def attach(self, results: JournalResults) -> None:
        """Let an HTML report of ``results`` (the journal's these cases were read from)
        take their data from here."""
        results.prepared[self.options] = self


NODE_BATCH = 500
"""Node entries of a case serialised at once."""


_NODES_MARK = f"tenxeval-nodes-{uuid.uuid4().hex}"
"""Where a case's node entries go in its data's text until they are written in batches:
random, so that no text of a case holds it, and made once a process (a uuid a case was a
tenth of the page data a run's parent makes as each case ends, issue #38)."""


def _case_parts(result: EvalCaseResult, options: ViewOptions) -> Iterator[str]:
    """``script_json(case_view(result, options))`` in pieces, its node entries in batches."""
    held: list[Iterator[dict[str, Any]]] = []
    mark = _NODES_MARK

    def hold(entries: Iterator[dict[str, Any]]) -> list[str]:
        held.append(entries)
        return [mark]

    text = script_json(case_view(result, options, nodes=hold))
    if not held:
        yield text
        return
    head, _, tail = text.partition(f'["{mark}"]')
    yield head + "["
    first = True
    while batch := list(itertools.islice(held[0], NODE_BATCH)):
        yield ("" if first else ",") + script_json(batch)[1:-1]
        first = False
    yield "]" + tail
