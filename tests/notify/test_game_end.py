"""A game's end (R26, R27) is a notice in the bell of everyone who held a seat, the dead and the exiled too, and an
email as each chose, with the result, the roles and a link to the secret history: once per person, however many
times the change or the outbox's task is delivered."""

import pytest
from django.contrib.auth.models import Group
from django.core import mail

from games.models import Game, GameEvent, Notification, Profile
from games.notify import notify_changes
from games.notify.unsubscribe import read_unsubscribe_token
from games.services import exile, join_game, make_move
from games.services.play import begin
from games.tasks import send_emails
from tests.factories import EXECUTED, START, make_user, running_game
from tests.games.helpers import reload, user

pytestmark = pytest.mark.django_db
RESULT = "The fascists win: Hitler was elected chancellor."
ROLES = "The roles: ann (Liberal), bob (Fascist), cat (Hitler), eve (Liberal), zed (Liberal)."  # zed holds seat 3
PLAYERS = ["ann", "bob", "cat", "dan", "eve"]


def move(game: Game, name: str, **action) -> None:
    make_move(game.pk, user(name), action, reload(game).step_number, now=START)


def finished_game() -> Game:
    """dan executes eve (EXECUTED), a moderator exiles dan at the end of the round, and bob, the next president,
    elects cat, Hitler, as chancellor after three fascist policies: the fascists win. zed waits as a substitute."""
    for name in PLAYERS:
        make_user(name)  # with an address
    moderator = make_user("zoe")
    moderator.groups.add(Group.objects.get(name="moderators"))
    game = running_game(actions=EXECUTED)
    for name in ("zed", "yan"):
        join_game(game.pk, make_user(name), as_substitute=True, now=START)
    exile(game.pk, moderator, "dan", now=START)
    move(game, "ann", type="nominate", target="cat")
    for name in ("ann", "bob", "cat", "dan"):
        move(game, name, type="vote", vote="nein")
    move(game, "bob", type="nominate", target="cat")
    for name in ("ann", "bob", "cat", "zed"):
        move(game, name, type="vote", vote="ja")
    game = reload(game)
    assert game.status == Game.Status.FINISHED
    return game


def emails_to(name: str) -> list:
    return [message for message in mail.outbox if message.to == [f"{name}@example.com"]]


def test_r27_everyone_who_held_a_seat_hears_the_result_in_the_bell_and_by_email():
    game = finished_game()
    notices = Notification.objects.filter(game=game, kind=Notification.Kind.GAME_OVER)
    # eve was executed, dan exiled (zed took his seat); yan, still waiting for a seat, played no part
    assert sorted(notices.values_list("user__username", flat=True)) == ["ann", "bob", "cat", "dan", "eve", "zed"]
    send_emails()
    for name in ("ann", "bob", "cat", "dan", "eve", "zed"):
        [message] = emails_to(name)  # dan's also tells of his exile, zed's of the seat he took over
        if name not in ("dan", "zed"):
            assert message.subject.startswith(f"Imported game (5 players) is over. {RESULT} The roles:")
        assert f"- Imported game (5 players) is over. {RESULT} {ROLES}" in message.body  # the subject is cut
        assert f"http://127.0.0.1:8000/games/{game.pk}/history/" in message.body
    assert emails_to("yan") == []


def test_r27_the_bell_and_the_email_lead_to_the_secret_history(client_for):
    game = finished_game()
    send_emails()
    link = next(line.strip() for line in emails_to("eve")[0].body.splitlines() if "/history/" in line)
    eve = client_for("eve")
    bell = eve.get("/notifications/").content.decode()
    assert f'<a href="/games/{game.pk}/history/">Imported game (5 players) is over. {RESULT}' in bell
    history = eve.get(link.removeprefix("http://127.0.0.1:8000"))
    assert history.status_code == 200
    assert "Hitler was elected chancellor" in history.content.decode()


def test_the_end_is_emailed_as_each_player_chose():
    Profile.objects.filter(pk__in=[Profile.of(make_user("bob")).pk]).update(email_moves=False)
    Profile.objects.filter(pk__in=[Profile.of(make_user("cat")).pk]).update(language="fr")
    game = finished_game()
    bobs = Notification.objects.get(game=game, kind=Notification.Kind.GAME_OVER, user__username="bob")
    assert bobs.email == Notification.Email.NONE  # in bob's bell only
    send_emails()
    assert emails_to("bob") == []
    [cats] = emails_to("cat")
    assert cats.subject.startswith("La partie Imported game (5 players) est terminée. Les fascistes gagnent")
    assert "gagnent\u00a0: Hitler a été élu Chancelier. Les rôles\u00a0: ann (Libéral), bob (Fasciste)" in cats.body
    [anns] = emails_to("ann")
    one_click = anns.extra_headers["List-Unsubscribe"].strip("<>").split("/unsubscribe/")[1].rstrip("/")
    assert read_unsubscribe_token(one_click)[1] == ["moves"]  # the one preference that sent it turns it off


def test_the_end_is_told_once_however_often_the_change_or_the_task_is_delivered():
    game = finished_game()
    again = begin(reload(game), START)  # the change that ended the game, heard a second time
    again.events = list(GameEvent.objects.filter(game=game, type="game_over"))
    notify_changes([again])
    send_emails()
    send_emails()  # the outbox's task delivered twice
    assert len(mail.outbox) == 6
    assert Notification.objects.filter(game=game, kind=Notification.Kind.GAME_OVER).count() == 6
