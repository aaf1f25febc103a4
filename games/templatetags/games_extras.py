"""Template filters of the site."""

from django import template
from django.utils import timezone
from django.utils.dateformat import format as date_format
from django.utils.html import conditional_escape, format_html
from django.utils.safestring import mark_safe
from django.utils.timesince import timeuntil
from django.utils.translation import gettext as _

from games import presenters, wording

register = template.Library()
register.filter("when", wording.when)
register.simple_tag(wording.colon, name="colon")


@register.simple_tag
def game_url(game, page: str = "thread", *args) -> str:
    """`{% game_url game "rules" %}`: the address of one of the game's pages, at its link key if it is unlisted
    (Game.address)."""
    return game.address(page, *args)


@register.simple_tag
def deadline(moment, countdown_id, now=None) -> str:
    """A deadline in the viewer's zone and the time left, which the page's script counts down (the element
    `cd-<countdown_id>`), or "no deadline". A tag, not an included template: the lobby shows a hundred. `now`: the
    moment the time left is counted from (a cached list counts from the minute its key names), else the clock's."""
    if moment is None:
        return format_html('<span class="muted">{}</span>', _("no deadline"))
    left = _('<span id="cd-%(id)s">%(left)s</span> left') % {
        "id": conditional_escape(countdown_id),
        "left": conditional_escape(timeuntil(moment, now)),
    }
    local = timezone.localtime(moment)
    return format_html(
        '<time datetime="{}" data-countdown="cd-{}">{}</time> <span class="muted">({})</span>',
        local.isoformat(),  # the format's "c"
        countdown_id,
        wording.when_local(local),
        mark_safe(left),  # its parts are escaped above; the translation's own markup is the site's
    )


@register.simple_tag
def confirm_question(kind: str, target: str = "", policy: str = "", accept: str = "", execution_vote=False) -> str:
    """The question asked before an irreversible move (the browser asks it; without JavaScript, a page does);
    `execution_vote`: the game's house rule, under which an execution is only proposed."""
    move = {"type": kind, "target": target, "policy": policy, "accept": accept == "yes"}
    return wording.confirm_question(move, execution_vote=bool(execution_vote))


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


@register.filter
def percent(rate) -> str:
    """A share from 0 to 1 as a whole percentage in the page's language ("48%", "48 %"); "—" for none."""
    if rate is None:
        return "—"
    return _("%(percent)s%%") % {"percent": round(100 * rate)}


@register.filter
def interval(bounds) -> str:
    """A 95% interval [low, high] as percentages ("31-66%", with an en dash)."""
    if not bounds:
        return "—"
    between = _("%(low)s–%(high)s%%")  # noqa: RUF001 (a range takes an en dash)
    return between % {"low": round(100 * bounds[0]), "high": round(100 * bounds[1])}
