"""Print the shape of the core's imports: loose modules, cycles, function-level imports.

Run: ``.venv/bin/python bench/import_shape.py``. Counts, for ``tenxeval_tui``:

- the loose modules at the root of ``evaluation/`` (``__init__`` and ``__main__`` aside);
- the import cycles between modules, function-level and ``TYPE_CHECKING`` imports counted
  (grimp reads every import statement), each as its strongly connected set of modules;
- the function-level imports in the core (``# lazy`` ones, kept for start-up time, apart)
  and in the whole package;
- the import lines outside the core that reach into it, and how many use the package itself.

Exits non-zero when there is a cycle, so it can gate a change the way ``make lint`` does.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import grimp

PACKAGE = "tenxeval_tui"
CORE = f"{PACKAGE}.evaluation"
ROOT = Path(__file__).resolve().parent.parent / PACKAGE


def cycles(graph: grimp.ImportGraph) -> list[list[str]]:
    """Strongly connected sets of more than one module (Tarjan, iterative)."""
    edges = {m: sorted(graph.find_modules_directly_imported_by(m)) for m in graph.modules}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0
    for start in sorted(edges):
        if start in index:
            continue
        work = [(start, 0)]
        while work:
            node, child = work.pop()
            if child == 0:
                index[node] = low[node] = counter
                counter += 1
                stack.append(node)
                on_stack.add(node)
            targets = [t for t in edges[node] if t in edges]
            if child < len(targets):
                work.append((node, child + 1))
                target = targets[child]
                if target not in index:
                    work.append((target, 0))
                elif target in on_stack:
                    low[node] = min(low[node], index[target])
                continue
            if low[node] == index[node]:
                members = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    members.append(member)
                    if member == node:
                        break
                if len(members) > 1:
                    found.append(sorted(members))
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
    return found


def function_level_imports(path: Path) -> tuple[int, int]:
    """(all, marked ``# lazy:``) import statements inside a function of one file."""
    source = path.read_text(encoding="utf-8")
    lines = source.splitlines()
    total = lazy = 0
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        for inner in ast.walk(node):
            if isinstance(inner, (ast.Import, ast.ImportFrom)):
                total += 1
                said = lines[inner.lineno - 1] + lines[inner.lineno - 2]  # or the comment above
                if "# lazy" in said:
                    lazy += 1
    return total, lazy


def core_import_lines(path: Path) -> tuple[int, int]:
    """(all, through the package itself) import statements of one file that reach the core."""
    total = front_door = 0
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        names: list[str] = []
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [node.module]
        elif isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        for name in names:
            if name == CORE or name.startswith(CORE + "."):
                total += 1
                front_door += name == CORE
    return total, front_door


def main() -> int:
    core = ROOT / "evaluation"
    loose = [p for p in core.glob("*.py") if p.stem not in {"__init__", "__main__"}]
    print(f"loose modules at the root of evaluation/: {len(loose)}")
    graph = grimp.build_graph(PACKAGE, cache_dir=None)
    found = cycles(graph)
    print(f"import cycles (function-level and TYPE_CHECKING imports counted): {len(found)}")
    for members in found:
        print(f"  {len(members)} modules: {', '.join(members)}")
    total = lazy = 0
    for path in core.rglob("*.py"):
        counts = function_level_imports(path)
        total += counts[0]
        lazy += counts[1]
    print(f"function-level imports in evaluation/: {total} ({lazy} marked # lazy)")
    everywhere = sum(function_level_imports(path)[0] for path in ROOT.rglob("*.py"))
    print(f"function-level imports in the whole package: {everywhere}")
    outside = front = 0
    for path in ROOT.rglob("*.py"):
        if core in path.parents:
            continue
        counts = core_import_lines(path)
        outside += counts[0]
        front += counts[1]
    print(f"import lines from outside the core into it: {outside} ({front} via the package)")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
