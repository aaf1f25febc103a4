"""Accounts (django-allauth): sign up, verify the email, then join; password reset and email pages."""

import re
from datetime import timedelta

import pytest
from django.core import mail

from games.models import ActionRecord, Game
from games.services import join_game, make_move, sweep_due_deadlines
from games.services.accounts import delete_account
from tests.factories import START, make_user, running_game
from tests.games.helpers import reload, state_of, user

pytestmark = pytest.mark.django_db


def test_sign_up_verify_the_email_then_join(client):
    game = running_game()
    response = client.post(
        "/accounts/signup/",
        {
            "email": "newbie@example.com",
            "username": "newbie",
            "password1": "a-long-pass-phrase-9",
            "password2": "a-long-pass-phrase-9",
        },
    )
    assert response.status_code == 302
    assert mail.outbox and mail.outbox[0].to == ["newbie@example.com"]
    link = re.search(r"https?://[^\s]+/accounts/confirm-email/[^\s]+", mail.outbox[0].body).group(0)
    client.post(link.split("testserver", 1)[-1] if "testserver" in link else link[link.index("/accounts/") :])
    # confirmed in the session that signed up: signed in, without typing the password again
    response = client.post(f"/games/{game.pk}/join/", {"as": "substitute"}, follow=True)
    assert "You are a substitute" in response.content.decode()
    assert Game.objects.get(pk=game.pk).load_state().substitutes == ["newbie"]


@pytest.mark.parametrize("url", ["/accounts/login/", "/accounts/signup/", "/accounts/password/reset/"])
def test_account_pages_in_the_site_style(client, url):
    page = client.get(url)
    assert page.status_code == 200
    assert 'href="/static/css/site.css"' in page.content.decode()


def test_email_and_password_pages_for_the_signed_in(client_for):
    ann = client_for("ann")
    assert ann.get("/accounts/email/").status_code == 200
    assert ann.get("/accounts/password/change/").status_code == 200


def test_sign_in_with_the_username_or_the_email(client):
    from tests.factories import make_user

    make_user("boris7", password="a-long-pass-phrase-9")  # with a verified address, which signing in needs
    for login in ("boris7", "boris7@example.com"):
        client.logout()
        response = client.post("/accounts/login/", {"login": login, "password": "a-long-pass-phrase-9"})
        assert response.status_code == 302, login
        assert "_auth_user_id" in client.session


def test_account_emails_sign_as_the_site_whatever_the_host(client, settings):
    settings.SITE_URL = "https://sh.example.org"
    client.post(
        "/accounts/signup/",
        {
            "email": "newbie@example.com",
            "username": "newbie",
            "password1": "a-long-pass-phrase-9",
            "password2": "a-long-pass-phrase-9",
        },
        HTTP_HOST="127.0.0.1:8123",
    )
    message = mail.outbox[0]
    assert message.subject.startswith("[Secret Hitler by post] ")
    assert "127.0.0.1:8123" not in message.subject
    assert "Secret Hitler by post" in message.body


def test_make_run_points_links_at_the_host_it_serves():
    import subprocess
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    dry = subprocess.run(
        ["make", "--no-print-directory", "-n", "run", "HOST=127.0.0.1:8123"], cwd=root, capture_output=True, text=True
    )
    assert 'SITE_URL="${SITE_URL:-http://127.0.0.1:8123}"' in dry.stdout


def test_a_french_sign_up_stays_french_after_visiting_the_profile(client):
    from games.models import Profile

    client.cookies["tz"] = "Europe/Paris"
    client.post(
        "/accounts/signup/",
        {
            "email": "amelie@example.com",
            "username": "amelie",
            "password1": "a-long-pass-phrase-9",
            "password2": "a-long-pass-phrase-9",
        },
        HTTP_ACCEPT_LANGUAGE="fr",
    )
    profile = Profile.objects.get(user__username="amelie")
    assert (profile.language, profile.time_zone) == ("fr", "Europe/Paris")
    link = re.search(r"/accounts/confirm-email/[^\s]+", mail.outbox[0].body).group(0)
    client.post(link, HTTP_ACCEPT_LANGUAGE="fr")
    client.post("/accounts/login/", {"login": "amelie", "password": "a-long-pass-phrase-9"})
    assert "Votre profil" in client.get("/profile/").content.decode()
    assert 'lang="fr"' in client.get("/").content.decode()  # no English header or language from the visit


def test_a_page_that_only_reads_makes_no_profile(client_for):
    from games.models import Profile

    client = client_for("nadia")
    Profile.objects.filter(user__username="nadia").delete()
    for url in ("/profile/", "/users/nadia/", "/"):
        assert client.get(url, HTTP_ACCEPT_LANGUAGE="es").status_code == 200
    assert not Profile.objects.filter(user__username="nadia").exists()


def test_a_bogus_time_zone_cookie_is_ignored(client):
    from games.models import Profile

    client.cookies["tz"] = "Mars/Olympus"
    client.post(
        "/accounts/signup/",
        {
            "email": "m@example.com",
            "username": "m",
            "password1": "a-long-pass-phrase-9",
            "password2": "a-long-pass-phrase-9",
        },
    )
    assert Profile.objects.get(user__username="m").time_zone == "UTC"


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


def field_blocks(page: str) -> dict[str, str]:
    """Each field of the page's account form, by name: its label, input, help and errors, in the page's order."""
    blocks = re.findall(r'<div class="field">(.*?)\n  </div>', page, re.S)
    return {re.search(r'name="([^"]+)"', block).group(1): block for block in blocks}


def sign_up(client, **changes):
    data = {"email": "newbie@example.com", "username": "newbie", "password1": "a-long-pass-phrase-9"}
    data = {**data, "password2": data["password1"], **changes}
    return client.post("/accounts/signup/", data)


def test_each_sign_up_error_sits_under_its_own_field_and_is_tied_to_it(client):
    page = sign_up(client, username="a b", password1="short", password2="short").content.decode()
    fields = field_blocks(page)
    assert "Enter a valid username" in fields["username"] and "too short" not in fields["username"]
    assert "too short" in fields["password1"]
    for name in ("username", "password1"):
        block = fields[name]
        assert block.index(f'id="id_{name}"') < block.index(f'<ul class="errorlist" id="id_{name}_error">')
        describedby = re.search(r'aria-describedby="([^"]+)"', block).group(1).split()
        assert f"id_{name}_error" in describedby
    assert "errorlist" not in fields["email"] + fields["password2"]


def test_a_password_mismatch_is_said_with_the_other_errors_at_once(client):
    page = sign_up(client, username="a b", password1="short", password2="shorter").content.decode()
    fields = field_blocks(page)
    assert "Enter a valid username" in fields["username"]
    assert "too short" in fields["password1"]
    assert "You must type the same password each time." in fields["password2"]
    assert 'aria-describedby="id_password2_error"' in fields["password2"]


def test_a_password_mismatch_alone_is_said_once_and_makes_no_account(client):
    from django.contrib.auth import get_user_model

    page = sign_up(client, password2="a-long-pass-phrase-8").content.decode()
    assert page.count("You must type the same password each time.") == 1
    assert not get_user_model().objects.filter(username="newbie").exists()


def test_the_sign_in_form_says_a_wrong_password_above_its_fields(client):
    make_user("boris7", password="a-long-pass-phrase-9")
    page = client.post("/accounts/login/", {"login": "boris7", "password": "wrong-pass-phrase"}).content.decode()
    form = page.split('action="/accounts/login/"')[1]
    assert form.index("are not correct") < form.index('<div class="field">')
    assert set(field_blocks(page)) >= {"login", "password"}


@pytest.mark.parametrize("name", ["Lucía", "luci\N{CYRILLIC SMALL LETTER A}", "\N{FULLWIDTH LATIN SMALL LETTER L}ucia"])
def test_sign_up_refuses_a_name_too_close_to_an_existing_one_under_the_username(client, name):
    from django.contrib.auth import get_user_model

    make_user("lucia")
    page = sign_up(client, username=name, email="other@example.com").content.decode()
    assert "This name is too close to an existing one: lucia." in field_blocks(page)["username"]
    assert get_user_model().objects.count() == 1
    assert not mail.outbox


def test_sign_up_allows_a_distinct_name_beside_a_close_looking_one(client):
    make_user("lucia")
    assert sign_up(client, username="lucas", email="lucas@example.com").status_code == 302
