"""Issue 42 in Chromium: a player subscribes their device on the devices page; each "your move" the site sends
reaches the push service on loopback (devtools/push_service.py: the JWT checked, the payload decrypted) and, delivered
to the service worker as the browser's push service would (DevTools' ServiceWorker.deliverPushMessage), shows one
notification, which a newer push replaces, which a push for a move already made does not show, and whose click
opens the game at the move. Without a network the installed site shows the pages kept, read-only.

The browser's own PushManager.subscribe asks Google's push push_service, which this machine cannot reach: the test
stands in for that one call with the loopback service's subscription. Everything the site sends is real.
"""

import json

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from devtools.push_service import STAND_IN
from games.models import Profile, PushDevice
from games.notify.push import send_due_pushes
from games.services import make_move
from tests.e2e.pages import AXE, SERIOUS, VIEWPORTS, said, signed_in
from tests.factories import running_game
from tests.games.helpers import reload, user

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

SHOWN = """() => navigator.serviceWorker.ready
  .then(r => r.getNotifications())
  .then(list => list.map(n => ({ title: n.title, body: n.body, tag: n.tag, url: n.data && n.data.url })))"""


def subscribed_page(browser, live_server, push_service, name: str, language: str, device: str):
    """`name` signed in, their device subscribed from the devices page by its button; the page and the
    subscription the push service holds for it."""
    page = signed_in(browser, live_server.url, name, language=language, viewport=VIEWPORTS[device], locale=language)
    Profile.objects.update_or_create(user=user(name), defaults={"language": language})
    page.context.grant_permissions(["notifications"], origin=live_server.url)
    subscription = push_service.subscribe()
    page.context.add_init_script(script=STAND_IN % json.dumps(subscription.as_browser_gives_it()))
    page.goto("/profile/devices/")
    page.get_by_role("button", name=said(language, "Get notifications on this device")).click()
    expect(page.locator("ul.messages")).to_contain_text(said(language, "This device gets your notifications now."))
    expect(page.locator("ul.devices li .this-device")).to_be_visible()
    expect(page.get_by_role("button", name=said(language, "Get notifications on this device"))).to_be_hidden()
    assert PushDevice.objects.get(user=user(name)).endpoint == subscription.endpoint
    return page, subscription


def deliver(page, live_server, message: dict) -> None:
    """The push as the browser's push service hands it to the service worker."""
    session = page.context.new_cdp_session(page)
    registrations = []
    session.on("ServiceWorker.workerRegistrationUpdated", lambda event: registrations.extend(event["registrations"]))
    session.send("ServiceWorker.enable")
    page.wait_for_timeout(200)
    [registration] = [r for r in registrations if r["scopeURL"].rstrip("/") == live_server.url.rstrip("/")]
    session.send("ServiceWorker.deliverPushMessage", {"origin": live_server.url,
                 "registrationId": registration["registrationId"], "data": json.dumps(message)})  # fmt: skip
    session.detach()


def shown(page, until) -> list[dict]:
    """The notifications shown, once `until` holds of them (within 5 seconds)."""
    for _tick in range(50):
        notifications = page.evaluate(SHOWN)
        if until(notifications):
            return notifications
        page.wait_for_timeout(100)
    raise AssertionError(f"the notifications shown stayed {notifications}")


def nominate(game) -> None:
    make_move(game.pk, user("ann"), {"type": "nominate", "target": "bob"}, reload(game).step_number)


@pytest.mark.parametrize(("language", "device"), [("en", "desktop"), ("es", "phone")])
def test_each_your_move_shows_one_notification_replaced_by_the_next_and_not_shown_once_made(
    browser, live_server, push_service, language, device
):
    first, second = running_game(now=timezone.now()), running_game(now=timezone.now())
    page, phone = subscribed_page(browser, live_server, push_service, "bob", language, device)
    nominate(first)
    assert send_due_pushes() == 1
    deliver(page, live_server, phone.messages[-1])
    [notification] = shown(page, lambda notifications: len(notifications) == 1)
    title = said(language, "Your move in %(game)s", game=first.name)
    assert notification["title"] == title and notification["tag"] == "moves"
    assert notification["body"].startswith(said(language, "vote on the government"))
    nominate(second)
    assert send_due_pushes() == 1
    deliver(page, live_server, phone.messages[-1])
    [notification] = shown(page, lambda notifications: notifications and notifications[-1]["title"] != title)
    # replaced, not stacked: one notification, for both games
    assert notification["body"].count(said(language, "vote on the government")) == 2
    stale = phone.messages[-1]
    for game in (first, second):
        make_move(game.pk, user("bob"), {"type": "vote", "vote": "ja"}, reload(game).step_number)
    page.evaluate("() => navigator.serviceWorker.ready.then(r => r.getNotifications())"
                  ".then(list => list.forEach(n => n.close()))")  # fmt: skip
    deliver(page, live_server, stale)  # the moves it announces are made: the device asks, and shows nothing
    page.wait_for_timeout(1500)
    assert page.evaluate(SHOWN) == []
    assert push_service.refused == []
    page.context.close()


def test_a_click_on_the_notification_opens_the_game_at_the_move(browser, live_server, push_service):
    game = running_game(now=timezone.now())
    page, phone = subscribed_page(browser, live_server, push_service, "bob", "en", "phone")
    page.goto("/")
    nominate(game)
    send_due_pushes()
    deliver(page, live_server, phone.messages[-1])
    shown(page, lambda notifications: len(notifications) == 1)
    [worker] = page.context.service_workers
    # The click as the system would send it: the notification shown, clicked (an event made here, untrusted, so
    # the handler's waitUntil refuses it; what the handler does before that is the same).
    worker.evaluate("""() => self.registration.getNotifications().then(([n]) =>
        self.dispatchEvent(new NotificationEvent("notificationclick", { notification: n })))""")
    page.wait_for_url(f"**/games/{game.pk}/#panel")
    expect(page.locator("#panel")).to_contain_text("Your ballot")
    page.context.close()


@pytest.mark.parametrize(("language", "device"), [("en", "desktop"), ("es", "phone")])
def test_offline_the_site_shows_the_pages_kept_read_only_and_lists_them(browser, live_server, language, device):
    from tests.conftest import _missing

    if not AXE.exists():
        _missing(f"needs axe-core at {AXE}: make test installs it with npm (package-lock.json)")
    game = running_game(now=timezone.now())
    page = signed_in(browser, live_server.url, "ann", language=language, viewport=VIEWPORTS[device], locale=language)
    page.context.add_init_script(script=AXE.read_text())  # the kept copy and the offline page, as axe reads them
    Profile.objects.update_or_create(user=user("ann"), defaults={"language": language})
    page.goto("/")
    page.wait_for_function("() => navigator.serviceWorker.ready.then(r => !!r.active)")
    page.reload()  # now under the service worker: the pages opened from here on are kept
    page.goto(f"/games/{game.pk}/")
    expect(page.locator("#panel form").first).to_be_visible()
    page.context.set_offline(True)
    page.goto(f"/games/{game.pk}/")
    banner = page.locator("#offline-banner")
    expect(banner).to_be_visible()
    expect(banner).to_contain_text(said(language, "You are offline: this is the copy of the page kept on this device, "
                                              "to read only. Nothing can be posted or played from it."))  # fmt: skip
    assert page.locator("#panel form").count() > 0
    assert page.locator("form:not([inert])").count() == 0
    assert page.locator("form[method=post]").count() == 0
    assert page.locator("html[data-offline]").count() == 1  # its scripts post nothing: no news asked, no read mark
    assert page.evaluate(SERIOUS) == []
    page.goto("/stats/")  # never opened: the offline page, which lists what was kept
    expect(page.locator("h1")).to_have_text(said(language, "You are offline"))
    expect(page.locator("#kept-pages a", has_text=game.name)).to_have_count(1)
    assert page.evaluate(SERIOUS) == []
    page.context.set_offline(False)
    page.goto("/")
    if device == "phone":
        page.locator("header.site summary").click()  # the menu, folded on a phone
    page.locator("header.site").get_by_role("button", name=said(language, "Sign out")).click()
    page.wait_for_url("**/")
    assert page.evaluate("caches.has('pages-v1')") is False  # the kept pages, and the role on them, went with it
    page.context.close()
