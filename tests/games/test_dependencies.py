"""Dependencies point one way: the moderation app uses games, and no module of games imports moderation."""

import ast
from pathlib import Path

import games

GAMES = Path(games.__file__).parent


def imported_modules(path: Path) -> set[str]:
    """Every module `path` imports, at its top or inside a function (a lazy import is an import too)."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module)
    return found


def test_no_module_of_games_imports_moderation():
    offenders = {
        str(path.relative_to(GAMES.parent)): sorted(
            name for name in imported_modules(path) if name.split(".")[0] == "moderation"
        )
        for path in GAMES.rglob("*.py")
    }
    assert {path: names for path, names in offenders.items() if names} == {}
