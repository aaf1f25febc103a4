"""The records games keeps of who may play, written by the moderators' actions: a ban bars from play while one is
in force, and whoever is shown a running game's secrets is its witness (issue 9)."""

import importlib

import pytest
from django.apps import apps
from django.contrib.auth.models import Group

from games.models import Ban, SecretWitness
from games.services import GameError, create_game, join_game
from moderation.models import AuditEntry
from moderation.services import audit, ban, lift_ban
from tests.factories import START, make_user, running_game, strongly_signed_in

pytestmark = pytest.mark.django_db


@pytest.fixture
def moderator():
    account = make_user("mod")
    account.groups.add(Group.objects.get(name="moderators"))
    return account


def superuser(name: str):
    account = make_user(name)
    account.is_staff = account.is_superuser = True
    account.save()
    return account


def test_a_ban_bars_from_play_until_it_ends(moderator):
    zed = make_user("zed")
    assert ban(moderator, zed, 7, "cheating")
    with pytest.raises(GameError, match="banned"):
        join_game(running_game().pk, zed, as_substitute=True)


def test_lifting_a_ban_leaves_the_longest_ban_in_force_and_lifting_the_last_frees_the_user(moderator):
    zed = make_user("zed")
    ban(moderator, zed, 3, "spam")
    ban(moderator, zed, 30, "spam again")
    short, long = Ban.objects.filter(user=zed).order_by("until")
    lift_ban(moderator, short.pk, "appeal")
    with pytest.raises(GameError, match="banned"):
        join_game(running_game().pk, zed, as_substitute=True)
    lift_ban(moderator, long.pk, "appeal")
    join_game(running_game().pk, zed, as_substitute=True)


def test_the_admin_showing_a_running_games_secrets_records_the_witness_and_audits_it(client):
    game = running_game()
    root = superuser("root")
    strongly_signed_in(client, root)
    assert client.get(f"/admin/games/game/{game.pk}/change/").status_code == 200
    assert SecretWitness.objects.filter(game=game, user=root).count() == 1
    assert AuditEntry.objects.filter(game=game, actor=root, action="view_secrets").count() == 1
    with pytest.raises(GameError, match="seen this game's secrets"):
        join_game(game.pk, root, as_substitute=True, now=START)


def test_an_admin_who_sees_no_secret_is_no_witness(client):
    game = running_game()
    ann = superuser("ann")  # ann holds a seat: the admin hides the secrets from her
    strongly_signed_in(client, ann)
    client.get(f"/admin/games/game/{game.pk}/change/")
    assert not SecretWitness.objects.filter(game=game).exists()


def test_a_moderator_acting_on_a_running_game_is_its_witness_once(moderator):
    game = running_game()
    audit(moderator, "view_secrets", "opened the game's moderation page", game=game)
    audit(moderator, "lock_thread", "calm down", game=game)
    assert SecretWitness.objects.filter(game=game, user=moderator).count() == 1


def test_a_look_at_a_lobby_makes_no_witness(moderator):
    lobby = create_game(make_user("ann"), now=START, player_count=5)
    audit(moderator, "lock_thread", "calm down", game=lobby)
    assert not SecretWitness.objects.exists()


def test_the_migration_copies_who_saw_a_started_game():
    migration = importlib.import_module("moderation.migrations.0002_copy_into_games_records")
    game = running_game()
    mia = make_user("mia")
    for _look in range(2):
        AuditEntry.objects.create(actor=mia, actor_name="mia", action="view_secrets", reason="x", game=game)
    AuditEntry.objects.create(actor=None, actor_name="site", action="drop_newcomer", reason="x", game=game)
    migration.copy_witnesses(apps, None)
    first = AuditEntry.objects.filter(actor=mia).order_by("pk").first()
    assert list(SecretWitness.objects.values_list("game", "user__username", "seen_at")) == [
        (game.pk, "mia", first.created_at)
    ]
