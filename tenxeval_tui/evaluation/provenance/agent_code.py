"""The agent's code, as a report's provenance hashes it (``agent_sha256``).

The files, exactly, for an agent ``MODULE:ATTR`` run from a project folder:

1. ``MODULE``'s own file, found the way a run imports it (the project folder first,
   then ``sys.path``) but without importing it;
2. when ``MODULE`` is in a package (``a.b.c``), every ``.py`` file of its top-level
   package (``a/``, every subfolder but ``__pycache__`` and hidden ones);
3. then, until nothing more is added, every module those files import (``import x``,
   ``from x import y``, relative imports resolved, and the packages above them) that is
   a ``.py`` file of the project: in the project folder (or a folder of ``sys.path`` inside it, such as
   ``src/``), outside virtual environments and ``site-packages``. The standard library,
   installed packages (their versions are recorded in ``versions`` instead) and
   tenxeval-tui itself are not hashed.

The hash is the SHA-256 of the canonical JSON of the sorted list of
``[path, SHA-256 of the file's bytes]``, each path relative to the import-path folder it
was found in (``my_agent/graph.py``), so the same code checked out elsewhere hashes the
same. Files that are not Python (a prompt template beside the code) are not covered:
name them in the agent's code if they matter, or keep them in the eval set.
"""

from __future__ import annotations

import ast
import hashlib
import os
import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from importlib.machinery import ModuleSpec, PathFinder
from pathlib import Path

from tenxeval_tui.evaluation.canonical import sha256_json
from tenxeval_tui.evaluation.provenance.imports_cache import ImportsCache

OWN_PACKAGE = "tenxeval_tui"
_NOT_PROJECT_PARTS = frozenset(
    {"site-packages", "dist-packages", ".venv", "venv", ".tox", ".nox", "node_modules"}
)


@dataclass(frozen=True, slots=True)
class AgentCode:
    """The files of an agent's code (see the module docs) and what else they import."""

    module: str
    files: tuple[tuple[str, str], ...]
    """``(path, SHA-256 of its bytes)`` of every file hashed, sorted by path."""
    imports: tuple[str, ...]
    """Top-level names of the installed (non-standard-library) modules the files import."""

    @property
    def sha256(self) -> str:
        """The agent's code hash."""
        return sha256_json([list(pair) for pair in self.files])


def _spec(name: str, search: Sequence[str]) -> ModuleSpec | None:
    """The spec of module ``name`` found in ``search`` (packages walked down), nothing
    imported; ``None`` when it is not there."""
    parts = name.split(".")
    spec = PathFinder.find_spec(parts[0], list(search))
    for depth in range(1, len(parts)):
        if spec is None or not spec.submodule_search_locations:
            return None
        locations = list(spec.submodule_search_locations)
        spec = PathFinder.find_spec(".".join(parts[: depth + 1]), locations)
    return spec


def _source_file(spec: ModuleSpec | None) -> Path | None:
    if spec is None or not spec.origin or not spec.has_location:
        return None
    path = Path(spec.origin)
    return path if path.suffix == ".py" and path.is_file() else None


def _package_files(spec: ModuleSpec | None) -> Iterator[tuple[Path, tuple[str, ...]]]:
    """Every ``.py`` file under a package's folders (none for a plain module), with its
    path's parts below its folder. Walked with strings: ``Path.relative_to`` for every
    file was a third of a walk whose files' imports were known (issue #38)."""
    if spec is None or not spec.submodule_search_locations:
        return
    for folder in spec.submodule_search_locations:
        found: list[tuple[str, tuple[str, ...]]] = []
        for top, subfolders, names in os.walk(folder):
            below = os.path.relpath(top, folder)
            parts = () if below == os.curdir else tuple(below.split(os.sep))
            subfolders[:] = [d for d in subfolders if d != "__pycache__" and d[0] != "."]
            found.extend(
                (os.path.join(top, name), (*parts, name)) for name in names if name.endswith(".py")
            )
        for path, parts in sorted(found):
            yield Path(path), parts


_PARSED_LIMIT = 4096
_parsed: dict[tuple[str, str, bool], frozenset[str]] = {}
"""``(SHA-256 of a file's bytes, its module, is it a package)`` -> :func:`_imported_names`.

Parsing is most of a walk's cost, and a process that runs an agent again and again (the
pytest helpers, watch mode, the workbench) walks the same files each time: keyed by the
bytes' hash, a file changed since is parsed again. A walk given an :class:`ImportsCache`
also keeps them on disk, for the next process."""


def _imported_names_cached(
    source: bytes, digest: str, module: str, is_package: bool, disk: ImportsCache | None = None
) -> frozenset[str]:
    key = (digest, module, is_package)
    kept = disk.get(key) if disk is not None else None  # also marks it used by this walk
    names = _parsed.get(key)
    if names is None:
        names = kept if kept is not None else frozenset(_imported_names(source, module, is_package))
    if disk is not None and kept is None:  # parsed here, or by this process before
        disk.put(key, names)
    if key not in _parsed:
        if len(_parsed) >= _PARSED_LIMIT:
            _parsed.clear()
        _parsed[key] = names
    return names


_BLOCKS = ("body", "orelse", "finalbody", "handlers", "cases")
"""The fields of a statement (or an ``except``/``case`` clause) that hold statements."""


def _import_statements(tree: ast.Module) -> Iterator[ast.Import | ast.ImportFrom]:
    """Every import statement of ``tree``, at any depth (in functions, classes, ``if``,
    ``try``, ``with``, ``match``...). Only statements are visited: an import is never
    part of an expression, and walking every node of the tree took most of a walk."""
    pending: list[ast.AST] = list(tree.body)
    while pending:
        node = pending.pop()
        if isinstance(node, ast.Import | ast.ImportFrom):
            yield node
            continue
        for block in _BLOCKS:
            pending.extend(getattr(node, block, ()))


def _imported_names(source: bytes, module: str, is_package: bool) -> set[str]:
    """The module names a file's import statements name (relative ones resolved)."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return set()
    package = module if is_package else module.rpartition(".")[0]
    names: set[str] = set()
    for node in _import_statements(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".") if package else []
                parts = parts[: len(parts) - (node.level - 1)] if node.level > 1 else parts
                base = ".".join(p for p in [*parts, base] if p)
            if base:
                names.add(base)
                names.update(f"{base}.{alias.name}" for alias in node.names)
    # importing a.b.c runs a/__init__.py and a/b/__init__.py too
    parents = {".".join(n.split(".")[:i]) for n in names for i in range(1, n.count(".") + 1)}
    return {n for n in names | parents if n}


class _Walk:
    """The files of one agent's code as they are found."""

    def __init__(
        self, project: Path | None, path: Sequence[str], disk: ImportsCache | None = None
    ) -> None:
        self.disk = disk
        self.project = project.resolve() if project is not None else None
        inside = [p for p in path if p and self._in_project(Path(p).resolve())]
        self.project_search = [str(self.project), *inside] if self.project is not None else []
        self.search = [*self.project_search, *path]
        self.files: dict[Path, str] = {}
        """Each file found -> its module name."""
        self.digests: dict[Path, str] = {}
        """Each file read so far -> the SHA-256 of its bytes."""
        self.imports: set[str] = set()
        self._taken: set[str] = set()
        self._tops: dict[str, bool] = {}
        """Each top-level name looked up -> whether the project's folders hold it."""
        self._roots: list[str] | None = None
        self._folders: dict[Path, Path] = {}
        """Each folder a file was found in -> the folder resolved (symbolic links followed)."""

    def _in_project(self, path: Path) -> bool:
        if self.project is None or not path.is_relative_to(self.project):
            return False
        return not _NOT_PROJECT_PARTS.intersection(path.relative_to(self.project).parts)

    def add(self, path: Path, module: str) -> None:
        self.files.setdefault(self._resolved(path), module)

    def _resolved(self, path: Path) -> Path:
        """``path.resolve()``, its folder resolved once a walk: a package's files share
        one, and resolving followed each folder above every file (a tenth of a walk)."""
        if path.is_symlink() or path.name in ("", ".", ".."):
            return path.resolve()
        folder = self._folders.get(path.parent)
        if folder is None:
            folder = self._folders[path.parent] = path.parent.resolve()
        return folder / path.name

    def add_package(self, top: str) -> None:
        for path, parts in _package_files(_spec(top, self.search)):
            names = [*parts[:-1], parts[-1][: -len(".py")]]
            names = names[:-1] if names[-1] == "__init__" else names
            self.add(path, ".".join([top, *names]))

    def follow_imports(self) -> None:
        done: set[Path] = set()
        while pending := [p for p in self.files if p not in done]:
            for path in pending:
                done.add(path)
                module = self.files[path]
                source = path.read_bytes()
                digest = self.digests[path] = hashlib.sha256(source).hexdigest()
                is_package = path.name == "__init__.py"
                for name in _imported_names_cached(source, digest, module, is_package, self.disk):
                    self._take(name)

    def _take(self, name: str) -> None:
        if name in self._taken:  # the same module named by many files is looked up once
            return
        self._taken.add(name)
        top = name.partition(".")[0]
        if top == OWN_PACKAGE or top == "__future__" or top in sys.stdlib_module_names:
            return
        if not self._in_project_search(top):  # nothing under it is the project's either
            self.imports.add(top)
            return
        try:
            file = _source_file(_spec(name, self.project_search)) if self.project_search else None
        except (ImportError, ValueError, OSError):
            file = None
        if file is not None and self._in_project(self._resolved(file)):
            self.add(file, name)
        elif _spec_or_none(top, self.project_search) is None:
            self.imports.add(top)

    def _in_project_search(self, top: str) -> bool:
        """Whether the top-level module ``top`` is found in the project's folders: looked
        up once a walk (each of a file's ``from x.y import z`` names ``x`` again)."""
        found = self._tops.get(top)
        if found is None:
            found = self._tops[top] = _spec_or_none(top, self.project_search) is not None
        return found

    def relative(self, path: Path) -> str:
        if self._roots is None:
            self._roots = [str(Path(p).resolve()) for p in self.search if p]
        # Folders as strings: Path.is_relative_to, for every file and every folder of the
        # import path, was a tenth of a walk. The deepest folder holding the file wins.
        text = str(path)
        under = [r for r in self._roots if text.startswith(r.rstrip(os.sep) + os.sep)]
        root = Path(max(under, key=len)) if under else path.parent
        return path.relative_to(root).as_posix()


def _spec_or_none(name: str, search: Sequence[str]) -> ModuleSpec | None:
    if not search:
        return None
    try:
        return _spec(name, search)
    except (ImportError, ValueError, OSError):
        return None


def agent_code(
    module: str,
    project: str | Path | None = None,
    path: Sequence[str] | None = None,
    *,
    cache: ImportsCache | None = None,
) -> AgentCode | None:
    """The code of the agent in ``module``, run from ``project`` (``None``: the module's
    own folder on the import path), found on the import path ``path`` (default
    ``sys.path``); ``None`` when the module cannot be found. ``cache``: what each file
    imports, kept on disk (:mod:`.imports_cache`; saved when the walk added to it)."""
    path = list(sys.path if path is None else path)
    walk = _Walk(Path(project) if project is not None else None, path, cache)
    try:
        spec = _spec(module, walk.search)
    except (ImportError, ValueError, OSError):
        return None
    file = _source_file(spec)
    if file is None and not (spec is not None and spec.submodule_search_locations):
        return None
    if walk.project is None and file is not None:
        walk = _Walk(_import_root(file, module), path, cache)
    if file is not None:
        walk.add(file, module)
    if "." in module or (spec is not None and spec.submodule_search_locations):
        walk.add_package(module.partition(".")[0])
    try:
        walk.follow_imports()
    finally:
        if cache is not None:
            cache.save()
    files = sorted((walk.relative(path), walk.digests[path]) for path in walk.files)
    return AgentCode(module=module, files=tuple(files), imports=tuple(sorted(walk.imports)))


def _import_root(file: Path, module: str) -> Path:
    """The folder on the import path ``module`` (in ``file``) was found in."""
    depth = module.count(".") + (1 if file.name == "__init__.py" else 0)
    return file.resolve().parents[depth]


__all__ = ["OWN_PACKAGE", "AgentCode", "agent_code"]
