"""Accounts (django-allauth): sign up, verify the email, then join; password reset and email pages."""

import re

import pytest
from django.core import mail

from games.models import Game
from tests.factories import running_game

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
    client.post("/accounts/login/", {"login": "newbie@example.com", "password": "a-long-pass-phrase-9"})
    response = client.post(f"/games/{game.pk}/join/", {"as": "substitute"}, follow=True)
    assert "You are in." in response.content.decode()
    assert Game.objects.get(pk=game.pk).state["substitutes"] == ["newbie"]


@pytest.mark.parametrize("url", ["/accounts/login/", "/accounts/signup/", "/accounts/password/reset/"])
def test_account_pages_in_the_site_style(client, url):
    page = client.get(url)
    assert page.status_code == 200
    assert 'href="/static/css/site.css"' in page.content.decode()


def test_email_and_password_pages_for_the_signed_in(client_for):
    ann = client_for("ann")
    assert ann.get("/accounts/email/").status_code == 200
    assert ann.get("/accounts/password/change/").status_code == 200
