"""The documentation (README.md and docs/, built with MkDocs): it builds strict, every relative link and anchor
resolves, and the API reference is the schema the site serves. No internet: external links are not fetched."""

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from markdown.extensions.toc import slugify

from devtools.api_reference import PAGE_FILE, SCHEMA_FILE, markdown

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
PAGES = [ROOT / "README.md", *sorted(DOCS.rglob("*.md"))]
LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
HEADING = re.compile(r"^(#{1,6})\s+(.+?)\s*#*\s*$")


def prose(text: str) -> str:
    """The text outside fenced code blocks and inline code, where a link is a link."""
    kept, fenced = [], False
    for line in text.splitlines():
        if line.lstrip().startswith("```"):
            fenced = not fenced
        elif not fenced:
            kept.append(re.sub(r"`[^`]*`", "", line))
    return "\n".join(kept)


def anchors(page: Path) -> set[str]:
    """The ids MkDocs (Python-Markdown's toc) gives the page's headings: their text without markup, slugified."""
    found = set()
    fenced = False
    for line in page.read_text().splitlines():
        if line.lstrip().startswith("```"):
            fenced = not fenced
        elif not fenced and (match := HEADING.match(line)):
            text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", match.group(2)).replace("`", "").replace("*", "")
            found.add(slugify(text, "-"))
    return found


def relative_links(page: Path) -> list[str]:
    return [target for target in LINK.findall(prose(page.read_text())) if not re.match(r"^[a-z][a-z0-9+.-]*:", target)]


def test_the_docs_build_strict_every_page_in_the_nav(tmp_path):
    """`mkdocs build --strict`: a broken link or anchor, or a page missing from the nav, fails (mkdocs.yml)."""
    built = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path / "site")],
                           cwd=ROOT, capture_output=True, text=True, timeout=120, check=False)  # fmt: skip
    assert built.returncode == 0, built.stderr[-3000:]
    assert (tmp_path / "site" / "integrating" / "api-reference.html").exists()
    assert (tmp_path / "site" / "integrating" / "openapi.json").exists()


@pytest.mark.parametrize("page", PAGES, ids=lambda page: str(page.relative_to(ROOT)))
def test_every_relative_link_and_anchor_resolves(page):
    broken = []
    for target in relative_links(page):
        path, _, anchor = target.partition("#")
        file = (page.parent / path).resolve() if path else page
        if not file.exists():
            broken.append(f"{target}: no such file")
        elif anchor and file.suffix == ".md" and anchor not in anchors(file):
            broken.append(f"{target}: no heading makes #{anchor}")
    assert broken == []


def test_the_readme_stays_short_and_points_into_the_docs():
    readme = (ROOT / "README.md").read_text()
    assert len(readme.splitlines()) <= 300
    linked = {(ROOT / target.partition("#")[0]).resolve() for target in relative_links(ROOT / "README.md")}
    for guide in ("playing.md", "moderating.md", "running/index.md", "integrating/index.md", "contributing/index.md",
                  "measurements.md"):  # fmt: skip
        assert (DOCS / guide).resolve() in linked, guide


def test_the_link_checker_sees_a_broken_link_and_a_missing_anchor(tmp_path):
    (tmp_path / "a.md").write_text("# A\n\n## Part one\n\n[ok](#part-one) [gone](b.md) [no](a.md#part-two)\n"
                                   "`[code](not-a-link.md)`\n")  # fmt: skip
    page = tmp_path / "a.md"
    assert relative_links(page) == ["#part-one", "b.md", "a.md#part-two"]
    assert anchors(page) == {"a", "part-one"}


@pytest.mark.django_db
def test_the_api_reference_is_the_schema_the_site_serves(client):
    """docs/integrating/openapi.json is /api/v1/openapi.json as served now, and the reference page is written from
    it: a change to the API without `make docs-api` fails here."""
    served = client.get("/api/v1/openapi.json").json()
    assert json.loads(SCHEMA_FILE.read_text()) == served, "the API changed: run `make docs-api`"
    assert PAGE_FILE.read_text() == markdown(served), "the reference page is stale: run `make docs-api`"
