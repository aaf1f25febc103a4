"""Logging: one JSON object a line in production, each naming its request (or task) and its game; errors
emailed to the ADMINS, at most once per distinct error every ADMIN_EMAIL_INTERVAL seconds per process."""

import logging
import re
import time
from contextlib import contextmanager
from contextvars import ContextVar

from django.conf import settings
from django.utils.log import AdminEmailHandler
from pythonjsonlogger import json as jsonlogger


class NoTracebackForClientErrors(logging.Filter):
    """A 403 or 404 is the visitor's mistake, not the site's: one line, no traceback (Django attaches the
    PermissionDenied or Http404 it handled). Server errors keep theirs."""

    def filter(self, record: logging.LogRecord) -> bool:
        if getattr(record, "status_code", 500) < 500:
            record.exc_info = None
            record.exc_text = None
        return True


# Secrets a log line may never hold, whatever logged it (a library's debug message, an exception's text, a URL):
# each pattern keeps what says which kind of secret it was and masks the secret itself.
MASK = "***"
SECRETS = [
    re.compile(r"\b(shp_|whsec_)[A-Za-z0-9_-]{4,}"),  # API tokens, webhook secrets (games/models)
    # An Authorization header, also as Django's META names it (HTTP_AUTHORIZATION: no word boundary after "_").
    re.compile(r"(?i)((?<![a-z])authorization\b[\"']?\s*[:=,]?\s*[\"']?)(?:(?:bearer|token|basic)\s+)?[^\s\"',;}]+"),
    re.compile(r"(Unexpected auth - ')[^']*"),  # django-ninja, with DEBUG on, logs a header it does not read
    re.compile(r"(?i)(\b(?:bearer|basic)\s+)[\w.~+/=-]{8,}"),
    # "Token" is also a word of prose: its credential is told by a digit or a sign no word has.
    re.compile(r"(?i)(\btoken\s+)(?=[A-Za-z.~+/=-]*[0-9_.~+/=-])[\w.~+/=-]{8,}"),
    # A reply token in its address: after "+" whatever REPLY_ADDRESS's local part is (reply+, sh+), or on its own.
    re.compile(r"(?i)(\+)[a-z2-7]{42}(?![a-z0-9])"),
    re.compile(r"(?i)(?<![a-z0-9+/=])()[a-z2-7]{42}(?![a-z0-9+/=])"),
    # A password as a form, a dict or Django's QueryDict ({'password': ['...']}) holds it: a quoted value whole.
    re.compile(
        r"(?i)(\b(?:password\d?|passwd|new_password\d?|oldpassword|secret)[\"']?\s*[:=]\s*\[?[\"']?)"
        r"(?:(?<=')[^']+|(?<=\")[^\"]+|(?<![\"'])[^\s\"'&,;}\]]+)"
    ),
    re.compile(r"(?i)(\b[a-z][a-z0-9+.-]*://[^\s:/@]*:)[^\s/@]+(?=@)"),  # a URL's password (redis://:pw@host)
    # Addresses that are secrets themselves (games/urls.py, allauth's): a calendar feed, a one-click unsubscribe
    # link, a password reset key, an email confirmation key.
    re.compile(r"(/calendar/)[^/\s?#\"']+(?=\.ics)"),
    re.compile(r"(/(?:unsubscribe|password/reset/key|confirm-email)/)[^/\s?#\"']+"),
    # An unlisted game's link key, at its pages' addresses and the API's (games/urls.py, games/api).
    re.compile(r"(/games/u/|/games/unlisted/)[A-Za-z0-9_-]+"),
    # A webhook URL's credential (games/notify/webhooks): Discord's (and any receiver built like it) in the path
    # after /api/webhooks/, Slack's after hooks.slack.com/ (also as a bare /services/T.../B.../ path), anyone's
    # in a query string's token, key, secret or signature (access_token=, api_key=, X-Amz-Signature= too).
    re.compile(r"(?i)(/api/(?:v\d+/)?webhooks/)[^\s?#\"'<>]+"),
    re.compile(r"(?i)(\bhooks\.slack\.com/)[^\s?#\"'<>]+"),
    re.compile(r"(/services/)(?=T[A-Z0-9]{6,}/B[A-Z0-9]{6,}/)[^\s?#\"'<>]+"),
    re.compile(r"(?i)([?&;](?:[\w.-]*[_.-])?(?:token|key|secret|sig|signature)=)[^\s&#\"'<>]+"),
]


def mask(text: str) -> str:
    """`text` with every secret of a known shape replaced by ***."""
    for pattern in SECRETS:
        text = pattern.sub(lambda match: match.group(1) + MASK, text)
    return text


class MaskSecrets(logging.Filter):
    """No log line holds a token, a password, a reply token or a webhook secret (django-ninja, for one, logs a
    whole Authorization header at ERROR with DEBUG on). Masks the message with its arguments, the traceback and
    the stack; the JSON formatter masks its extra fields too. Every handler has it (settings.LOGGING)."""

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            message = record.getMessage()
        except (TypeError, ValueError):  # arguments that do not fit: the handler reports it, as without the filter
            return True
        masked = mask(message)
        if masked != message:
            record.msg, record.args = masked, None
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = mask(record.exc_text)
        if record.stack_info:
            record.stack_info = mask(record.stack_info)
        return True


# Which request or task, and which game, a log line is about: set by sh_site.middleware.request_ids for a request,
# by a Celery signal for a task (sh_site/celery.py), and around each game a sweep handles (log_context).
request_id: ContextVar[str] = ContextVar("request_id", default="")
game_id: ContextVar[int | None] = ContextVar("game_id", default=None)


@contextmanager
def log_context(*, game: int | None = None, request: str | None = None):
    """Every line logged inside names this game (and request or task)."""
    tokens = [(game_id, game_id.set(game))] if game is not None else []
    if request is not None:
        tokens.append((request_id, request_id.set(request)))
    try:
        yield
    finally:
        for variable, token in reversed(tokens):
            variable.reset(token)


class Context(logging.Filter):
    """Adds `request_id` and `game_id` to every record (a record's own `extra` wins)."""

    def filter(self, record: logging.LogRecord) -> bool:
        # Django logs a request's outcome (django.request) after the middleware has returned: from the request.
        request = getattr(record, "request", None)
        if not getattr(record, "request_id", None):
            record.request_id = getattr(request, "id", "") or request_id.get()
        if getattr(record, "game_id", None) is None:
            match = getattr(request, "resolver_match", None)
            record.game_id = (match.kwargs.get("game_id") if match else None) or game_id.get()
        return True


class JsonFormatter(jsonlogger.JsonFormatter):
    """One JSON object a line: time, level, logger, message, request id, game id, and the traceback if any."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("rename_fields", {"levelname": "level", "name": "logger", "asctime": "time"})
        kwargs.setdefault("timestamp", False)
        super().__init__("%(asctime)s %(levelname)s %(name)s %(message)s %(request_id)s %(game_id)s", *args, **kwargs)

    def format(self, record: logging.LogRecord) -> str:
        # The traceback is formatted again from exc_info here, and extra fields (a request's address) are added.
        return mask(super().format(record))


class RateLimitedAdminEmailHandler(AdminEmailHandler):
    """Django's email to the ADMINS about an error, at most once per distinct error (its type and the line that
    raised it) every ADMIN_EMAIL_INTERVAL seconds in each process: a fault that repeats on every request or
    sweep sends one email, not thousands. POST data of moves and claims is hidden by the views
    (sensitive_post_parameters); settings holding passwords by sh_site.errors.ReportFilter."""

    _last_sent: dict[tuple, float] = {}

    def emit(self, record: logging.LogRecord) -> None:
        if getattr(getattr(record, "request", None), "path", "") == "/healthz":
            return  # an unhealthy site is the monitor's and check_health's to tell, not one email per poll
        key = _where(record)
        now = time.monotonic()
        interval = getattr(settings, "ADMIN_EMAIL_INTERVAL", 600)
        last = self._last_sent.get(key)
        if last is not None and now - last < interval:
            return
        self._last_sent[key] = now
        super().emit(record)


def _where(record: logging.LogRecord) -> tuple:
    """A distinct error: its type and the innermost line of its traceback; without one, where it was logged."""
    if record.exc_info and record.exc_info[2] is not None:
        frame = record.exc_info[2]
        while frame.tb_next is not None:
            frame = frame.tb_next
        return (type(record.exc_info[1]).__name__, frame.tb_frame.f_code.co_filename, frame.tb_lineno)
    return (record.name, record.pathname, record.lineno, str(record.msg))
