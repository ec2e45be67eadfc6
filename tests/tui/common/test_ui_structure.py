"""The UI's structure: no import cycles among its modules, and a typed host interface."""

from __future__ import annotations

from pathlib import Path

import grimp
from textual.app import App

from tenxeval_tui.app import WorkbenchApp
from tenxeval_tui.screens.common.host import StandaloneHost, WorkbenchHost, host_of
from tenxeval_tui.screens.reports.case_requests import EDIT_ACTION, RERUN_ACTION, app_supports

UI = ("tenxeval_tui.app", "tenxeval_tui.screens", "tenxeval_tui.widgets")


def test_no_ui_module_imports_one_that_imports_it_back() -> None:
    # Function-level and TYPE_CHECKING imports count too: they only hide a cycle.
    graph = grimp.build_graph("tenxeval_tui")
    modules = sorted(m for m in graph.modules if m.startswith(UI))
    cycles = []
    for importer in modules:
        for imported in graph.find_modules_directly_imported_by(importer):
            if imported.startswith(UI):
                back = graph.find_shortest_chain(importer=imported, imported=importer)
                if back is not None:
                    cycles.append((importer, *back))
    assert cycles == []


def test_the_workbench_app_is_the_screens_host(tmp_path: Path) -> None:
    app = WorkbenchApp(tmp_path, watch_files=False, watch_runs=True)
    assert isinstance(app, WorkbenchHost)
    host = host_of(app)
    assert host is app
    assert (host.watch_files, host.watch_runs, host.can_go_back) == (False, True, False)
    assert host.workspace.root.resolve() == tmp_path.resolve()


def test_another_app_gets_one_standalone_host_with_the_defaults() -> None:
    app: App[None] = App()
    host = host_of(app)
    assert isinstance(host, StandaloneHost)
    assert host_of(app) is host  # one per app: its workspace is opened once
    assert (host.watch_files, host.watch_runs, host.can_go_back) == (True, False, False)
    assert host.workspace.root.resolve() == Path.cwd().resolve()


def test_case_actions_are_offered_by_the_apps_that_have_them(tmp_path: Path) -> None:
    workbench = WorkbenchApp(tmp_path)
    assert app_supports(workbench, EDIT_ACTION) and app_supports(workbench, RERUN_ACTION)
    assert not app_supports(App(), EDIT_ACTION) and not app_supports(App(), RERUN_ACTION)
    assert not app_supports(workbench, "delete_everything")
