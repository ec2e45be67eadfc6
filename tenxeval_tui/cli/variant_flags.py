"""``run``'s variants: ``--agent`` given more than once, ``--variants FILE`` or
``[tool.tenxeval] variants``, and ``--baseline``, checked into the session's options
(:func:`variants_for`). Standard library only at import (``--help`` stays fast)."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from tenxeval_tui.cli.usage import UsageError

if TYPE_CHECKING:
    from tenxeval_tui.evaluation.variant_spec import Variant
    from tenxeval_tui.settings.workspace import Workspace


def single_agent(args: argparse.Namespace) -> None:
    """``args.agent``: the one ``--agent`` given (``None`` when none or several: several
    are variants, each its own agent)."""
    if hasattr(args, "agents"):  # run's parser (a caller's own Namespace may set agent)
        agents = args.agents or []
        args.agent = agents[0] if len(agents) == 1 else None


def several_agents(args: argparse.Namespace) -> bool:
    """Whether ``--agent`` was given more than once."""
    return len(getattr(args, "agents", None) or ()) > 1


def variants_for(
    args: argparse.Namespace, workspace: Workspace, default_agent: str
) -> tuple[Variant, ...]:
    """The variants to run side by side (none: a run of one agent, as before).

    ``--variants FILE``, else ``[tool.tenxeval] variants`` (unless several ``--agent``),
    plus one variant per ``--agent`` when it was given more than once. A variant naming
    no agent runs the run's."""
    from tenxeval_tui.evaluation.variant_spec import (
        VariantError,
        agent_variants,
        checked,
        load_variants_file,
        parse_variants,
    )

    file = getattr(args, "variants", None)
    agents = list(getattr(args, "agents", None) or ())
    try:
        if file:
            from pathlib import Path

            variants = load_variants_file(Path(file), default_agent or None)
        elif workspace.settings.variants and len(agents) <= 1:
            entries = [v.model_dump(exclude_defaults=True) for v in workspace.settings.variants]
            where = f"{workspace.settings_file}: tool.tenxeval.variants"
            variants = parse_variants(entries, where, default_agent or None)
        else:
            variants = []
        if len(agents) > 1:
            variants = checked([*variants, *agent_variants(agents)], "--agent/--variants")
    except VariantError as exc:
        raise UsageError(str(exc)) from None
    for variant in variants:
        if not (variant.agent or default_agent):
            raise UsageError(f"variant {variant.name!r}: no agent (give it one, or --agent)")
    _check_variant_flags(args, variants)
    return tuple(variants)


def _check_variant_flags(args: argparse.Namespace, variants: list[Variant]) -> None:
    """The flags that do not go with variants, and ``--baseline`` without them."""
    baseline = getattr(args, "baseline", None)
    if not variants:
        if baseline:
            raise UsageError(
                "--baseline: only goes with variants (--agent A --agent B, --variants)"
            )
        return
    if len(variants) < 2 and not getattr(args, "variants", None):
        return
    clashes = {
        "--watch": getattr(args, "watch", False),
        "--from-journal": getattr(args, "from_journal", None),
        "--shard": getattr(args, "shard", None),
        "-o": getattr(args, "outputs", None),
    }
    for flag, given in clashes.items():
        if given:
            raise UsageError(
                f"{flag}: not with variants (each variant's report is written in "
                "OUTPUT_DIR/VARIANT/, the matrix in OUTPUT_DIR)"
            )
    names = [v.name for v in variants]
    if baseline and baseline not in names:
        raise UsageError(
            f"--baseline {baseline!r}: no such variant (the variants: {', '.join(names)})"
        )
    resume = getattr(args, "resume", None)
    if resume:
        from pathlib import Path

        if not Path(resume).is_dir():
            raise UsageError(
                f"--resume {resume}: with variants, name the run's output folder (each "
                "variant resumes from the journal in its own folder)"
            )


__all__ = ["several_agents", "single_agent", "variants_for"]
