"""Django admin: every model registered and listed; a running game's secret state for superusers only."""

import pytest
from django.apps import apps
from django.contrib import admin
from django.contrib.auth.models import Permission

from tests.factories import make_user, running_game

pytestmark = pytest.mark.django_db


def test_every_model_of_the_project_is_in_the_admin(client):
    superuser = make_user("root")
    superuser.is_staff = superuser.is_superuser = True
    superuser.save()
    client.force_login(superuser)
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
    client.force_login(staff)
    page = client.get(f"/admin/games/game/{game.pk}/change/").content.decode()
    assert page.count('name="state"') == 0 and '"hitler"' not in page
    staff.is_superuser = True
    staff.save()
    assert 'name="state"' in client.get(f"/admin/games/game/{game.pk}/change/").content.decode()
