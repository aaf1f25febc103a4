"""Django admin: every model registered and listed; a running game's secret state for superusers only; a game's
log, and the rows that say who has seen its secrets, read only."""

import pytest
from django.apps import apps
from django.contrib import admin
from django.contrib.auth.models import Permission

from games.models import GameEvent, Post, SecretWitness, ThreadRead
from tests.factories import START, make_user, running_game, strongly_signed_in

pytestmark = pytest.mark.django_db


def test_every_model_of_the_project_is_in_the_admin(client):
    superuser = make_user("root")
    superuser.is_staff = superuser.is_superuser = True
    superuser.save()
    strongly_signed_in(client, superuser)
    running_game()
    for app in ("games", "moderation"):
        for model in apps.get_app_config(app).get_models():
            assert model in admin.site._registry, model
            url = f"/admin/{app}/{model._meta.model_name}/"
            assert client.get(url).status_code == 200, url


def test_a_running_games_secret_state_shows_to_superusers_only(client):
    game = running_game()
    staff = make_user("staff")
    staff.is_staff = True
    staff.save()
    staff.user_permissions.add(*Permission.objects.filter(codename__in=["view_game", "change_game"]))
    strongly_signed_in(client, staff)
    page = client.get(f"/admin/games/game/{game.pk}/change/").content.decode()
    assert page.count('name="state"') == 0 and '"hitler"' not in page
    staff.is_superuser = True
    staff.save()
    assert 'name="state"' in client.get(f"/admin/games/game/{game.pk}/change/").content.decode()


def test_a_games_log_is_read_only_in_the_admin(client):
    """An entry added or edited there would reach no channel: the log is written by the game services alone."""
    superuser = make_user("root")
    superuser.is_staff = superuser.is_superuser = True
    superuser.save()
    strongly_signed_in(client, superuser)
    event = GameEvent.objects.filter(game=running_game()).first()
    page = client.get(f"/admin/games/gameevent/{event.pk}/change/")
    assert page.status_code == 200 and 'name="type"' not in page.content.decode()  # shown, not a form
    assert client.get("/admin/games/gameevent/add/").status_code == 403
    assert client.post(f"/admin/games/gameevent/{event.pk}/delete/", {"post": "yes"}).status_code == 403
    assert GameEvent.objects.filter(pk=event.pk).exists()


@pytest.mark.parametrize("model", [SecretWitness, ThreadRead])
def test_who_has_seen_a_games_secrets_is_read_only_in_the_admin(client, model):
    """A witness row deleted, or its time moved before the start, would let someone who saw the secrets sit."""
    superuser = make_user("root")
    superuser.is_staff = superuser.is_superuser = True
    superuser.save()
    strongly_signed_in(client, superuser)
    game, reader = running_game(), make_user("eve")
    if model is SecretWitness:
        row = SecretWitness.objects.create(game=game, user=reader, seen_at=START)
    else:
        row = ThreadRead.objects.create(game=game, user=reader, thread=Post.Thread.GRAVEYARD, last_read_at=START)
    url = f"/admin/games/{model._meta.model_name}/"
    page = client.get(f"{url}{row.pk}/change/")
    assert page.status_code == 200 and 'name="user"' not in page.content.decode()  # shown, not a form
    assert client.get(f"{url}add/").status_code == 403
    assert client.post(f"{url}{row.pk}/delete/", {"post": "yes"}).status_code == 403
    assert model.objects.filter(pk=row.pk).exists()
