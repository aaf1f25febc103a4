"""One writer of a game's log: its rows (GameEvent) and their count (Game.event_count) are written by the game
services alone, in the change a move, a deadline or a moderator's action makes, so that every channel that hears
of a change (the webhooks, the bell and its emails, the live thread) hears of every entry. Read from the source."""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PRODUCT = ("games", "moderation", "sh_site", "devtools")
WRITER = ROOT / "games" / "services"
WRITES = {"create", "bulk_create", "get_or_create", "update_or_create", "update", "bulk_update", "delete"}


def writes_the_log(node: ast.AST) -> bool:
    """A GameEvent made, or written through its manager, or the log's count set."""
    if not isinstance(node, ast.Call):
        return False
    if isinstance(node.func, ast.Name) and node.func.id == "GameEvent":
        return True
    if any(keyword.arg == "event_count" for keyword in node.keywords):
        return True
    if not (isinstance(node.func, ast.Attribute) and node.func.attr in WRITES):
        return False
    return "GameEvent" in {part.id for part in ast.walk(node.func.value) if isinstance(part, ast.Name)}


def lines_writing_the_log(source: str) -> list[int]:
    return [node.lineno for node in ast.walk(ast.parse(source)) if writes_the_log(node)]


def test_no_module_outside_the_game_services_writes_a_games_log():
    sources = [path for package in PRODUCT for path in sorted((ROOT / package).rglob("*.py"))]
    offenders = [
        f"{path.relative_to(ROOT)}:{line}"
        for path in sources
        if WRITER not in path.parents
        for line in lines_writing_the_log(path.read_text())
    ]
    assert offenders == []


def test_the_check_sees_each_way_of_writing_the_log():
    for source in (
        "GameEvent.objects.create(game=game, index=0)",
        "GameEvent.objects.bulk_create(rows)",
        "GameEvent.objects.filter(game=game).update(data={})",
        "rows.append(GameEvent(game=game, index=0))",
        "Game.objects.filter(pk=1).update(event_count=F('event_count') + 1)",
    ):
        assert lines_writing_the_log(source) == [1], source
    assert lines_writing_the_log("GameEvent.objects.filter(game=game).order_by('index')\nGame(name='x').save()") == []
