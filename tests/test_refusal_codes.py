"""Every refusal of the engine and of the services has its machine code, given once where it is raised (the API's
problem documents carry it: issue 17)."""

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SOURCES = [p for d in ("games", "moderation") for p in (ROOT / d).rglob("*.py") if "migrations" not in p.parts]


def refusals():
    for path in SOURCES:
        for node in ast.walk(ast.parse(path.read_text())):
            call = node.exc if isinstance(node, ast.Raise) else None
            if isinstance(call, ast.Call) and getattr(call.func, "id", None) in ("IllegalAction", "GameError"):
                yield f"{path.relative_to(ROOT)}:{node.lineno}", call


def test_every_refusal_is_raised_with_its_code():
    found = list(refusals())
    assert len(found) > 80
    missing = [where for where, call in found if not any(k.arg == "code" for k in call.keywords)]
    assert missing == []


def test_codes_are_snake_case_words():
    for where, call in refusals():
        code = next(k.value for k in call.keywords if k.arg == "code")
        if isinstance(code, ast.Constant):
            assert re.fullmatch(r"[a-z]+(_[a-z]+)*", code.value), where
