"""Who is told what (issue 5): "your move", warnings, exiles, mentions, absences, digests of game events."""

from datetime import timedelta

import pytest
import time_machine
from django.core import mail
from django.utils import timezone

from games.models import Notification, Profile
from games.notify.email import send_due_emails
from games.notify.messages import describe_notification
from games.services import declare_absence, make_move, sweep_due_deadlines
from games.services.forum import post_message
from tests.factories import START, governments, make_user, running_game
from tests.games.helpers import reload, user

pytestmark = pytest.mark.django_db


def kinds(name: str) -> list[str]:
    return list(Notification.objects.filter(user__username=name).order_by("pk").values_list("kind", flat=True))


def test_your_move_for_the_candidate_when_a_game_is_imported_or_started():
    running_game()
    assert kinds("ann") == ["your_move"]
    assert kinds("bob") == []
    notice = Notification.objects.get()
    assert notice.data == {
        "step": "nominate",
        "step_number": 1,
        "round": 1,
        "deadline": (START + timedelta(hours=48)).isoformat(),
    }
    assert notice.email == Notification.Email.PENDING


def test_your_move_for_every_living_player_when_the_vote_opens_and_not_for_ballots():
    game = running_game()
    make_move(game.pk, user("ann"), {"type": "nominate", "target": "bob"}, 1, now=START)
    assert kinds("bob") == ["your_move"]
    make_move(game.pk, user("bob"), {"type": "vote", "vote": "ja"}, reload(game).step_number, now=START)
    assert kinds("bob") == ["your_move"] and kinds("ann") == ["your_move", "your_move"]


def test_e7_warning_after_the_first_miss_and_notice_of_exile():
    game = running_game()
    sweep_due_deadlines(now=game.deadline)
    assert "warning" in kinds("ann")
    game = reload(game)
    make_move(
        game.pk, user("bob"), {"type": "nominate", "target": "cat"}, game.step_number, now=START + timedelta(hours=49)
    )
    sweep_due_deadlines(now=reload(game).deadline)  # nobody votes: ann misses a second round in a row
    assert kinds("ann")[-1] == "exiled"
    assert Notification.objects.filter(user__username="ann", kind="exiled").get().data["reason"] == "missed_rounds"


def test_preferences_decide_what_is_emailed():
    running_game()
    Profile.of(user("bob"))
    Profile.objects.filter(user__username="bob").update(email_moves=False)
    game = running_game()  # a second game: bob's move notice stays in-site only
    notice = Notification.objects.filter(game=game, user__username="ann").get()
    assert notice.email == Notification.Email.PENDING
    make_move(game.pk, user("ann"), {"type": "nominate", "target": "bob"}, 1, now=START)
    assert Notification.objects.get(game=game, user__username="bob").email == Notification.Email.NONE


def test_game_events_go_to_those_who_asked_for_the_digest_at_eight_in_their_zone():
    game = running_game()
    profile = Profile.of(user("cat"))
    profile.digest_events, profile.time_zone = True, "America/New_York"
    profile.save()
    actions = governments(("ann", "bob"))
    for action in actions:
        move = {key: value for key, value in action.items() if key != "by"}
        make_move(game.pk, user(action["by"]), move, reload(game).step_number, now=START)
    events = Notification.objects.filter(user__username="cat", kind="event")
    assert sorted(e.data["event"] for e in events) == ["policy_enacted", "vote_closed"]
    assert {e.email_due_at for e in events} == {START.replace(hour=13, minute=0)}  # 08:00 in New York
    assert not Notification.objects.filter(user__username="dan", kind="event").exists()


def test_t4_a_digest_tells_an_outcome_the_deadline_applied_as_the_deadline_s():
    game = running_game(actions=governments(("ann", "bob"))[:-1])  # bob has to enact
    profile = Profile.of(user("cat"))
    profile.digest_events = True
    profile.save()
    sweep_due_deadlines(now=reload(game).deadline)
    (notice,) = Notification.objects.filter(user__username="cat", kind="event")
    text = describe_notification(notice, game)
    assert (
        "The deadline passed: the chancellor did not enact, so one of the two policies was enacted at random." in text
    )


def test_mentions_notify_the_players_named():
    game = running_game(now=timezone.now())
    post_message(game.pk, user("ann"), "@bob and @cat, explain yourselves. @ann @nobody")
    assert Notification.objects.filter(kind="mention").count() == 2
    mention = Notification.objects.filter(kind="mention", user__username="bob").get()
    assert mention.data["by"] == "ann" and mention.email == Notification.Email.PENDING


def test_absence_confirmation():
    game = running_game()
    declare_absence(game.pk, user("dan"), START + timedelta(days=2), START + timedelta(days=4), now=START)
    assert kinds("dan") == ["absence"]


def test_r23_your_move_on_an_execution_vote_names_whose_and_tells_its_target_it_is_their_own():
    executing = governments(("ann", "bob"), ("bob", "dan"), ("cat", "eve"), ("dan", "ann"))
    make_user("eve")  # with an email address
    game = running_game(actions=[*executing, {"type": "execute", "by": "dan", "target": "eve"}], execution_vote=True)

    def said_to(name: str) -> str:
        notice = Notification.objects.filter(user__username=name, kind="your_move").latest("pk")
        return describe_notification(notice, game)

    assert "Your move in" in said_to("ann") and "vote on executing eve" in said_to("ann")
    assert "vote on your own execution" in said_to("eve") and "executing eve" not in said_to("eve")
    with time_machine.travel(START, tick=False):
        send_due_emails(now=START)
    (email,) = [message for message in mail.outbox if message.to == ["eve@example.com"]]
    assert "vote on your own execution" in email.subject
