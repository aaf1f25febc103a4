"""Every change of a name a user is shown by is recorded, by whichever path it is made: the record open pages are
checked against (a renamed author is news to every thread's page), and the names a player went by."""

import pytest
from django.contrib.auth import get_user_model

from games.models import Profile, Rename
from tests.factories import make_user, strongly_signed_in

pytestmark = pytest.mark.django_db


def renames() -> list[tuple]:
    return list(Rename.objects.order_by("id").values_list("user__username", "field", "old", "new"))


def test_a_display_name_chosen_on_the_profile_page_is_recorded(client_for):
    ann = client_for("ann")
    fields = {"time_zone": "UTC", "language": "en", "reminders": "both"}
    ann.post("/profile/", {"display_name": "Ann the Bold", **fields})
    ann.post("/profile/", {"display_name": "Ann the Bold", **fields})  # saved again, not renamed
    ann.post("/profile/", {"display_name": "", **fields})
    assert renames() == [("ann", "display_name", "", "Ann the Bold"), ("ann", "display_name", "Ann the Bold", "")]


def test_a_username_changed_in_the_admin_is_recorded(client):
    root = make_user("root")
    root.is_staff = root.is_superuser = True
    root.save()
    bob = make_user("bob")
    strongly_signed_in(client, root)
    page = client.get(f"/admin/auth/user/{bob.pk}/change/")
    form = page.context["adminform"].form
    sent = {name: value for name, value in form.initial.items() if value is not None and name != "password"}
    sent |= {"username": "robert", "date_joined_0": "2026-01-01", "date_joined_1": "00:00:00"}
    response = client.post(f"/admin/auth/user/{bob.pk}/change/", sent)
    assert response.status_code == 302, response.content.decode()[:2000]
    assert renames() == [("robert", "username", "bob", "robert")]


def test_a_new_account_and_a_profile_without_a_display_name_are_no_renames():
    user = make_user("cleo")
    Profile.of(user)
    user.email = "cleo@example.org"
    user.save()
    assert renames() == []


def test_a_new_profile_with_a_display_name_is_a_rename():
    user = get_user_model().objects.create(username="dan")
    Profile.objects.create(user=user, display_name="Daniel")
    assert renames() == [("dan", "display_name", "", "Daniel")]
