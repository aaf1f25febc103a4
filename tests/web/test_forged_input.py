"""Forged input at every address of the site, on PostgreSQL: never a 500, never a change to any game.

Every URL pattern of the resolver (Django's own admin aside) is requested as a stranger, a player of the game
and a moderator outside it, with its path parameters set to real ids of this game and of another one, to ids
that do not exist or overflow, to NUL bytes and huge strings; with forged query strings; and posted forms whose
every field is a NUL byte, a huge value, the wrong type, or a stale step number. What a GET may change is
listed in tests/web/forged.py: a moderator opening a game's page is written in the audit log.
"""

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from games.services.rematch import rematch
from tests.web.forged import FIELDS, fill, patterns, snapshot

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]

HUGE = "9" * 60_000
FORGED_PATH_VALUES = ["0", "999999", "99999999999999999999999", "%00", "x" * 3000, "%3Cb%3E", "-1"]
FORGED_QUERIES = ["?q=%00&page=-1&quote=abc", f"?q={'x' * 50_000}&page=99999999999999999999&quote=99999999999"]
# Free text is any text: "abc" in a post or a report is a post or a report, not a forgery.
TYPED = [field for field in FIELDS if field not in {"reason", "resolution", "body", "display_name", "q", "confirm"}]
PAYLOADS = {
    "empty": {},
    "nul": dict.fromkeys(FIELDS, "x\x00y"),
    "huge": dict.fromkeys(FIELDS, HUGE),
    "wrong types": dict.fromkeys(TYPED, "abc"),
    "out of range": dict.fromkeys(TYPED, str(2**70)),
}
# For the forms made for one step of the game: a move or an intervention from a page the game has left behind.
STALE = {
    "action": "end_now",
    "reason": "forged",
    "step": "0",
    "step_number": "0",
    "type": "nominate",
    "target": "bob",
    "hours": "24",
    "player": "bob",
}
# A page's script asks with its ETag (games/live.py): forged ones, a wildcard, and a stranger's tag.
FORGED_HEADERS = [
    {"HTTP_IF_NONE_MATCH": "*", "HTTP_X_LIVE": "1"},
    {"HTTP_IF_NONE_MATCH": '"' + "0" * 32 + '", W/"x\u0000y", ' + "x" * 5000, "HTTP_X_LIVE": "1"},
    {"HTTP_IF_NONE_MATCH": "\x00", "HTTP_X_LIVE": "\x00" * 10},
]


def requests_for(world):
    for pattern in patterns():
        for values in (world["real"], world["elsewhere"]):
            url = fill(pattern, values)
            yield "get", url, None
            for query in FORGED_QUERIES:
                yield "get", url + query, None
            for headers in FORGED_HEADERS:
                yield "get", url, headers
            for payload in PAYLOADS.values():
                yield "post", url, payload
            if url.endswith(("/act/", "/move/")):
                yield "post", url, STALE
        if "<" in pattern or "(?P" in pattern:
            for forged in FORGED_PATH_VALUES:
                url = fill(pattern, dict.fromkeys({**world["real"]}, forged))
                yield "get", url, None
                yield "post", url, PAYLOADS["nul"]


@pytest.mark.slow
@pytest.mark.parametrize("who", ["stranger", "player", "moderator"])
def test_no_forged_request_gives_a_500_or_changes_a_game(world, client_for, who):
    client = (
        Client(raise_request_exception=False) if who == "stranger" else client_for({"player": "ann"}.get(who, "mod"))
    )
    client.raise_request_exception = False
    if who == "player":  # ann played the cancelled game: a bare POST is her real ask for its rematch, made here
        rematch(world["elsewhere"]["game_id"], get_user_model().objects.get(username="ann"))
    before = snapshot()
    failures = []
    count = 0
    for method, url, data in requests_for(world):
        response = client.get(url, **(data or {})) if method == "get" else client.post(url, data)
        count += 1
        if response.status_code >= 500 and not (url.startswith("/healthz") and response.status_code == 503):
            failures.append(f"{response.status_code} {method.upper()} {url[:120]} {str(data)[:80]}")
    assert failures == [], "\n".join(failures)
    assert snapshot() == before
    assert count > 1000
