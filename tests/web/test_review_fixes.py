"""Holes found in review, each shown closed."""

from datetime import UTC, datetime, timedelta

import pytest
from django.contrib.auth.models import Group
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games.models import ActionRecord, Claim, Game, Notification, Post
from games.notify.unsubscribe import unsubscribe, unsubscribe_token
from games.services import GameError, create_game, extend, join_game, make_move, sweep_due_deadlines
from games.services.accounts import delete_account
from games.services.forum import file_claim, post_message
from moderation.services import ban
from tests.factories import START, governments, make_user, running_game
from tests.games.helpers import reload, state_of, user
from tests.web.test_lobby_views import form_data

pytestmark = pytest.mark.django_db
EXECUTED = [
    *governments(("ann", "bob"), ("bob", "dan"), ("cat", "eve"), ("dan", "ann")),
    {"type": "execute", "by": "dan", "target": "eve"},
]


def test_durations_are_bounded_and_one_broken_game_does_not_stop_the_sweep():
    with pytest.raises(Exception, match="less than or equal to 1440"):
        create_game(make_user("ann"), election_hours=100_000_000)
    broken, fine = running_game(), running_game()
    Game.objects.filter(pk=broken.pk).update(nomination_hours=10**9)  # as if it got past the checks
    assert sweep_due_deadlines(now=START + timedelta(hours=49)) == 1
    assert state_of(fine)["round"] == 2 and state_of(broken)["round"] == 1


def test_a_hidden_post_is_neither_in_its_history_nor_quotable(client_for):
    game = running_game(now=timezone.now())
    post = post_message(game.pk, user("ann"), "insult")
    Post.objects.filter(pk=post.pk).update(hidden_at=timezone.now())
    bob = client_for("bob")
    assert bob.get(f"/games/{game.pk}/posts/{post.pk}/history/").status_code == 404
    assert "insult" not in bob.get(f"/games/{game.pk}/?quote={post.pk}").content.decode()
    assert bob.get(f"/games/{game.pk}/?quote=abc").status_code == 200


def test_r18_no_claim_before_the_session_is_over_and_none_from_the_dead():
    game = running_game(actions=governments(("ann", "bob"))[:6])  # the president has not discarded yet
    with pytest.raises(GameError, match="no legislative session of yours"):
        file_claim(game.pk, user("ann"), 1, "FFF")
    dead = running_game(actions=EXECUTED)
    with pytest.raises(GameError, match="living player"):
        file_claim(dead.pk, user("eve"), 3, "FF")
    assert not Claim.objects.exists()


def test_graveyard_mentions_do_not_reach_the_living_and_substitutes_do_not_read_it(client_for):
    game = running_game(actions=EXECUTED, now=timezone.now())
    post_message(game.pk, user("eve"), "@ann is a liberal, trust her", thread="graveyard")
    assert not Notification.objects.filter(kind="mention").exists()
    sam = client_for("sam")
    join_game(game.pk, user("sam"), as_substitute=True)
    assert sam.get(f"/games/{game.pk}/graveyard/").status_code == 403


def test_who_has_read_the_graveyard_cannot_take_a_seat(client_for):
    game = running_game(actions=EXECUTED, now=timezone.now())
    client_for("zed").get(f"/games/{game.pk}/graveyard/")
    with pytest.raises(GameError, match="seen this game's secrets"):
        join_game(game.pk, user("zed"), as_substitute=True)


def test_a_moderator_who_saw_the_secrets_cannot_join_nor_be_named(client_for):
    game = running_game()
    mod = client_for("mod")
    user("mod").groups.add(Group.objects.get(name="moderators"))
    mod.get(f"/moderation/games/{game.pk}/")
    with pytest.raises(GameError, match="seen this game's secrets"):
        join_game(game.pk, user("mod"), as_substitute=True)
    response = mod.post(
        f"/moderation/games/{game.pk}/act/",
        {"action": "replace", "player": "cat", "newcomer": "mod", "reason": "x", "step": game.step_number},
        follow=True,
    )
    assert "mod has seen this game" in response.content.decode()


def test_a_deleted_substitute_no_longer_waits_for_a_seat():
    game = running_game()
    join_game(game.pk, make_user("sam"), as_substitute=True, now=START)
    delete_account(user("sam"))
    assert ActionRecord.objects.filter(game=game, action={"type": "withdraw", "name": "sam"}).exists()
    assert not game.seats.filter(name="sam").exists()
    sweep_due_deadlines(now=START + timedelta(hours=48))  # ann misses her nomination
    make_move(
        game.pk,
        user("bob"),
        {"type": "nominate", "target": "cat"},
        reload(game).step_number,
        now=START + timedelta(hours=49),
    )
    sweep_due_deadlines(now=reload(game).deadline)  # nobody votes: ann's second miss, and no substitute waits
    assert "sam" not in state_of(game)["alive"]
    assert state_of(game)["exiled"] == ["ann"]


def test_a_banned_creator_gets_a_message_and_no_empty_game(client_for):
    ann = client_for("ann")
    ban(_moderator(), user("ann"), 3, "spam")
    response = ann.post("/games/new/", form_data())
    assert "banned" in response.content.decode()
    assert not Game.objects.exists()


def _moderator():
    mod = make_user("mod")
    mod.groups.add(Group.objects.get(name="moderators"))
    return mod


def test_bad_inputs_are_not_errors(client_for, client):
    mod = client_for("mod")
    user("mod").groups.add(Group.objects.get(name="moderators"))
    assert mod.post("/moderation/reports/999/resolve/", {"resolution": "x"}).status_code == 404
    gone = make_user("gone")
    token = unsubscribe_token(gone.pk, ["moves"])
    gone.delete()
    unsubscribe(gone.pk if gone.pk else 0, ["moves"])
    assert client.post(f"/unsubscribe/{token}/").status_code == 200


def test_a_move_keeps_only_its_own_fields(client_for):
    game = running_game(now=timezone.now())
    ann = client_for("ann")
    ann.post(f"/games/{game.pk}/move/", {"step_number": 1, "type": "nominate", "target": "bob", "policy": "Q"})
    assert not ActionRecord.objects.filter(game=game).exists()  # a value no move takes: refused whole
    nomination = {"step_number": 1, "type": "nominate", "target": "bob", "policy": "L", "confirmed": "yes"}
    ann.post(f"/games/{game.pk}/move/", nomination)
    assert ActionRecord.objects.filter(game=game).last().action == {"type": "nominate", "target": "bob", "by": "ann"}


def test_the_users_page_costs_the_same_for_more_users(client_for):
    mod = client_for("mod")
    user("mod").groups.add(Group.objects.get(name="moderators"))
    running_game()

    def queries() -> int:
        with CaptureQueriesContext(connection) as captured:
            assert mod.get("/moderation/users/").status_code == 200
        return len(captured)

    few = queries()
    for n in range(15):
        make_user(f"extra{n}")
    assert queries() == few


def test_no_open_redirect_after_hiding_a_post(client_for):
    game = running_game(now=timezone.now())
    post = post_message(game.pk, user("ann"), "x")
    mod = client_for("mod")
    user("mod").groups.add(Group.objects.get(name="moderators"))
    response = mod.post(
        f"/moderation/posts/{post.pk}/visibility/", {"hide": "yes", "reason": "r", "next": "https://evil.example/"}
    )
    assert response.url == "/moderation/reports/"


def test_unlisted_games_stay_off_public_profiles(client):
    game = running_game()
    Game.objects.filter(pk=game.pk).update(visibility=Game.Visibility.UNLISTED)
    assert "Imported game" not in client.get("/users/ann/").content.decode()


def test_t5_extension_with_a_deadline_hour_moves_the_deadline_by_at_least_the_hours():
    game = running_game(now=datetime(2026, 3, 2, 20, 0, tzinfo=UTC))
    Game.objects.filter(pk=game.pk).update(deadline_hour=23)
    new = extend(game.pk, make_user("mod"), hours=2, now=datetime(2026, 3, 2, 21, 0, tzinfo=UTC))
    # The deadline was 4 Mar 23:00; 2 hours later is 5 Mar 01:00, and the next 23:00 after that is 5 Mar.
    assert new == datetime(2026, 3, 5, 23, 0, tzinfo=UTC)
