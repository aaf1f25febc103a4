"""Whoever takes over a seat (E5 a substitute after an exile, E8 a replacement) is told at once, in the bell and by
email as they chose, in their language: which seat of which game, that their role is on their private panel, and
where to read the thread up. Once, however often the change or the outbox's task is delivered; never the role."""

import pytest
from django.core import mail
from django.utils import translation

from games.models import Game, GameEvent, Notification, Profile
from games.notify import notify_changes
from games.services import end_now, exile, join_game, replace
from games.services.play import begin
from games.tasks import send_emails
from tests.factories import START, make_user, running_game
from tests.games.helpers import reload

pytestmark = pytest.mark.django_db
TOLD = (
    "You now hold seat 4 in Imported game (5 players), in place of dan. Your role is on your private panel; read "
    "the game's thread to catch up."
)
ROLE_WORDS = ("liberal", "fascist", "hitler", "libéral", "fasciste")


def emails_to(name: str) -> list:
    return [message for message in mail.outbox if message.to == [f"{name}@example.com"]]


def seated(game: Game) -> list[Notification]:
    return list(Notification.objects.filter(game=game, kind=Notification.Kind.SEATED))


def substitute_seated() -> Game:
    """zed waits as a substitute; a moderator exiles dan, a liberal, at the end of the round: zed takes seat 4."""
    game = running_game()
    join_game(game.pk, make_user("zed"), as_substitute=True, now=START)
    moderator = make_user("mod")
    exile(game.pk, moderator, "dan", now=START)
    end_now(game.pk, moderator, now=START)
    return game


def without_the_site_name(text: str) -> str:
    return text.replace("Secret Hitler by post", "")


def test_e5_the_substitute_who_takes_an_exiled_seat_is_told_once_in_the_bell_and_by_email_without_the_role():
    game = substitute_seated()
    [notice] = seated(game)
    assert (notice.user.username, notice.data) == (
        "zed",
        {"seat": 3, "replaces": "dan", "round": 1, "step_number": reload(game).step_number},
    )
    send_emails()
    [message] = emails_to("zed")
    assert message.subject == TOLD
    assert f"- {TOLD}\n  http://127.0.0.1:8000/games/{game.pk}/unread/" in message.body
    for text in (message.subject, without_the_site_name(message.body), message.alternatives[0][0]):
        assert not any(word in without_the_site_name(text).lower() for word in ROLE_WORDS)


def test_e5_the_seat_is_told_once_however_often_the_change_or_the_task_is_delivered():
    game = substitute_seated()
    again = begin(reload(game), START)  # the change that seated zed, heard a second time
    again.events = list(GameEvent.objects.filter(game=game, type="substituted"))
    notify_changes([again])
    send_emails()
    send_emails()
    assert len(seated(game)) == 1 and len(emails_to("zed")) == 1


def test_e8_the_newcomer_named_by_a_replacement_is_told_in_their_own_language():
    game = running_game()
    Profile.objects.filter(pk=Profile.of(make_user("zoe")).pk).update(language="en")
    replace(game.pk, make_user("mod"), "dan", "zoe", now=START)
    end_now(game.pk, make_user("mod"), now=START)
    assert [notice.user.username for notice in seated(game)] == ["zoe"]  # dan, who hands the seat over, is not
    with translation.override("fr"):  # the site's language at sending is not the reader's
        send_emails()
    [message] = emails_to("zoe")
    assert message.subject == TOLD and message.body.startswith("Hello zoe,")


def test_e8_the_seat_is_in_the_bell_only_for_whoever_turned_off_move_emails(client_for):
    Profile.objects.filter(pk=Profile.of(make_user("zoe")).pk).update(email_moves=False)
    game = running_game()
    replace(game.pk, make_user("mod"), "dan", "zoe", now=START)
    end_now(game.pk, make_user("mod"), now=START)
    [notice] = seated(game)
    assert notice.email == Notification.Email.NONE
    send_emails()
    assert emails_to("zoe") == []
    bell = client_for("zoe").get("/notifications/").content.decode()
    assert f'<a href="/games/{game.pk}/unread/">{TOLD}</a>'.replace("'", "&#x27;") in bell


def test_e8_a_newcomer_who_owes_the_next_move_hears_of_the_seat_and_the_move_in_one_email():
    game = running_game()
    make_user("zoe")
    replace(game.pk, make_user("mod"), "bob", "zoe", now=START)  # bob is the next presidential candidate
    end_now(game.pk, make_user("mod"), now=START)
    send_emails()
    [message] = emails_to("zoe")
    told = TOLD.replace("seat 4", "seat 2").replace("of dan", "of bob")
    assert message.subject == told
    assert message.body.index(f"- {told}") < message.body.index("- Your move in Imported game (5 players): nominate")
