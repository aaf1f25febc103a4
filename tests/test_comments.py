"""Comments and docstrings in product code say why, never which issue or how fast: an issue number or a timing
measurement is true the day it is written and stale soon after. History lives in git, figures in the
measurement log (docs/measurements.md), each with the command that reproduces it. A configured duration ("every
20 s", "deadline in 48 hours") is not a measurement: it says what the code does, and changes with it.

Product code is every tracked file but the tests, the developer tools, migrations (history by design) and the
documentation."""

import ast
import io
import re
import subprocess
import tokenize
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
NOT_PRODUCT = re.compile(  # nor images, which hold no comment
    r"^(tests|devtools|docs|locale)/|(^|/)migrations/|^(README\.md|mkdocs\.yml)$|\.(png|jpe?g|ico|webp)$"
)

# An issue of this project: "issue 30", "issues 19 and 27", "(#17)". Another project's is cited by its address.
# A colour ("color: #333") and an anchor ("#1" in a link) are not issues.
ISSUE = re.compile(r"\b(?:issues?|tickets?)\s+#?\d+|(?<![\w&/\"':])(?<!: )#\d+\b", re.IGNORECASE)

NUMBER = r"\d+(?:[.,]\d+)?"
DURATION = re.compile(
    rf"(?<![\w.,]){NUMBER}\s?(?:(?P<subsecond>ns|µs|μs|us|ms|nanoseconds?|microseconds?|milliseconds?)|"
    r"(?P<seconds>s|secs?|seconds?))\b",
    re.IGNORECASE,
)
# A duration the code is set to, not one it was seen to take: "every 20 s", "a timeout of 250 ms", "at most 5 s".
SETTING = {"every", "after", "timeout", "timeouts", "interval", "delay", "wait", "waits", "sleep", "sleeps", "poll"}
SETTING |= {"polls", "default", "defaults", "setting", "settings", "configured", "most", "least", "target", "budget"}
# Words that report what something took: "costs 3 s", "took about 2 seconds".
MEASURED = {"cost", "costs", "took", "takes", "taking", "spent", "spends", "saves", "saved", "measured", "about"}
MEASURED |= {"around", "roughly", "median", "against", "~", "≈"}
# "3 s a page", "1.2 seconds per request": a cost counted per unit of work.
PER_UNIT = re.compile(r"\s+(?:a|per|each)\s+(?:request|page|call|move|post|query|read|write)\b", re.IGNORECASE)
# "ten times the query itself", "twice as much", "3x faster": a ratio of speeds is a measurement too.
RATIO = re.compile(
    r"\b(?:twice|thrice|\w+ times|\d+(?:\.\d+)?\s?x)\s+"
    r"(?:as (?:much|long|fast|slow)|faster|slower|quicker|the (?:query|time|cost))",
    re.IGNORECASE,
)


def timings(text: str) -> list[str]:
    """The measurements in `text`: below a second, any figure but a setting's; in seconds, a figure that the
    words before it say was measured."""
    found = [match.group(0) for match in RATIO.finditer(text)]
    for match in DURATION.finditer(text):
        before = [word.lower() for word in re.findall(r"[\w~≈]+", text[: match.start()])[-3:]]
        if SETTING & set(before[-2:]):
            continue
        if match.group("subsecond") or MEASURED & set(before) or PER_UNIT.match(text, match.end()):
            found.append(match.group(0))
    return found


def tracked_product_files() -> list[str]:
    listed = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    return [path for path in listed.splitlines() if not NOT_PRODUCT.search(path) and (ROOT / path).is_file()]


def python_comments(source: str):
    """(line, text) of every comment and docstring."""
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type == tokenize.COMMENT:
            yield token.start[0], token.string
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            docstring = ast.get_docstring(node, clean=False)
            if docstring is not None:
                yield node.body[0].lineno, docstring


def _matches(pattern: str, source: str, flags: int = 0):
    for match in re.finditer(pattern, source, flags):
        yield source.count("\n", 0, match.start()) + 1, match.group(0)


TEMPLATE_COMMENTS = r"\{#.*?#\}|\{%\s*comment\b.*?%\}.*?\{%\s*endcomment\s*%\}|<!--.*?-->|/\*.*?\*/"
BLOCK_COMMENTS = r"/\*.*?\*/"
# `//` after the start of a line or a blank, and not in a string on that line (an even count of quotes before it).
LINE_COMMENTS = r"(?m)^(?:[^\"'`\n]|\"[^\"\n]*\"|'[^'\n]*'|`[^`\n]*`)*?(?<![:\w])(//.*)$"
HASH_COMMENTS = r"(?m)(?:^|\s)(#.*)$"


def comments(path: str, source: str):
    """(line, text) of what `path` says to its reader rather than to the machine."""
    name = Path(path).name
    if name.endswith(".py"):
        yield from python_comments(source)
    elif name.endswith((".html", ".txt")) and path.startswith(("templates/", "games/", "moderation/", "sh_site/")):
        yield from _matches(TEMPLATE_COMMENTS, source, re.DOTALL)
    elif name.endswith(".css"):
        yield from _matches(BLOCK_COMMENTS, source, re.DOTALL)
    elif name.endswith(".js"):
        yield from _matches(BLOCK_COMMENTS, source, re.DOTALL)
        for match in re.finditer(LINE_COMMENTS, source):
            yield source.count("\n", 0, match.start(1)) + 1, match.group(1)
    elif name.endswith((".toml", ".sh", ".txt", ".service", ".timer", ".cfg", ".ini", ".yml", ".yaml")) or name in {
        "Makefile",
        "Procfile",
        "run",
        ".importlinter",
        ".gitignore",
    }:
        for match in re.finditer(HASH_COMMENTS, source):
            yield source.count("\n", 0, match.start(1)) + 1, match.group(1)


def stale_words(text: str) -> list[str]:
    """The issue numbers and timing measurements in a comment's text."""
    return [match.group(0) for match in ISSUE.finditer(text)] + timings(text)


def offences(path: str) -> list[str]:
    source = (ROOT / path).read_text(encoding="utf-8")
    return [
        f"{path}:{line}: {word!r}"
        for line, text in comments(path, source)
        for word in stale_words(" ".join(text.split()))
    ]


def test_product_comments_cite_no_issue_and_no_timing():
    found = [offence for path in tracked_product_files() for offence in offences(path)]
    assert found == []


@pytest.mark.parametrize(
    "text",
    [
        "issue 30",
        "(issue 17)",
        "Issue 19: the address bounced",
        "issues 19 and 27",
        "as in #42",
        "about 60 ns, where a module global",
        "it cost 5 ms of Python",
        "(0.3 ms, most of a request)",
        "13 of its 35 ms went there",
        "2 ms planned, 0.6 ms run",
        "a game's row: 2.4 ms against 1.1 ms",
        "the query takes about 3 seconds",
        "costs 2 s",
        "1.5 s a page",
        "merging costs twice as much",
        "ten times the query itself",
        "3x faster",
    ],
)
def test_an_issue_number_or_a_measurement_is_caught(text):
    assert stale_words(text)


@pytest.mark.parametrize(
    "text",
    [
        "deadline in 48 hours",
        "a timeout of 0.25 s",
        "the page asks every 20 s",
        "health_check_interval (25 s) drops a BRPOP",
        "Celery's own would wait 6 s",
        "the sweep runs every 30 seconds",
        "after 500 ms the request is given up",
        "the default 300 ms",
        "at most 5 s",
        "Running it twice changes nothing",
        "the last chancellor (R10), seat #",
        "color: #333",
        "https://github.com/celery/kombu/issues/970",
        "the review issue",
    ],
)
def test_a_setting_or_a_rule_is_not_a_measurement(text):
    assert stale_words(text) == []


def test_comments_are_found_in_every_kind_of_product_file():
    python = '"""Module."""\n\n\ndef f():\n    """Doc."""\n    return 1  # why\n'
    assert [text for _, text in comments("games/x.py", python)] == ["# why", "Module.", "Doc."]
    template = '{# one #}\n{% comment %}two{% endcomment %}\n<!-- three --><a href="#1">x</a>'
    assert len(list(comments("templates/x.html", template))) == 3
    script = 'const url = "https://example.org"; // four\n/* five */\n'
    assert [text for _, text in comments("static/js/x.js", script)] == ["/* five */", "// four"]
    assert [text for _, text in comments("Makefile", "test:  # six\n\techo '#7'\n")] == ["# six"]
