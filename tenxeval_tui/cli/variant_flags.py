"""``run``'s variants: ``--agent`` given more than once, ``--variants FILE`` or
``[tool.tenxeval] variants``, and ``--baseline``, checked into the session's options
(:func:`variants_for`). Standard library only at import (``--help`` stays fast)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from tenxeval_tui.cli.usage import UsageError

if TYPE_CHECKING:
    from tenxeval_tui.evaluation.variant_spec import Variant
    from tenxeval_tui.settings.workspace import Workspace


@dataclass(frozen=True)
class VariantFlags:
    """``run``'s flags that choose the variants, and those that do not go with them."""

    agents: tuple[str, ...] = ()
    """Every ``--agent`` given, in order."""
    variants_file: str | None = None
    """``--variants FILE``."""
    baseline: str | None = None
    """``--baseline NAME``."""
    watch: bool = False
    """``--watch`` (not with variants)."""
    from_journal: str | None = None
    """``--from-journal`` (not with variants)."""
    shard: str | None = None
    """``--shard`` (not with variants)."""
    outputs: tuple[str, ...] = ()
    """``-o`` files (not with variants)."""
    resume: str | None = None
    """``--resume``: with variants, the run's output folder."""

    @property
    def single_agent(self) -> str | None:
        """The one ``--agent`` given (``None`` when none or several: several are
        variants, each its own agent)."""
        return self.agents[0] if len(self.agents) == 1 else None

    @property
    def several_agents(self) -> bool:
        """Whether ``--agent`` was given more than once."""
        return len(self.agents) > 1


def variants_for(
    flags: VariantFlags, workspace: Workspace, default_agent: str
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

    agents = list(flags.agents)
    try:
        if flags.variants_file:
            from pathlib import Path

            variants = load_variants_file(Path(flags.variants_file), default_agent or None)
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
    _check_variant_flags(flags, variants)
    return tuple(variants)


def _check_variant_flags(flags: VariantFlags, variants: list[Variant]) -> None:
    """The flags that do not go with variants, and ``--baseline`` without them."""
    baseline = flags.baseline
    if not variants:
        if baseline:
            raise UsageError(
                "--baseline: only goes with variants (--agent A --agent B, --variants)"
            )
        return
    if len(variants) < 2 and not flags.variants_file:
        return
    clashes = {
        "--watch": flags.watch,
        "--from-journal": flags.from_journal,
        "--shard": flags.shard,
        "-o": flags.outputs,
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
    if flags.resume:
        from pathlib import Path

        if not Path(flags.resume).is_dir():
            raise UsageError(
                f"--resume {flags.resume}: with variants, name the run's output folder (each "
                "variant resumes from the journal in its own folder)"
            )


__all__ = ["VariantFlags", "variants_for"]
