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
