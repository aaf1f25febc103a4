"""A whole 5-player game played in a real browser: five players, each in their own browser context, sign in
through the sign-in form, fill the lobby and play to a win by clicking the forms of their private panel; once in
English on a desktop, once in Polish on a phone. What the test reads on the pages it reads in the players'
language, through the site's own catalogue.

Chromium is Debian's (/usr/bin/chromium); Playwright never downloads one. Screenshots of the thread, a panel and
the end go to tests/e2e/screenshots/ (ignored by git).
"""

import itertools
import re
from dataclasses import dataclass
from pathlib import Path

import pytest
from allauth.account.models import EmailAddress
from django.contrib.auth import get_user_model
from django.utils import translation
from playwright.sync_api import Browser, Page, expect

from games.engine import secret_view
from games.models import Game

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

NAMES = ["ann", "bob", "cat", "dan", "eve"]
PASSWORD = "pw-for-the-browser-1"
SCREENSHOTS = Path(__file__).resolve().parent / "screenshots"
MAX_MOVES = 300
ROLE_TEXT = {"liberal": "Liberal", "fascist": "Fascist", "hitler": "Hitler"}
WINNER_TEXT = {"liberal": "The liberals won.", "fascist": "The fascists won."}
DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}


@dataclass
class Player:
    name: str
    page: Page
    language: str = "en"

    def t(self, text: str) -> str:
        """`text` as the player reads it: the site's translation into their language."""
        with translation.override(self.language):
            return translation.gettext(text)

    @property
    def panel(self):
        return self.page.locator("section#panel")


def make_user(name: str) -> None:
    user = get_user_model().objects.create_user(name, email=f"{name}@example.com", password=PASSWORD)
    EmailAddress.objects.create(user=user, email=user.email, verified=True, primary=True)


def sign_in(browser: Browser, base_url: str, name: str, language: str = "en", viewport: dict = DESKTOP) -> Player:
    """A fresh browser context signed in through the real sign-in form (allauth signs in by email)."""
    context = browser.new_context(base_url=base_url, viewport=viewport, locale=language)
    context.set_default_timeout(10_000)
    page = context.new_page()
    page.set_extra_http_headers({"Accept-Language": language})
    page.goto("/accounts/login/")
    main = page.locator("main")
    main.locator("input[name=login]").fill(f"{name}@example.com")
    main.locator("input[name=password]").fill(PASSWORD)
    main.locator("button[type=submit]").click()
    player = Player(name, page, language)
    expect(page.locator("header.site")).to_contain_text(f"{player.t('Profile')} ({name})")
    return player


def winner_shown(player: Player) -> str | None:
    text = player.page.locator("#status").inner_text() if player.page.locator("#status").count() else ""
    return next((winner for winner, sentence in WINNER_TEXT.items() if player.t(sentence) in text), None)


def waiting_for(player: Player) -> list[str]:
    """The names after "Waiting for:" in the status box."""
    line = player.page.locator("#status p", has_text=player.t("Waiting for")).inner_text()
    return [name.strip() for name in line.split(":", 1)[1].split(",")]


def click_and_check(player: Player, button, asks: bool) -> str:
    """Submit a panel form with one of its buttons, answering yes when the browser asks first (every move but a
    ballot: T2 has no undo); the server must say what was done (it redirects back)."""
    questions = []

    def answer(dialog) -> None:
        questions.append(dialog.message)
        dialog.accept()

    player.page.on("dialog", answer)
    try:
        button.click()
        player.page.wait_for_load_state()
    finally:
        player.page.remove_listener("dialog", answer)
    assert len(questions) == (1 if asks else 0), f"{player.name} was asked {questions}"
    assert all(question.endswith(player.t("This cannot be undone.")) for question in questions), questions
    messages = player.page.locator("ul.messages")
    expect(messages).to_be_visible()
    said = messages.inner_text().strip()
    assert messages.locator("li.success").count() == 1, f"{player.name}'s move was refused: {said}"
    if player.language == "en":
        assert said.startswith(("You ", "Your ballot is ")), said  # it says what was done
    return said


class Strategy:
    """Everyone votes Ja!; presidents discard liberal policies and chancellors enact fascist ones when they can,
    so the fascist track fills and its powers come into play; the first offered target is always chosen; the
    first chancellor offered a veto asks for it and the president accepts."""

    def __init__(self):
        self.veto_asked = False
        self.votes_closed = 0  # ballots answered "the vote is closed"
        self.moves: list[str] = []

    def play(self, player: Player) -> bool:
        """Make the move the player owes, if any, through their panel. Returns whether a move was made."""
        forms = player.panel.locator("form[action$='/move/']")
        kinds = {forms.nth(i).locator("input[name=type]").input_value(): forms.nth(i) for i in range(forms.count())}
        if not kinds or ("vote" in kinds and kinds["vote"].locator("[aria-pressed=true]").count()):
            return False  # nothing owed, or the ballot is in (its form stays open only to change it)
        expect(player.panel).to_contain_text(player.t("Your move"))
        assert player.name in waiting_for(player), f"{player.name} has a move form but the status box waits for others"
        if "veto" in kinds and not self.veto_asked:
            self.veto_asked = True
            return self._submit(player, "veto", kinds["veto"].locator("button"))
        kind, form = next((k, f) for k, f in kinds.items() if k != "veto")
        if kind == "vote":
            return self._submit(player, kind, form.locator("button[value=ja]"))
        if kind in ("discard", "enact"):
            preferred = form.locator(f"button[name=policy][value={'L' if kind == 'discard' else 'F'}]")
            return self._submit(player, kind, preferred.first if preferred.count() else form.locator("button").first)
        if kind == "veto_reply":
            return self._submit(player, kind, form.locator("button[value=yes]"))
        # nominate, investigate, special_election, execute: choose a name, then confirm.
        select = form.locator("select")
        target = select.locator("option:not([disabled])").first.get_attribute("value")  # past "Choose a player"
        select.select_option(target)
        return self._submit(player, f"{kind} {target}", form.locator("button[type=submit]"))

    def _submit(self, player: Player, move: str, button) -> bool:
        said = click_and_check(player, button, asks=not move.startswith("vote"))
        # The ballot that closes the vote (T1: everyone voted) says so and the result, not that it may change.
        if said.startswith(player.t("Your ballot is Ja. Every living player has voted: the vote is closed.")):
            assert player.t("Your ballot is Ja. You may change it until the vote closes.") not in said, said
            self.votes_closed += 1
        self.moves.append(f"{player.name}: {move}")
        return True


def check_secrets(players: list[Player], roles: dict[str, str], spectator: Page) -> None:
    """Each player's page shows one panel, their own; a liberal's page shows no fascist's knowledge."""
    hitler = next(name for name, role in roles.items() if role == "hitler")
    for player in players:
        player.page.reload()
        expect(player.panel).to_have_count(1)
        expect(player.panel.locator("h2")).to_contain_text(player.t("Your panel"))
        expect(player.panel.locator("[class^=role-]").first).to_have_text(player.t(ROLE_TEXT[roles[player.name]]))
        body = player.page.locator("body").inner_text()
        if roles[player.name] == "fascist":
            assert f"{hitler} ({player.t('Hitler')})" in body, f"the fascist {player.name} should know Hitler"
        if roles[player.name] == "liberal":
            assert player.t("You know") not in body, f"{player.name}'s page leaks a fascist's knowledge"
            assert "(Hitler)" not in body, f"{player.name}'s page leaks who Hitler is"
            assert "Hitler" not in player.panel.inner_text()
            expect(player.page.locator(".role-fascist, .role-hitler")).to_have_count(0)
    spectator.reload()
    expect(spectator.locator("section#panel")).to_have_count(0)
    expect(spectator.locator("[class^=role-]")).to_have_count(0)


@pytest.mark.parametrize(
    ("language", "viewport"), [("en", DESKTOP), ("pl", PHONE)], ids=["english-desktop", "polish-phone"]
)
def test_a_whole_game_is_played_in_the_browser(browser, live_server, language, viewport):
    SCREENSHOTS.mkdir(exist_ok=True)
    for name in NAMES:
        make_user(name)
    players = [sign_in(browser, live_server.url, name, language, viewport) for name in NAMES]
    spectator = browser.new_context(base_url=live_server.url).new_page()
    shot = f"{language}-{viewport['width']}"

    # The lobby: ann opens a 5-player game, the others join; the last one to join starts it.
    ann = players[0]
    ann.page.goto("/games/new/")
    ann.page.locator("#id_name").fill("Browser game")
    ann.page.locator("#id_player_count").fill("5")
    ann.page.locator("main").get_by_role("button", name=ann.t("Open the game for sign-ups")).click()
    expect(ann.page.locator("ul.messages")).to_contain_text(ann.t("Your game is open for sign-ups."))
    game_url = ann.page.url.split("#")[0]
    assert re.search(r"/games/\d+/$", game_url), game_url
    for player in players[1:]:
        player.page.goto(game_url)
        player.page.get_by_role("button", name=player.t("Join as a player")).click()
        expect(player.page.locator("ul.messages")).to_contain_text(player.t("You are in."))
    game = Game.objects.get(name="Browser game")
    assert game.status == Game.Status.RUNNING
    roles = secret_view(game.load_state())["roles"]
    spectator.goto(game_url)
    check_secrets(players, roles, spectator)

    # The game: each player in turn reloads the page and makes every move their panel asks for.
    strategy = Strategy()
    idle = 0  # pages in a row on which nobody owed a move
    shot_mid_game = False
    for turn in itertools.count():
        player = players[turn % len(players)]
        player.page.goto(game_url)
        if winner_shown(player):
            break
        assert len(strategy.moves) < MAX_MOVES, f"no winner after {MAX_MOVES} moves: {strategy.moves[-10:]}"
        assert idle < len(players), f"nobody has a move to make, yet the game goes on: {strategy.moves[-10:]}"
        if not shot_mid_game and player.panel.locator("input[name=type][value=discard]").count():
            player.page.screenshot(path=SCREENSHOTS / f"thread-mid-game-{shot}.png", full_page=True)
            player.panel.screenshot(path=SCREENSHOTS / f"panel-mid-game-{shot}.png")
            shot_mid_game = True
        moved = False
        while len(strategy.moves) < MAX_MOVES and strategy.play(player):  # the answer to a move is the page again
            moved = True
        idle = 0 if moved else idle + 1

    # The end: everyone sees the same winner, the database agrees, and the secret history shows every role.
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert strategy.votes_closed > 0, "no last ballot was told that it closed the vote"
    for player in players:
        player.page.goto(game_url)
        assert winner_shown(player) == game.winner, f"{player.name} sees another result"
        expect(player.panel.locator("form[action$='/move/']")).to_have_count(0)
    ann.page.screenshot(path=SCREENSHOTS / f"the-end-{shot}.png", full_page=True)
    ann.page.get_by_role("link", name=ann.t("The whole secret history")).click()
    expect(ann.page.locator("h1")).to_contain_text(ann.t("The whole secret history"))
    roles_card = ann.page.locator("section.card", has=ann.page.get_by_role("heading", name=ann.t("Roles")))
    for name, role in roles.items():
        expect(roles_card).to_contain_text(f"{name}: {ann.t(ROLE_TEXT[role])}")
    ann.page.screenshot(path=SCREENSHOTS / f"secret-history-{shot}.png", full_page=True)

    # Everyone who played hears the end in the bell, with a link to the secret history (issue 29).
    history = f"/games/{game.pk}/history/"
    for player in players:
        player.page.goto("/notifications/")
        expect(player.page.locator(f"main li a[href='{history}']", has_text="Browser game")).to_have_count(1)
