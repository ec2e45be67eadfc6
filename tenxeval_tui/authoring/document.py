"""The editing model of one eval set file: its cases, undo/redo, problems and saving.

The document keeps the file's own JSON objects (so key order, indentation and fields we
do not know all survive a save) and never mutates a case in place: every edit stores a
new case object, so an undo step is just the object before and the object after.
Typed text that does not parse (bad JSON args, say) is kept as a *draft* of the field,
shown back to the user and reported as a problem; a save with problems writes nothing.

No UI import here: the Textual editor is a view over this class.
"""

from __future__ import annotations

import copy
import itertools
import json
import uuid
from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from tenxeval_tui.authoring import case_fields as casefields
from tenxeval_tui.authoring.case_problems import ProblemIndex, case_problems, tools_problem
from tenxeval_tui.authoring.edit_steps import (
    CaseState,
    Change,
    DeleteCase,
    InsertCase,
    InsertCases,
    JsonFormat,
    MoveCase,
    ReplaceCase,
    ReplaceCases,
    SetHeader,
    change_uid,
)
from tenxeval_tui.authoring.eval_set_header import file_stem, slug_for
from tenxeval_tui.authoring.json_splice import splice_changed_cases, splice_top_level
from tenxeval_tui.evaluation.errors import EvalFileError, Problem
from tenxeval_tui.evaluation.files.fileio import (
    atomic_write_text,
    gc_paused,
    parse_json,
    read_text,
)
from tenxeval_tui.evaluation.targets.loader import EVAL_SET_AGENT_KEY


@dataclass(frozen=True, slots=True)
class _SavedText:
    """A text of the file and the cases and top-level fields it holds."""

    text: str
    cases: list[CaseState]
    header: str


class EvalSetDocument:
    """An eval set file being edited."""

    def __init__(self, data: dict[str, Any], path: Path | None, fmt: JsonFormat | None = None):
        self.path = path
        self.format = fmt or JsonFormat()
        self._uids = itertools.count(1)
        cases = data.get("eval_cases") or []
        self._header = {k: (None if k == "eval_cases" else v) for k, v in data.items()}
        self._header.setdefault("eval_cases", None)
        self.cases: list[CaseState] = [CaseState(next(self._uids), case) for case in cases]
        self._problems = ProblemIndex(self.cases)
        self._positions: dict[int, int] = {}
        """uid -> place in ``cases``, rebuilt when a lookup finds it out of date (a keystroke
        looks its case up several times; a scan of a big set each time held the typing up)."""
        self._undo: list[Change] = []
        self._redo: list[Change] = []
        self._saved_top: Change | None = None
        self._coalesce = True
        self.disk_text: str | None = None
        """The file's text as last loaded or saved (to tell our own writes from others')."""
        self._base: _SavedText | None = None
        """The text last loaded or saved and what it held: a save rewrites only what changed."""

    # --- opening -------------------------------------------------------------------

    @classmethod
    def load(cls, path: Path, *, validate: bool = True) -> EvalSetDocument:
        """Open ``path``; raises ``FileNotFoundError`` or ``EvalFileError`` naming the problem.

        With ``validate=False`` only the JSON syntax and shape are checked here (fast for
        big files); the caller then checks the file with ``validate_eval_set_file``
        before letting anyone edit it.
        """
        text = read_text(path)
        if validate:
            from tenxeval_tui.evaluation.dataset.eval_set import EvalSet

            EvalSet.from_file(path)  # every problem, with line and column, before we touch it
        return cls.from_text(path, text)

    @classmethod
    def from_text(cls, path: Path, text: str) -> EvalSetDocument:
        """The eval set ``text`` read from ``path``, as :meth:`load` with ``validate=False``
        opens it; raises ``EvalFileError`` when it is no eval set's JSON."""
        with gc_paused():
            data = parse_json(path, text)
            cases = data.get("eval_cases", []) if isinstance(data, dict) else None
            if not isinstance(cases, list) or not all(isinstance(case, dict) for case in cases):
                message = (
                    "not an eval set: expected a JSON object whose eval_cases is a list of objects"
                )
                raise EvalFileError([Problem(path=str(path), line=1, column=1, message=message)])
            document = cls(data, path, JsonFormat.detect(text))
        document.disk_text = text
        document._base = document._saved_text(text)
        return document

    @classmethod
    def new(
        cls, path: Path, name: str = "", *, eval_set_id: str = "", agent: str = ""
    ) -> EvalSetDocument:
        """A new, empty eval set that will be written to ``path`` (nothing is written yet).

        Its ``eval_set_id`` is ``eval_set_id``, or by default a slug of the file name
        (``smoke.evalset.json`` -> ``smoke``): the id names every report file of the set,
        so a readable one beats the random UUID :class:`EvalSet` gives. A non-empty
        ``agent`` (``module:attribute``) goes into ``metadata.agent``.
        """
        from tenxeval_tui.evaluation.dataset.eval_set import EvalSet

        eval_set = EvalSet(
            eval_set_id=eval_set_id or slug_for(path),
            name=name or file_stem(path),
            metadata={EVAL_SET_AGENT_KEY: agent} if agent else {},
        )
        document = cls(eval_set.model_dump(mode="json"), path)
        document._saved_top = InsertCase(-1, CaseState(0, {}))  # never matches: unsaved
        return document

    # --- reading -------------------------------------------------------------------

    @property
    def name(self) -> str:
        """The eval set's ``name`` (or its id when it has none)."""
        return str(self._header.get("name") or self._header.get("eval_set_id") or "")

    def header(self, key: str) -> str:
        """A top-level text field of the eval set."""
        return str(self._header.get(key) or "")

    @property
    def agent(self) -> str:
        """The agent the eval set names in ``metadata.agent`` (empty when none)."""
        metadata = self._header.get("metadata")
        agent = metadata.get(EVAL_SET_AGENT_KEY) if isinstance(metadata, dict) else None
        return agent if isinstance(agent, str) else ""

    def index_of(self, uid: int) -> int:
        """Position of the case ``uid``; ``KeyError`` when it is not in the document."""
        index = self._positions.get(uid)
        if index is None or index >= len(self.cases) or self.cases[index].uid != uid:
            self._positions = {case.uid: i for i, case in enumerate(self.cases)}
            index = self._positions.get(uid)
            if index is None:
                raise KeyError(uid)
        return index

    def case(self, uid: int) -> CaseState:
        """The case ``uid``."""
        return self.cases[self.index_of(uid)]

    def field_text(self, uid: int, key: str) -> str:
        """What the input of ``key`` shows: the draft when there is one."""
        case = self.case(uid)
        if key in case.drafts:
            return case.drafts[key][0]
        return casefields.field_text(case.data, key)

    @property
    def dirty(self) -> bool:
        """Whether there are changes not written to the file."""
        top = self._undo[-1] if self._undo else None
        return top is not self._saved_top

    @property
    def can_undo(self) -> bool:
        """Whether there is a step to undo."""
        return bool(self._undo)

    @property
    def can_redo(self) -> bool:
        """Whether there is a step to redo."""
        return bool(self._redo)

    # --- problems ------------------------------------------------------------------

    def field_problems(self, uid: int) -> dict[str, str]:
        """Field key -> message for every problem of case ``uid``."""
        case = self.case(uid)
        same = self._problems.same_id(case.eval_id)
        return case_problems(case, [self.index_of(u) for u in same] if len(same) > 1 else ())

    def problem_uids(self) -> set[int]:
        """The cases that have at least one problem (the case list marks them)."""
        return self._problems.uids()

    def _set_case(self, index: int, case: CaseState) -> None:
        """Put ``case`` at ``index`` in place of the case there (every replacement goes
        through here or the two below, which keep the problem index up to date)."""
        self._problems.remove(self.cases[index])
        self.cases[index] = case
        self._problems.add(case)

    def _insert_case(self, index: int, case: CaseState) -> None:
        self.cases.insert(index, case)
        self._problems.add(case)

    def _pop_case(self, index: int) -> CaseState:
        case = self.cases.pop(index)
        self._problems.remove(case)
        return case

    def problems(self) -> list[str]:
        """Every problem of the document, one readable line each (empty when it can be saved)."""
        lines: list[str] = []
        for uid in sorted(self.problem_uids(), key=self.index_of):
            index = self.index_of(uid)
            for key, message in self.field_problems(uid).items():
                label = casefields.field_label(key)
                lines.append(f"case #{index + 1} {self.case(uid).eval_id!r}: {label}: {message}")
        tools = tools_problem(self._header)
        if tools is not None:
            lines.append(f"eval set: {tools}")
        if not lines:
            lines = self._model_problems()
        return lines

    def _model_problems(self) -> list[str]:
        """What the eval-set model says of the top-level fields and the changed cases.

        Cases that are the same objects as at the last load or save passed this check
        then (a file is edited only once it checked clean), so only the others are
        validated: a save of one edited case of a big set does not validate them all.
        """
        from tenxeval_tui.evaluation.dataset.eval_set import EvalSet

        positions = [i for i, saved in enumerate(self._saved_flags()) if not saved]
        header = {k: v for k, v in self._header.items() if k != "eval_cases"}
        try:
            EvalSet.from_data({**header, "eval_cases": [self.cases[i].data for i in positions]})
        except ValidationError as exc:
            lines = []
            for error in exc.errors():
                loc = list(error["loc"])
                if len(loc) > 1 and loc[0] == "eval_cases" and isinstance(loc[1], int):
                    loc[1] = positions[loc[1]]  # the case's place in the whole set
                where = ".".join(str(part) for part in loc) or "eval set"
                lines.append(f"{where}: {error['msg']}")
            return lines
        return []

    # --- editing -------------------------------------------------------------------

    def _push(self, change: Change, *, coalesce_key: str | None = None) -> None:
        top = self._undo[-1] if self._undo else None
        if (
            coalesce_key is not None
            and self._coalesce
            and isinstance(top, ReplaceCase)
            and isinstance(change, ReplaceCase)
            and top.key == coalesce_key
            and top.after.uid == change.after.uid
            and top is not self._saved_top
        ):
            top.after = change.after
        else:
            self._undo.append(change)
        self._coalesce = True
        self._redo.clear()

    def seal(self) -> None:
        """End the current typing run: the next keystroke starts a new undo step."""
        self._coalesce = False

    def _replace(self, new: CaseState, key: str | None = None) -> Change:
        index = self.index_of(new.uid)
        change = ReplaceCase(self.cases[index], new, key)
        self._set_case(index, new)
        self._push(change, coalesce_key=key)
        return change

    def set_field(self, uid: int, key: str, text: str) -> bool:
        """Store typed ``text`` in field ``key`` of case ``uid``; ``False`` when nothing changed.

        Text that does not parse becomes a draft (a problem) and leaves the data as it was.
        """
        case = self.case(uid)
        drafts = dict(case.drafts)
        if text == casefields.field_text(case.data, key):
            # What the field shows already: its first display, or a draft typed back to it.
            # Storing it would write display defaults ("test_user", {}) the file never had.
            if drafts.pop(key, None) is None:
                return False
            self._replace(replace(case, drafts=drafts), key)
            return True
        try:
            data = casefields.with_field(case.data, key, text)
        except casefields.FieldValueError as exc:
            if drafts.get(key) == (text, str(exc)):
                return False
            drafts[key] = (text, str(exc))
            self._replace(replace(case, drafts=drafts), key)
            return True
        drafts.pop(key, None)
        if data == case.data and drafts == case.drafts:
            return False
        self._replace(replace(case, data=data, drafts=drafts), key)
        return True

    def set_header(self, key: str, text: str) -> bool:
        """Set a top-level text field (``name``, ``description``) of the eval set."""
        before = self._header.get(key)
        if before == text:
            return False
        self._header[key] = text
        top = self._undo[-1] if self._undo else None
        if (
            isinstance(top, SetHeader)
            and top.key == key
            and self._coalesce
            and top is not self._saved_top
        ):
            top.after = text
            self._redo.clear()
        else:
            self._push(SetHeader(key, before, text))
        return True

    def set_agent(self, agent: str) -> bool:
        """Name the agent in ``metadata.agent`` (empty: name none); one undo step.

        The other metadata keys are kept; a file that had no metadata gets none for
        an empty agent.
        """
        before = self._header.get("metadata")
        metadata = dict(before) if isinstance(before, dict) else {}
        if agent:
            metadata[EVAL_SET_AGENT_KEY] = agent
        else:
            metadata.pop(EVAL_SET_AGENT_KEY, None)
        after: dict[str, Any] | None = metadata if metadata or before is not None else None
        return self.set_header_value("metadata", after)

    def set_header_value(self, key: str, value: Any) -> bool:
        """Set top-level field ``key`` to any JSON ``value`` (``None``: remove it); one step."""
        before = self._header.get(key)
        if key == "eval_cases" or _json_text(before) == _json_text(value):
            return False
        if value is None:
            self._header.pop(key, None)
        else:
            self._header[key] = value
        self._push(SetHeader(key, before, value))
        return True

    def put_case(
        self, uid: int, data: dict[str, Any], drafts: dict[str, tuple[str, str]] | None = None
    ) -> None:
        """Replace case ``uid`` whole with ``data`` (and its ``drafts``): one undo step."""
        self._replace(CaseState(uid, data, dict(drafts or {})))

    def replace_cases(self, updates: Mapping[int, dict[str, Any]]) -> list[int]:
        """Replace the data of several cases at once (``uid -> data``; each case keeps
        its drafts): one undo step for all. The uids of the cases that changed."""
        steps: list[ReplaceCase] = []
        for uid, data in updates.items():
            index = self.index_of(uid)
            before = self.cases[index]
            if data == before.data:
                continue
            after = CaseState(uid, data, dict(before.drafts))
            self._set_case(index, after)
            steps.append(ReplaceCase(before, after))
        if steps:
            self._push(ReplaceCases(steps))
        return [step.after.uid for step in steps]

    def insert_case(
        self, index: int, data: dict[str, Any], drafts: dict[str, tuple[str, str]] | None = None
    ) -> int:
        """Insert a case at ``index`` as given (one undo step); its uid."""
        case = CaseState(next(self._uids), data, dict(drafts or {}))
        self._insert_case(index, case)
        self._push(InsertCase(index, case))
        return case.uid

    def insert_cases(self, index: int, cases: list[dict[str, Any]]) -> list[int]:
        """Insert ``cases`` at ``index``, in order, as one undo step (an import); their uids.

        An ``eval_id`` the eval set has already (or that comes twice) gets a ``_2``,
        ``_3``... suffix, so the ids stay unique."""
        taken = {case.eval_id for case in self.cases}
        states: list[CaseState] = []
        for data in cases:
            data = copy.deepcopy(data)
            eval_id = str(data.get("eval_id") or "") or self._new_eval_id()
            candidate, number = eval_id, 2
            while candidate in taken:
                candidate, number = f"{eval_id}_{number}", number + 1
            data["eval_id"] = candidate
            taken.add(candidate)
            states.append(CaseState(next(self._uids), data, {}))
        if not states:
            return []
        for offset, state in enumerate(states):
            self._insert_case(index + offset, state)
        self._push(InsertCases(index, tuple(states)))
        return [state.uid for state in states]

    @property
    def base_cases(self) -> list[CaseState] | None:
        """The cases as last loaded or saved (``None`` for a file never written)."""
        return list(self._base.cases) if self._base is not None else None

    @property
    def base_header(self) -> dict[str, Any] | None:
        """The top-level fields (not ``eval_cases``) as last loaded or saved."""
        if self._base is None:
            return None
        return dict(json.loads(self._base.header))

    @property
    def header_fields(self) -> dict[str, Any]:
        """The top-level fields (not ``eval_cases``) as they are now."""
        return {k: v for k, v in self._header.items() if k != "eval_cases"}

    def _new_eval_id(self, base: str = "") -> str:
        """``case_N`` for a new case; ``{base}_copy``, ``{base}_copy2``... for a copy."""
        taken = {case.eval_id for case in self.cases}
        if not base:
            index = len(self.cases) + 1
            while f"case_{index}" in taken:
                index += 1
            return f"case_{index}"
        candidate, index = f"{base}_copy", 2
        while candidate in taken:
            candidate, index = f"{base}_copy{index}", index + 1
        return candidate

    def _insert(self, index: int, data: dict[str, Any]) -> int:
        return self.insert_case(index, data)

    def add_case(self, after: int | None = None) -> int:
        """Add a blank one-turn case after case ``after`` (at the end when ``None``); its uid."""
        from tenxeval_tui.evaluation.dataset.eval_set import EvalCase, Invocation, MessageContent

        case = EvalCase(
            eval_id=self._new_eval_id(),
            conversation=[Invocation(user_content=MessageContent.user(""))],
        )
        index = len(self.cases) if after is None else self.index_of(after) + 1
        return self._insert(index, case.model_dump(mode="json"))

    def duplicate_case(self, uid: int) -> int:
        """Copy case ``uid`` right after itself, with a new ``eval_id``; the copy's uid."""
        source = self.case(uid)
        data = copy.deepcopy(source.data)
        data["eval_id"] = self._new_eval_id(source.eval_id or "case")
        for turn in data.get("conversation") or []:
            if isinstance(turn, dict) and "invocation_id" in turn:
                turn["invocation_id"] = str(uuid.uuid4())
        return self._insert(self.index_of(uid) + 1, data)

    def delete_case(self, uid: int) -> None:
        """Remove case ``uid``."""
        index = self.index_of(uid)
        case = self._pop_case(index)
        self._push(DeleteCase(index, case))

    def move_case(self, uid: int, delta: int) -> bool:
        """Move case ``uid`` by ``delta`` places; ``False`` at either end."""
        source = self.index_of(uid)
        target = source + delta
        if not 0 <= target < len(self.cases) or delta == 0:
            return False
        self.cases.insert(target, self.cases.pop(source))
        self._push(MoveCase(source, target, uid))
        return True

    def _edit_turns(self, uid: int, edit: Any, renumber: casefields.Renumber) -> None:
        case = self.case(uid)
        data = copy.deepcopy(case.data)
        turns = data.setdefault("conversation", [])
        edit(turns)
        # Drafts name turns and tool calls by position: they follow their turn or call
        # to its new place, and go with it when it is removed.
        drafts = {}
        for key, draft in case.drafts.items():
            moved = casefields.moved_field_key(key, renumber)
            if moved is not None:
                drafts[moved] = draft
        self._replace(replace(case, data=data, drafts=drafts))

    def add_turn(self, uid: int, after: int | None = None) -> int:
        """Add an empty turn after turn ``after`` (at the end when ``None``); its index."""
        position = (
            len(self.case(uid).data.get("conversation") or []) if after is None else after + 1
        )
        from tenxeval_tui.evaluation.dataset.eval_set import Invocation, MessageContent

        turn = Invocation(user_content=MessageContent.user("")).model_dump(mode="json")
        self._edit_turns(
            uid,
            lambda turns: turns.insert(position, turn),
            lambda t, c: (t + 1 if t >= position else t, c),
        )
        return position

    def remove_turn(self, uid: int, turn: int) -> None:
        """Remove turn ``turn`` of case ``uid``."""
        self._edit_turns(
            uid,
            lambda turns: turns.pop(turn),
            lambda t, c: None if t == turn else (t - 1 if t > turn else t, c),
        )

    def add_tool_call(self, uid: int, turn: int) -> int:
        """Add a blank expected tool call at the end of a turn; its index."""
        calls = self.case(uid).data["conversation"][turn].get("expected_tool_trajectory") or []
        position = len(calls)
        self._edit_turns(
            uid,
            lambda turns: (
                turns[turn]
                .setdefault("expected_tool_trajectory", [])
                .append(casefields.new_tool_call())
            ),
            lambda t, c: (t, c),  # appended: nothing moves
        )
        return position

    def remove_tool_call(self, uid: int, turn: int, call: int) -> None:
        """Remove an expected tool call."""

        def renumber(t: int, c: int | None) -> tuple[int, int | None] | None:
            if t != turn or c is None or c < call:
                return t, c
            return None if c == call else (t, c - 1)

        self._edit_turns(
            uid, lambda turns: turns[turn]["expected_tool_trajectory"].pop(call), renumber
        )

    def move_tool_call(self, uid: int, turn: int, call: int, delta: int) -> bool:
        """Move an expected tool call within its turn; ``False`` at either end."""
        calls = self.case(uid).data["conversation"][turn].get("expected_tool_trajectory") or []
        target = call + delta
        if not 0 <= target < len(calls) or delta == 0:
            return False

        def move(turns: list[dict[str, Any]]) -> None:
            trajectory = turns[turn]["expected_tool_trajectory"]
            trajectory.insert(target, trajectory.pop(call))

        def renumber(t: int, c: int | None) -> tuple[int, int | None] | None:
            if t != turn or c is None:
                return t, c
            if c == call:
                return t, target
            if call < c <= target:
                return t, c - 1
            if target <= c < call:
                return t, c + 1
            return t, c

        self._edit_turns(uid, move, renumber)
        return True

    # --- undo / redo ---------------------------------------------------------------

    def _apply(self, change: Change, *, reverse: bool) -> None:
        match change:
            case ReplaceCase(before=before, after=after):
                new = before if reverse else after
                self._set_case(self.index_of(new.uid), new)
            case InsertCase(index=index, case=case) | DeleteCase(index=index, case=case):
                inserting = isinstance(change, InsertCase) != reverse
                if inserting:
                    self._insert_case(index, case)
                else:
                    self._pop_case(index)
            case InsertCases(index=index, cases=cases):
                for offset, case in enumerate(cases):
                    if reverse:
                        self._pop_case(index)
                    else:
                        self._insert_case(index + offset, case)
            case MoveCase(source=source, target=target):
                a, b = (target, source) if reverse else (source, target)
                self.cases.insert(b, self.cases.pop(a))
            case ReplaceCases(steps=steps):
                for step in reversed(steps) if reverse else steps:
                    self._apply(step, reverse=reverse)
            case SetHeader(key=key, before=before, after=after):
                value = before if reverse else after
                if value is None:  # the file had no such field: undo leaves none
                    self._header.pop(key, None)
                else:
                    self._header[key] = value

    def undo(self) -> Change | None:
        """Undo the last step; the step undone, or ``None`` when there is none."""
        if not self._undo:
            return None
        change = self._undo.pop()
        self._apply(change, reverse=True)
        self._redo.append(change)
        self._coalesce = False
        return change

    def redo(self) -> Change | None:
        """Redo the last undone step; the step, or ``None`` when there is none."""
        if not self._redo:
            return None
        change = self._redo.pop()
        self._apply(change, reverse=False)
        self._undo.append(change)
        self._coalesce = False
        return change

    # --- saving --------------------------------------------------------------------

    def to_data(self) -> dict[str, Any]:
        """The eval set as a JSON object, in the file's key order."""
        cases = [case.data for case in self.cases]
        return {k: (cases if k == "eval_cases" else v) for k, v in self._header.items()}

    def to_text(self) -> str:
        """The eval set as the file's text would be after a save.

        Cases and top-level fields left alone keep their text as it is in the file (its
        layout included); only changed ones are written anew, unless cases were added,
        removed or moved or a top-level field removed: then the whole file is written
        in its format.
        """
        spliced = self._spliced_text()
        return spliced if spliced is not None else self.format.dumps(self.to_data())

    def _header_text(self) -> str:
        # Compared as JSON text: 1, 1.0 and true are equal in Python, not in the file.
        fields = [(k, v) for k, v in self._header.items() if k != "eval_cases"]
        return json.dumps(fields, ensure_ascii=False)

    def _saved_flags(self) -> list[bool]:
        """Per case, whether it is as it was at the last load or save. Cases are replaced,
        never changed in place: the same object is the same case."""
        saved = {id(case) for case in self._base.cases} if self._base is not None else set()
        return [id(case) in saved for case in self.cases]

    def _saved_text(self, text: str) -> _SavedText:
        return _SavedText(text, list(self.cases), self._header_text())

    def _spliced_text(self) -> str | None:
        base = self._base
        if base is None or [c.uid for c in self.cases] != [c.uid for c in base.cases]:
            return None
        unchanged = self._saved_flags()
        text: str | None = base.text
        if not all(unchanged):
            text = splice_changed_cases(
                base.text, [case.data for case in self.cases], unchanged, self.format
            )
        if text is not None and self._header_text() != base.header:
            changes = self._header_changes(dict(json.loads(base.header)))
            text = None if changes is None else splice_top_level(text, changes, self.format)
        return text

    def _header_changes(self, saved: dict[str, Any]) -> dict[str, Any] | None:
        """The top-level fields set since ``saved``; ``None`` when one was removed or the
        fields were reordered (then the whole file is written)."""
        now = self.header_fields
        if [k for k in now if k in saved] != list(saved):
            return None
        return {
            k: v for k, v in now.items() if k not in saved or _json_text(v) != _json_text(saved[k])
        }

    def save(self, path: Path | None = None) -> list[str]:
        """Write the file atomically; with problems, write nothing and return them."""
        problems = self.problems()
        if problems:
            return problems
        target = path or self.path
        if target is None:
            return ["the eval set has no file name"]
        text = self.to_text()
        atomic_write_text(target, text)
        self.path = target
        self.disk_text = text
        self._base = self._saved_text(text)
        self._saved_top = self._undo[-1] if self._undo else None
        self._coalesce = False
        return []


def _json_text(value: Any) -> str:
    # Compared as JSON text: 1, 1.0 and true are equal in Python, not in the file.
    return json.dumps(value, ensure_ascii=False)


__all__ = [
    "CaseState",
    "Change",
    "DeleteCase",
    "EvalSetDocument",
    "InsertCase",
    "InsertCases",
    "JsonFormat",
    "MoveCase",
    "ReplaceCase",
    "ReplaceCases",
    "SetHeader",
    "change_uid",
]
