"""Absences as players manage them (E4): listed where they are announced, in the reader's time zone (which the form
names), withdrawn before they start or ended when the player is back, and a vacation declared in every game at
once, each game applying its own notice and cap and saying what it did."""

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from games.models import Absence, Profile
from tests.factories import governments, running_game

pytestmark = pytest.mark.django_db


def local(moment: datetime, zone: str = "UTC") -> str:
    return moment.astimezone(ZoneInfo(zone)).strftime("%Y-%m-%dT%H:%M")


def test_e4_the_form_names_its_time_zone_and_reads_the_dates_in_it(client_for):
    game = running_game(now=timezone.now())
    ann = client_for("ann")
    Profile.objects.filter(pk=Profile.of(get_user_model().objects.get(username="ann")).pk).update(
        time_zone="Europe/Warsaw"
    )
    page = ann.get(f"/games/{game.pk}/").content.decode()
    assert "Dates and times in your time zone: Europe/Warsaw (UTC+0" in page
    start = (timezone.now() + timedelta(days=2)).replace(second=0, microsecond=0)
    ends = start + timedelta(days=1)
    data = {"starts_at": local(start, "Europe/Warsaw"), "ends_at": local(ends, "Europe/Warsaw")}
    ann.post(f"/games/{game.pk}/absence/", data)
    assert Absence.objects.get().starts_at == start  # 10:00 in Warsaw is 09:00 or 08:00 UTC, as the form said


def test_e4_an_absence_not_begun_is_withdrawn_and_one_under_way_ended(client_for):
    game = running_game(now=timezone.now())
    ann = client_for("ann")
    start = timezone.now() + timedelta(days=2)
    ann.post(f"/games/{game.pk}/absence/", {"starts_at": local(start), "ends_at": local(start + timedelta(days=1))})
    absence = Absence.objects.get()
    page = ann.get(f"/games/{game.pk}/").content.decode()
    assert f'action="/absences/{absence.pk}/withdraw/"' in page and ">Withdraw</button>" in page
    assert client_for("bob").post(f"/absences/{absence.pk}/withdraw/").status_code == 302
    assert Absence.objects.filter(pk=absence.pk).exists()  # not bob's to withdraw
    page = ann.post(f"/absences/{absence.pk}/withdraw/", follow=True).content.decode()
    assert "Your absence is withdrawn." in page and not Absence.objects.exists()
    under_way = Absence.objects.create(
        seat=game.seats.get(name="ann"), starts_at=timezone.now() - timedelta(hours=1), ends_at=start
    )
    page = ann.post(f"/absences/{under_way.pk}/withdraw/", follow=True).content.decode()
    assert "Welcome back." in page
    under_way.refresh_from_db()
    assert under_way.ended_early_at is not None


def test_e4_a_vacation_is_declared_in_every_game_under_each_game_s_limits(client_for):
    relaxed = running_game(now=timezone.now())
    strict = running_game(now=timezone.now())
    strict.absence_notice_hours = 72
    strict.save(update_fields=["absence_notice_hours"])
    ann = client_for("ann")
    start = timezone.now() + timedelta(days=2)
    data = {"starts_at": local(start), "ends_at": local(start + timedelta(days=3))}
    page = ann.post("/profile/absences/", data).content.decode()
    results = page.split("Game by game")[1].split("</ul>")[0]
    assert results.count("<strong>announced</strong>") == 1 and results.count("<strong>refused</strong>") == 1
    assert "at least 72 hours before it starts" in results
    assert list(Absence.objects.values_list("seat__game", flat=True)) == [relaxed.pk]
    again = ann.post("/profile/absences/", data).content.decode().split("Game by game")[1].split("</ul>")[0]
    assert "overlaps one you have already announced" in again and Absence.objects.count() == 1  # nothing doubled
    listed = ann.get("/profile/absences/").content.decode()
    assert f'href="/games/{relaxed.pk}/"' in listed.split('id="announced"')[1]


def test_e4_the_dead_announce_no_absence_and_a_vacation_says_so(client_for):
    actions = governments(("ann", "bob"), ("bob", "cat"), ("cat", "dan"), ("dan", "eve"))
    game = running_game(now=timezone.now(), actions=[*actions, {"type": "execute", "by": "dan", "target": "ann"}])
    start = timezone.now() + timedelta(days=2)
    data = {"starts_at": local(start), "ends_at": local(start + timedelta(days=1))}
    page = client_for("ann").post("/profile/absences/", data).content.decode()
    assert "you owe no move, so there is nothing to excuse" in page
    assert not Absence.objects.filter(seat__game=game).exists()


def refusal_page(client, game, starts_at: str, ends_at: str) -> str:
    """The game's absence form sent: refused, it comes back with the dates as typed, the reason under them, and
    nothing stored."""
    before = list(Absence.objects.values_list("pk", flat=True))
    response = client.post(f"/games/{game.pk}/absence/", {"starts_at": starts_at, "ends_at": ends_at})
    assert response.status_code == 400
    page = response.content.decode()
    form = page.split(f'action="/games/{game.pk}/absence/"')[1].split("</form>")[0]
    assert f'name="starts_at" required value="{starts_at}"' in form
    assert f'name="ends_at" required value="{ends_at}"' in form
    assert f'href="/games/{game.pk}/#panel"' in page  # back to the game
    assert list(Absence.objects.values_list("pk", flat=True)) == before
    return form.split('name="ends_at"')[1]  # what is said under the dates


@pytest.mark.parametrize(
    ("starts_in", "lasts", "reason"),
    [
        (timedelta(hours=2), timedelta(days=1), "An absence must be announced at least 24 hours before it starts."),
        (timedelta(days=366), timedelta(days=1), "An absence may start at most a year from now."),
        (timedelta(days=2), timedelta(days=91), "An absence may last at most 90 days."),
        (
            timedelta(days=2),
            timedelta(days=8),
            "Absences in this game may last 7 days in all; you have 168 hours left.",
        ),
        (timedelta(days=2), -timedelta(hours=1), "An absence must end after it starts."),
    ],
)
def test_e4_an_absence_refused_by_the_game_s_rules_shows_its_form_again_with_the_dates_and_why(
    client_for, starts_in, lasts, reason
):
    game = running_game(now=timezone.now())
    starts = timezone.now() + starts_in
    under = refusal_page(client_for("ann"), game, local(starts), local(starts + lasts))
    assert f'<ul class="errorlist nonfield"><li>{reason}</li></ul>' in under.replace("&#x27;", "'")


def test_e4_an_absence_overlapping_one_announced_shows_its_form_again_with_why(client_for):
    game = running_game(now=timezone.now())
    ann = client_for("ann")
    starts = timezone.now() + timedelta(days=2)
    dates = (local(starts), local(starts + timedelta(days=1)))
    assert (
        ann.post(f"/games/{game.pk}/absence/", dict(zip(("starts_at", "ends_at"), dates, strict=True))).status_code
        == 302
    )
    under = refusal_page(ann, game, *dates)
    assert "This absence overlaps one you have already announced." in under


def test_e4_an_offset_no_place_uses_shows_the_form_again_with_why(client_for):
    game = running_game(now=timezone.now())
    day = (timezone.now() + timedelta(days=30)).strftime("%Y-%m-%dT%H:%M")
    under = refusal_page(client_for("ann"), game, f"{day}:00+16:00", f"{day}:01+16:00")
    assert "A UTC offset is between -14:00 and +14:00." in under


def test_e4_the_dead_and_those_without_a_seat_get_the_form_again_with_why(client_for):
    game = running_game(
        now=timezone.now(),
        actions=[
            *governments(("ann", "bob"), ("bob", "cat"), ("cat", "dan"), ("dan", "eve")),
            {"type": "execute", "by": "dan", "target": "ann"},
        ],
    )
    starts = timezone.now() + timedelta(days=2)
    dates = (local(starts), local(starts + timedelta(days=1)))
    assert "you owe no move, so there is nothing to excuse." in refusal_page(client_for("ann"), game, *dates)
    stranger = refusal_page(client_for("zed"), game, *dates)
    assert "Only a player seated in a running game can announce an absence." in stranger


def test_e4_an_absence_form_missing_a_date_comes_back_with_the_one_given(client_for):
    game = running_game(now=timezone.now())
    starts = local(timezone.now() + timedelta(days=2))
    under = refusal_page(client_for("ann"), game, starts, "")
    assert '<ul class="errorlist"' in under and "This field is required." in under
