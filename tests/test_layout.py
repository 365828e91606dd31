"""Facts about the package's layout that CONTRIBUTING.rst promises, checked from the code.

One home per job stays true only if something fails when it stops being true:
the number of modules at the top, the one rule for ``_private`` modules, no
import circle, and no function too long to read in one screen or two.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "scrapy_cx"
MAX_TOP_MODULES = 12
MAX_FUNCTION_LINES = 100


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


def test_a_private_module_is_imported_only_from_its_own_package() -> None:
    """``pkg/_mod.py`` is pkg's business: other packages import pkg's root."""
    wrong = []
    for name in MODULES:
        for imported in _top_level_imports(name):
            last = imported.rpartition(".")[2]
            owner = imported.rpartition(".")[0]
            if last.startswith("_") and not last.startswith("__"):
                if _package_of(name) != owner:
                    wrong.append(f"{name} imports {imported}")
    assert wrong == []


def test_no_import_circle() -> None:
    graph = {name: set(_top_level_imports(name)) - {name} for name in MODULES}
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
