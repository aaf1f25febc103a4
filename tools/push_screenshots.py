"""Take the README's push screenshots: the site as an installed app (Chromium's app window: no address bar) on a
phone-sized screen, its devices page, and a real "your move" push shown by the browser beside the game it is about.

    xvfb-run -a -s "-screen 0 1280x900x24" .venv/bin/python tools/push_screenshots.py

Everything is the site's own: a database of its own (SQLite in a temporary folder), the development server, a
game whose first president nominates, the push the outbox sends to a push service on loopback (the tests' own,
devtools/push_service.py), handed to Chromium's service worker as a browser's push service would (DevTools'
ServiceWorker.deliverPushMessage). Only the browser's own subscription call is stood in for, as in the tests:
this machine reaches no browser vendor's push service. Needs Xvfb and ImageMagick's `import` (Debian's xvfb and
imagemagick); writes PNGs to docs/screenshots/.
"""

import json
import os
import subprocess
from pathlib import Path

from site_of_its_own import OUT, serving, set_up

PASSWORD = "pw-for-the-screenshots-1"
PHONE = (390, 844)


def main() -> None:
    folder = set_up("sh-shots-", WEBHOOK_ALLOWED_ADDRESSES="127.0.0.1")
    from django.conf import settings

    from devtools.push_service import PushService
    from games.notify.webpush import new_private_key, public_key

    os.environ["VAPID_PRIVATE_KEY"] = settings.VAPID_PRIVATE_KEY = new_private_key()
    settings.WEBHOOK_ALLOWED_ADDRESSES = ["127.0.0.1"]
    service = PushService(public_key())
    os.environ["SSL_CERT_FILE"] = str(service.certificate)
    game = _game()
    try:
        with serving() as port:
            _shoot(f"http://127.0.0.1:{port}", game, service, folder)
    finally:
        service.close()


def _game():
    from allauth.account.models import EmailAddress
    from django.contrib.auth import get_user_model
    from django.utils import timezone

    from games.models import Profile
    from games.services.transfer import import_script

    names = ["ann", "bob", "cat", "dan", "eve"]
    game = import_script({"players": names, "seed": 7, "actions": []}, name="Friday night table", now=timezone.now())
    for name in names:
        user = get_user_model().objects.get(username=name)
        user.email = f"{name}@example.org"
        user.set_password(PASSWORD)
        user.save()
        EmailAddress.objects.create(user=user, email=user.email, verified=True, primary=True)
        Profile.objects.update_or_create(user=user, defaults={"time_zone": "Europe/Madrid"})
    return game


def _session(name: str) -> str:
    """A signed-in session of `name`'s, as the sign-in form would make (its cookie's value)."""
    from django.contrib.auth import get_user_model
    from django.test import Client

    client = Client()
    client.force_login(get_user_model().objects.get(username=name))
    return client.cookies["sessionid"].value


def _shoot(base: str, game, service, folder: Path) -> None:
    from playwright.sync_api import sync_playwright

    from devtools.push_service import STAND_IN
    from games.engine import waiting_for
    from games.notify.push import send_due_pushes
    from games.services import make_move

    subscription = service.subscribe()
    with sync_playwright() as playwright:
        context = playwright.chromium.launch_persistent_context(
            folder / "profile", executable_path="/usr/bin/chromium", headless=False, no_viewport=True,
            args=["--no-sandbox", "--test-type", "--disable-gpu", "--no-first-run", f"--app={base}/accounts/login/",
                  f"--window-size={PHONE[0]},{PHONE[1]}", "--window-position=0,0"],
        )  # fmt: skip
        context.grant_permissions(["notifications"], origin=base)
        context.add_init_script(script=STAND_IN % json.dumps(subscription.as_browser_gives_it()))
        context.add_cookies([{"name": "sessionid", "value": _session("bob"), "url": base}])  # no password bubble
        page = context.pages[0] if context.pages else context.new_page()
        page.goto(f"{base}/profile/devices/")
        page.get_by_role("button", name="Get notifications on this device").click()
        page.locator("ul.messages").wait_for()
        page.screenshot(path=OUT / "devices-phone.png")
        state = game.load_state()
        president = game.seats.get(number=waiting_for(state)[0]).user
        make_move(game.pk, president, {"type": "nominate", "target": "bob"}, state.step_number)
        send_due_pushes()
        page.goto(f"{base}/games/{game.pk}/")
        page.evaluate("window.scrollTo(0, 0)")
        session = context.new_cdp_session(page)
        registrations = []
        updated = "ServiceWorker.workerRegistrationUpdated"
        session.on(updated, lambda update: registrations.extend(update["registrations"]))
        session.send("ServiceWorker.enable")
        page.wait_for_timeout(500)
        session.send("ServiceWorker.deliverPushMessage", {"origin": base, "registrationId":
                     registrations[0]["registrationId"], "data": json.dumps(subscription.messages[-1])})  # fmt: skip
        page.wait_for_timeout(2500)
        screen = folder / "screen.png"
        subprocess.run(["import", "-window", "root", str(screen)], check=True)
        # The app window at the top left; the notification, Chromium's own, at the bottom right.
        subprocess.run(["convert", str(screen), "-crop", f"{PHONE[0]}x{PHONE[1]}+0+0", "+repage",
                        str(OUT / "installed-phone.png")], check=True)  # fmt: skip
        subprocess.run(["convert", str(screen), "-crop", "400x160+880+740", "+repage", "-trim", "+repage",
                        str(OUT / "push-notification.png")], check=True)  # fmt: skip
        context.close()


if __name__ == "__main__":
    main()
