"""The API's refusals as RFC 9457 problem documents, and their words for programs: what the
services word for a page, and pydantic's English-only complaints about a field, said as a program's author reads
them, in the token owner's language; and the handlers that send them, one for each kind of refusal (HANDLERS)."""

from django.http import JsonResponse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from ninja import Field, Schema
from ninja.errors import AuthenticationError, HttpError, ValidationError

from games.api.auth import RateLimited
from games.services import GameError
from sh_site.errors import problem_response

# Where a refusal's code says the thing is not there, or not the caller's to do; anything else the game refuses
# now is a conflict with its state (409).
NOT_FOUND = {"no_such_game", "no_such_post", "no_such_absence", "no_such_session", "no_such_player", "no_such_device",
             "no_such_season"}  # fmt: skip
FORBIDDEN = {"not_seated", "not_in_game", "cannot_post", "banned", "saw_secrets", "insufficient_scope"}
UNPROCESSABLE = {"invalid_subscription", "invalid_preferences"}  # well-formed, but not what it must be


class Problem(Schema):
    """RFC 9457: what went wrong, for people (`title`, `detail`, translated) and for programs (`code`)."""

    type: str = "about:blank"
    title: str
    status: int
    detail: str
    code: str
    step_number: int | None = Field(None, description="stale_step: the step the game is at now")
    game_id: int | None = Field(None, description="stale_step: the game that moved on")
    errors: list["FieldProblem"] | None = Field(None, description="invalid_request: each invalid field")


class FieldProblem(Schema):
    field: str
    location: str = Field(description="where the field is, as pydantic names it: body.payload.vote")
    problem: str = Field(description="what is wrong with it, in words (translated)")


Problem.model_rebuild()


def refusals(*codes: int) -> dict:
    return dict.fromkeys(codes, Problem)


WRITE_REFUSALS = refusals(401, 403, 404, 409, 422, 429)


def problem(request, status: int, code: str, detail: str, headers: dict | None = None, **extensions) -> JsonResponse:
    """A problem document; `extensions` are RFC 9457 extension members (the step a stale move missed, the invalid
    fields), `headers` are HTTP headers."""
    headers = headers or {}
    titles = {400: "Bad Request", 401: "Unauthorized", 403: "Forbidden", 404: "Not Found", 409: "Conflict",
              422: "Unprocessable Content", 429: "Too Many Requests"}  # fmt: skip
    response = problem_response(status, titles.get(status, "Error"), code, detail, **extensions)
    for name, value in headers.items():
        response[name.replace("_", "-")] = value
    return response


# The services word a few refusals for the site's pages ("since this page was loaded ... reload it"): a program
# has no page, so it is told what changed in its own terms, by the refusal's code, from the refusal's details.
FOR_PROGRAMS = {
    "stale_step": gettext_lazy(
        "The game has moved on to step %(step_number)s: nothing was done. GET /api/v1/games/%(game_id)s/me gives "
        "the moves of that step."
    ),
}


def for_programs(error: GameError) -> str:
    """A refusal's words for a program; the service's own words when the refusal lacks a fact they need (a
    service that raised it without the step must not turn a refusal into a 500)."""
    wording = FOR_PROGRAMS.get(error.code)
    try:
        return str(wording) % error.details if wording is not None else str(error)
    except (KeyError, TypeError, ValueError):
        return str(error)


# What is wrong with a field, in words (pydantic's own messages are English only): by pydantic's error type.
FIELD_PROBLEMS = {
    "missing": gettext_lazy("%(field)s is missing"),
    "literal_error": gettext_lazy("%(field)s must be %(expected)s"),
    "enum": gettext_lazy("%(field)s must be %(expected)s"),
    "string_too_long": gettext_lazy("%(field)s is too long: at most %(max_length)s characters"),
    "string_too_short": gettext_lazy("%(field)s is too short: at least %(min_length)s characters"),
    "string_pattern_mismatch": gettext_lazy("%(field)s holds a character or a form that is not allowed"),
    "greater_than_equal": gettext_lazy("%(field)s must be at least %(ge)s"),
    "less_than_equal": gettext_lazy("%(field)s must be at most %(le)s"),
    "int_parsing": gettext_lazy("%(field)s must be a whole number"),
    "int_type": gettext_lazy("%(field)s must be a whole number"),
    "int_from_float": gettext_lazy("%(field)s must be a whole number"),
    "bool_parsing": gettext_lazy("%(field)s must be true or false"),
    "bool_type": gettext_lazy("%(field)s must be true or false"),
    "string_type": gettext_lazy("%(field)s must be text"),
    "datetime_parsing": gettext_lazy("%(field)s must be a date and time such as 2026-12-01T18:00:00+01:00"),
    "datetime_from_date_parsing": gettext_lazy("%(field)s must be a date and time such as 2026-12-01T18:00:00+01:00"),
    "datetime_type": gettext_lazy("%(field)s must be a date and time such as 2026-12-01T18:00:00+01:00"),
    "model_attributes_type": gettext_lazy("%(field)s must be a JSON object"),
    "dict_type": gettext_lazy("%(field)s must be a JSON object"),
}


# Where django-ninja says a field was: a body's fields come after the name of the view's parameter that holds them
# (body.payload.vote); a query's or a path's right after the location (query.after).
IN_A_PARAMETER = ("body", "form", "file")
LOCATIONS = ("query", "path", "header", "cookie")


def field_problem(item: dict) -> dict:
    """One invalid field: its location for programs (`body.payload.vote`) and what is wrong, in words."""
    location = [str(part) for part in item.get("loc", [])]
    field = ".".join(_field_path(location)) or _("the request body")
    wording = FIELD_PROBLEMS.get(item.get("type", ""))
    try:
        words = str(wording) % {"field": field, **item.get("ctx", {})} if wording else f"{field}: {item['msg']}"
    except (KeyError, TypeError):
        words = f"{field}: {item.get('msg', '')}"
    return {"field": field, "location": ".".join(location), "problem": words}


def _field_path(location: list[str]) -> list[str]:
    """The field's own path, without where django-ninja found it: only the leading parts go, since a field may be
    called `body` itself (a post's text: body.payload.body)."""
    if location[:1] and location[0] in IN_A_PARAMETER:
        return location[2:]
    if location[:1] and location[0] in LOCATIONS:
        return location[1:]
    return location


# The handlers


def _refused(request, error: GameError):
    statuses = ((NOT_FOUND, 404), (FORBIDDEN, 403), (UNPROCESSABLE, 422))
    status = next((status for codes, status in statuses if error.code in codes), 409)
    return problem(request, status, error.code, for_programs(error), **error.details)


def _invalid(request, error: ValidationError):
    fields = [field_problem(item) for item in error.errors]
    words = "; ".join(f"{field['problem']} ({field['location']})" for field in fields)
    detail = _("The request is not valid: %(where)s.") % {"where": words}
    return problem(request, 422, "invalid_request", detail, errors=fields)


def _unauthorized(request, error):
    return problem(
        request, 401, "unauthorized", _("A valid token is needed: Authorization: Bearer <token>."),
        headers={"WWW_Authenticate": "Bearer"},
    )  # fmt: skip


def _rate_limited(request, error: RateLimited):
    detail = _("Too many requests with this token: try again in %(seconds)s seconds.") % {"seconds": error.retry_after}
    return problem(request, 429, "rate_limited", detail, headers={"Retry_After": str(error.retry_after)})


# django-ninja's words for a body its parser refused (ninja.params.models.BodyModel), followed with DEBUG on by the
# parser's own: in English, and not the caller's business.
UNPARSED_BODY = "Cannot parse request body"


def _http_error(request, error: HttpError):
    """A body that is not JSON is told so in the caller's language; any other HttpError in its own words."""
    if error.status_code == 400 and str(error).startswith(UNPARSED_BODY):
        return problem(request, 400, "invalid_request", _("The request's body is not valid JSON: nothing was done."))
    return problem(request, error.status_code, "invalid_request", str(error))


HANDLERS = {
    GameError: _refused,
    ValidationError: _invalid,
    AuthenticationError: _unauthorized,
    RateLimited: _rate_limited,
    HttpError: _http_error,
}
