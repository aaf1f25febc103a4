"""A username a reader could take for another account's is refused wherever a username is set (sign-up, the admin):
names compared as they read on screen, after Unicode compatibility forms, case, accents and the Cyrillic and Greek
letters that pass for Latin ones."""

import pytest
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.models import NameSkeleton
from games.models.names import check_name_distinct, name_too_close
from games.names import skeleton, skeleton_key
from tests.factories import make_user, strongly_signed_in

LOOK_ALIKE = [
    ("lucia", "lucía"),  # an accent
    ("lucia", "luci\N{COMBINING ACUTE ACCENT}a"),  # the same accent as a combining mark
    ("LUCIA", "lucia"),  # case
    ("paypal", "p\N{CYRILLIC SMALL LETTER A}ypal"),  # a Cyrillic a
    ("PAYPAL", "\N{CYRILLIC CAPITAL LETTER ER}AYPAL"),  # a Cyrillic capital er
    ("nato", "\N{GREEK CAPITAL LETTER NU}\N{GREEK CAPITAL LETTER ALPHA}TO"),  # Greek capitals
    ("bob", "b\N{GREEK SMALL LETTER OMICRON}b"),  # a Greek omicron
    ("ann", "\N{FULLWIDTH LATIN SMALL LETTER A}nn"),  # a full-width letter
    ("fiona", "\N{LATIN SMALL LIGATURE FI}ona"),  # a ligature
    ("zoe", "Zoë"),
    ("modem", "modern"),  # "rn" reads as "m"
    ("bob", "b0b"),  # a zero for an o
    ("bill", "bi11"),  # ones for l's
    ("ilker", "İlker"),  # a dotted capital I
]
DISTINCT = [("ann", "anne"), ("bob", "rob"), ("lucia", "lucas"), ("eve", "eva"), ("dan", "dan2"), ("ann_b", "annb")]


@pytest.mark.parametrize(("first", "second"), LOOK_ALIKE)
def test_names_that_read_alike_have_one_skeleton(first, second):
    assert skeleton(first) == skeleton(second)
    assert skeleton_key(first) == skeleton_key(second)


@pytest.mark.parametrize(("first", "second"), DISTINCT)
def test_names_that_read_differently_keep_their_own_skeleton(first, second):
    assert skeleton(first) != skeleton(second)


def test_a_key_is_one_width_however_long_the_name_folds():
    assert len(skeleton("\N{ARABIC LIGATURE SALLALLAHOU ALAYHE WASALLAM}" * 150)) > 2000
    assert len(skeleton_key("\N{ARABIC LIGATURE SALLALLAHOU ALAYHE WASALLAM}" * 150)) == 64


@pytest.mark.django_db
@pytest.mark.parametrize(("first", "second"), LOOK_ALIKE)
def test_a_name_too_close_to_an_account_s_is_refused_naming_only_that_account(first, second):
    make_user(first)
    with pytest.raises(ValidationError) as refusal:
        check_name_distinct(second)
    assert refusal.value.messages == [f"This name is too close to an existing one: {first}."]


@pytest.mark.django_db
@pytest.mark.parametrize(("first", "second"), DISTINCT)
def test_a_distinct_name_is_allowed(first, second):
    make_user(first)
    check_name_distinct(second)


@pytest.mark.django_db
def test_an_account_keeping_its_own_name_is_not_too_close_to_itself():
    lucia = make_user("lucia")
    assert name_too_close("Lucía", user=lucia) is None
    make_user("lucía")  # made before names were compared: both keep their names, and each is told of the other
    assert name_too_close("LUCIA", user=lucia) == "lucía"


@pytest.mark.django_db
def test_the_skeleton_follows_the_username_by_any_save_and_a_sign_in_leaves_it_alone():
    user = make_user("bob")
    user.username = "r\N{CYRILLIC SMALL LETTER O}bert"
    user.save()
    assert NameSkeleton.objects.get(user=user).key == skeleton_key("robert")
    with CaptureQueriesContext(connection) as queries:
        user.save(update_fields=["last_login"])
    assert not [query for query in queries.captured_queries if NameSkeleton._meta.db_table in query["sql"]]
    user.delete()
    assert not NameSkeleton.objects.exists()


@pytest.mark.django_db
def test_accounts_made_before_the_skeletons_get_theirs_from_the_migration():
    import importlib

    from django.apps import apps

    make_user("lucia")
    NameSkeleton.objects.all().delete()
    importlib.import_module("games.migrations.0028_name_skeletons").fill(apps, None)
    assert list(NameSkeleton.objects.values_list("user__username", "key")) == [("lucia", skeleton_key("lucia"))]


@pytest.mark.django_db
def test_the_admin_refuses_a_new_or_changed_username_too_close_to_another(client):
    root = make_user("root")
    root.is_staff = root.is_superuser = True
    root.save()
    make_user("lucia")
    bob = make_user("bob")
    strongly_signed_in(client, root)
    added = client.post(
        "/admin/auth/user/add/",
        {"username": "lucía", "usable_password": "false", "password1": "", "password2": ""},
    )
    assert "This name is too close to an existing one: lucia." in added.content.decode()
    assert not get_user_model().objects.filter(username="lucía").exists()
    page = client.get(f"/admin/auth/user/{bob.pk}/change/")
    sent = {name: value for name, value in page.context["adminform"].form.initial.items() if value is not None}
    sent |= {"username": "LUCIA", "date_joined_0": "2026-01-01", "date_joined_1": "00:00:00"}
    sent.pop("password", None)
    changed = client.post(f"/admin/auth/user/{bob.pk}/change/", sent)
    assert "This name is too close to an existing one: lucia." in changed.content.decode()
    assert get_user_model().objects.get(pk=bob.pk).username == "bob"
    sent["username"] = "Bob"  # its own name, in capitals: nobody else's
    assert client.post(f"/admin/auth/user/{bob.pk}/change/", sent).status_code == 302


def test_a_display_name_reading_like_another_accounts_name_is_refused_on_the_profile_page(client_for):
    make_user("lucia")
    impostor = client_for("mallory")
    fields = {"time_zone": "UTC", "language": "en", "reminders": "both"}
    page = impostor.post("/profile/", {"display_name": "Lucía", **fields}).content.decode()
    assert "This name is too close to an existing one: lucia." in page
    assert get_user_model().objects.get(username="mallory").profile.display_name == ""
    impostor.post("/profile/", {"display_name": "Mallory the Bold", **fields})
    assert get_user_model().objects.get(username="mallory").profile.display_name == "Mallory the Bold"
    assert impostor.post("/profile/", {"display_name": "MALLORY", **fields}).status_code == 302  # their own name


def test_a_new_username_reading_like_another_accounts_display_name_is_refused(client_for):
    fields = {"time_zone": "UTC", "language": "en", "reminders": "both"}
    client_for("ann").post("/profile/", {"display_name": "Paypal", **fields})
    assert name_too_close("p\N{CYRILLIC SMALL LETTER A}ypal") == "Paypal"
    with pytest.raises(ValidationError, match="too close to an existing one: Paypal"):
        check_name_distinct("PAYPAL")
