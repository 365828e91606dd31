"""Facts about the package's layout that CONTRIBUTING.rst promises, checked from the code.

One home per job stays true only if something fails when it stops being true:
the number of modules at the top, the one rule for ``_private`` modules, no
import circle, and no function too long to read in one screen or two. The core
(``extract/``) is grouped by phase: its sub-packages hold the modules, import no
Scrapy, and their tests mirror them.
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "scrapy_cx"
TESTS = Path(__file__).resolve().parent
CORE = "scrapy_cx.extract"
MAX_TOP_MODULES = 12
MAX_FUNCTION_LINES = 100
# extract/ itself keeps the entry points, Page and the helpers every phase shares;
# a stage's module lives in the sub-package of its phase.
CORE_ROOT_MODULES = {"__init__.py", "page.py", "_marks.py", "_urls.py"}


def _modules() -> dict[str, Path]:
    """Every module of the package by dotted name (a package by its own name)."""
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


MODULES = _modules()


def _package_of(name: str) -> str:
    return name if MODULES[name].name == "__init__.py" else name.rpartition(".")[0]


def _top_level_imports(name: str) -> Iterator[str]:
    """The package modules ``name`` imports when it is imported: module-level
    statements, ``if TYPE_CHECKING:`` blocks included (a circle there still ties
    the modules together), function bodies not (they import on first use)."""
    tree = ast.parse(MODULES[name].read_text(encoding="utf-8"))
    package = _package_of(name).split(".")
    todo: list[ast.stmt] = list(tree.body)
    while todo:
        node = todo.pop()
        if isinstance(node, (ast.If, ast.Try)):
            todo.extend(node.body + node.orelse)
            todo.extend(h for handler in getattr(node, "handlers", []) for h in handler.body)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = ".".join(package[: len(package) - node.level + 1])
                module = f"{base}.{node.module}" if node.module else base
            else:
                module = node.module or ""
            for alias in node.names:
                if f"{module}.{alias.name}" in MODULES:
                    yield f"{module}.{alias.name}"  # a submodule
                elif module in MODULES:
                    yield module
        elif isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names if alias.name in MODULES)


def test_at_most_twelve_modules_directly_in_the_package() -> None:
    top = sorted(path.name for path in PACKAGE.glob("*.py"))
    assert len(top) <= MAX_TOP_MODULES, top


def _all_imports(name: str) -> Iterator[tuple[str, int]]:
    """Every module name ``name`` imports, at any depth (function bodies too), with
    its line: what the module may pull in at some point, absolute."""
    tree = ast.parse(MODULES[name].read_text(encoding="utf-8"))
    package = _package_of(name).split(".")
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = ".".join(package[: len(package) - node.level + 1])
                yield (f"{base}.{node.module}" if node.module else base), node.lineno
            else:
                yield node.module or "", node.lineno
        elif isinstance(node, ast.Import):
            yield from ((alias.name, node.lineno) for alias in node.names)


def _sub_packages(root: str) -> list[str]:
    return [name for name in MODULES if _package_of(name) == name and name.startswith(f"{root}.")]


def test_a_private_module_is_imported_only_from_its_own_package() -> None:
    """``pkg/_mod.py`` is pkg's business (its sub-packages' too: ``extract/_urls.py``
    serves every phase of the core): other packages import pkg's root."""
    wrong = []
    for name in MODULES:
        for imported in _top_level_imports(name):
            last = imported.rpartition(".")[2]
            owner = imported.rpartition(".")[0]
            if last.startswith("_") and not last.startswith("__"):
                importer = _package_of(name)
                if importer != owner and not importer.startswith(f"{owner}."):
                    wrong.append(f"{name} imports {imported}")
    assert wrong == []


def test_the_core_imports_no_scrapy() -> None:
    """``extract/`` and each of its sub-packages run without Scrapy (a worker, a
    notebook, ``scrapy-cx extract``): no Scrapy, no Twisted, and of the rest of the
    package only ``article`` (the record it returns), at any depth."""
    wrong = []
    for name in MODULES:
        if name != CORE and not name.startswith(f"{CORE}."):
            continue
        for imported, line in _all_imports(name):
            top = imported.split(".")[0]
            if top in ("scrapy", "twisted", "itemadapter"):
                wrong.append(f"{name}:{line} imports {imported}")
            elif top == "scrapy_cx" and not (
                imported == "scrapy_cx.article"
                or imported == CORE
                or imported.startswith(f"{CORE}.")
            ):
                wrong.append(f"{name}:{line} imports {imported}")
    assert wrong == []


def test_the_core_keeps_its_modules_in_its_phases() -> None:
    """Each phase is a sub-package of ``extract/``; the root holds the map (``STAGES``),
    ``Page`` and the private helpers every phase shares, nothing else."""
    root = sorted(path.name for path in (PACKAGE / "extract").glob("*.py"))
    assert set(root) <= CORE_ROOT_MODULES, root
    assert len(_sub_packages(CORE)) >= 5


@pytest.mark.parametrize("name", _sub_packages(CORE))
def test_a_phase_root_imports_nothing(name: str) -> None:
    """The phases call into one another (the page typing reads the regions, the text
    choice reads the page type), so a phase's ``__init__`` that re-exported its
    modules would tie the phases into import circles: it holds a docstring only,
    and the stages are gathered once, in ``extract/__init__``."""
    tree = ast.parse(MODULES[name].read_text(encoding="utf-8"))
    assert ast.get_docstring(tree), f"{name} says what its phase does"
    imports = [
        node.lineno
        for node in tree.body
        if isinstance(node, (ast.Import, ast.ImportFrom)) and node.module != "__future__"
    ]
    assert imports == [], f"{name} imports at lines {imports}"


def test_no_module_shadows_the_standard_library() -> None:
    """A module named like a standard one (``select.py`` once) is the wrong module to a
    script run from its folder, a tool or a reader."""
    shadowing = [
        name
        for name in MODULES
        if name != "scrapy_cx" and name.rpartition(".")[2] in sys.stdlib_module_names
    ]
    assert shadowing == []


@pytest.mark.parametrize(
    "name", [name for name in MODULES if name.startswith(f"{CORE}.") and _package_of(name) != name]
)
def test_each_core_module_has_its_test_module_at_the_mirrored_path(name: str) -> None:
    """``extract/fields/dates.py`` -> ``tests/extract/fields/test_dates.py`` (a private
    module's test drops the underscore): the tests of a phase sit beside each other."""
    parts = MODULES[name].relative_to(PACKAGE).parts
    mirrored = TESTS.joinpath(*parts[:-1], "test_" + parts[-1].lstrip("_"))
    assert mirrored.is_file(), f"{name}: no {mirrored.relative_to(TESTS.parent)}"
    for folder in mirrored.relative_to(TESTS).parents:
        assert (TESTS / folder / "__init__.py").is_file(), f"tests/{folder} is a package"


def _with_packages(imported: set[str]) -> set[str]:
    """Importing ``a.b.c`` runs ``a/b/__init__`` first: a circle through a sub-package's
    root is as real as one through its modules."""
    found = set(imported)
    for module in imported:
        package = module.rpartition(".")[0]
        while package:
            found.add(package)
            package = package.rpartition(".")[0]
    return found


def test_no_import_circle() -> None:
    graph = {name: _with_packages(set(_top_level_imports(name))) - {name} for name in MODULES}
    for name, imported in graph.items():
        # A module's own package (its __init__) is imported before it in any case.
        package = name.rpartition(".")[0]
        while package:
            imported.discard(package)
            package = package.rpartition(".")[0]
    circles = []
    state: dict[str, int] = {}  # 1: on the path, 2: done

    def visit(name: str, path: list[str]) -> None:
        state[name] = 1
        for nxt in sorted(graph[name]):
            if state.get(nxt) == 1:
                circles.append(" -> ".join(path[path.index(nxt) :] + [name, nxt]))
            elif nxt not in state:
                visit(nxt, path + [name])
        state[name] = 2

    for name in sorted(graph):
        if name not in state:
            visit(name, [])
    assert circles == []


@pytest.mark.parametrize("name", sorted(MODULES))
def test_no_function_over_a_hundred_lines(name: str) -> None:
    tree = ast.parse(MODULES[name].read_text(encoding="utf-8"))
    long = [
        f"{node.name}: {node.end_lineno - node.lineno + 1} lines"
        for node in ast.walk(tree)
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
        and node.end_lineno is not None
        and node.end_lineno - node.lineno + 1 > MAX_FUNCTION_LINES
    ]
    assert long == []


def test_the_core_init_holds_only_the_entry_points_and_the_stages() -> None:
    """The stages live in modules of their own; ``extract/__init__`` is the map."""
    lines = len(MODULES["scrapy_cx.extract"].read_text(encoding="utf-8").splitlines())
    assert lines < 150
