"""The ORM first: SQL written by hand only where the database needs it or the ORM measurably slows a path that runs
all the time, in at most three modules, each statement named and checked (tests/games/test_sql.py). Read from the
source: a call that opens a cursor, runs a statement or asks for raw rows (`cursor`, `execute`, `executemany`,
`raw`, `RawSQL`, `extra`)."""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PRODUCT = ("games", "moderation", "sh_site")
RAW = {"cursor", "raw", "RawSQL", "extra"}
RUN = {"execute", "executemany"}  # on a cursor or a database connection (a Redis pipeline's is not SQL)
# The statements themselves (the live page's fingerprint, the sweep's batch, the API's request count), the health
# probe's "SELECT 1", and beat's advisory lock, held on a connection of its own.
ALLOWED = {"games/models/sql.py", "moderation/health.py", "sh_site/beat.py"}


def runs_sql(node: ast.AST) -> bool:
    if not isinstance(node, ast.Call):
        return False
    if isinstance(node.func, ast.Name):
        return node.func.id in RAW
    if not isinstance(node.func, ast.Attribute):
        return False
    receiver = ast.unparse(node.func.value)
    return node.func.attr in RAW or (node.func.attr in RUN and ("cursor" in receiver or "connection" in receiver))


def modules_with_sql() -> set[str]:
    found = set()
    for package in PRODUCT:
        for path in (ROOT / package).rglob("*.py"):
            if "migrations" in path.parts:  # history: each ran once, on the schema of its day
                continue
            if any(runs_sql(node) for node in ast.walk(ast.parse(path.read_text()))):
                found.add(path.relative_to(ROOT).as_posix())
    return found


def test_sql_by_hand_is_in_three_modules_at_most():
    assert modules_with_sql() <= ALLOWED, sorted(modules_with_sql() - ALLOWED)
    assert len(ALLOWED) <= 3


def test_the_check_finds_a_cursor_and_raw_rows():
    assert runs_sql(ast.parse("connection.cursor()").body[0].value)
    assert runs_sql(ast.parse("Game.objects.raw('SELECT 1')").body[0].value)
    assert runs_sql(ast.parse("self.connection.execute('SELECT pg_try_advisory_lock(1)')").body[0].value)
    assert not runs_sql(ast.parse("Game.objects.filter(pk=1)").body[0].value)
    assert not runs_sql(ast.parse("pipeline.execute()").body[0].value)
