"""``tenxeval-tui run``: the flags made into a plan and the session's options once
(:func:`~tenxeval_tui.cli.headless.prepare_run`), then one run session
(:class:`~tenxeval_tui.runs.session.RunSession`), a watched run (:mod:`.watch_run`) or the
reports of a journal, shown on the console (:class:`~tenxeval_tui.cli.run_display.ConsoleDisplay`);
usage errors become exit code 2.

With ``--json``, whatever the run prints goes to stderr and stdout holds only the JSON
summary (:func:`~tenxeval_tui.cli.run_options.json_summary`), printed once the run ends.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import signal
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from tenxeval_tui.cli.headless import EXIT_USAGE, AgentTold, UsageError, prepare_run
from tenxeval_tui.evaluation.inert import inert
from tenxeval_tui.runs.problems import RunProblem

if TYPE_CHECKING:
    from tenxeval_tui.runs.case_scan import ScannedSet
    from tenxeval_tui.runs.outcome import Published
    from tenxeval_tui.runs.spare_worker import SpareWorker
    from tenxeval_tui.runs.variant_session import VariantOutcome


def _stop_on_sigterm() -> None:
    """SIGTERM (a CI job's timeout, ``timeout``, ``kill``) stops the run as Ctrl-C does: the
    worker child is asked to stop and killed when it does not within its grace (an agent
    blocking its event loop never reads the request), the finished cases are reported, and
    no process of the run is left behind."""

    def interrupt(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, interrupt)


def run_command(args: argparse.Namespace, spare: SpareWorker | None = None) -> int:
    """``tenxeval-tui run``: the exit code (usage errors are printed, never raised). The
    JSON reports written are added to their folder's history index. ``spare``: the worker
    started for the run before its flags were checked
    (:func:`~tenxeval_tui.cli.run_flags.wants_spare_worker`), run in or ended here."""
    try:
        return _run_command(args, spare)
    finally:
        if spare is not None:
            spare.discard()


def _run_command(args: argparse.Namespace, spare: SpareWorker | None) -> int:
    _stop_on_sigterm()
    published: list[Published] = []
    variants: list[VariantOutcome] = []
    if not args.json_summary:
        code = _run(args, published, variants, spare)
        _index(published)
        return code
    out = sys.stdout
    with contextlib.redirect_stdout(sys.stderr):
        code = _run(args, published, variants, spare)
    _index(published)
    if code != EXIT_USAGE:
        if variants:
            from tenxeval_tui.cli.variant_json import variants_json  # lazy: variants only

            summary = variants_json(variants[0], code, args.threshold)
        else:
            from tenxeval_tui.cli.run_options import json_summary

            summary = json_summary(published, code, args.threshold)
        with contextlib.suppress(BrokenPipeError):
            print(json.dumps(summary, indent=2), file=out, flush=True)
    return code


def _index(published: list[Published]) -> None:
    from tenxeval_tui.browsing.history.landing import index_landed

    index_landed(file for report in published for file in report.files)


def _run(
    args: argparse.Namespace,
    published: list[Published],
    variants: list[VariantOutcome],
    spare: SpareWorker | None = None,
) -> int:
    """The run the flags ask for; the report it wrote is added to ``published`` (a run
    of several variants: its outcome to ``variants``)."""
    try:
        plan, options = prepare_run(args, _telling(spare, args))
        # The run's machinery (pydantic and most of the core) is imported once the worker
        # child is told its agent, in prepare_run: imported before, it delayed the tell,
        # and so the agent's import in the child (issue #38). (A worker forked by the
        # console script has pydantic and the models from this process: runs/forked_spare.py.)
        from tenxeval_tui.cli.run_display import ConsoleDisplay
        from tenxeval_tui.cli.unknown_keys import warn_unknown_keys
        from tenxeval_tui.runs.session import RunSession

        # One read of each eval set for its keys and the plain run's selection.
        scanned: dict[Path, ScannedSet] | None = None if options.variants or args.watch else {}
        warn_unknown_keys(plan, strict=args.strict, scanned=scanned)
        if options.variants:
            # lazy: the variant matrix (sessions, display, statistics) only for --variants
            from tenxeval_tui.cli.variant_display import (
                VariantConsoleDisplay,
                show_variants_outcome,
            )
            from tenxeval_tui.runs.variant_session import VariantSession

            ran = VariantSession(
                plan,
                options,
                options.variants,
                lambda v: VariantConsoleDisplay(v.name, quiet=args.quiet),
                options.baseline,
            ).run()
            output_dir = Path(plan.resolved_config().reporter.output_dir)
            show_variants_outcome(ran, output_dir, sys.argv[1:], quiet=args.quiet)
            variants.append(ran)
            return ran.exit_code
        display = ConsoleDisplay(
            quiet=args.quiet, verbose=args.verbose, open_html=args.open, log_level=options.log_level
        )
        if args.watch:
            from tenxeval_tui.cli.watch_run import watch_loop  # lazy: --watch only

            return watch_loop(plan, options, display, lambda: prepare_run(args)[0], args.paths)
        outcome = RunSession(plan, options, display, spare=spare, scanned=scanned).run()
        if outcome.published is not None:
            published.append(outcome.published)
        return outcome.exit_code
    except (UsageError, RunProblem) as exc:
        print(inert(f"tenxeval-tui run: {exc}", multiline=True), file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        from tenxeval_tui.runs.outcome import EXIT_INTERRUPTED

        return EXIT_INTERRUPTED


def _telling(spare: SpareWorker | None, args: argparse.Namespace) -> AgentTold | None:
    """What tells ``spare`` its agent once the settings are read (``None``: no spare)."""
    if spare is None:
        return None

    def tell(agent: str, folder: Path) -> None:
        from tenxeval_tui.cli.logs import log_level
        from tenxeval_tui.runs.spare_worker import told

        assert spare is not None
        spare.prepare(
            told(agent, folder, args.verbose, log_level(args.log_level, args.verbose)),
            folder,
            # the worker starts their git state while it imports the agent (provenance)
            [str(Path(path).absolute()) for path in args.paths],
        )

    return tell


__all__ = ["run_command"]
