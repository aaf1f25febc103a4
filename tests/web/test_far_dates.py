"""Issue 27: every date a person sends is bounded by what the game allows (E4). A date at the calendar's end (year
9999 with +14:00 is year 10000 in UTC) is refused with a 4xx through the API, the game's absence form and the
vacation form alike, nothing is stored, and the player's pages go on answering."""

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from games.models import Absence, Notification, Profile
from tests.factories import Api, running_game, token_for
from tests.payloads import THE_ISSUE_S

pytestmark = pytest.mark.django_db


def local(moment) -> str:
    return moment.strftime("%Y-%m-%dT%H:%M")


def assert_nothing_stored_and_pages_answer(client_for, game) -> None:
    assert not Absence.objects.exists()
    assert not Notification.objects.filter(kind=Notification.Kind.ABSENCE).exists()
    ann = client_for("ann")
    for path in (f"/games/{game.pk}/", "/notifications/", "/profile/absences/"):
        assert ann.get(path).status_code == 200, path
    assert Api(token_for("ann")).get("/me/notifications").status_code == 200


def test_e4_the_issue_s_far_absence_through_the_api_is_refused_and_stores_nothing(client_for):
    game = running_game(now=timezone.now())
    response = Api(token_for("ann")).post(f"/games/{game.pk}/absences", THE_ISSUE_S)
    assert response.status_code == 409 and response.json()["code"] == "absence_too_far"
    assert "at most a year from now" in response.json()["detail"]
    assert_nothing_stored_and_pages_answer(client_for, game)


def test_e4_the_issue_s_far_absence_through_the_game_s_form_is_a_400(client_for):
    game = running_game(now=timezone.now())
    response = client_for("ann").post(f"/games/{game.pk}/absence/", THE_ISSUE_S)
    assert response.status_code == 400
    page = response.content.decode()
    assert "An absence may start at most a year from now." in page and "Nothing was changed." in page
    assert f'href="/games/{game.pk}/#panel"' in page
    assert_nothing_stored_and_pages_answer(client_for, game)


def test_e4_the_issue_s_far_vacation_is_a_400_in_every_game(client_for):
    games = [running_game(now=timezone.now()) for _ in range(2)]
    response = client_for("ann").post("/profile/absences/", THE_ISSUE_S)
    assert response.status_code == 400
    assert "An absence may start at most a year from now." in response.content.decode()
    for game in games:
        assert_nothing_stored_and_pages_answer(client_for, game)


def test_e4_a_local_date_that_overflows_in_utc_is_refused(client_for):
    """9999-12-31 23:59 in Honolulu is year 10000 in UTC: typed in the datetime-local field of a player there."""
    game = running_game(now=timezone.now())
    ann = client_for("ann")
    Profile.objects.filter(pk=Profile.of(get_user_model().objects.get(username="ann")).pk).update(
        time_zone="Pacific/Honolulu"
    )
    data = {"starts_at": "9999-12-31T23:59", "ends_at": "9999-12-31T23:59"}
    assert ann.post(f"/games/{game.pk}/absence/", data).status_code == 400
    data["starts_at"] = "9999-12-31T22:00"
    assert ann.post(f"/games/{game.pk}/absence/", data).status_code == 400
    assert ann.post("/profile/absences/", data).status_code == 400
    assert_nothing_stored_and_pages_answer(client_for, game)


@pytest.mark.parametrize(
    ("starts_in", "lasts", "message"),
    [
        (timedelta(days=366), timedelta(days=1), "An absence may start at most a year from now."),
        (timedelta(days=2), timedelta(days=91), "An absence may last at most 90 days."),
        (timedelta(days=2), timedelta(days=8), "Absences in this game may last 7 days in all"),
        (timedelta(hours=2), timedelta(days=1), "at least 24 hours before it starts"),
        (timedelta(days=2), -timedelta(hours=1), "An absence must end after it starts."),
    ],
)
def test_e4_an_absence_outside_the_game_s_bounds_gets_the_same_refusal_everywhere(
    client_for, starts_in, lasts, message
):
    game = running_game(now=timezone.now())
    starts = timezone.now().replace(second=0, microsecond=0) + starts_in
    body = {"starts_at": starts.isoformat(), "ends_at": (starts + lasts).isoformat()}
    api = Api(token_for("ann")).post(f"/games/{game.pk}/absences", body)
    assert api.status_code == 409 and message in api.json()["detail"]
    form = {"starts_at": local(starts), "ends_at": local(starts + lasts)}
    web = client_for("ann").post(f"/games/{game.pk}/absence/", form)
    assert web.status_code == 400 and message in web.content.decode()
    vacation = client_for("ann").post("/profile/absences/", form)
    assert vacation.status_code == 400 and message in vacation.content.decode()
    assert not Absence.objects.exists()


def test_e4_times_without_their_offset_are_refused_by_the_api():
    game = running_game(now=timezone.now())
    starts = timezone.now() + timedelta(days=2)
    body = {"starts_at": local(starts), "ends_at": local(starts + timedelta(days=1))}
    response = Api(token_for("ann")).post(f"/games/{game.pk}/absences", body)
    assert response.status_code == 409 and response.json()["code"] == "invalid_dates"
    assert not Absence.objects.exists()


def test_e4_an_absence_within_the_bounds_is_still_announced_everywhere(client_for):
    game = running_game(now=timezone.now())
    starts = timezone.now() + timedelta(days=360)
    body = {"starts_at": starts.isoformat(), "ends_at": (starts + timedelta(days=1)).isoformat()}
    assert Api(token_for("ann")).post(f"/games/{game.pk}/absences", body).status_code == 200
    later = starts + timedelta(days=2)
    form = {"starts_at": local(later), "ends_at": local(later + timedelta(days=1))}
    assert client_for("ann").post(f"/games/{game.pk}/absence/", form).status_code == 302
    assert Absence.objects.count() == 2


def test_e4_a_date_at_the_calendar_s_start_is_refused_too(client_for):
    """Year 1 with +14:00 is year 0 in UTC: refused as too late, before anything converts it."""
    game = running_game(now=timezone.now())
    body = {"starts_at": "0001-01-01T00:00:00+14:00", "ends_at": "0001-01-02T00:00:00+14:00"}
    response = Api(token_for("ann")).post(f"/games/{game.pk}/absences", body)
    assert response.status_code == 409 and response.json()["code"] == "absence_too_late"
    assert client_for("ann").post(f"/games/{game.pk}/absence/", body).status_code == 400
    assert_nothing_stored_and_pages_answer(client_for, game)
