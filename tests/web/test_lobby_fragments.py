"""The lobby's public lists come from the fragment cache (games/views/lobby.py): the page is the same byte for byte
whether they were cached or made now, as the games change, in every language and time zone, as the clock moves;
a key missing a value the lists show is caught (FRAGMENT_CHECK); a cache that is down costs nothing but time."""

import re
from datetime import timedelta

import pytest
import time_machine
from django.core.cache import caches
from django.test import override_settings
from django.utils import timezone

from games import fragments
from games.fragments import StaleFragment
from games.models import Game
from games.services import cancel, create_game, join_game, make_move
from games.views import lobby as lobby_view
from tests.factories import make_user

pytestmark = pytest.mark.django_db

LANGUAGES = ("en", "fr", "es", "pl")
ZONES = ("UTC", "America/Los_Angeles", "Asia/Kolkata")
TOKEN = re.compile(r'name="csrfmiddlewaretoken" value="[^"]+"')


def lobby(client, language: str = "en", zone: str = "UTC") -> str:
    client.cookies["tz"] = zone
    response = client.get("/", HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200
    return TOKEN.sub('name="csrfmiddlewaretoken"', response.content.decode())


def warm_then_cold(client) -> None:
    """Every language and zone: the page from what the cache holds (made before the last change), then from an
    emptied cache, the same; the clock stopped, so that a minute's turn does not change the time left between."""
    with time_machine.travel(timezone.now(), tick=False):
        for language in LANGUAGES:
            for zone in ZONES:
                warm = lobby(client, language, zone)
                caches[fragments.ALIAS].clear()
                assert lobby(client, language, zone) == warm, (language, zone)


def nominate(game: Game) -> None:
    game.refresh_from_db()
    president = game.seats.get(number=game.waiting[0])
    target = game.seats.exclude(pk=president.pk).filter(number__isnull=False).first()
    make_move(game.pk, president.user, {"type": "nominate", "target": target.name}, game.step_number)


@pytest.mark.slow  # 240 pages
@pytest.mark.parametrize("reader", ["anonymous", "a player"])
def test_the_lobby_is_the_same_from_the_cache_as_made_now_through_a_games_life(client, client_for, reader):
    client = client_for("ann") if reader == "a player" else client
    ann = make_user("ann")
    game = create_game(ann, player_count=5, name="Tuesday game")
    warm_then_cold(client)
    for name in ("bob", "cat", "dan"):
        join_game(game.pk, make_user(name))
        warm_then_cold(client)
    join_game(game.pk, make_user("eve"))  # the last sign-up starts it
    warm_then_cold(client)
    with time_machine.travel(timezone.now() + timedelta(hours=1, seconds=30)):
        nominate(game)  # a new step, a new deadline
        warm_then_cold(client)
    Game.objects.filter(pk=game.pk).update(name="Renamed <game>")
    warm_then_cold(client)
    Game.objects.filter(pk=game.pk).update(visibility=Game.Visibility.UNLISTED)
    warm_then_cold(client)
    Game.objects.filter(pk=game.pk).update(visibility=Game.Visibility.PUBLIC)
    cancel(game.pk, make_user("mod"))
    warm_then_cold(client)
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED, winner="fascist")
    warm_then_cold(client)


@override_settings(FRAGMENT_CHECK=False)  # the check makes each fragment found again
def test_the_lists_are_made_once_for_every_reader_of_a_language_and_zone(client, client_for, monkeypatch):
    game = create_game(make_user("ann"), player_count=5)
    for name in ("bob", "cat", "dan", "eve"):
        join_game(game.pk, make_user(name))
    create_game(make_user("fay"), player_count=7)
    Game.objects.filter(pk=create_game(make_user("gus"), player_count=5).pk).update(status=Game.Status.CANCELLED)
    made = []
    monkeypatch.setattr(lobby_view, "render_to_string", lambda name, context: made.append(name) or name)
    for reader in (client, client_for("ann"), client_for("zed"), client):
        lobby(reader)
    assert sorted(made) == ["games/_finished_games.html", "games/_open_games.html", "games/_running_games.html"]
    lobby(client, "fr")
    assert len(made) == 6


def test_the_time_left_follows_the_clock_from_the_cache(client):
    ann = make_user("ann")
    game = create_game(ann, player_count=5)
    for name in ("bob", "cat", "dan", "eve"):
        join_game(game.pk, make_user(name))
    game.refresh_from_db()
    shown = set()
    for later in (timedelta(0), timedelta(seconds=59), timedelta(minutes=1), timedelta(hours=5), timedelta(days=1)):
        with time_machine.travel(timezone.now() + later, tick=False):
            page = lobby(client)
            caches[fragments.ALIAS].clear()
            assert lobby(client) == page
            shown.add(re.search(rf'id="cd-{game.pk}">([^<]+)<', page)[1])
    assert len(shown) >= 3  # the countdown's text moved with the clock


def test_a_key_missing_a_value_the_list_shows_is_caught(client, monkeypatch):
    game = create_game(make_user("ann"), player_count=5, name="Before")
    lobby(client)  # the open list is cached, keyed by its values

    def without_values(kind, items):  # a key made of the list's name alone: a rename would show the old name
        return real(kind, [(parts[0], make) for parts, make in items])

    real = fragments.render_many
    monkeypatch.setattr(fragments, "render_many", without_values)
    lobby(client)
    Game.objects.filter(pk=game.pk).update(name="After")
    with pytest.raises(StaleFragment):
        lobby(client)


def test_with_the_cache_down_the_lobby_is_the_same(client_for):
    ann = client_for("ann")
    game = create_game(make_user("ann"), player_count=5)
    for name in ("bob", "cat", "dan", "eve"):
        join_game(game.pk, make_user(name))
    create_game(make_user("fay"), player_count=7)
    page = lobby(ann)
    down = {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": "redis://127.0.0.1:9/0"}
    with override_settings(CACHES={"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"},
                                   fragments.ALIAS: down}):  # fmt: skip
        assert lobby(ann) == page  # nothing listens on port 9: refused, passed by
    fragments.forget_failure()


def test_my_games_say_your_move_from_the_seats_the_game_waits_for(client_for):
    game = create_game(make_user("ann"), player_count=5)
    for name in ("bob", "cat", "dan", "eve"):
        join_game(game.pk, make_user(name))
    game.refresh_from_db()
    owing = game.seats.get(number=game.waiting[0]).user.username
    others = [name for name in ("ann", "bob", "cat", "dan", "eve") if name != owing]
    assert 'class="owes"' in lobby(client_for(owing))
    assert 'class="owes"' not in lobby(client_for(others[0]))
    Game.objects.filter(pk=game.pk).update(paused_at=timezone.now())
    assert 'class="owes"' not in lobby(client_for(owing))
