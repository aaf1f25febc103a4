"""Two-factor sign-in through allauth's own pages, as a player meets it: an authenticator app set up with a code this
test computes from the secret the page shows (RFC 6238), recovery codes that each work once, wrong codes limited;
moderators and staff refused every secret-bearing page until their session used a second factor; asked again before
what matters; the sessions list; security notices by email in the reader's language; a lost second factor reset by
another moderator, on the record."""

import base64
import hashlib
import hmac
import re
import struct
import time

import pytest
import time_machine
from allauth.account.models import EmailAddress
from allauth.mfa.models import Authenticator
from allauth.mfa.totp.internal.auth import TOTP, generate_totp_secret
from allauth.usersessions.models import UserSession
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.core import mail
from django.test import Client
from django.utils import timezone

from games.models import ApiToken, Game, Post, Profile, PushDevice, WebhookSubscription
from games.services.devices import SESSION_DEVICES
from moderation.models import AuditEntry, SignIn
from tests.factories import make_user, reauthenticated, running_game, strongly_signed_in, with_second_factor

pytestmark = pytest.mark.django_db
PASSWORD = "pw-for-tests-1"  # make_user's


def totp(secret: str, at: float | None = None) -> str:
    """RFC 6238: HMAC-SHA1 of the number of 30-second steps since the epoch, truncated to six digits (RFC 4226)."""
    key = base64.b32decode(secret.upper() + "=" * (-len(secret) % 8))
    digest = hmac.new(key, struct.pack(">Q", int((time.time() if at is None else at) // 30)), hashlib.sha1).digest()
    offset = digest[-1] & 0x0F
    return f"{(struct.unpack('>I', digest[offset : offset + 4])[0] & 0x7FFFFFFF) % 1_000_000:06d}"


def next_period():
    """The clock moved to the start of the next 30-second period (time-machine), the clock running on from there."""
    return time_machine.travel(time.time() - time.time() % 30 + 30.5, tick=True)


def sign_in(name: str, *, agent: str = "Browser/1") -> Client:
    """A client that signs in through the sign-in form with the password, as a person does."""
    client = Client(HTTP_USER_AGENT=agent)
    response = client.post("/accounts/login/", {"login": name, "password": PASSWORD})
    assert response.status_code == 302, response.content[:500]
    return client


def ask_again(client: Client, response) -> object:
    """allauth asked for the password again (reauthentication): give it, and follow where it leads."""
    assert response.status_code == 302 and response["Location"].startswith("/accounts/reauthenticate/"), response
    return client.post(response["Location"], {"password": PASSWORD})


def set_up_app(client: Client) -> str:
    """The authenticator app set up through allauth's page (asked for the password first): its secret."""
    response = client.get("/accounts/2fa/totp/activate/")
    if response.status_code == 302:
        ask_again(client, response)
        response = client.get("/accounts/2fa/totp/activate/")
    secret = re.search(r'id="authenticator_secret"[^>]*value="([A-Z2-7]+)"', response.content.decode())
    if secret is None:
        secret = re.search(r'value="([A-Z2-7]{16,})"', response.content.decode())
    assert secret is not None, response.content.decode()[:2000]
    response = client.post("/accounts/2fa/totp/activate/", {"code": totp(secret.group(1))})
    assert response.status_code == 302, response.content.decode()[:2000]
    return secret.group(1)


def second_step(name: str, code: str, *, agent: str = "Browser/1") -> tuple[Client, object]:
    """Password, then the second factor's page with `code`."""
    client = Client(HTTP_USER_AGENT=agent)
    response = client.post("/accounts/login/", {"login": name, "password": PASSWORD})
    assert response["Location"] == "/accounts/2fa/authenticate/", response
    return client, client.post("/accounts/2fa/authenticate/", {"code": code})


def signed_in_as(client: Client) -> str | None:
    return (
        get_user_model()
        .objects.filter(pk=client.session.get("_auth_user_id"))
        .values_list("username", flat=True)
        .first()
    )


def test_an_authenticator_app_set_up_with_a_computed_code_then_asked_at_every_sign_in():
    make_user("ann")
    client = sign_in("ann")
    secret = set_up_app(client)
    assert Authenticator.objects.filter(user__username="ann", type=Authenticator.Type.TOTP).exists()
    assert Authenticator.objects.filter(user__username="ann", type=Authenticator.Type.RECOVERY_CODES).exists()

    # the password alone no longer signs in
    client = Client()
    response = client.post("/accounts/login/", {"login": "ann", "password": PASSWORD})
    assert response["Location"] == "/accounts/2fa/authenticate/"
    assert signed_in_as(client) is None
    assert client.get("/profile/").status_code == 302

    # the next period's code (the current one was used to set it up, and a code works once)
    with next_period():
        client, response = second_step("ann", totp(secret))
        assert response.status_code == 302, response.content.decode()[:1000]
        assert signed_in_as(client) == "ann"


def test_a_code_works_once():
    make_user("ann")
    client = sign_in("ann")
    secret = set_up_app(client)
    with next_period():  # a period whose code setting up did not use
        code = totp(secret)
        first, response = second_step("ann", code)
        assert response.status_code == 302 and signed_in_as(first) == "ann"
        second, response = second_step("ann", code)
        assert response.status_code == 200 and signed_in_as(second) is None


def recovery_codes(client: Client) -> list[str]:
    response = client.get("/accounts/2fa/recovery-codes/")
    if response.status_code == 302:
        ask_again(client, response)
        response = client.get("/accounts/2fa/recovery-codes/")
    codes = re.findall(r"\b[0-9a-f]{8}\b", response.content.decode())
    assert len(set(codes)) >= 10, response.content.decode()[:2000]
    return list(dict.fromkeys(codes))


@pytest.mark.django_db(transaction=True)  # the session that set the app up counts as having used it once committed
def test_each_recovery_code_signs_in_once():
    make_user("ann")
    client = sign_in("ann")
    set_up_app(client)
    codes = recovery_codes(client)
    first, response = second_step("ann", codes[0])
    assert response.status_code == 302 and signed_in_as(first) == "ann"
    again, response = second_step("ann", codes[0])
    assert response.status_code == 200 and signed_in_as(again) is None
    other, response = second_step("ann", codes[1])
    assert response.status_code == 302 and signed_in_as(other) == "ann"


def test_wrong_codes_are_limited_and_then_even_the_right_one_is_refused():
    make_user("ann")
    client = sign_in("ann")
    secret = set_up_app(client)
    client = Client()
    client.post("/accounts/login/", {"login": "ann", "password": PASSWORD})
    wrong = f"{(int(totp(secret)) + 1) % 1_000_000:06d}"
    answers = [client.post("/accounts/2fa/authenticate/", {"code": wrong}).status_code for _ in range(5)]
    assert answers == [200] * 5
    with next_period():  # a fresh code, never used
        response = client.post("/accounts/2fa/authenticate/", {"code": totp(secret)})
    assert response.status_code == 200 and signed_in_as(client) is None
    assert "Too many failed login attempts" in response.content.decode()


# Every page where a moderator or staff member sees what players may not: every moderation page (but the players'
# report form) and every admin page, read from the URL patterns, so that a page added later is in the sweep.
PLAYERS_PAGES = {"report_post"}


def secret_pages(game, post, user) -> list[str]:
    from django.contrib import admin
    from django.urls import get_resolver, reverse

    from games.models import Absence, Ban
    from moderation.models import Report

    ids = {
        "game_id": game.pk,
        "post_id": post.pk,
        "user_id": user.pk,
        "absence_id": Absence.objects.values_list("pk", flat=True).first() or 1,
        "ban_id": Ban.objects.values_list("pk", flat=True).first() or 1,
        "report_id": Report.objects.values_list("pk", flat=True).first() or 1,
    }
    resolver = get_resolver("moderation.urls")
    pages = []
    for pattern in resolver.url_patterns:
        if pattern.name in PLAYERS_PAGES:
            continue
        kwargs = {name: ids[name] for name in pattern.pattern.converters}
        pages.append(reverse(f"moderation:{pattern.name}", kwargs=kwargs))
    pages.append(reverse("admin:index"))
    for model in admin.site._registry:
        meta = model._meta
        pages.append(reverse(f"admin:{meta.app_label}_{meta.model_name}_changelist"))
    pages.append(reverse("admin:games_game_change", args=[game.pk]))
    return pages


def sweep_world():
    game = running_game()
    post = Post.objects.create(game=game, author=make_user("ann"), body="x", html="x", created_at=game.created_at)
    return game, post


def moderator_signed_in(name: str) -> tuple:
    """A moderator signed in by `force_login`: no second factor used in the session, none on the account."""
    user = make_user(name)
    user.groups.add(Group.objects.get(name="moderators"))
    client = Client()
    client.force_login(user)
    return user, client


def staff(name: str, *, moderator: bool = True, superuser: bool = False):
    user = make_user(name)
    user.is_staff = True
    user.is_superuser = superuser
    user.save()
    if moderator:
        user.groups.add(Group.objects.get(name="moderators"))
    return user


def test_staff_without_a_second_factor_are_sent_to_set_one_up_before_any_secret_bearing_page():
    game, post = sweep_world()
    user = staff("zoe", superuser=True)
    client = Client()
    client.force_login(user)
    pages = secret_pages(game, post, user)
    assert len(pages) > 20
    for url in pages:
        for send in (client.get, client.post):
            response = send(url)
            assert response.status_code == 302, (url, response.status_code)
            assert response["Location"].startswith("/accounts/2fa/?next="), (url, response["Location"])
    assert not AuditEntry.objects.exists()


def test_a_moderator_without_a_second_factor_is_refused_the_same_pages():
    game, post = sweep_world()
    user, client = moderator_signed_in("zoe")
    for url in secret_pages(game, post, user):
        response = client.get(url)
        if url.startswith("/admin/"):  # not staff: the admin refuses them anyway (its sign-in page answers 403)
            assert response.status_code == 302 and response["Location"].startswith("/admin/login/"), url
            assert client.get(response["Location"]).status_code == 403
            continue
        assert response.status_code == 302 and response["Location"].startswith("/accounts/2fa/?next="), url


def test_a_session_that_has_not_used_the_accounts_second_factor_is_asked_for_it():
    game, post = sweep_world()
    user = staff("zoe", superuser=True)
    with_second_factor(Client(), user)  # the account has an app; this session signed in with the password alone
    client = Client()
    client.force_login(user)
    for url in secret_pages(game, post, user):
        response = client.get(url)
        assert response.status_code == 302, url
        assert response["Location"].startswith("/accounts/2fa/reauthenticate/?next="), (url, response["Location"])


def test_a_session_that_used_a_second_factor_opens_them():
    game, post = sweep_world()
    user = staff("zoe", superuser=True)
    client = Client()
    client.force_login(user)
    with_second_factor(client, user)
    for url in secret_pages(game, post, user):
        response = client.get(url)
        assert not response.get("Location", "").startswith("/accounts/2fa/"), url
    assert client.get(f"/moderation/games/{game.pk}/").status_code == 200


def test_a_moderators_action_without_a_second_factor_changes_nothing():
    game = running_game()
    _user, client = moderator_signed_in("zoe")
    response = client.post(f"/moderation/games/{game.pk}/act/", {"action": "pause", "reason": "x", "step": "0"})
    assert response.status_code == 302 and response["Location"].startswith("/accounts/2fa/")
    assert not AuditEntry.objects.exists()


def test_the_admins_own_sign_in_form_is_replaced_by_the_sites():
    response = Client().get("/admin/login/?next=/admin/")
    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")


@pytest.mark.django_db(transaction=True)  # allauth tells of a factor added once its transaction commits
def test_a_second_factor_asked_at_sign_in_lets_a_moderator_in():
    user = make_user("zoe")
    user.groups.add(Group.objects.get(name="moderators"))
    client = sign_in("zoe")
    assert client.get("/moderation/")["Location"].startswith("/accounts/2fa/")
    secret = set_up_app(client)
    assert client.get("/moderation/").status_code == 200  # setting it up used it
    with next_period():
        client, response = second_step("zoe", totp(secret))
        assert response.status_code == 302
        assert client.get("/moderation/").status_code == 200


# What is asked again: once the last sign-in is older than ACCOUNT_REAUTHENTICATION_TIMEOUT, the password (or a
# second factor); the page's form is replayed once it is given (allauth keeps it in the session).
def later():
    """The clock moved past the time a sign-in counts as recent (time-machine), running on from there."""
    return time_machine.travel(time.time() + settings.ACCOUNT_REAUTHENTICATION_TIMEOUT + 5, tick=True)


def test_a_token_made_right_after_signing_in_asks_nothing_more():
    make_user("ann")
    client = sign_in("ann")
    client.post("/profile/tokens/", {"name": "bot", "scope": "play"})
    assert ApiToken.objects.filter(user__username="ann", name="bot").count() == 1


def test_making_an_api_token_asks_again_then_makes_it():
    make_user("ann")
    client = sign_in("ann")
    with later():
        response = client.post("/profile/tokens/", {"name": "bot", "scope": "play"})
        assert not ApiToken.objects.exists()
        response = ask_again(client, response)
    assert ApiToken.objects.filter(user__username="ann", name="bot").count() == 1
    assert response.status_code == 200 and "bot" in response.content.decode()


@pytest.mark.parametrize("address", ["/profile/webhooks/", "/games/{game}/webhooks/"])
def test_making_a_webhook_asks_again(settings, address):
    settings.WEBHOOK_ALLOWED_ADDRESSES = ["127.0.0.1"]
    game = running_game()
    Game.objects.filter(pk=game.pk).update(created_by=make_user("ann"))  # the game's creator, who may add one
    client = sign_in("ann")
    with later():
        response = client.post(address.format(game=game.pk), {"url": "http://127.0.0.1:9/hook", "events": ["move"]})
    assert response.status_code == 302 and response["Location"].startswith("/accounts/reauthenticate/")
    assert not WebhookSubscription.objects.exists()


def test_deleting_the_account_asks_again():
    make_user("ann")
    client = sign_in("ann")
    with later():
        response = client.post("/profile/delete/", {"confirm": "ann"})
        assert (
            Profile.objects.filter(user__username="ann").exists()
            or get_user_model().objects.filter(username="ann", is_active=True).exists()
        )
        assert response["Location"].startswith("/accounts/reauthenticate/")
        ask_again(client, response)
    assert not get_user_model().objects.filter(username="ann", is_active=True).exists()


def test_a_moderators_first_look_at_a_running_games_secrets_asks_again():
    game = running_game()
    user, client = moderator_signed_in("zoe")
    with_second_factor(client, user)
    with later():
        response = client.post(f"/moderation/games/{game.pk}/see/")
        assert response["Location"].startswith("/accounts/reauthenticate/")
        assert not AuditEntry.objects.filter(action="view_secrets").exists()
        ask_again(client, response)
        assert AuditEntry.objects.filter(action="view_secrets", actor=user).count() == 1
        assert "Secret state" in client.get(f"/moderation/games/{game.pk}/").content.decode()


def test_changing_the_password_asks_for_the_current_one_and_the_email_asks_again():
    make_user("ann")
    client = sign_in("ann")
    new = "another-pass-phrase-2"
    client.post("/accounts/password/change/", {"oldpassword": "wrong-one", "password1": new, "password2": new})
    assert get_user_model().objects.get(username="ann").check_password(PASSWORD)
    with later():
        response = client.post("/accounts/email/", {"action_add": "", "email": "other@example.org"})
    assert response["Location"].startswith("/accounts/reauthenticate/")
    assert not EmailAddress.objects.filter(email="other@example.org").exists()


@pytest.mark.django_db(transaction=True)  # the session that set the app up counts as having used it once committed
def test_removing_a_second_factor_asks_again():
    make_user("ann")
    client = sign_in("ann")
    set_up_app(client)
    with later():
        response = client.post("/accounts/2fa/totp/deactivate/")
    assert response["Location"].startswith("/accounts/reauthenticate/")
    assert Authenticator.objects.filter(user__username="ann", type=Authenticator.Type.TOTP).exists()


# Sessions
def test_the_sessions_list_shows_each_browser_and_signs_out_the_others_and_their_devices():
    make_user("ann")
    phone = sign_in("ann", agent="Phone/1")
    laptop = sign_in("ann", agent="Laptop/2")
    user = get_user_model().objects.get(username="ann")
    device = PushDevice.objects.create(
        user=user,
        endpoint="https://push.example.org/1",
        p256dh="k",
        auth="a",
        browser="Phone",
        created_at=timezone.now(),
    )
    session = phone.session
    session[SESSION_DEVICES] = [device.pk]
    session.save()
    page = laptop.get("/accounts/sessions/").content.decode()
    assert "Phone/1" in page and "Laptop/2" in page
    laptop.post("/accounts/sessions/")
    assert laptop.get("/profile/").status_code == 200
    assert phone.get("/profile/").status_code == 302  # signed out
    assert not PushDevice.objects.filter(pk=device.pk).exists()
    assert UserSession.objects.filter(user=user).count() == 1


# Emails
def test_a_sign_in_from_a_new_browser_is_told_to_its_owner_in_their_language():
    """The first sign-in tells nothing (every browser is new then), nor does a browser that updated itself."""
    Profile.objects.create(user=make_user("ann"), language="fr")
    sign_in("ann", agent="Mozilla/5.0 (X11; Linux x86_64) Firefox/132.0")
    sign_in("ann", agent="Mozilla/5.0 (X11; Linux x86_64) Firefox/133.0.1")
    assert mail.outbox == []
    sign_in("ann", agent="Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) Safari/604.1")
    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert message.to == ["ann@example.com"]
    assert "iPhone" in message.body
    assert "/accounts/sessions/" in message.body
    assert "navigateur" in message.subject.lower() or "navigateur" in message.body.lower()


@pytest.mark.django_db(transaction=True)  # allauth sends it once its transaction commits
def test_setting_up_a_second_factor_is_told_by_email_in_the_readers_language():
    Profile.objects.create(user=make_user("ann"), language="es")
    client = sign_in("ann")
    mail.outbox.clear()
    set_up_app(client)
    assert mail.outbox, "no notice"
    assert any("autenticación" in m.subject.lower() or "autenticación" in m.body.lower() for m in mail.outbox), [
        m.subject for m in mail.outbox
    ]


# A lost second factor
def test_another_moderator_resets_a_lost_second_factor_on_the_record():
    lost = make_user("ann")
    ann = sign_in("ann")
    set_up_app(ann)
    moderator = make_user("zoe")
    moderator.groups.add(Group.objects.get(name="moderators"))
    client = Client()
    client.force_login(moderator)
    with_second_factor(client, moderator)
    reauthenticated(client, moderator)
    response = client.post(f"/moderation/users/{lost.pk}/second-factor/reset/", {"reason": "lost her phone"})
    assert response.status_code == 302
    assert not Authenticator.objects.filter(user=lost).exists()
    entry = AuditEntry.objects.get(action="reset_second_factor")
    assert entry.actor == moderator and entry.target == lost and entry.reason == "lost her phone"
    assert ann.get("/profile/").status_code == 302  # her sessions are signed out
    assert "reset a lost second factor" in client.get("/moderation/audit/").content.decode()
    client.post(f"/moderation/users/{lost.pk}/second-factor/reset/", {"reason": "again"})
    assert AuditEntry.objects.filter(action="reset_second_factor").count() == 1


def test_nobody_resets_their_own_and_only_a_superuser_resets_staffs():
    moderator = make_user("zoe")
    moderator.groups.add(Group.objects.get(name="moderators"))
    client = Client()
    client.force_login(moderator)
    with_second_factor(client, moderator)
    reauthenticated(client, moderator)
    client.post(f"/moderation/users/{moderator.pk}/second-factor/reset/", {"reason": "mine"})
    admin = staff("root", moderator=False)
    with_second_factor(Client(), admin)
    client.post(f"/moderation/users/{admin.pk}/second-factor/reset/", {"reason": "theirs"})
    assert Authenticator.objects.filter(user=moderator).exists() and Authenticator.objects.filter(user=admin).exists()
    assert not AuditEntry.objects.filter(action="reset_second_factor").exists()


# What a review of this change found, each shown closed.
def test_the_admins_own_sign_in_form_signs_nobody_in_even_for_staff_already_signed_in():
    low = staff("low", moderator=False)
    root = staff("root", moderator=False, superuser=True)
    with_second_factor(Client(), root)
    client = strongly_signed_in(Client(), low)
    response = client.post("/admin/login/", {"username": "root", "password": PASSWORD, "next": "/admin/"})
    assert response.status_code == 302 and response["Location"] == "/admin/"
    assert client.session["_auth_user_id"] == str(low.pk)


def test_the_admins_password_form_is_the_sites():
    root = staff("root", moderator=False, superuser=True)
    client = strongly_signed_in(Client(), root)
    response = client.get("/admin/password_change/")
    assert response.status_code == 302 and response["Location"] == "/accounts/password/change/"


def test_a_session_that_never_used_the_accounts_factor_cannot_make_one_of_its_own():
    """Signed in with the password before the account had a second factor: asked again by password, it must not
    make recovery codes, nor add an app or a key, and so let itself into the moderation pages."""
    zoe = make_user("zoe")
    zoe.groups.add(Group.objects.get(name="moderators"))
    old = sign_in("zoe")
    with_second_factor(Client(), zoe)  # set up in another browser
    for address in (
        "/accounts/2fa/",
        "/accounts/2fa/recovery-codes/",
        "/accounts/2fa/recovery-codes/generate/",
        "/accounts/2fa/webauthn/add/",
        "/accounts/2fa/webauthn/",
        "/accounts/2fa/totp/deactivate/",
    ):
        for send in (old.get, old.post):
            response = send(address)
            assert response.status_code == 302 and response["Location"].startswith("/accounts/2fa/reauthenticate/")
    assert Authenticator.objects.filter(user=zoe).count() == 1  # the app alone: no recovery codes made here
    assert old.get("/moderation/")["Location"].startswith("/accounts/2fa/reauthenticate/")


def test_the_admin_lists_second_factors_without_their_secrets_and_changes_none():
    root = staff("root", moderator=False, superuser=True)
    client = strongly_signed_in(Client(), root)
    victim = make_user("ann")
    app = TOTP.activate(victim, generate_totp_secret()).instance
    listing = client.get("/admin/mfa/authenticator/").content.decode()
    page = client.get(f"/admin/mfa/authenticator/{app.pk}/change/").content.decode()
    assert "ann" in listing and app.data["secret"] not in listing + page
    client.post(f"/admin/mfa/authenticator/{app.pk}/delete/", {"post": "yes"})
    client.post("/admin/mfa/authenticator/", {"action": "delete_selected", "_selected_action": [app.pk], "post": "yes"})
    assert Authenticator.objects.filter(pk=app.pk).exists()


def test_behind_a_proxy_one_address_failing_does_not_lock_out_another(settings):
    settings.ALLAUTH_TRUSTED_PROXY_COUNT = 1
    make_user("ann")
    make_user("bob")
    attacker = Client(HTTP_X_FORWARDED_FOR="203.0.113.7")
    for _attempt in range(12):
        attacker.post("/accounts/login/", {"login": "bob", "password": "wrong-password"})
    response = Client(HTTP_X_FORWARDED_FOR="198.51.100.2").post(
        "/accounts/login/", {"login": "ann", "password": PASSWORD}
    )
    assert response.status_code == 302
    assert SignIn.objects.get(user__username="ann").ip == "198.51.100.2"


def test_a_moderators_reset_is_told_to_the_accounts_owner_in_their_language():
    lost = make_user("ann")
    Profile.objects.create(user=lost, language="fr")
    with_second_factor(Client(), lost)
    moderator = make_user("zoe")
    moderator.groups.add(Group.objects.get(name="moderators"))
    client = strongly_signed_in(Client(), moderator)
    mail.outbox.clear()
    client.post(f"/moderation/users/{lost.pk}/second-factor/reset/", {"reason": "lost her phone"})
    assert [message.to for message in mail.outbox] == [["ann@example.com"]]
    assert "zoe" in mail.outbox[0].body and "modérateur" in mail.outbox[0].subject.lower()


def test_a_session_listed_by_no_sign_in_is_listed_and_signed_out_with_the_others():
    ann = make_user("ann")
    old = Client(HTTP_USER_AGENT="Old/1")
    old.force_login(ann)  # signed in before the list existed: allauth never listed it
    assert old.get("/profile/").status_code == 200
    laptop = sign_in("ann", agent="Laptop/2")
    assert "Old/1" in laptop.get("/accounts/sessions/").content.decode()
    laptop.post("/accounts/sessions/")
    assert old.get("/profile/").status_code == 302
