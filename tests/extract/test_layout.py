"""The core's layout (issue 21): no import circle among its modules, a small __init__."""

from __future__ import annotations

import ast
from pathlib import Path

import scrapy_cx.extract

PACKAGE = Path(scrapy_cx.extract.__file__).parent


def import_graph(package: Path) -> dict[str, set[str]]:
    """Module -> the package's modules it imports, ``TYPE_CHECKING`` imports included."""
    modules = {path.stem for path in package.glob("*.py")}
    graph: dict[str, set[str]] = {}
    for name in modules:
        found: set[str] = set()
        for node in ast.walk(ast.parse((package / f"{name}.py").read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.level == 1:
                if node.module:
                    found.add(node.module.split(".")[0])
                else:
                    found.update(alias.name for alias in node.names)
        graph[name] = (found & modules) - {name}
    return graph


def cycle(graph: dict[str, set[str]]) -> list[str]:
    """One import circle of ``graph`` (its modules in order), or [] when there is none."""
    state: dict[str, int] = {}  # 1: on the path being walked, 2: done
    path: list[str] = []

    def visit(name: str) -> list[str]:
        state[name] = 1
        path.append(name)
        for target in sorted(graph[name]):
            if state.get(target) == 1:
                return path[path.index(target) :] + [target]
            if target not in state and (found := visit(target)):
                return found
        state[name] = 2
        path.pop()
        return []

    for name in sorted(graph):
        if name not in state and (found := visit(name)):
            return found
    return []


def test_no_module_of_the_core_imports_itself_back() -> None:
    assert cycle(import_graph(PACKAGE)) == []


def test_the_cycle_finder_finds_a_circle() -> None:
    assert cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert cycle({"a": {"b"}, "b": set()}) == []


def test_the_package_init_holds_only_the_entry_points_and_the_stages() -> None:
    lines = (PACKAGE / "__init__.py").read_text(encoding="utf-8").count("\n")
    assert lines < 150
