"""Issue 27's surfaces attacked as a hostile user would: the absences API, the absence and vacation forms, the
moderator's extension, the webhook subscription forms, HEAD on the API's reads and the API's moves, each sent
NUL bytes, huge and negative values, dates at the calendar's ends, numbers where dates go, other games' ids and
stale steps. What a user notices: never a 5xx, a clear 4xx or form error, nothing changed, no other game's
secret in the answer."""

import re
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.contrib.messages import constants, get_messages
from django.utils import timezone

from games.models import Absence, ActionRecord, Game, GameEvent, Notification, Post, Profile, WebhookSubscription
from games.services import cancel
from games.services.transfer import import_script
from moderation.models import AuditEntry
from tests.factories import make_user, running_game, script
from tests.web.test_api import Api, token_for

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]

HUGE = "9" * 60_000
LATER = timezone.now() + timedelta(days=3)
GOOD_START = LATER.isoformat()
GOOD_END = (LATER + timedelta(days=1)).isoformat()

# (starts_at, ends_at): each a forged date as a person could send it
FORGED_DATES = [
    ("2026-12-0\x001T18:00:00+01:00", GOOD_END),
    (GOOD_START, "\x00"),
    ("9999-12-31T23:59:59+14:00", "9999-12-31T23:59:59-14:00"),
    ("99999-01-01T00:00:00+00:00", "99999-01-02T00:00:00+00:00"),
    ("2027-01-01T00:00:00-23:59", "2027-01-02T00:00:00-23:59"),
    ("2027-01-01T00:00:00+99:99", "2027-01-02T00:00:00+99:99"),
    ("2027-01-01T00:00:00+16:00", "2027-01-02T00:00:00+16:00"),  # beyond PostgreSQL's ±15:59
    ("2027-01-01T00:00:00+14:01", "2027-01-02T00:00:00+14:01"),  # beyond any place's offset
    ("0000-01-01T00:00:00+00:00", "0000-01-02T00:00:00+00:00"),
    ("0001-01-01T00:00:00+14:00", "0001-01-02T00:00:00+14:00"),
    ("0001-01-01T00:00:00-14:00", "0001-01-02T00:00:00-14:00"),
    (1e20, 1e20 + 86400),
    (-1e20, 1e20),
    (10**30, 10**30 + 1),
    (253402300799, 253402300800),  # 9999-12-31T23:59:59Z and the second after
    (-62135596800, -62135510400),  # 0001-01-01T00:00:00Z
    (0, 86400),
    ("1e20", "1e21"),
    ("inf", "nan"),
    (True, False),
    ([GOOD_START], {"x": 1}),
    (None, None),
    (HUGE, HUGE),
    ("x" * 60_000, GOOD_END),
    (GOOD_START, GOOD_START + " " + "x" * 60_000),
]
WEB_DATES = [
    (str(start), str(end)) for start, end in FORGED_DATES if not isinstance(start, list | type(None) | bool)
] + [
    ("9999-12-31T23:59", "9999-12-31T23:59"),
    ("0001-01-01T00:00", "0001-01-01T01:00"),
    ("\x00", "\x00"),
]


def snapshot() -> dict:
    """Everything an attack on these addresses could change."""
    return {
        "absences": list(Absence.objects.values().order_by("pk")),
        "games": list(Game.objects.values().order_by("pk")),
        "events": GameEvent.objects.count(),
        "actions": ActionRecord.objects.count(),
        "posts": Post.objects.count(),
        "notifications": Notification.objects.count(),
        "audit": AuditEntry.objects.count(),
        "webhooks": list(WebhookSubscription.objects.values("url").order_by("pk")),
    }


def assert_refused(response, *, allowed=(400, 401, 403, 404, 405, 409, 413, 422)) -> None:
    assert response.status_code in allowed, (response.status_code, response.content[:500])


def refusal(response) -> str:
    """The error message a refused form leaves for the page it goes back to."""
    return " ".join(str(m) for m in get_messages(response.wsgi_request) if m.level == constants.ERROR)


@pytest.fixture
def moderator(client_for):
    client = client_for("mod")
    get_user_model().objects.get(username="mod").groups.add(Group.objects.get(name="moderators"))
    return client


@pytest.fixture
def games():
    """Ann's running game, a stranger's game she is not seated in (7 players: eve..., not ann), a finished game."""
    mine = running_game(now=timezone.now())
    strangers = script(5)
    names = dict(zip(strangers["players"], [f"x{number}" for number in range(5)], strict=True))
    strangers.update(players=list(names.values()), first_president="x0")
    strangers["roles"] = {names[name]: role for name, role in strangers["roles"].items()}
    others = import_script(strangers, now=timezone.now())
    Game.objects.filter(pk=others.pk).update(created_by=make_user("zed"))
    over = running_game(now=timezone.now())
    cancel(over.pk, make_user("mod0"))
    return {"mine": mine, "other": others, "over": over}


# E4: the absences API


@pytest.mark.parametrize(("starts_at", "ends_at"), FORGED_DATES)
def test_e4_a_forged_date_through_the_absences_api_is_a_4xx_and_stores_nothing(games, starts_at, ends_at):
    api = Api(token_for("ann"))
    before = snapshot()
    response = api.post(f"/games/{games['mine'].pk}/absences", {"starts_at": starts_at, "ends_at": ends_at})
    assert_refused(response)
    assert response["Content-Type"].startswith("application/"), response["Content-Type"]
    assert snapshot() == before


def test_e4_a_huge_unix_timestamp_names_the_field_in_a_4xx():
    game = running_game(now=timezone.now())
    response = Api(token_for("ann")).post(f"/games/{game.pk}/absences", {"starts_at": 1e20, "ends_at": 1e21})
    assert response.status_code in (409, 422)
    assert "starts_at" in response.content.decode()
    assert not Absence.objects.exists()


@pytest.mark.parametrize("which", ["other", "over", "missing", "huge", "negative"])
def test_e4_an_absence_for_a_game_one_is_not_seated_in_is_a_4xx(games, which):
    game_id = {"other": games["other"].pk, "over": games["over"].pk, "missing": 99_999_999, "huge": 10**30,
               "negative": -1}[which]  # fmt: skip
    before = snapshot()
    response = Api(token_for("ann")).post(f"/games/{game_id}/absences", {"starts_at": GOOD_START, "ends_at": GOOD_END})
    assert_refused(response)
    assert snapshot() == before
    assert "role" not in response.content.decode().lower()


@pytest.mark.parametrize("offset", ["-23:59", "+16:00", "+14:01"])
def test_e4_an_offset_no_place_uses_is_refused_with_a_message_everywhere(client_for, offset):
    """Python reads offsets up to ±23:59; PostgreSQL refuses more than ±15:59 in a query: once a 500."""
    game = running_game(now=timezone.now())
    day = (timezone.now() + timedelta(days=30)).strftime("%Y-%m-%dT%H:%M")
    body = {"starts_at": f"{day}:00{offset}", "ends_at": f"{day}:01{offset}"}
    response = Api(token_for("ann")).post(f"/games/{game.pk}/absences", body)
    assert response.status_code == 409 and response.json()["code"] == "invalid_dates"
    assert "between -14:00 and +14:00" in response.json()["detail"]
    for path in (f"/games/{game.pk}/absence/", "/profile/absences/"):
        web = client_for("ann").post(path, body)
        assert web.status_code == 400 and "between -14:00 and +14:00" in web.content.decode(), path
    assert not Absence.objects.exists()


# E4: the absence form and the vacation form


@pytest.mark.parametrize(("starts_at", "ends_at"), WEB_DATES)
def test_e4_a_forged_date_in_the_absence_and_vacation_forms_is_a_400(client_for, games, starts_at, ends_at):
    ann = client_for("ann")
    before = snapshot()
    for path in (f"/games/{games['mine'].pk}/absence/", "/profile/absences/"):
        response = ann.post(path, {"starts_at": starts_at, "ends_at": ends_at})
        assert_refused(response, allowed=(400,))
        assert "Nothing was changed" in response.content.decode() or "absence" in response.content.decode().lower()
    assert snapshot() == before


@pytest.mark.parametrize("which", ["other", "over"])
def test_e4_the_absence_form_of_a_game_one_is_not_seated_in_is_a_4xx(client_for, games, which):
    ann = client_for("ann")
    before = snapshot()
    local = LATER.strftime("%Y-%m-%dT%H:%M")
    ends = (LATER + timedelta(days=1)).strftime("%Y-%m-%dT%H:%M")
    response = ann.post(f"/games/{games[which].pk}/absence/", {"starts_at": local, "ends_at": ends})
    assert_refused(response)
    assert snapshot() == before


def test_e4_the_vacation_form_with_a_forged_extra_game_field_touches_only_one_s_own_games(client_for, games):
    ann = client_for("ann")
    local = LATER.strftime("%Y-%m-%dT%H:%M")
    ends = (LATER + timedelta(days=1)).strftime("%Y-%m-%dT%H:%M")
    ann.post("/profile/absences/", {"starts_at": local, "ends_at": ends, "game": games["other"].pk})
    assert set(Absence.objects.values_list("seat__game", flat=True)) <= {games["mine"].pk}


# T5: the moderator's extension

FORGED_EXTENSIONS = [
    {"hours": "0"},
    {"hours": "-1"},
    {"hours": "-23"},
    {"hours": "721"},
    {"hours": str(10**30)},
    {"hours": "1e20"},
    {"hours": "inf"},
    {"hours": "1\x00"},
    {"hours": HUGE},
    {"hours": "24", "step": "-1"},
    {"hours": "24", "step": "0"},
    {"hours": "24", "step": str(10**30)},
    {"hours": "24", "step": "\x00"},
    {"hours": "24", "step": HUGE},
    {"hours": "24", "deadline": "9999-12-31T23:59:59+14:00"},
    {"hours": "24", "deadline": "0001-01-01T00:00:00-14:00"},
    {"hours": "24", "deadline": "\x00"},
    {"hours": "24", "deadline": HUGE},
    {"hours": "24", "deadline": "2027-01-01T00:00:00-23:59"},
    {"hours": "24", "reason": "x\x00y"},
    {"hours": "24", "reason": HUGE},
]


@pytest.mark.parametrize("fields", FORGED_EXTENSIONS)
def test_t5_a_forged_extension_is_refused_and_changes_nothing(moderator, fields):
    game = running_game(now=timezone.now())
    game.refresh_from_db()
    data = {"action": "extend", "reason": "because", "step": str(game.step_number), **fields}
    before = snapshot()
    response = moderator.post(f"/moderation/games/{game.pk}/act/", data)
    assert response.status_code in (302, 400), response.status_code
    assert refusal(response)
    assert snapshot() == before


@pytest.mark.parametrize("behind", [-1000, -1, 1])
def test_t5_an_extension_from_a_stale_page_is_refused_and_changes_nothing(moderator, behind):
    game = running_game(now=timezone.now())
    game.refresh_from_db()
    before = snapshot()
    data = {"action": "extend", "reason": "because", "step": game.step_number - behind, "hours": "24"}
    response = moderator.post(f"/moderation/games/{game.pk}/act/", data)
    assert response.status_code in (302, 400)
    assert "reload" in refusal(response).lower() or "nothing was done" in refusal(response).lower()
    assert snapshot() == before


def test_t5_an_extension_at_the_horizon_is_refused_and_changes_nothing(moderator):
    game = running_game(now=timezone.now())
    before = snapshot()
    for _ in range(10):  # each 30 days: the horizon stops them
        moderator.post(
            f"/moderation/games/{game.pk}/act/",
            {"action": "extend", "reason": "r", "step": game.step_number, "hours": "720"},
        )
    game.refresh_from_db()
    assert AuditEntry.objects.count() - before["audit"] < 10


def test_t5_an_extension_of_another_game_id_is_a_4xx(moderator, games):
    before = snapshot()
    for game_id in (99_999_999, 10**30, 0, -1):
        response = moderator.post(
            f"/moderation/games/{game_id}/act/", {"action": "extend", "reason": "r", "step": "0", "hours": "24"}
        )
        assert_refused(response)
    assert snapshot() == before


def test_t5_an_extension_by_a_player_is_a_4xx(client_for, games):
    before = snapshot()
    response = client_for("ann").post(
        f"/moderation/games/{games['mine'].pk}/act/", {"action": "extend", "reason": "r", "step": "0", "hours": "24"}
    )
    assert response.status_code in (302, 403, 404)
    assert snapshot() == before


# Webhook subscriptions (profile and game)

FORGED_URLS = [
    "https://example.org/\x00",
    "https://exa\x00mple.org/",
    "https://example.org/" + "a" * 60_000,
    "https://" + "a" * 60_000 + ".org/",
    "http://[::ffff:127.0.0.1]/",
    "http://[::ffff:7f00:1]/",
    "http://[2002:7f00:1::1]/",
    "http://[2001:0:4136:e378:8000:63bf:80ff:fffe]/",  # Teredo: 127.0.0.1 inverted
    "http://[64:ff9b::127.0.0.1]/",
    "http://[64:ff9b::a9fe:a9fe]/",  # NAT64 169.254.169.254
    "http://[64:ff9b:1::7f00:1]/",
    "http://[::127.0.0.1]/",
    "http://[::1]/",
    "http://[fe80::1%25eth0]/",
    "http://[::ffff:10.0.0.1]:8080/",
    "http://127.0.0.1@example.org/",
    "http://user:pass@example.org/",
    "http://example.org@127.0.0.1/",
    "http://example.org:80@169.254.169.254/",
    "http://0x7f000001/",
    "http://2130706433/",
    "http://017700000001/",
    "http://127.1/",
    "http://localhost./",
    "file:///etc/passwd",
    "gopher://example.org/",
    "javascript:alert(1)",
    "http://[::ffff:127.0.0.1",
    "http://example.org:99999/",
    "",
]


@pytest.mark.parametrize("url", FORGED_URLS)
def test_a_forged_webhook_url_is_a_form_error_in_both_forms_and_stores_nothing(client_for, url):
    game = running_game(now=timezone.now())
    Game.objects.filter(pk=game.pk).update(created_by=make_user("ann"))
    ann = client_for("ann")
    before = snapshot()
    for path in ("/profile/webhooks/", f"/games/{game.pk}/webhooks/"):
        response = ann.post(path, {"url": url})
        assert response.status_code in (200, 400), (path, response.status_code)
        assert 'class="errorlist' in response.content.decode() or response.status_code == 400, path
    assert snapshot() == before


def test_a_game_s_webhooks_of_another_game_are_refused(client_for, games):
    before = snapshot()
    response = client_for("ann").post(f"/games/{games['other'].pk}/webhooks/", {"url": "https://example.org/"})
    assert response.status_code in (403, 404)
    assert snapshot() == before


# HEAD on the API's reads

FORGED_TAGS = [
    '"' + "0" * 60_000 + '"',
    "\x00",
    'W/"x\x00y"',
    "*",
    '"a", ' * 5000,
    "\u00e9\u2028",
]


def read_paths(game_id: int) -> list[str]:
    return [
        "/lobby", f"/games/{game_id}", f"/games/{game_id}/me", f"/games/{game_id}/events",
        f"/games/{game_id}/posts", "/me/notifications", "/me/deadlines",
    ]  # fmt: skip


@pytest.mark.parametrize("tag", FORGED_TAGS)
def test_head_with_a_forged_if_none_match_answers_as_get_without_a_body(games, tag):
    api = Api(token_for("ann"))
    for path in read_paths(games["mine"].pk):
        head = api.head(path, HTTP_IF_NONE_MATCH=tag)
        assert head.status_code in (200, 304, 400), (path, head.status_code)
        assert head.content == b"", path


@pytest.mark.parametrize("tag", [*FORGED_TAGS, None])
def test_head_on_another_player_s_private_view_is_a_4xx_without_a_tag(games, tag):
    api = Api(token_for("ann"))
    headers = {} if tag is None else {"HTTP_IF_NONE_MATCH": tag}
    head = api.head(f"/games/{games['other'].pk}/me", **headers)
    assert head.status_code in (403, 404)
    got = Api(token_for("x0")).get(f"/games/{games['other'].pk}/me")
    assert got.status_code == 200
    assert head.get("ETag") in (None, "") or head["ETag"] != got["ETag"]
    # a stranger's guessing by the owner's tag learns nothing either
    guessed = api.head(f"/games/{games['other'].pk}/me", HTTP_IF_NONE_MATCH=got["ETag"])
    assert guessed.status_code in (403, 404)


# Moves through the API


def test_a_move_with_a_stale_step_is_a_409_worded_for_the_api(games):
    game = games["mine"]
    game.refresh_from_db()
    before = snapshot()
    body = {"type": "nominate", "step_number": game.step_number + 5, "target": "bob"}
    response = Api(token_for("ann")).post(f"/games/{game.pk}/moves", body)
    assert response.status_code == 409
    assert "reload" not in response.json()["detail"].lower()
    assert snapshot() == before


@pytest.mark.parametrize(
    ("field", "value"),
    [("step_number", "abc"), ("step_number", 10**30), ("step_number", -1), ("step_number", 1e20),
     ("vote", 1), ("vote", "maybe"), ("accept", "perhaps"), ("target", 7), ("type", ["nominate"]),
     ("policy", "X")],
)  # fmt: skip
def test_a_move_with_a_wrong_typed_field_is_a_422_naming_the_field(games, field, value):
    game = games["mine"]
    game.refresh_from_db()
    body = {"type": "nominate", "step_number": game.step_number, "target": "bob", field: value}
    before = snapshot()
    response = Api(token_for("ann")).post(f"/games/{game.pk}/moves", body)
    assert response.status_code == 422, response.content[:300]
    assert field in response.json()["detail"]
    assert re.search(r"(must|should|is not|at least|at most|input)", response.json()["detail"], re.I)
    assert snapshot() == before


@pytest.mark.parametrize("field", ["type", "target", "vote", "policy"])
def test_a_move_with_a_nul_byte_in_a_string_is_a_4xx(games, field):
    game = games["mine"]
    game.refresh_from_db()
    body = {"type": "nominate", "step_number": game.step_number, "target": "bob"}
    body[field] = "bo\x00b" if field == "target" else "x\x00"
    before = snapshot()
    response = Api(token_for("ann")).post(f"/games/{game.pk}/moves", body)
    assert_refused(response)
    assert snapshot() == before


@pytest.mark.parametrize("game_key", ["other", "over"])
def test_a_move_in_a_game_one_is_not_seated_in_is_a_4xx_and_leaks_nothing(games, game_key):
    game = games[game_key]
    game.refresh_from_db()
    before = snapshot()
    body = {"type": "nominate", "step_number": game.step_number, "target": "bob"}
    response = Api(token_for("ann")).post(f"/games/{game.pk}/moves", body)
    assert_refused(response)
    text = response.content.decode().lower()
    assert "fascist" not in text and "hitler" not in text and "liberal" not in text
    assert snapshot() == before


# More forged bodies and ids on the same addresses


@pytest.mark.parametrize(
    "body",
    [
        b"",
        b"\x00",
        b"{",
        b'{"starts_at": "\\u0000", "ends_at": "\\u0000"}',
        b'{"starts_\\u0000at": "x"}',
        b"[" * 10_000 + b"]" * 10_000,
        b'{"starts_at": "' + b"9" * 60_000 + b'", "ends_at": 1}',
        b'{"starts_at": 1e400, "ends_at": -1e400}',
        b'{"starts_at": NaN, "ends_at": Infinity}',
        "\ufeff{}".encode(),
        b"\xff\xfe",
    ],
)
def test_e4_a_body_that_is_not_an_absence_is_a_4xx_and_stores_nothing(games, body):
    api = Api(token_for("ann"))
    before = snapshot()
    response = api.client.post(
        f"/api/v1/games/{games['mine'].pk}/absences", body, content_type="application/json", **api.headers
    )
    assert_refused(response)
    assert snapshot() == before


@pytest.mark.parametrize("absence_id", ["other", "99999999", str(10**30), "0"])
def test_e4_withdrawing_someone_else_s_or_no_absence_changes_nothing(client_for, games, absence_id):
    starts = timezone.now() + timedelta(days=3)
    Api(token_for("x0")).post(
        f"/games/{games['other'].pk}/absences",
        {"starts_at": starts.isoformat(), "ends_at": (starts + timedelta(days=1)).isoformat()},
    )
    assert Absence.objects.count() == 1
    target = str(Absence.objects.get().pk) if absence_id == "other" else absence_id
    before = snapshot()
    response = client_for("ann").post(f"/absences/{target}/withdraw/", {"back": "\x00"})
    assert response.status_code in (302, 400, 404)
    assert snapshot() == before


def test_t5_an_extension_of_a_finished_game_is_refused(moderator, games):
    over = games["over"]
    over.refresh_from_db()
    before = snapshot()
    data = {"action": "extend", "reason": "r", "step": over.step_number, "hours": "24"}
    response = moderator.post(f"/moderation/games/{over.pk}/act/", data)
    assert response.status_code in (302, 400, 403, 404)
    assert snapshot() == before


def test_a_stranger_s_head_with_the_owner_s_etag_learns_nothing_of_an_unlisted_game(games):
    """A 304 to a stranger would confirm a guessed tag: the private view answers 403/404 whatever the tag."""
    other = games["other"]
    Game.objects.filter(pk=other.pk).update(visibility=Game.Visibility.UNLISTED)
    owner = Api(token_for("x0"))
    stranger = Api(token_for("ann"))
    for path in (f"/games/{other.pk}/me", f"/games/{other.pk}/events", f"/games/{other.pk}/posts"):
        tag = owner.get(path)["ETag"]
        for method in (stranger.get, stranger.head):
            response = method(path, HTTP_IF_NONE_MATCH=tag)
            if path.endswith("/me"):
                assert response.status_code in (403, 404), path
            else:  # unlisted: readable by anyone with the link, and the same tag for all
                assert response.status_code in (200, 304), path
                assert b"fascist" not in response.content.lower(), path


def test_a_stranger_s_move_is_refused_and_its_refusal_tells_only_what_the_public_read_does(games):
    """A stale step is checked before the seat: a stranger learns the step number, which GET /games/N shows to
    anyone; with the right step the refusal is not_seated."""
    other = games["other"]
    other.refresh_from_db()
    api = Api(token_for("ann"))
    body = {"type": "nominate", "step_number": other.step_number + 3, "target": "x1"}
    stale = api.post(f"/games/{other.pk}/moves", body)
    assert stale.status_code == 409
    assert stale.json()["step_number"] == api.get(f"/games/{other.pk}").json()["step_number"]
    body["step_number"] = other.step_number
    assert api.post(f"/games/{other.pk}/moves", body).json()["code"] == "not_seated"
    assert not ActionRecord.objects.filter(game=other, source=ActionRecord.Source.PLAYER).exists()


@pytest.mark.parametrize("zone", ["Pacific/Honolulu", "Pacific/Kiritimati", "America/Sitka", "Asia/Manila"])
@pytest.mark.parametrize("moment", ["9999-12-31T23:59", "0001-01-01T00:00", "1800-01-01T00:00", "1867-10-18T12:00"])
def test_e4_t5_a_local_date_at_the_calendar_s_ends_in_a_far_zone_is_refused(client_for, moderator, zone, moment):
    """Typed in a datetime-local field and read in the person's zone (old dates have odd local-mean-time offsets:
    Sitka was +14:58 until 1867, Manila +15:56 until 1844): a 400 or a refusal, never a 500, nothing changed."""
    game = running_game(now=timezone.now())
    game.refresh_from_db()
    for name in ("ann", "mod"):
        Profile.objects.filter(pk=Profile.of(get_user_model().objects.get(username=name)).pk).update(time_zone=zone)
    before = snapshot()
    ann = client_for("ann")
    for path in (f"/games/{game.pk}/absence/", "/profile/absences/"):
        assert ann.post(path, {"starts_at": moment, "ends_at": moment}).status_code == 400, path
    data = {"action": "extend", "reason": "r", "step": game.step_number, "hours": "24", "deadline": moment}
    response = moderator.post(f"/moderation/games/{game.pk}/act/", data)
    assert response.status_code == 302 and refusal(response)
    assert snapshot() == before
    assert ann.get(f"/games/{game.pk}/").status_code == 200


@pytest.mark.parametrize("target", ["theirs", "99999999", str(10**30), "%00"])
def test_deleting_someone_else_s_or_no_webhook_changes_nothing(client_for, target):
    theirs = WebhookSubscription.objects.create(
        owner=make_user("zed"), kind=WebhookSubscription.Kind.NOTICES, url="https://example.org/zed",
        secret=WebhookSubscription.new_secret(), created_at=timezone.now(),
    )  # fmt: skip
    before = snapshot()
    path = f"/webhooks/{theirs.pk if target == 'theirs' else target}/delete/"
    response = client_for("ann").post(path)
    assert response.status_code in (302, 400, 404)
    assert snapshot() == before
    assert "example.org/zed" not in client_for("ann").get("/profile/webhooks/").content.decode()


@pytest.mark.parametrize("game_id", ["99999999", str(10**30), "0"])
def test_a_game_s_webhooks_page_of_no_game_is_a_404(client_for, game_id):
    for method in ("get", "post"):
        response = getattr(client_for("ann"), method)(f"/games/{game_id}/webhooks/", {"url": "https://example.org/"})
        assert response.status_code == 404, method
    assert not WebhookSubscription.objects.exists()
