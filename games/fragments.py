"""Parts of pages that are the same for every reader of a language and time zone (a post as the thread shows it,
the lobby's public lists): rendered once and kept in the cache named "fragments" (Redis in production, this
process's memory for `make run`; settings.CACHES). A fragment is HTML a template rendered: the request's own
values (a form's CSRF token, the address) are never in one, they are rendered around it.

A fragment's key is made of everything it is rendered from: the values the page read for it, the language, the
time zone and the release (a digest of the code, templates and catalogues). Nothing is invalidated by hand, so
nothing can be forgotten: an edited, hidden or unhidden post, a renamed author, a game that moved on read other
values, hence another key; the old fragment is never asked for again and expires.

The cache is a help, never a need. One that fails, or does not answer within CACHE_TIMEOUT_SECONDS (a frozen
Redis), is passed by: the page renders everything itself, and this process leaves the cache alone for
CACHE_RETRY_SECONDS, so that an outage costs one page one timeout, not every fragment of every page one each.

With settings.FRAGMENT_CHECK on (the test suite turns it on), every fragment found in the cache is rendered again
and compared: a difference raises StaleFragment, failing the page, so a key missing something the fragment
shows is found by any test that changes that thing and reads the page again.
"""

import hashlib
import logging
import time
from collections.abc import Callable, Hashable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache
from pathlib import Path

from django.conf import settings
from django.core.cache import caches
from django.utils import timezone, translation
from django.utils.safestring import SafeString, mark_safe

ALIAS = "fragments"
KEEP_SECONDS = 7 * 24 * 3600  # a fragment not asked for in a week goes (a running game's posts are read daily)
ROOT = Path(__file__).resolve().parent.parent
# What a fragment is rendered by: a change to any of these files is a new release, and every key changes.
RELEASE_FILES = ("templates/**/*.html", "locale/**/*.mo", "sh_site/formats/**/*.py", "games/**/*.py")
log = logging.getLogger(__name__)
HERE_MOST = 256  # fragments kept in this process's memory too (render(here=True)), at most
_here: dict[str, str] = {}
_unwritten: ContextVar[dict[str, str] | None] = ContextVar("unwritten_fragments", default=None)
_passed_by_until = 0.0  # this process leaves the cache alone until then (time.monotonic()) after it failed
_bypassed: ContextVar[bool] = ContextVar("fragments_bypassed", default=False)


class StaleFragment(AssertionError):
    """A fragment from the cache differs from the same fragment rendered now (FRAGMENT_CHECK)."""


def render(kind: str, parts: Hashable, make: Callable[[], str], *, here: bool = False) -> SafeString:
    """The fragment `kind` made of `parts` (everything it shows, as values), from the cache or made by `make()`, as
    safe as the template that rendered it. `here`: a fragment of few variants that many pages show (an empty reply
    form), kept in
    this process's memory too, so that a page asks the cache for it once per process rather than once a page."""
    if here and not _bypassed.get():
        key = _key(kind, _context(), parts)
        html = _here.get(key)
        if html is not None and not settings.FRAGMENT_CHECK:
            return html
        html = render_many(kind, [(parts, make)])[0]
        if len(_here) >= HERE_MOST:  # a bound, not an order: a release or a flood of variants starts afresh
            _here.clear()
        _here[key] = html
        return html
    return render_many(kind, [(parts, make)])[0]


def render_many(kind: str, items: Sequence[tuple[Hashable, Callable[[], str]]]) -> list[SafeString]:
    """Several fragments of one kind, in order, asked of the cache at once (one round trip for a page's posts). A
    fragment is what a template rendered: the cache keeps its text, given back as safe as the template made it."""
    if _bypassed.get():
        return [mark_safe(make()) for _parts, make in items]
    context = _context()
    keys = [_key(kind, context, parts) for parts, _make in items]
    unwritten = _unwritten.get()
    found = {key: unwritten[key] for key in keys if key in unwritten} if unwritten else {}
    if asked := [key for key in keys if key not in found]:
        found |= _get_many(asked)
    made, html = {}, []
    for key, (_parts, make) in zip(keys, items, strict=True):
        if key in found:
            if settings.FRAGMENT_CHECK and make() != found[key]:
                raise StaleFragment(f"{kind} {key}: the cached fragment is not the one rendered now")
            html.append(found[key])
        else:
            made[key] = make()
            html.append(made[key])
    if made and unwritten is not None:
        unwritten.update(made)
    elif made:
        _set_many(made)
    return [mark_safe(fragment) for fragment in html]


@contextmanager
def written_together() -> Iterator[None]:
    """Within it (a request: sh_site.middleware.fragment_writes), the fragments made are written to the cache in
    one round trip at its end rather than one a kind: a thread's page read for the first time makes several (its
    posts, its settings, its governments, its status box). Outside it (a task writing an email), each is written
    when made."""
    token = _unwritten.set({})
    try:
        yield
    finally:
        made = _unwritten.get()
        _unwritten.reset(token)
        if made:
            _set_many(made)


@contextmanager
def bypassed() -> Iterator[None]:
    """Within it nothing is read from the cache or kept: every fragment is made afresh and every page rendered by its
    templates alone, the page the cache must agree with (the suite renders each page both ways and compares)."""
    token = _bypassed.set(True)
    try:
        yield
    finally:
        _bypassed.reset(token)


def is_bypassed() -> bool:
    return _bypassed.get()


def _context() -> tuple:
    return release(), translation.get_language() or "", timezone.get_current_timezone_name()


def _key(kind: str, context: tuple, parts: Hashable) -> str:
    digest = hashlib.blake2b(repr((context, parts)).encode(), digest_size=16).hexdigest()
    return f"{kind}:{digest}"


def _get_many(keys: list[str]) -> dict[str, str]:
    if not _usable():
        return {}
    try:
        return caches[ALIAS].get_many(keys)
    except Exception:  # any failure of the cache (refused, timed out, a broken reply) is passed by
        _pass_by()
        return {}


def _set_many(made: dict[str, str]) -> None:
    if not _usable():
        return
    try:
        caches[ALIAS].set_many(made, KEEP_SECONDS)
    except Exception:  # as above
        _pass_by()


def _usable() -> bool:
    return time.monotonic() >= _passed_by_until


def _pass_by() -> None:
    global _passed_by_until
    _passed_by_until = time.monotonic() + settings.CACHE_RETRY_SECONDS
    log.warning("The fragment cache failed: pages render without it for %s s", settings.CACHE_RETRY_SECONDS)


def forget_failure() -> None:
    """Use the cache again at once (tests: after a cache that was down comes back)."""
    global _passed_by_until
    _passed_by_until = 0.0


@cache
def release() -> str:
    """A digest of every file a fragment is rendered by (RELEASE_FILES), read once per process."""
    digest = hashlib.blake2b(digest_size=8)
    for pattern in RELEASE_FILES:
        for path in sorted(ROOT.glob(pattern)):
            digest.update(str(path.relative_to(ROOT)).encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()
