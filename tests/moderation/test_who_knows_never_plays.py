"""Nobody who has seen a game's secrets ever plays in it, and nobody seated or about to be seated moderates it.

A pending replacement (E8), a waiting substitute (E5) and a seated player are all in the game: refused the
moderation page, the graveyard and the game's reports and audit entries; and should one have seen the secrets
anyway, they are dropped before the hand-over, with the moderators told.
"""

import json
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.core import mail
from django.utils import timezone

from games.engine import summary
from games.models import ActionRecord, Game, Post, Seat, ThreadRead
from games.services import GameError, join_game, replace, sweep_due_deadlines
from games.services.knowledge import knows_secrets
from games.services.play import changing
from moderation.models import AuditEntry, Report
from moderation.services import audit
from tests.factories import EXECUTED, START, make_user, running_game, strongly_signed_in, with_second_factor

pytestmark = pytest.mark.django_db
HOUR = timedelta(hours=1)


def user(name: str):
    return get_user_model().objects.get(username=name)


def alive(game: Game) -> list[str]:
    return summary(Game.objects.get(pk=game.pk).load_state())["alive"]


@pytest.fixture
def game_with_pending_moderator(moderator_client):
    """A running game in which a moderator, mia, is named to take dan's seat at the round's end."""
    game = running_game()
    mia = moderator_client("mia")
    moderator_client("zed")
    replace(game.pk, user("zed"), "dan", "mia", now=START)
    return game, mia


def graveyard_post(game: Game) -> Post:
    author = make_user("ghost")
    return Post.objects.create(
        game=game, author=author, thread=Post.Thread.GRAVEYARD, body="x", html="x", created_at=START
    )


def test_e8_a_pending_replacement_is_in_the_game(game_with_pending_moderator):
    game, _mia = game_with_pending_moderator
    row = Seat.objects.get(game=game, name="mia")
    assert (row.pending, row.active, row.number) == (True, False, None)


def test_e8_a_pending_replacement_may_not_moderate_the_game(game_with_pending_moderator):
    game, mia = game_with_pending_moderator
    assert mia.get(f"/moderation/games/{game.pk}/").status_code == 403
    assert mia.post(f"/moderation/games/{game.pk}/act/", {"action": "pause", "reason": "x"}).status_code == 403
    assert f"/moderation/games/{game.pk}/" not in mia.get("/moderation/").content.decode()
    assert not AuditEntry.objects.filter(actor=user("mia")).exists()
    assert Game.objects.get(pk=game.pk).paused_at is None


def test_e8_a_pending_replacement_sees_none_of_the_games_reports_or_audit_entries(game_with_pending_moderator):
    game, mia = game_with_pending_moderator
    post = graveyard_post(game)
    Report.objects.create(post=post, reporter=user("ghost"), reason="graveyard talk about cat")
    assert "graveyard talk about cat" not in mia.get("/moderation/reports/").content.decode()
    audit = mia.get("/moderation/audit/").content.decode()
    assert "replace" not in audit


def test_e8_a_pending_replacement_may_not_read_the_graveyard(game_with_pending_moderator):
    game, mia = game_with_pending_moderator
    assert mia.get(f"/games/{game.pk}/graveyard/").status_code == 403
    assert not ThreadRead.objects.filter(user=user("mia"), thread=Post.Thread.GRAVEYARD).exists()


def test_e8_a_pending_replacement_who_saw_the_secrets_anyway_is_dropped_at_the_hand_over(
    game_with_pending_moderator, django_capture_on_commit_callbacks
):
    game, _mia = game_with_pending_moderator
    # The race: mia opened the moderation page while zed was naming her (both checks passed before either wrote).
    audit(user("mia"), "view_secrets", "opened the game's moderation page", game=game)
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        sweep_due_deadlines(now=START + timedelta(hours=48))  # ann's nomination times out: the round ends
    assert "dan" in alive(game) and "mia" not in alive(game)
    assert ActionRecord.objects.filter(game=game, action={"type": "withdraw", "name": "mia"}).exists()
    assert not Seat.objects.filter(game=game, name="mia").exists()
    entry = AuditEntry.objects.get(game=game, action="drop_newcomer")
    assert entry.target_name == "mia" and entry.actor is None
    told = [message.to for message in mail.outbox if "mia dropped" in message.subject]
    assert sorted(told[0]) == ["mia@example.com", "zed@example.com"]  # mia, no longer in the game, is told too


def test_e5_a_substitute_who_saw_the_secrets_anyway_never_takes_a_seat(django_capture_on_commit_callbacks):
    game = running_game()
    join_game(game.pk, make_user("sam"), as_substitute=True, now=START)
    ThreadRead.objects.create(user=user("sam"), game=game, thread=Post.Thread.GRAVEYARD, last_read_at=START)
    with django_capture_on_commit_callbacks(execute=True), changing(game.pk, now=START) as change:
        assert "sam" not in change.state.substitutes  # any change of the game drops sam before a move is made
    assert not Seat.objects.filter(game=game, name="sam").exists()
    assert AuditEntry.objects.filter(game=game, action="drop_newcomer", target_name="sam").exists()


def test_e5_a_renamed_substitute_dropped_for_the_secrets_is_on_the_record_by_their_account(
    django_capture_on_commit_callbacks,
):
    game = running_game()
    sam = make_user("sam")
    join_game(game.pk, sam, as_substitute=True, now=START)
    sam.username = "samuel"
    sam.save()
    make_user("sam", verified=False)  # another account takes the name sam had
    ThreadRead.objects.create(user=sam, game=game, thread=Post.Thread.GRAVEYARD, last_read_at=START)
    with django_capture_on_commit_callbacks(execute=True), changing(game.pk, now=START):
        pass
    entry = AuditEntry.objects.get(game=game, action="drop_newcomer")
    assert (entry.target, entry.target_name) == (sam, "sam")


def test_naming_someone_who_has_seen_the_secrets_is_refused(moderator_client):
    game = running_game()
    moderator_client("zed")
    moderator_client("mia").post(f"/moderation/games/{game.pk}/see/")  # mia sees the secrets
    with pytest.raises(Exception, match="has seen this game's secrets"):
        replace(game.pk, user("zed"), "dan", "mia", now=START)
    with pytest.raises(Exception, match="seen this game's secrets"):
        join_game(game.pk, user("mia"), as_substitute=True, now=START)


def test_a_living_player_cannot_report_a_graveyard_post_nor_learn_it_exists(client_for):
    game = running_game()
    post = graveyard_post(game)
    missing = post.pk + 1000
    ann = client_for("ann")
    for post_id in (post.pk, missing):
        assert ann.post(f"/moderation/posts/{post_id}/report/", {"reason": "spam"}).status_code == 404
        assert ann.get(f"/games/{game.pk}/posts/{post_id}/history/").status_code == 404
    assert not Report.objects.exists()


def test_the_dead_and_spectators_may_report_a_graveyard_post(client_for):
    game = running_game()
    post = graveyard_post(game)
    response = client_for("spectator").post(f"/moderation/posts/{post.pk}/report/", {"reason": "spam"})
    assert response.status_code == 302
    assert response["Location"].startswith(f"/games/{game.pk}/graveyard/")
    assert Report.objects.filter(post=post).exists()


def _superuser(name: str):
    account = make_user(name)
    account.is_staff = account.is_superuser = True
    account.save()
    return account


def test_a_superuser_who_plays_sees_no_secret_in_the_admin(client):
    game = running_game(actions=[{"type": "nominate", "by": "ann", "target": "bob"}])
    graveyard_post(game)
    strongly_signed_in(client, _superuser("ann"))  # ann holds a seat
    page = client.get(f"/admin/games/game/{game.pk}/change/").content.decode()
    assert 'name="state"' not in page and 'name="seed"' not in page and '"hitler"' not in page
    assert "0 action records" in client.get("/admin/games/actionrecord/").content.decode()
    assert "0 posts" in client.get("/admin/games/post/").content.decode()
    strongly_signed_in(client, _superuser("root"))  # a superuser outside the game sees them
    assert "0 action records" not in client.get("/admin/games/actionrecord/").content.decode()
    assert "1 post" in client.get("/admin/games/post/").content.decode()


def test_a_superuser_named_to_take_a_seat_sees_no_secret_in_the_admin(client, moderator_client):
    game = running_game()
    moderator_client("zed")
    _superuser("mia")
    replace(game.pk, user("zed"), "dan", "mia", now=START)
    strongly_signed_in(client, user("mia"))
    assert 'name="state"' not in client.get(f"/admin/games/game/{game.pk}/change/").content.decode()
    strongly_signed_in(client, _superuser("root"))  # a superuser outside the game sees everything
    assert 'name="state"' in client.get(f"/admin/games/game/{game.pk}/change/").content.decode()


def test_a_pending_replacement_stored_before_pending_rows_gets_one_when_migrating():
    import importlib

    from django.apps import apps

    migration = importlib.import_module("games.migrations.0002_seat_pending")
    game = running_game()
    make_user("mia")
    state = game.load_state().to_dict()  # stored as version 1 was, when that migration ran
    state = dict(state, pending=[["replace", 3, "mia"]], winner=None, win_reason=None, votes=[], exiled_log=[])
    state.pop("version"), state.pop("outcome", None)
    Game.objects.filter(pk=game.pk).update(state=json.dumps(state))
    migration.rows_for_pending_replacements(apps, None)
    assert Seat.objects.get(game=game, name="mia").pending
    assert Group.objects.filter(name="moderators").exists()


def test_reading_a_graveyard_posts_history_is_on_the_record(client_for):
    game = running_game()
    post = graveyard_post(game)
    sam, url = client_for("sam"), f"/games/{game.pk}/posts/{post.pk}/history/"
    assert "graveyard-warning" in sam.get(url).content.decode()  # a spectator asks for one post: warned first
    assert not knows_secrets(game, user("sam"))  # shown nothing of it: nothing on the record
    confirmed = sam.post(f"/games/{game.pk}/read/", {"thread": "graveyard", "next": url})
    assert confirmed["Location"] == url
    assert "graveyard-warning" not in sam.get(url).content.decode()
    with pytest.raises(Exception, match="seen this game's secrets"):
        join_game(game.pk, user("sam"), as_substitute=True, now=START)


def test_a_hidden_graveyard_post_answered_404_is_not_on_the_record(client_for):
    game = running_game()
    post = graveyard_post(game)
    Post.objects.filter(pk=post.pk).update(hidden_at=START)
    assert client_for("sam").get(f"/games/{game.pk}/posts/{post.pk}/history/").status_code == 404  # nothing read
    assert not ThreadRead.objects.filter(user=user("sam"), game=game).exists()
    join_game(game.pk, user("sam"), as_substitute=True, now=START)


def test_reading_reported_graveyard_posts_is_on_the_record(moderator_client):
    game = running_game()
    Report.objects.create(post=graveyard_post(game), reporter=user("ghost"), reason="x")
    moderator_client("mia").get("/moderation/reports/")
    moderator_client("mia").get("/moderation/reports/")
    assert AuditEntry.objects.filter(game=game, actor=user("mia"), action="view_secrets").count() == 1
    with pytest.raises(Exception, match="seen this game's secrets"):
        join_game(game.pk, user("mia"), as_substitute=True, now=START)


def test_what_was_read_before_the_start_is_no_secret():
    from games.services import create_game

    users = [make_user(name) for name in ("ann", "bob", "cat", "dan", "eve", "sam")]
    lobby = create_game(users[0], now=START, player_count=5)
    ThreadRead.objects.create(user=users[5], game=lobby, thread=Post.Thread.GRAVEYARD, last_read_at=START)
    for person in users[1:5]:
        join_game(lobby.pk, person, now=START + HOUR)  # the game starts an hour after sam's look
    join_game(lobby.pk, users[5], as_substitute=True, now=START + 2 * HOUR)
    assert Seat.objects.get(game=lobby, name="sam").is_substitute


def test_the_admin_refuses_to_filter_by_a_secret_and_records_who_saw_one(client):
    game = running_game()
    root = make_user("root")
    root.is_staff = root.is_superuser = True
    root.save()
    strongly_signed_in(client, root)
    for lookup in ("seed__lt=5", "state__seats__0__role=hitler", "setup__seed=1"):
        assert client.get(f"/admin/games/game/?{lookup}").status_code == 400, lookup
    assert client.get(f"/admin/games/game/{game.pk}/change/").status_code == 200
    assert AuditEntry.objects.filter(game=game, actor=root, action="view_secrets").exists()


def test_no_moderator_is_told_of_a_drop_that_was_not_written(monkeypatch, django_capture_on_commit_callbacks):
    from games.services import deadlines

    game = running_game()
    join_game(game.pk, make_user("sam"), as_substitute=True, now=START)
    ThreadRead.objects.create(user=user("sam"), game=game, thread=Post.Thread.GRAVEYARD, last_read_at=START)

    def broken_timeout(*args, **kwargs):
        raise RuntimeError("this game's deadline cannot be applied")

    monkeypatch.setattr(deadlines, "apply_timeout", broken_timeout)
    with django_capture_on_commit_callbacks(execute=True):
        sweep_due_deadlines(now=START + timedelta(hours=48))
    assert Game.objects.get(pk=game.pk).sweep_failures == 1
    assert not AuditEntry.objects.filter(action="drop_newcomer").exists()  # sam's withdrawal was not kept
    assert "sam" in Game.objects.get(pk=game.pk).load_state().substitutes


def test_who_has_read_the_graveyard_cannot_take_a_seat(client_for):
    game = running_game(actions=EXECUTED, now=timezone.now())
    zed = client_for("zed")
    assert "graveyard-warning" in zed.get(f"/games/{game.pk}/graveyard/").content.decode()  # nothing read yet
    assert not ThreadRead.objects.filter(user=user("zed"), game=game).exists()
    zed.post(f"/games/{game.pk}/read/", {"thread": "graveyard"})  # the warning confirmed: on the record
    assert "graveyard-warning" not in zed.get(f"/games/{game.pk}/graveyard/").content.decode()
    with pytest.raises(GameError, match="seen this game's secrets"):
        join_game(game.pk, user("zed"), as_substitute=True)


def test_a_moderator_who_saw_the_secrets_cannot_join_nor_be_named(client_for):
    game = running_game()
    mod = with_second_factor(client_for("mod"), user("mod"))
    user("mod").groups.add(Group.objects.get(name="moderators"))
    mod.post(f"/moderation/games/{game.pk}/see/")
    with pytest.raises(GameError, match="seen this game's secrets"):
        join_game(game.pk, user("mod"), as_substitute=True)
    response = mod.post(
        f"/moderation/games/{game.pk}/act/",
        {"action": "replace", "player": "cat", "newcomer": "mod", "reason": "x", "step": game.step_number},
        follow=True,
    )
    assert "mod has seen this game" in response.content.decode()
