"""The thread's entries, written by a tag: the same markup as templates/games/_entries.html (the reference, held
equal by tests/web/test_thread_entries.py), written without the template's loop, which costs more than the rest of
the page's own part when a page of posts is shown to a signed-in reader, at every request."""

from django import template
from django.utils.html import conditional_escape
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _

register = template.Library()


@register.simple_tag
def thread_entries(entries: list[dict], page_number: int) -> str:
    """Each entry (thread._written_entries): a run of announcements as its fragment, a post in its article with the
    reader's links, after the "New posts" line if it is the first new one."""
    words = {key: conditional_escape(text) for key, text in
             (("quote", _("Reply with quote")), ("edit", _("Edit")), ("report", _("Report")),
              ("new", _("New posts")))}  # fmt: skip
    return mark_safe("".join(_written(entry, page_number, words) for entry in entries))  # escaped below


def _written(entry: dict, page_number: int, words: dict[str, str]) -> str:
    if entry["kind"] != "post":
        return entry["html"]
    pk = int(entry["pk"])
    links = []
    if entry["quote"]:
        links.append(f'<a href="?page={int(page_number)}&amp;quote={pk}#reply">{words["quote"]}</a>')
    if entry["own"]:
        links.append(f'<a href="{conditional_escape(entry["edit"])}">{words["edit"]}</a>')
    links.append(f'<a href="#post-{pk}">#</a>')
    if entry["report"]:
        report = conditional_escape(entry["report"])
        links.append(f'<a href="{report}" class="report" data-report="{pk}">{words["report"]}</a>')
    line = f'<p class="new-posts" id="new-posts"><span>{words["new"]}</span></p>' if entry["first_new"] else ""
    mark = " data-own" if entry["own"] else ""
    return (
        f'{line}<article class="entry post" id="post-{pk}"{mark}>\n  {conditional_escape(entry["html"])}\n'
        f"  <footer>{' '.join(links)}</footer>\n</article>\n"
    )
