"""The workbench's modules are imported without the cycle collector walking them
(``evaluation/long_lived.py``)."""

from __future__ import annotations

import gc

import pytest

from tenxeval_tui.evaluation.long_lived import long_lived_imports


class Built:
    """An object the collector tracks (as modules, classes and functions are)."""


def in_generation(obj: object, generation: int) -> bool:
    return any(found is obj for found in gc.get_objects(generation))


@pytest.mark.parametrize("enabled_before", [True, False])
def test_no_collection_meanwhile_then_what_was_built_is_in_the_oldest_generation(
    enabled_before: bool,
) -> None:
    was_enabled = gc.isenabled()
    (gc.enable if enabled_before else gc.disable)()
    try:
        with long_lived_imports():
            assert not gc.isenabled()
            built = Built()
        # Young collections never walk it again; full ones still see it.
        assert in_generation(built, 2)
        assert not in_generation(built, 0)
        assert gc.isenabled() is enabled_before
    finally:
        (gc.enable if was_enabled else gc.disable)()


def test_the_collector_is_back_on_when_an_import_fails() -> None:
    was_enabled = gc.isenabled()
    gc.enable()
    try:
        with pytest.raises(ModuleNotFoundError), long_lived_imports():
            import tenxeval_tui.no_such_module  # noqa: F401
        assert gc.isenabled()
    finally:
        (gc.enable if was_enabled else gc.disable)()


def test_a_freeze_made_since_is_left_frozen() -> None:
    """The workbench freezes what is alive after its start, a worker its cases: moving new
    objects to the oldest generation (freeze, then unfreeze) would undo that freeze."""
    kept = Built()
    gc.freeze()
    try:
        frozen = gc.get_freeze_count()
        with long_lived_imports():
            Built()
        assert gc.get_freeze_count() == frozen
        assert not any(found is kept for found in gc.get_objects())  # still out of sight
    finally:
        gc.unfreeze()
