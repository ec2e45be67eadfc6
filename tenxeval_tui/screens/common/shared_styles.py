"""A style sheet whose parsed rules are shared by every app of the process.

Textual parses each style source (the app's ``.tcss`` files, every widget class's
``DEFAULT_CSS``) into rule sets and caches them per style sheet, but
``Stylesheet.reparse`` (which every theme change and the first switch to a mode runs)
parses into a fresh style sheet with an empty cache: the workbench's start parsed its
sources four times, a fifth of a start's CPU. Here parsed rules are kept for the
process, keyed by the source's text and place and by the theme's variables (which the
parser substitutes), so a source is parsed once per theme. The UI tests start hundreds
of apps in one process and each start after the first parses nothing.

Rule sets are read-only once parsed (Textual already hands the same ones to every
parse of one style sheet), so sharing them between apps is safe.
"""

from __future__ import annotations

from dataclasses import fields
from pathlib import Path, PurePath

from textual.cache import LRUCache
from textual.css.model import RuleSet
from textual.css.stylesheet import Stylesheet
from textual.css.types import CSSLocation

STYLES = Path(__file__).parent.parent.parent / "styles"
"""The workbench's style sheets (``tenxeval_tui/styles/``)."""
RUN_CSS = STYLES / "run.tcss"
REPORTS_CSS = STYLES / "reports.tcss"
APP_STYLE_SHEETS: list[str | PurePath] = [
    STYLES / "app.tcss",
    STYLES / "editor.tcss",
    RUN_CSS,
    REPORTS_CSS,
]
"""Every style sheet, read by the app at its start. A screen naming its sheet in
``CSS_PATH`` names it by the same path: Textual reads a sheet it does not hold yet (by
path, as written) on the screen's first showing, parses every source again and restyles
the whole app, ~130 ms on the first switch to the reports."""


class IdentityHashedRuleSet(RuleSet):
    """Textual's rule set, hashed by its identity without a Python call.

    Textual's ``Stylesheet.apply`` (every restyle of every widget, and of each of its
    component classes) filters the style sheet's whole list of rules through a set of
    the candidate ones, and ``RuleSet.__hash__`` is Python (``return id(self)``): some
    300 calls per restyle, 5% of a start's CPU. ``object.__hash__`` is the same
    identity hash, in C; equality stays the dataclass's.
    """

    __hash__ = object.__hash__

    @classmethod
    def of(cls, rule: RuleSet) -> IdentityHashedRuleSet:
        """``rule``'s fields (shared, not copied) in a rule set of this class."""
        return cls(**{field.name: getattr(rule, field.name) for field in fields(rule)})


_VARIABLE_SETS: dict[tuple[tuple[str, str], ...], int] = {}
"""Each set of theme variables seen, numbered: a short key for the parsed-rules cache."""

_PARSED_RULES: LRUCache[tuple[object, ...], list[RuleSet]] = LRUCache(1024)
"""Parsed rules by (variables, css, place, default rules?, tie breaker, scope)."""


def _variables_number(variables: dict[str, str]) -> int:
    key = tuple(sorted(variables.items()))
    return _VARIABLE_SETS.setdefault(key, len(_VARIABLE_SETS))


class SharedStylesheet(Stylesheet):
    """Textual's style sheet, parsing each source once per theme in a process."""

    def __init__(self, *, variables: dict[str, str] | None = None) -> None:
        super().__init__(variables=variables)
        self._variables_key = _variables_number(self._variables)

    def set_variables(self, variables: dict[str, str]) -> None:
        """Set the theme's variables (rules parsed with others are not reused)."""
        super().set_variables(variables)
        self._variables_key = _variables_number(variables)

    def _parse_rules(
        self,
        css: str,
        read_from: CSSLocation,
        is_default_rules: bool = False,
        tie_breaker: int = 0,
        scope: str = "",
    ) -> list[RuleSet]:
        key = (self._variables_key, css, read_from, is_default_rules, tie_breaker, scope)
        rules = _PARSED_RULES.get(key)
        if rules is None:
            parsed = super()._parse_rules(css, read_from, is_default_rules, tie_breaker, scope)
            rules = [IdentityHashedRuleSet.of(rule) for rule in parsed]
            _PARSED_RULES.set(key, rules)
        return rules

    def reparse(self) -> None:
        """Parse every source again with the current variables, as Textual's
        ``reparse`` does (into a fresh style sheet, so an error leaves this one as it
        was), through the shared cache."""
        fresh = SharedStylesheet(variables=self._variables)
        fresh.source = self.source.copy()
        try:
            fresh.parse()
        except Exception:
            self._invalid_css.update(fresh._invalid_css)
            raise
        self._rules = fresh.rules
        self._rules_map = None
        self.source = fresh.source
        self._require_parse = False
