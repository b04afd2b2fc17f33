"""agentbus's core modules import each other without cycles (issue 15, item 5).

A cycle makes a module's meaning depend on import order, and the lazy imports
that hide one still tie two concepts together. Imports inside functions and
under TYPE_CHECKING count too.
"""

from __future__ import annotations

import ast
from pathlib import Path

import agentbus

PACKAGE = Path(agentbus.__file__).parent


def _module_name(path: Path) -> str:
    parts = ("agentbus", *path.relative_to(PACKAGE).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def import_graph() -> dict[str, set[str]]:
    """Module -> the agentbus modules it imports (relative or absolute, anywhere in it)."""
    modules = {_module_name(path): path for path in PACKAGE.rglob("*.py")}
    graph: dict[str, set[str]] = {name: set() for name in modules}
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            targets: list[str] = []
            if isinstance(node, ast.ImportFrom):
                if node.level:
                    base = package.split(".")[: len(package.split(".")) - node.level + 1]
                    module = ".".join([*base, *([node.module] if node.module else [])])
                else:
                    module = node.module or ""
                targets = [f"{module}.{alias.name}" for alias in node.names] + [module]
            elif isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            for target in targets:
                if target in modules and target != name:
                    graph[name].add(target)
                    break
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for target in graph[node]:
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


CORE = {
    "agentbus.audit_log",
    "agentbus.bus",
    "agentbus.console",
    "agentbus.events",
    "agentbus.logging",
    "agentbus.records",
    "agentbus.registry",
    "agentbus.stack",
}


def test_the_core_modules_are_in_no_import_cycle() -> None:
    """The bus, its events, stacks, registry and observers (bus <-> console/audit_log and
    registry <-> middleware.builtin were cycles)."""
    assert [cycle for cycle in cycles(import_graph()) if CORE & set(cycle)] == []


def test_the_cycle_finder_finds_a_cycle() -> None:
    assert cycles({"a": {"b"}, "b": {"a"}, "c": {"a"}}) == [["a", "b"]]
