"""The rules engine is pure Python: nothing from Django, no I/O, no clock, and no randomness but its own Rng."""

import ast
from pathlib import Path

import games.engine

ENGINE = Path(games.engine.__file__).parent
FORBIDDEN = {"django", "celery", "datetime", "time", "os", "socket", "requests", "random"}


def imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text())
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            names.add(node.module.split(".")[0])
    return names


def test_engine_imports_no_django_and_no_clock():
    offenders = {path.name: imported_modules(path) & FORBIDDEN for path in ENGINE.glob("*.py")}
    assert {name: mods for name, mods in offenders.items() if mods} == {}
