"""Pages cost the same number of queries however many games, players and posts there are (issue 14): the lobby as
games are added, a player's page (the thread with their panel) as players and moves are added; and a
reader's permissions at most once a minute."""

from datetime import timedelta

import pytest
import time_machine
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group, Permission
from django.db import connection
from django.test import override_settings
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from games.models import Game
from games.services import create_game, join_game
from tests.factories import governments, make_user, running_game, with_second_factor
from tests.games.helpers import user

pytestmark = pytest.mark.django_db


def queries(client, url: str) -> int:
    with CaptureQueriesContext(connection) as captured:
        assert client.get(url).status_code == 200
    return len(captured)


def add_games(count: int, *, joining=None) -> None:
    """`count` games of each list: open (`joining` signs up), running and finished (ann..eve play them)."""
    owner = make_user("owner")
    for _ in range(count):
        open_game = create_game(owner, player_count=7)
        if joining is not None:
            join_game(open_game.pk, joining)
        running_game()
        finished = running_game()
        Game.objects.filter(pk=finished.pk).update(status=Game.Status.FINISHED, winner="liberal")


def test_the_lobby_costs_the_same_with_more_games(client_for):
    reader = client_for("zed")
    queries(reader, "/")  # the header's link remembers the reader's permissions from here on
    add_games(3)
    few = queries(reader, "/")
    add_games(12)
    assert queries(reader, "/") == few


def test_the_lobby_costs_the_same_with_more_games_for_a_visitor(client):
    add_games(3)
    few = queries(client, "/")
    add_games(12)
    assert queries(client, "/") == few


def test_the_lobby_costs_the_same_for_a_reader_with_more_games_of_their_own(client_for):
    ann = client_for("ann")  # in every running and finished game, and signed up for every open one
    queries(ann, "/")
    add_games(3, joining=user("ann"))
    few = queries(ann, "/")
    add_games(12, joining=user("ann"))
    page = ann.get("/").content.decode()
    assert page.count("The whole secret history") == 15 and queries(ann, "/") == few


def test_a_players_page_costs_the_same_with_more_players_and_moves(client_for):
    # ann sat in a government in both (a seat that never did reads no claims: one query less, whatever the size)
    small = running_game(5, actions=governments(("ann", "bob")))
    large = running_game(7, actions=governments(("ann", "bob"), ("bob", "cat"), players=7))
    ann = client_for("ann")
    queries(ann, f"/games/{small.pk}/")  # the first visit makes the read marker
    queries(ann, f"/games/{large.pk}/")
    assert queries(ann, f"/games/{small.pk}/") == queries(ann, f"/games/{large.pk}/")


def permission_queries(client, url: str = "/") -> int:
    with CaptureQueriesContext(connection) as captured:
        assert client.get(url).status_code == 200
    return len([query for query in captured if "auth_permission" in query["sql"]])


def test_the_headers_moderation_link_asks_about_permissions_once_a_minute_per_reader(client_for):
    reader = client_for("zed")
    assert permission_queries(reader) == 1  # in one query, where Django's backend makes two
    assert permission_queries(reader) == permission_queries(reader, reverse("games:notifications")) == 0
    with time_machine.travel(timezone.now() + timedelta(seconds=61)):
        assert permission_queries(reader) == 1
    assert reverse("moderation:dashboard") not in reader.get("/").content.decode()


def test_a_moderator_removed_loses_the_moderation_pages_at_once_and_the_link_within_a_minute(client_for):
    moderate = Permission.objects.get(codename="moderate", content_type__app_label="moderation")
    make_user("mod").user_permissions.add(moderate)
    mod = client_for("mod")
    assert reverse("moderation:dashboard") in mod.get("/").content.decode()
    get_user_model().objects.get(username="mod").user_permissions.remove(moderate)
    assert mod.get(reverse("moderation:dashboard")).status_code == 403
    with time_machine.travel(timezone.now() + timedelta(seconds=61)):
        assert reverse("moderation:dashboard") not in mod.get("/").content.decode()


def test_moderators_by_permission_or_by_group_still_see_the_moderation_link(client_for):
    moderate = Permission.objects.get(codename="moderate", content_type__app_label="moderation")
    make_user("direct").user_permissions.add(moderate)
    group = Group.objects.create(name="moderators by test")
    group.permissions.add(moderate)
    make_user("grouped").groups.add(group)
    make_user("member").groups.add(Group.objects.create(name="testers"))  # a group without the permission
    assert reverse("moderation:dashboard") in client_for("direct").get("/").content.decode()
    assert reverse("moderation:dashboard") in client_for("grouped").get("/").content.decode()
    assert reverse("moderation:dashboard") not in client_for("member").get("/").content.decode()


def test_the_users_page_costs_the_same_for_more_users(client_for):
    mod = with_second_factor(client_for("mod"), user("mod"))
    user("mod").groups.add(Group.objects.get(name="moderators"))
    running_game()
    mod.get("/")  # the session's first request lists it among the person's sessions, once (sh_site/accounts.py)

    def queries() -> int:
        with CaptureQueriesContext(connection) as captured:
            assert mod.get("/moderation/users/").status_code == 200
        return len(captured)

    few = queries()
    for n in range(15):
        make_user(f"extra{n}")
    assert queries() == few


def test_an_open_games_page_costs_the_same_with_more_sign_ups_and_their_records(client_for):
    """Each name in the lobby shows its record (games, rounds missed, exiles): one query for all the names."""
    reader = client_for("zed")
    small, large = create_game(make_user("ann"), player_count=10), create_game(make_user("bob"), player_count=10)
    for name in ("cat", "dan", "eve", "fay", "gus"):
        join_game(large.pk, make_user(name))
    running_game()  # ann, bob, cat, dan and eve have a game behind them
    queries(reader, f"/games/{small.pk}/")  # the first visits make the read markers
    queries(reader, f"/games/{large.pk}/")
    assert queries(reader, f"/games/{small.pk}/") == queries(reader, f"/games/{large.pk}/")


@override_settings(FRAGMENT_CHECK=False)  # the check renders every kept part again, with its queries
def test_a_player_who_never_governed_and_keeps_no_notes_nor_absences_costs_no_query_for_them(client_for):
    game = running_game(5)
    ann = client_for("ann")
    ann.get(f"/games/{game.pk}/")
    with CaptureQueriesContext(connection) as captured:
        assert ann.get(f"/games/{game.pk}/").status_code == 200
    asked = " ".join(query["sql"] for query in captured if "CROSS JOIN" not in query["sql"])  # the fingerprint aside
    assert not any(f'FROM "games_{table}"' in asked for table in ("claim", "note", "absence"))
