"""Template filters of the site."""

from django import template
from django.utils import timezone, translation
from django.utils.dateformat import format as date_format
from django.utils.html import conditional_escape, format_html
from django.utils.safestring import mark_safe
from django.utils.timesince import timeuntil
from django.utils.translation import gettext as _

from games import presenters

register = template.Library()


@register.filter
def when(moment) -> str:
    """A moment in the viewer's time zone with its UTC offset: "Fri 3 Jul 2026, 14:00 CEST (UTC+02:00)". One at
    the calendar's end (9999-12-31 with -14:00 is year 10000 in UTC) is shown as it was given."""
    if moment is None:
        return ""
    try:
        return _when(timezone.localtime(moment))
    except OverflowError:
        return moment.isoformat(sep=" ")


def _when(local) -> str:
    text = date_format(local, "D j M Y, H:i T")
    seconds = int(local.utcoffset().total_seconds())  # as the format's "O" gives it, without formatting twice
    if seconds == 0:
        return text if text.endswith("UTC") else f"{text} (UTC)"
    hours, minutes = divmod(abs(seconds) // 60, 60)
    return f"{text} (UTC{'-' if seconds < 0 else '+'}{hours:02d}:{minutes:02d})"


@register.simple_tag
def deadline(moment, countdown_id) -> str:
    """A deadline in the viewer's zone and the time left, which the page's script counts down (the element
    `cd-<countdown_id>`), or "no deadline". A tag, not an included template: the lobby shows a hundred."""
    if moment is None:
        return format_html('<span class="muted">{}</span>', _("no deadline"))
    left = _('<span id="cd-%(id)s">%(left)s</span> left') % {
        "id": conditional_escape(countdown_id),
        "left": conditional_escape(timeuntil(moment)),
    }
    local = timezone.localtime(moment)
    return format_html(
        '<time datetime="{}" data-countdown="cd-{}">{}</time> <span class="muted">({})</span>',
        local.isoformat(),  # the format's "c"
        countdown_id,
        _when(local),
        mark_safe(left),  # its parts are escaped above; the translation's own markup is the site's
    )


@register.simple_tag
def colon() -> str:
    """The colon after a label, as the page's language writes it: French sets a no-break space before it."""
    return "\u00a0:" if (translation.get_language() or "").startswith("fr") else ":"


@register.simple_tag
def confirm_question(kind: str, target: str = "", policy: str = "", accept: str = "") -> str:
    """The question asked before an irreversible move (the browser asks it; without JavaScript, a page does)."""
    move = {"type": kind, "target": target, "policy": policy, "accept": accept == "yes"}
    return presenters.confirm_question(move)


@register.simple_tag
def claim_question(office: str, round_number: int, cards: str) -> str:
    return presenters.claim_question(office, round_number, cards)


@register.simple_tag
def current_zone() -> str:
    """The time zone the page's dates and time fields are in, with its offset now: "Europe/Paris (UTC+01:00)"."""
    offset = date_format(timezone.localtime(), "O")
    return f"{timezone.get_current_timezone_name()} (UTC{offset[:3]}:{offset[3:]})"


@register.filter
def quoted(text: str) -> str:
    """Text quoted as an email quotes it: each line after "> "."""
    return "\n".join(f"> {line}" if line else ">" for line in str(text).splitlines())
