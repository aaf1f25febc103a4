"""The bell, one-click unsubscribe, preferences and the private calendar feed."""

from datetime import timedelta

import icalendar
import pytest
from django.test import Client

from games.models import Notification, Profile
from games.notify.calendar import new_calendar_token
from games.notify.unsubscribe import unsubscribe_token
from games.services import extend, make_move
from tests.factories import START, make_user, running_game
from tests.games.helpers import reload, user

pytestmark = pytest.mark.django_db


def test_the_bell_lists_and_marks_read(client_for):
    running_game()
    ann = client_for("ann")
    assert '<span class="badge">1</span>' in ann.get("/").content.decode()
    page = ann.get("/notifications/").content.decode()
    assert "Your move in Imported game (5 players): nominate a chancellor" in page
    assert Notification.objects.get().read_at is not None
    assert '<span class="badge">1</span>' not in ann.get("/").content.decode()


def test_unsubscribe_asks_on_get_and_acts_on_post_without_signing_in():
    ann = make_user("ann")
    url = f"/unsubscribe/{unsubscribe_token(ann.pk, ['reminders'])}/"
    client = Client(enforce_csrf_checks=True)
    assert "Stop sending me deadline reminders" in client.get(url).content.decode()
    assert Profile.of(ann).reminders == "both"
    response = client.post(url, {"List-Unsubscribe": "One-Click"})
    assert response.status_code == 200
    assert Profile.objects.get(user=ann).reminders == "none"


def test_a_forged_unsubscribe_link_is_refused(client):
    ann = make_user("ann")
    token = unsubscribe_token(ann.pk, ["moves"])
    assert client.post(f"/unsubscribe/{token[:-2]}xx/").status_code == 404
    assert Profile.of(ann).email_moves is True


def test_preferences_on_the_profile_page(client_for):
    ann = client_for("ann")
    data = {"time_zone": "UTC", "language": "en", "reminders": "3", "digest_events": "on"}
    ann.post("/profile/", data)
    profile = Profile.objects.get(user__username="ann")
    assert (profile.reminders, profile.digest_events, profile.email_moves) == ("3", True, False)


def test_the_calendar_feed_has_every_deadline_owed_with_stable_uids(client_for, client):
    game = running_game()
    ann = client_for("ann")
    assert "Make my calendar address" in ann.get("/profile/").content.decode()  # none until asked for
    ann.post("/profile/calendar/")
    page = ann.get("/profile/").content.decode()
    url = page.split('readonly value="')[1].split('"')[0].replace("http://testserver", "")
    feed = icalendar.Calendar.from_ical(client.get(url).content)
    events = {str(e["uid"]): e for e in feed.walk("VEVENT")}
    nomination = f"game-{game.pk}-round-1-nomination@127.0.0.1"
    vote = f"game-{game.pk}-round-1-vote@127.0.0.1"
    assert set(events) == {nomination, vote}
    assert events[nomination].decoded("dtend") == START + timedelta(hours=48)
    assert events[vote].decoded("dtend") == START + timedelta(days=7)
    extend(game.pk, make_user("mod"), hours=24, now=START)
    moved = {str(e["uid"]): e for e in icalendar.Calendar.from_ical(client.get(url).content).walk("VEVENT")}
    assert moved[nomination].decoded("dtend") == START + timedelta(hours=72)  # the same event, moved


def test_the_calendar_lists_only_what_the_reader_owes(client_for, client):
    game = running_game()
    make_move(game.pk, user("ann"), {"type": "nominate", "target": "bob"}, reload(game).step_number, now=START)
    token = new_calendar_token(user("cat"))
    feed = icalendar.Calendar.from_ical(client.get(f"/calendar/{token}.ics").content)
    assert [str(e["summary"]) for e in feed.walk("VEVENT")] == ["Imported game (5 players): vote on the government"]


def test_a_replaced_calendar_address_stops_working(client_for, client):
    ann = client_for("ann")
    first = ann.post("/profile/calendar/", follow=True).content.decode()
    assert "add it to your calendar app" in first and "the old one no longer works" not in first  # no old one yet
    old = Profile.objects.get(user__username="ann").calendar_token
    again = ann.post("/profile/calendar/", follow=True).content.decode()
    assert "the old one no longer works" in again
    assert client.get(f"/calendar/{old}.ics").status_code == 404
    new = Profile.objects.get(user__username="ann").calendar_token
    assert client.get(f"/calendar/{new}.ics").status_code == 200


def test_the_calendar_feed_speaks_its_owners_language_whatever_reads_it(client):
    game = running_game()
    make_move(game.pk, user("ann"), {"type": "nominate", "target": "bob"}, reload(game).step_number, now=START)
    Profile.objects.filter(pk=Profile.of(user("cat")).pk).update(language="es")
    token = new_calendar_token(user("cat"))
    # the calendar app that fetches it asks for English: the feed is cat's, in hers
    feed = icalendar.Calendar.from_ical(client.get(f"/calendar/{token}.ics", HTTP_ACCEPT_LANGUAGE="en").content)
    assert str(feed["x-wr-calname"]) == "Plazos de Secret Hitler"
    [event] = feed.walk("VEVENT")
    assert str(event["summary"]) == "Imported game (5 players): votar el gobierno propuesto"
    assert event.decoded("dtend") == START + timedelta(days=7)  # the times as before: UTC


def test_r23_the_calendar_names_whose_execution_a_ballot_is_on_and_tells_its_target(client):
    from tests.factories import governments

    executing = governments(("ann", "bob"), ("bob", "dan"), ("cat", "eve"), ("dan", "ann"))
    game = running_game(actions=[*executing, {"type": "execute", "by": "dan", "target": "eve"}], execution_vote=True)
    assert reload(game).deadline is not None

    def summaries(name: str) -> list[str]:
        token = new_calendar_token(user(name))
        feed = icalendar.Calendar.from_ical(client.get(f"/calendar/{token}.ics").content)
        return [str(event["summary"]) for event in feed.walk("VEVENT")]

    assert summaries("ann") == [f"{game.name}: vote on executing eve"]
    assert summaries("eve") == [f"{game.name}: vote on your own execution"]
