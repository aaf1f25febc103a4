"""Issue 29: a moderator who opens a running game's moderation page is first told that they will see every secret
and may then never take a seat in the game, and must confirm (a POST) before any secret is shown. The confirmation
is on the record (audit log, witness row) and asked once per moderator and game; a game that is over needs none."""

import re

import pytest
from django.test import Client

from games.models import SecretWitness
from games.services import cancel, join_game
from games.services.errors import GameError
from games.services.transfer import import_script
from moderation.models import AuditEntry
from tests.factories import (
    ACTIONS,
    DECK_A,
    DECK_B,
    PLAYERS,
    ROLES_A,
    ROLES_B,
    make_user,
    running_game,
    strongly_signed_in,
)

pytestmark = pytest.mark.django_db


def page_of(client, game) -> str:
    return client.get(f"/moderation/games/{game.pk}/").content.decode()


def test_the_warning_page_holds_no_secret_and_records_nothing(moderator_client):
    """Two games with the same public history and other roles and hands: their warnings are the same page."""
    mia = moderator_client("mia")
    pages = []
    for roles, deck in ((ROLES_A, DECK_A), (ROLES_B, DECK_B)):
        game = import_script({"players": PLAYERS, "roles": roles, "deck": deck, "first_president": "ann",
                              "actions": ACTIONS}, name="The same game")  # fmt: skip
        page = page_of(mia, game)
        assert "This page shows every secret of a running game" in page
        assert "you can never play in this game or take a seat in it" in page
        assert "Secret state" not in page and "<td>ann</td>" not in page and "Actions" not in page
        pages.append(
            re.sub(r"/games/\d+/", "/games/ID/", re.sub(r'name="csrfmiddlewaretoken" value="[^"]+"', "", page))
        )
    assert pages[0] == pages[1]
    assert not SecretWitness.objects.exists() and not AuditEntry.objects.exists()
    join_game(game.pk, make_user("mia"), as_substitute=True)  # a look at the warning bars nobody


def test_the_secrets_are_shown_only_after_the_confirmation_is_posted(moderator_client):
    game = running_game()
    mia = moderator_client("mia")
    assert mia.get(f"/moderation/games/{game.pk}/see/").status_code == 405  # a GET confirms nothing
    assert "Secret state" not in page_of(mia, game)
    page = mia.post(f"/moderation/games/{game.pk}/see/", follow=True).content.decode()
    assert "Secret state" in page and "hitler" in page
    entry = AuditEntry.objects.get(game=game, action="view_secrets")
    assert entry.actor_name == "mia" and SecretWitness.objects.filter(game=game, user__username="mia").exists()
    with pytest.raises(GameError, match="seen this game's secrets"):
        join_game(game.pk, make_user("mia"), as_substitute=True)


def test_the_confirmation_needs_the_csrf_token(moderator_client):
    game = running_game()
    moderator_client("mia")
    strict = Client(enforce_csrf_checks=True)
    strongly_signed_in(strict, make_user("mia"))
    assert strict.post(f"/moderation/games/{game.pk}/see/").status_code == 403
    assert not SecretWitness.objects.exists() and not AuditEntry.objects.exists()


def test_the_warning_is_asked_once_per_moderator_and_game(moderator_client):
    game, other = running_game(), running_game()
    mia = moderator_client("mia")
    mia.post(f"/moderation/games/{game.pk}/see/")
    mia.post(f"/moderation/games/{game.pk}/see/")  # a second click, or a second tab
    for _ in range(2):
        assert "Secret state" in page_of(mia, game)
    assert AuditEntry.objects.filter(game=game, actor__username="mia").count() == 1
    assert "Secret state" not in page_of(mia, other)  # another game: asked again
    assert "Secret state" not in page_of(moderator_client("zoe"), game)  # another moderator: asked too


def test_a_moderator_who_acted_on_the_game_is_not_asked(moderator_client):
    game = running_game()
    mia = moderator_client("mia")
    mia.post(f"/moderation/games/{game.pk}/act/", {"action": "pause", "reason": "holiday", "step": game.step_number})
    assert "Secret state" in page_of(mia, game)


def test_a_game_that_is_over_needs_no_confirmation_nor_record(moderator_client):
    game = running_game()
    cancel(game.pk, make_user("mod0"))
    page = page_of(moderator_client("mia"), game)
    assert "Secret state" in page and "This page shows every secret" not in page
    assert not AuditEntry.objects.filter(actor__username="mia").exists()


def test_a_lobby_needs_no_confirmation(moderator_client):
    from games.services import create_game

    lobby = create_game(make_user("ann"), player_count=5)
    page = page_of(moderator_client("mia"), lobby)
    assert "This page shows every secret" not in page and "Seats" in page


def test_a_moderator_who_plays_cannot_confirm_either(moderator_client):
    game = running_game()
    ann = moderator_client("ann")
    assert ann.post(f"/moderation/games/{game.pk}/see/").status_code == 403
    assert not SecretWitness.objects.exists()
