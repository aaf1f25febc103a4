"""Issue 27: the absences API, the absence form and the vacation form (E4) attacked as a hostile user would, each sent
NUL bytes, huge and negative values, dates at the calendar's ends, numbers where dates go, other games' ids and
stale steps. What a user notices: never a 5xx, a clear 4xx or form error, nothing changed, no other game's secret in
the answer."""

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from games.models import Absence, Profile
from tests.factories import Api, running_game, token_for
from tests.web.attacks import GOOD_END, GOOD_START, HUGE, LATER, assert_refused, refusal, snapshot

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]


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
