"""A game's start (R1): everyone in a game that filled its lobby hears of it, in the bell and by email as each
chose: the seated that their role is on their private panel (never the role itself), those waiting for a seat that
they wait. The first president hears of the start and of their move in one email. Once per person, however many
times the change or the outbox's task is delivered."""

import pytest
from django.core import mail

from games.engine import waiting_for
from games.models import Game, GameEvent, Notification, Profile
from games.notify import notify_changes
from games.services import create_game, join_game
from games.services.play import begin
from games.tasks import send_emails
from tests.factories import NAMES, START, make_user, running_game
from tests.games.helpers import reload

pytestmark = pytest.mark.django_db
STARTED = "Friday game has started. Your role is on your private panel, on the game's page."
WAITING = "Friday game has started. You are signed up as a substitute: you wait for a seat to free up."
SECRETS = ("Liberal", "Fascist", "Hitler", "liberal", "fascist")


def started_game() -> Game:
    """Five players fill Friday game's lobby; zed signed up as a substitute before it filled."""
    users = [make_user(name) for name in NAMES[:5]]
    game = create_game(users[0], now=START, player_count=5, name="Friday game")
    join_game(game.pk, make_user("zed"), as_substitute=True, now=START)
    for user in users[1:]:
        join_game(game.pk, user, now=START)
    game = reload(game)
    assert game.status == Game.Status.RUNNING
    return game


def president_of(game: Game) -> str:
    state = game.load_state()
    [seat] = waiting_for(state)
    return state.seats[seat].name


def emails_to(name: str) -> list:
    return [message for message in mail.outbox if message.to == [f"{name}@example.com"]]


def test_r1_every_seated_player_and_waiting_substitute_is_told_the_start_once_in_the_bell():
    game = started_game()
    notices = Notification.objects.filter(game=game, kind=Notification.Kind.STARTED)
    assert sorted(notices.values_list("user__username", flat=True)) == sorted([*NAMES[:5], "zed"])
    assert notices.get(user__username="zed").data["waiting"] is True
    assert not any(notice.data["waiting"] for notice in notices.exclude(user__username="zed"))


def test_r1_each_player_gets_one_email_the_president_s_telling_the_start_and_the_move(client_for):
    game = started_game()
    president = president_of(game)
    send_emails()
    for name in NAMES[:5]:
        [message] = emails_to(name)
        assert message.subject == STARTED
        assert f"- {STARTED}\n  http://127.0.0.1:8000/games/{game.pk}/#panel" in message.body
        assert ("Your move in Friday game: nominate a chancellor" in message.body) == (name == president)
        text = message.body.replace("Secret Hitler by post", "")  # the site's name
        assert not any(word in text for word in SECRETS)  # the role stays on the panel
    [zeds] = emails_to("zed")
    assert zeds.subject == WAITING
    bell = client_for("zed").get("/notifications/").content.decode()
    assert f'<a href="/games/{game.pk}/">{WAITING}</a>' in bell


def test_r1_the_start_is_told_once_however_often_the_change_or_the_task_is_delivered():
    game = started_game()
    again = begin(reload(game), START)  # the change that started the game, heard a second time
    again.events = list(GameEvent.objects.filter(game=game, type="game_started"))
    notify_changes([again])
    send_emails()
    send_emails()  # the outbox's task delivered twice
    assert Notification.objects.filter(game=game, kind=Notification.Kind.STARTED).count() == 6
    assert len(mail.outbox) == 6
    assert all(len(emails_to(name)) == 1 for name in [*NAMES[:5], "zed"])


def test_r1_the_start_is_emailed_as_each_player_chose():
    Profile.objects.filter(pk=Profile.of(make_user("bob")).pk).update(email_moves=False)
    game = started_game()
    bobs = Notification.objects.get(game=game, kind=Notification.Kind.STARTED, user__username="bob")
    assert bobs.email == Notification.Email.NONE  # in bob's bell only
    send_emails()
    assert emails_to("bob") == [] and len(emails_to("cat")) == 1


def test_r1_an_imported_game_under_way_tells_no_start():
    game = running_game()
    assert not Notification.objects.filter(game=game, kind=Notification.Kind.STARTED).exists()
