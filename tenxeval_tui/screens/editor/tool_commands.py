"""The editor's commands for a case's tools: its recorded calls in the cassette (``f8``)
and its ``metadata.tools`` section, or the eval set's (``f9``, ``shift+f9``).

Both open a dialog on what the editor shows now (the keys typed before count); the
section comes back into the eval set as one undo step of the editor, unsaved like any
edit, while the recorded calls are written to their own file by their dialog.
"""

from __future__ import annotations

import asyncio
import copy
from pathlib import Path
from typing import Any

from tenxeval_tui.authoring.document import EvalSetDocument
from tenxeval_tui.authoring.recorded_calls import CallsDraft, case_calls
from tenxeval_tui.authoring.tool_completion import FakeIndex
from tenxeval_tui.authoring.tool_section import SectionShapeError, section_texts, with_section
from tenxeval_tui.evaluation.inert import inert
from tenxeval_tui.evaluation.tools.cassette import CassetteError
from tenxeval_tui.evaluation.tools.settings import cassette_path
from tenxeval_tui.evaluation.tools.spec import TOOLS_KEY
from tenxeval_tui.screens.common.host import host_of
from tenxeval_tui.screens.editor.case_commands import CaseCommands
from tenxeval_tui.screens.editor.recorded_calls import RecordedCallsScreen
from tenxeval_tui.screens.editor.tool_section import ToolSectionScreen
from tenxeval_tui.widgets.editor.case_form import CaseForm


async def show_recorded_calls(cases: CaseCommands) -> None:
    """The highlighted case's recorded calls, in a dialog that edits and writes them."""
    screen = cases.screen
    document = cases.document
    form = screen.query_one(CaseForm)
    if document is None or document.path is None or not cases.checked or form.uid is None:
        screen.notify("Select a case of an eval set that loads first.")
        return
    case = document.case(form.uid).eval_id
    cassette = cassette_path(document.path)
    try:
        calls = await asyncio.to_thread(case_calls, cassette, case)  # a big file: off the UI
    except (CassetteError, OSError) as exc:
        screen.notify(
            inert(f"Cannot show the recorded calls: {exc}. Fix that line in your editor."),
            severity="error",
            markup=False,
            timeout=10,
        )
        return
    shown = host_of(screen.app).workspace.display_path(cassette)
    order = [each.eval_id for each in document.cases]
    await screen.app.push_screen_wait(
        RecordedCallsScreen(cassette, str(shown), CallsDraft(case, calls), order, form.completion)
    )


async def edit_tool_section(cases: CaseCommands, whole_set: bool, folder: Path) -> None:
    """Edit the ``metadata.tools`` of the highlighted case (or, ``whole_set``, of the
    eval set) in a dialog; what it applies is one undo step. ``folder``: where the
    agent's modules are found (fakes complete from its Python files)."""
    screen = cases.screen
    document = cases.document
    form = screen.query_one(CaseForm)
    uid = form.uid
    if document is None or not cases.checked or (uid is None and not whole_set):
        screen.notify("Select a case of an eval set that loads first.")
        return
    if whole_set:
        metadata = document.header_fields.get("metadata")
        what = "every case (the eval set's section)"
    else:
        assert uid is not None
        case = document.case(uid)
        if "metadata" in case.drafts:
            screen.notify("The case's metadata does not parse: fix it first.", severity="warning")
            return
        metadata = case.data.get("metadata")
        what = f"case {case.eval_id!r}"
    raw = metadata.get(TOOLS_KEY) if isinstance(metadata, dict) else None
    try:
        texts = section_texts(raw)
    except SectionShapeError as exc:
        screen.notify(
            inert(f"The tools section cannot be shown: {exc}. Fix it in the metadata field."),
            severity="warning",
            markup=False,
            timeout=10,
        )
        return
    section = await screen.app.push_screen_wait(
        ToolSectionScreen(what, raw, texts, form.completion, FakeIndex(folder))
    )
    if section is None:
        return
    if cases.document is not document:
        screen.notify("The eval set was reloaded meanwhile: the tools section was not applied.")
        return
    updated = with_section(metadata, section)
    if whole_set:
        document.seal()
        changed = document.set_header_value("metadata", updated)
    else:
        assert uid is not None
        changed = _put_case_metadata(document, uid, updated)
    document.seal()
    if not changed:
        screen.notify("The tools section is as it was.")
        return
    if not whole_set:
        await cases.reshow(uid, "metadata")
    cases.changed()
    screen.notify(
        inert(f"Applied the tools of {what}: unsaved (ctrl+s writes it, ctrl+z undoes it)."),
        markup=False,
    )


def _put_case_metadata(document: EvalSetDocument, uid: int, metadata: Any) -> bool:
    case = document.case(uid)
    data = copy.deepcopy(case.data)
    if metadata is None:
        data.pop("metadata", None)
    else:
        data["metadata"] = metadata
    if data == case.data:
        return False
    document.seal()
    document.put_case(uid, data, case.drafts)
    return True


__all__ = ["edit_tool_section", "show_recorded_calls"]
