"""The real headless Chromium the HTML report tests drive (installed when missing)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from .chromium import Chromium, find_chromium


@pytest.fixture(scope="module")
def browser() -> Iterator[Chromium]:
    """One headless Chromium per test module; a machine without one fails these tests."""
    executable, why = find_chromium()
    if executable is None:
        pytest.fail(
            f"headless Chromium is needed to check the HTML report in a browser: {why} "
            "(install Debian's 'chromium' package, or set CHROMIUM to its executable)"
        )
    chromium = Chromium(executable)
    try:
        yield chromium
    finally:
        chromium.close()
