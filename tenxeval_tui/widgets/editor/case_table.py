"""The case list: every case of an eval set as one row, filtered live.

Eval sets can hold tens of thousands of cases, so this is a
:class:`~tenxeval_tui.widgets.common.virtual_table.VirtualTable` over the uids of the
visible cases: it keeps the rows as plain data and draws only the lines on screen.
Filtering recomputes the list of visible uids (a cheap pass over precomputed text) and
repaints; no widget is built per row. Text from the file is drawn as plain segments,
never parsed as markup.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import ClassVar

from rich.cells import cell_len, set_cell_size
from rich.segment import Segment
from rich.style import Style
from textual import events
from textual.binding import Binding, BindingType
from textual.message import Message

from tenxeval_tui.authoring import case_fields as casefields
from tenxeval_tui.authoring.document import CaseState
from tenxeval_tui.browsing.case_flips import FLIP_MARK
from tenxeval_tui.evaluation.inert import inert
from tenxeval_tui.widgets.common.virtual_table import CURSOR_KEYS, VirtualTable

_FLATTEN = str.maketrans({"\n": " ", "\r": " ", "\t": " "})


@dataclass(frozen=True, slots=True)
class CaseRow:
    """What the list shows of one case (inert: controls shown as glyphs), and what the
    filter matches against."""

    uid: int
    eval_id: str
    name: str
    turns: int
    tools: int
    tags: tuple[str, ...]
    search: str
    folded_tags: frozenset[str]

    @classmethod
    def of(cls, case: CaseState) -> CaseRow:
        """The row of a case (a case of an unexpected shape gets a row of ``?``)."""
        try:
            turns, tools = casefields.case_summary(case.data)
            tags = tuple(str(tag) for tag in case.data.get("tags") or [])
            search = casefields.case_search_text(case.data)
        except (TypeError, AttributeError, ValueError):
            turns, tools, tags, search = -1, -1, ("?",), case.eval_id.casefold()
        return cls(
            uid=case.uid,
            eval_id=inert(case.eval_id.translate(_FLATTEN)),
            name=inert(str(case.data.get("name", "")).translate(_FLATTEN)),
            turns=turns,
            tools=tools,
            tags=tuple(inert(tag) for tag in tags),
            search=search,
            folded_tags=frozenset(tag.casefold() for tag in tags),
        )


@dataclass(frozen=True, slots=True)
class CaseFilter:
    """A filter typed by the user: words match id, name, description and user messages;
    ``#tag`` words require the tag."""

    words: tuple[str, ...] = ()
    tags: tuple[str, ...] = ()

    @classmethod
    def parse(cls, text: str) -> CaseFilter:
        """Split the filter text into words and ``#tags``."""
        words: list[str] = []
        tags: list[str] = []
        for token in text.casefold().split():
            if token.startswith("#") and len(token) > 1:
                tags.append(token[1:])
            elif token != "#":
                words.append(token)
        return cls(tuple(words), tuple(tags))

    def narrows(self, other: CaseFilter) -> bool:
        """Whether every row this filter lets through also passes ``other`` (so filtering
        the rows ``other`` kept is enough)."""
        return all(any(old in new for new in self.words) for old in other.words) and set(
            other.tags
        ) <= set(self.tags)

    def matches(self, row: CaseRow) -> bool:
        """Whether the row passes the filter."""
        return all(tag in row.folded_tags for tag in self.tags) and all(
            word in row.search for word in self.words
        )


class CaseTable(VirtualTable):
    """The cases of the open eval set, one line each; a mark flags cases with problems
    (``!``), else cases that flipped in the last runs (``~``, :meth:`set_flipped`).

    The items are the uids of the visible cases: ``Highlighted`` carries the uid under
    the cursor (``None`` when no case is visible), ``Selected`` (enter or a double
    click) the uid to edit. The column titles are drawn above the list by the screen
    (``ColumnsChanged``), beside the filter box.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        *CURSOR_KEYS,
        Binding("enter", "select", "Edit case", show=False),
        Binding("delete", "screen.delete_case", "Delete case"),
        Binding("slash", "screen.focus_filter", "Filter", show=False),
        Binding("space", "toggle_chosen", "Select", show=False, tooltip="Select for a bulk edit"),
        Binding("ctrl+b", "screen.bulk_edit", "Bulk edit", tooltip="Edit the selected cases"),
    ]

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "case-table--header",
        "case-table--cursor",
        "case-table--problem",
        "case-table--flipped",
        "case-table--dim",
    }

    SHOW_HEADER = False
    CLICK_SELECTS_CURSOR_ROW = False

    class ColumnsChanged(Message):
        """The width changed: ``header`` is the column titles line for the new width."""

        def __init__(self, header: str) -> None:
            super().__init__()
            self.header = header

    def __init__(self, *, name: str | None = None, id: str | None = None) -> None:
        super().__init__(name=name, id=id)
        self._cases: dict[int, CaseState] = {}
        self._rows: dict[int, tuple[CaseState, CaseRow]] = {}
        """Rows drawn or filtered so far, with the case state each was made of (built on
        demand: a big set shows at once; kept while its case is unchanged)."""
        self._order: list[int] = []
        self._visible: list[int] = []
        self._marked: set[int] = set()
        self._chosen: set[int] = set()
        """Cases selected (space) for a bulk edit."""
        self._flipped: frozenset[str] = frozenset()
        """The ``eval_id`` of the cases that flipped in the last runs."""
        self._filter = CaseFilter()
        self._pinned: int | None = None
        """A case an edit took out of the filter: listed until the filter changes, so the
        list and the form keep showing the same case."""

    # --- data ----------------------------------------------------------------------

    def set_cases(self, cases: Iterable[CaseState], marked: set[int]) -> None:
        """Show these cases (in this order), keeping the filter and, if it is still there,
        the highlighted case."""
        before = self._cases
        self._cases = {case.uid: case for case in cases}
        # A case state is replaced, never changed, by an edit: the rows of the cases an
        # undo or a new case left as they were stay (remade for 1,000 cases, they took a
        # good part of each ctrl+z), and so does their paint (see _refilter).
        changed = [uid for uid, case in self._cases.items() if before.get(uid) is not case]
        self._rows = {uid: row for uid, row in self._rows.items() if uid in self._cases}
        self._order = list(self._cases)
        if self._pinned not in self._cases:
            self._pinned = None
        same_marks = self._marked == marked
        self._marked = set(marked)
        self._chosen &= set(self._cases)
        self._refilter(changed=changed if same_marks else None)
        self.call_after_refresh(self._warm_up, 0)

    @property
    def chosen_uids(self) -> list[int]:
        """The cases selected for a bulk edit, in list order (hidden ones too)."""
        return [uid for uid in self._order if uid in self._chosen]

    def action_toggle_chosen(self) -> None:
        """Select (or unselect) the highlighted case for a bulk edit, then move down."""
        uid = self.highlighted_uid
        if uid is None:
            return
        self._chosen ^= {uid}
        index = self.index_of(uid)
        if index is not None:
            self.refresh_row(index)
        self._move(min(self.cursor + 1, len(self._visible) - 1))

    def clear_chosen(self) -> None:
        """Unselect every case."""
        if self._chosen:
            self._chosen.clear()
            self.refresh_rows()

    def _row(self, uid: int) -> CaseRow:
        case = self._cases[uid]
        made = self._rows.get(uid)
        if made is None or made[0] is not case:
            made = self._rows[uid] = (case, CaseRow.of(case))
        return made[1]

    def _warm_up(self, start: int, chunk: int = 400) -> None:
        """Build the rows a filter needs in small steps between frames, so that the first
        filter keystroke on a big set does not pay for all of them."""
        order = self._order
        for uid in order[start : start + chunk]:
            self._row(uid)
        if start + chunk < len(order):
            self.set_timer(
                0.001, lambda: self._warm_up(start + chunk) if order is self._order else None
            )

    def update_case(self, case: CaseState) -> None:
        """Redraw one case after an edit (re-checks it against the filter)."""
        self._cases[case.uid] = case
        self._rows.pop(case.uid, None)
        row = self._row(case.uid)
        index = self.index_of(case.uid)
        visible = index is not None
        matches = self._filter.matches(row)
        if visible and not matches and case.uid == self.highlighted_uid:
            self._pinned = case.uid  # being edited: it stays until the filter changes
        if index is not None and (matches or self._pinned == case.uid):
            self.refresh_row(index)
        elif visible != matches:
            self._refilter()

    def set_marked(self, marked: set[int]) -> None:
        """Cases to flag as having problems."""
        if marked != self._marked:
            self._marked = set(marked)
            self.refresh_rows()

    def set_flipped(self, eval_ids: frozenset[str]) -> None:
        """Mark the cases with these ids as flipped in the last runs (``~``)."""
        if eval_ids != self._flipped:
            self._flipped = frozenset(eval_ids)
            self.refresh_rows()

    @property
    def flipped_uids(self) -> list[int]:
        """The cases marked as flipped, in list order (hidden ones too)."""
        flipped = self._flipped
        return [uid for uid in self._order if self._cases[uid].eval_id in flipped]

    def set_filter(self, text: str) -> None:
        """Filter the rows by ``text`` (see :class:`CaseFilter`)."""
        new = CaseFilter.parse(text)
        if new != self._filter:
            narrower = new.narrows(self._filter) and self._pinned is None
            self._filter = new
            self._pinned = None
            with self.moved_by_user():  # typed: the form follows in the key's step
                self._refilter(only_visible=narrower)

    def _refilter(self, *, only_visible: bool = False, changed: list[int] | None = None) -> None:
        """Filter the rows again. With ``changed`` (the only cases whose rows may look
        different), when the same rows are listed in the same places, only those repaint
        (an undo repainted the whole list)."""
        current = self.highlighted_uid
        before = self._visible
        if self._filter.words or self._filter.tags:
            matches = self._filter.matches
            row = self._row
            pinned = self._pinned
            candidates = self._visible if only_visible else self._order
            self._visible = [uid for uid in candidates if uid == pinned or matches(row(uid))]
        else:
            self._visible = list(self._order)
        if changed is not None and self._visible == before and before is self.items:
            self.keep_items(self._visible, changed)
        else:
            self.replace_items(self._visible)
        if current is None or current not in self._cases or not self.select_uid(current):
            # the highlighted case is gone: highlight (and tell about) the one now there
            self.cursor = min(self.cursor, max(len(self._visible) - 1, 0))

    @property
    def visible_uids(self) -> list[int]:
        """The uids of the rows the filter lets through, in order."""
        return list(self._visible)

    @property
    def highlighted_uid(self) -> int | None:
        """The uid of the highlighted row."""
        uid = self.current
        return None if uid is None else int(uid)

    def select_uid(self, uid: int) -> bool:
        """Highlight case ``uid``; ``False`` when the filter hides it."""
        return self.move_to(uid)

    def on_resize(self, event: events.Resize) -> None:
        super().on_resize(event)
        self.post_message(
            self.ColumnsChanged(self.header_text(self.scrollable_content_region.width))
        )

    # --- drawing -------------------------------------------------------------------

    def _columns(self, width: int) -> tuple[int, int, int]:
        """Widths of the id, name and tags columns (mark, turns and tools are fixed)."""
        rest = max(width - 2 - 6 - 6 - 2, 12)
        id_width = max(rest * 3 // 10, 8)
        tags_width = max(rest * 25 // 100, 6)
        return id_width, max(rest - id_width - tags_width, 4), tags_width

    @staticmethod
    def _cell(text: str, width: int) -> str:
        """``text`` cut (with an ellipsis) or padded to ``width`` cells, then a gap."""
        if cell_len(text) > width:
            text = set_cell_size(text, width - 1) + "…"
        return set_cell_size(text, width) + " "

    def header_text(self, width: int) -> str:
        """The column titles, aligned with the rows."""
        id_w, name_w, tags_w = self._columns(width)
        return (
            "  "
            + self._cell("id", id_w)
            + self._cell("name", name_w)
            + "turns "
            + "tools "
            + set_cell_size("tags", tags_w)
        )

    def row_segments(self, index: int, width: int) -> list[Segment]:
        uid = self._visible[index]
        row = self._row(uid)
        id_w, name_w, tags_w = self._columns(width)
        mark: list[Segment] = []
        if uid in self._marked:
            mark = [Segment("!")]
        elif self._flipped and self._cases[uid].eval_id in self._flipped:
            style = self.get_component_rich_style("case-table--flipped", partial=True)
            mark = [Segment(FLIP_MARK, style)]  # partial: the cursor's background shows
        text = (
            ("" if mark else " ")
            + ("✓" if uid in self._chosen else " ")
            + self._cell(row.eval_id, id_w)
            + self._cell(row.name, name_w)
            + f"{row.turns if row.turns >= 0 else '?':>5} "
            + f"{row.tools if row.tools >= 0 else '?':>5} "
            + set_cell_size(", ".join(row.tags), tags_w)
        )
        return [*mark, Segment(set_cell_size(text, width - len(mark)))]

    def row_style(self, index: int) -> Style:
        style: Style = self.rich_style
        if self._visible[index] in self._marked:
            style = style + self.get_component_rich_style("case-table--problem")
        if index == self.cursor:
            style = style + self.get_component_rich_style("case-table--cursor", partial=True)
        return style
