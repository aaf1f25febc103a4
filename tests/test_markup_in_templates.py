"""Markup lives in templates: no Python string under games/, moderation/ or sh_site/ writes an HTML or SVG element,
but in template tags (a tag's few elements, format_html) and the Markdown renderer (games/markup.py). A string that
only reads markup (a pattern that finds a tag) names the tag without its "<" plus a name and a space or ">"."""

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("games", "moderation", "sh_site")
ALLOWED = ("games/templatetags/", "moderation/templatetags/", "games/markup.py")
ELEMENT = re.compile(
    r"<(a|abbr|article|aside|b|button|circle|code|dd|div|dl|dt|em|footer|form|g|h[1-6]|header|i|img|input|label|li|"
    r"line|main|nav|ol|option|p|path|polyline|pre|rect|section|select|small|span|strong|svg|table|tbody|td|text|th|"
    r"thead|time|tr|ul)[ >]"
)


def strings(path: Path) -> list[tuple[int, str]]:
    """Every string literal of a module, f-strings' literal parts included, with its line; not its docstrings."""
    tree = ast.parse(path.read_text(), filename=str(path))
    said = {id(node.value) for node in ast.walk(tree) if isinstance(node, ast.Expr)}
    return [(node.lineno, node.value) for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in said]  # fmt: skip


def markup_in_python() -> list[str]:
    found = []
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            name = path.relative_to(ROOT).as_posix()
            if "/migrations/" in name or name.startswith(ALLOWED):
                continue
            found += [f"{name}:{line}: {text[:60]!r}" for line, text in strings(path) if ELEMENT.search(text)]
    return found


def test_no_python_string_outside_template_tags_and_the_markdown_renderer_writes_an_element():
    assert markup_in_python() == []


def test_the_check_finds_an_element_in_a_string_and_an_f_string_not_in_a_docstring(tmp_path):
    module = tmp_path / "module.py"
    lines = ['"""<p>"""', 'A = f"<span>{1}</span>"', 'B = "<div class=\\"x\\">"', 'C = r"(?i)<br\\s*/?>"', "D = 1 < 2"]
    module.write_text("\n".join(lines) + "\n")
    assert sorted(line for line, text in strings(module) if ELEMENT.search(text)) == [2, 3]
