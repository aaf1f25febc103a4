"""The structure's contracts (issue 28): the import-linter contracts of .importlinter, and no import circle in
product code. Both read the code's imports, lazy ones inside functions included; only imports made for type
checking (under `if TYPE_CHECKING:`) are left out."""

import subprocess
import sys
from pathlib import Path

import grimp

ROOT = Path(__file__).resolve().parent.parent
PRODUCT = ("games", "moderation", "sh_site")


def test_the_import_contracts_hold():
    lint = Path(sys.executable).with_name("lint-imports")
    result = subprocess.run(
        [str(lint), "--config", str(ROOT / ".importlinter"), "--no-cache"],
        cwd=ROOT, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert result.returncode == 0, result.stdout[-6000:] + result.stderr[-2000:]


def circles(graph: grimp.ImportGraph, modules: set[str]) -> list[list[str]]:
    """The groups of modules that import each other, directly or not (Tarjan's strongly connected components)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found = []

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        on_stack.add(module)
        for other in sorted(graph.find_modules_directly_imported_by(module) & modules):
            if other not in index:
                visit(other)
                low[module] = min(low[module], low[other])
            elif other in on_stack:
                low[module] = min(low[module], index[other])
        if low[module] == index[module]:
            group = []
            while not group or group[-1] != module:
                group.append(stack.pop())
                on_stack.discard(group[-1])
            if len(group) > 1:
                found.append(sorted(group))

    for module in sorted(modules):
        if module not in index:
            visit(module)
    return found


def test_no_import_circle_in_product_code():
    graph = grimp.build_graph(*PRODUCT, exclude_type_checking_imports=True, cache_dir=None)
    modules = {module for module in graph.modules if ".migrations" not in module}
    assert circles(graph, modules) == []


def test_a_circle_is_found():
    graph = grimp.ImportGraph()
    for module in ("a", "b", "c", "d"):
        graph.add_module(module)
    graph.add_import(importer="a", imported="b")
    graph.add_import(importer="b", imported="c")
    graph.add_import(importer="c", imported="a")
    graph.add_import(importer="c", imported="d")
    assert circles(graph, {"a", "b", "c", "d"}) == [["a", "b", "c"]]
