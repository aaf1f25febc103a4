"""A ban bars from play for as long as it is in force, whichever way it was made, changed or lifted: the moderator
panel, the admin's forms, its bulk delete, or a row deleted in code. Who may play is read from the bans alone."""

from datetime import timedelta

import pytest
import time_machine
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group, Permission, User
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.urls import reverse
from django.utils import timezone

from games.models import Ban, Seat
from games.services import create_game
from games.services.play_bars import is_barred
from moderation.services import ban
from tests.factories import Api, game_now, make_user, strongly_signed_in, token_for

pytestmark = pytest.mark.django_db


@pytest.fixture
def may_play(client_for):
    """Whether `name` gets a seat each way one is taken: a lobby's join button, the API's join, and a running
    game's substitute seat by the web and by the API. All four must agree."""

    def may_play(name: str) -> bool:
        api = Api(token_for(name))
        web = client_for(name)  # signed in after the token is made: make_user sets the password again
        lobbies = [create_game(make_user("ann"), player_count=5) for _way in range(2)]
        running = [game_now(), game_now()]
        web.post(f"/games/{lobbies[0].pk}/join/")
        assert api.post(f"/games/{lobbies[1].pk}/join").status_code in (200, 403)
        web.post(f"/games/{running[0].pk}/join/", {"as": "substitute"})
        assert api.post(f"/games/{running[1].pk}/join?as_substitute=true").status_code in (200, 403)
        seated = {Seat.objects.filter(game=game, user__username=name).exists() for game in lobbies + running}
        assert len(seated) == 1, "the ways of taking a seat disagree"
        return seated.pop()

    return may_play


@pytest.fixture
def admin_client(client):
    root = make_user("root")
    root.is_staff = root.is_superuser = True
    root.save()
    return strongly_signed_in(client, root)


def admin_url(action: str, *args) -> str:
    return reverse(f"admin:{Ban._meta.app_label}_{Ban._meta.model_name}_{action}", args=args)


def ban_form(user, until, *, lifted_at=None) -> dict:
    """The admin's form for a ban as a person fills it in (moments in the site's time zone)."""
    data = {"user": user.pk, "reason": "spam", "created_by": User.objects.get(username="root").pk, "_save": "Save"}
    for name, moment in (("until", until), ("lifted_at", lifted_at)):
        local = timezone.localtime(moment) if moment else None
        data[f"{name}_0"] = f"{local:%Y-%m-%d}" if local else ""
        data[f"{name}_1"] = f"{local:%H:%M:%S}" if local else ""
    return data


def moderator():
    account = make_user("mod")
    account.groups.add(Group.objects.get(name="moderators"))
    return account


def test_a_ban_added_in_the_admin_bars_play(admin_client, may_play):
    zed = make_user("zed")
    response = admin_client.post(admin_url("add"), ban_form(zed, timezone.now() + timedelta(days=7)))
    assert response.status_code == 302 and Ban.objects.filter(user=zed).exists()
    assert not may_play("zed")


def test_a_ban_shortened_in_the_admin_to_an_end_passed_lets_the_user_play(admin_client, may_play):
    zed = make_user("zed")
    ban(moderator(), zed, 7, "spam")
    entry = Ban.objects.get(user=zed)
    admin_client.post(admin_url("change", entry.pk), ban_form(zed, timezone.now() - timedelta(hours=1)))
    assert Ban.objects.get(pk=entry.pk).until < timezone.now()
    assert may_play("zed")


def test_a_ban_lengthened_in_the_admin_bars_play_until_its_new_end(admin_client, may_play):
    zed = make_user("zed")
    ban(moderator(), zed, 1, "spam")
    entry = Ban.objects.get(user=zed)
    admin_client.post(admin_url("change", entry.pk), ban_form(zed, timezone.now() + timedelta(days=30)))
    with time_machine.travel(timezone.now() + timedelta(days=2)):
        assert not may_play("zed")
    with time_machine.travel(timezone.now() + timedelta(days=31)):
        assert may_play("zed")


def test_a_ban_lifted_in_the_admin_lets_the_user_play(admin_client, may_play):
    zed = make_user("zed")
    ban(moderator(), zed, 7, "spam")
    entry = Ban.objects.get(user=zed)
    admin_client.post(admin_url("change", entry.pk), ban_form(zed, entry.until, lifted_at=timezone.now()))
    assert Ban.objects.get(pk=entry.pk).lifted_at is not None
    assert may_play("zed")


def test_a_ban_deleted_in_the_admin_lets_the_user_play(admin_client, may_play):
    zed = make_user("zed")
    ban(moderator(), zed, 7, "spam")
    admin_client.post(admin_url("delete", Ban.objects.get(user=zed).pk), {"post": "yes"})
    assert not Ban.objects.exists()
    assert may_play("zed")


def test_bans_deleted_together_in_the_admins_list_let_their_users_play(admin_client, may_play):
    for name in ("zed", "mia"):
        ban(moderator(), make_user(name), 7, "spam")
    chosen = [str(pk) for pk in Ban.objects.values_list("pk", flat=True)]
    admin_client.post(admin_url("changelist"), {"action": "delete_selected", "_selected_action": chosen, "post": "yes"})
    assert not Ban.objects.exists()
    assert may_play("zed") and may_play("mia")


def test_a_ban_deleted_in_code_lets_the_user_play(may_play):
    ban(moderator(), make_user("zed"), 7, "spam")
    Ban.objects.filter(user__username="zed").delete()
    assert may_play("zed")


def test_the_moderator_panels_ban_bars_play_and_lifting_it_lets_the_user_play(moderator_client, may_play):
    panel = moderator_client()
    zed = make_user("zed")
    panel.post(f"/moderation/users/{zed.pk}/ban/", {"days": 7, "reason": "cheating"})
    assert not may_play("zed")
    panel.post(f"/moderation/bans/{Ban.objects.get(user=zed).pk}/lift/", {"reason": "appeal accepted"})
    assert may_play("zed")


def test_a_ban_bars_play_while_another_in_force_outlasts_a_lifted_one(may_play):
    zed = make_user("zed")
    ban(moderator(), zed, 3, "spam")
    Ban.objects.create(user=zed, until=timezone.now() + timedelta(days=30), reason="spam again")
    Ban.objects.filter(user=zed).order_by("until").first().delete()
    assert not may_play("zed")


def test_a_ban_that_has_run_out_bars_nothing(may_play):
    Ban.objects.create(user=make_user("zed"), until=timezone.now() - timedelta(minutes=1), reason="spam")
    assert may_play("zed")


@pytest.mark.django_db(transaction=True)
def test_the_bans_kept_by_moderation_bar_the_same_users_once_games_keeps_them():
    """The migration moves the bans' rows, and their permissions, to games, and drops the copy that drifted."""
    zed, mia, sam = (make_user(name) for name in ("zed", "mia", "sam"))  # before: saving a user writes later tables
    executor = MigrationExecutor(connection)
    before = [("games", "0022_game_link_key"), ("moderation", "0002_copy_into_games_records")]
    executor.migrate(before)
    old = executor.loader.project_state(before).apps
    now = timezone.now()
    old.get_model("moderation", "Ban").objects.bulk_create(
        old.get_model("moderation", "Ban")(user_id=user.pk, until=now + days, reason="r", lifted_at=lifted)
        for user, days, lifted in (
            (zed, timedelta(days=9), None),
            (mia, timedelta(days=9), now),
            (sam, -timedelta(days=1), None),
        )
    )
    old.get_model("games", "PlayBar").objects.create(user_id=mia.pk, until=now + timedelta(days=9))  # drifted
    sam.user_permissions.add(Permission.objects.get(content_type__app_label="moderation", codename="view_ban"))
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())
    assert sorted(Ban.objects.values_list("user__username", flat=True)) == ["mia", "sam", "zed"]
    assert [is_barred(user, now) for user in (zed, mia, sam)] == [True, False, False]
    assert get_user_model().objects.get(pk=sam.pk).has_perm("games.view_ban")
