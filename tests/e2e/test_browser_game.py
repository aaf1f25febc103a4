"""A whole 5-player game played in a real browser by new users: five people, each in their own browser context,
sign up through the sign-up form, confirm their address by the link of the email it sends, fill the lobby and play
to a win by clicking the forms of their private panel; once in English on a desktop, once in Spanish on a phone.
On the way they get what issue 41's players missed: each is told in the bell that the game started; a session
announced as closing the thread does close it, and the thread opens again after it; the result is at the top of
the finished game's page, without scrolling. What the test reads on the pages it reads in the players' language,
through the site's own catalogue, which must have translated it.

Chromium is Debian's (/usr/bin/chromium); Playwright never downloads one. Screenshots of the thread, a panel and
the end go to tests/e2e/screenshots/ (ignored by git).
"""

import itertools
import re
from dataclasses import dataclass
from pathlib import Path

import pytest
from django.utils import translation
from playwright.sync_api import Page, expect

from games.engine import secret_view
from games.engine.views import in_legislative_session
from games.models import Game
from tests.e2e.pages import VIEWPORTS, said, signed_up

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

NAMES = ["ann", "bob", "cat", "dan", "eve"]
SCREENSHOTS = Path(__file__).resolve().parent / "screenshots"
MAX_MOVES = 300
ROLE_TEXT = {"liberal": "Liberal", "fascist": "Fascist", "hitler": "Hitler"}
WINNER_TEXT = {"liberal": "The liberals won.", "fascist": "The fascists won."}
SPELT_ALIKE = {"Hitler", "Liberal", "Roles"}  # the same words in Spanish: `said` would take them for untranslated
STARTED = "%(game)s has started. Your role is on your private panel, on the game's page."


@dataclass
class Player:
    name: str
    page: Page
    language: str = "en"

    def t(self, text: str, **values) -> str:
        """`text` as the player reads it: the site's translation into their language, with `values` put in."""
        if text in SPELT_ALIKE:
            with translation.override(self.language):
                return translation.gettext(text)
        return said(self.language, text, **values)

    @property
    def panel(self):
        return self.page.locator("section#panel")


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


def check_session_closes_the_thread(game: Game, players: list[Player], game_url: str) -> Player:
    """R18 under the default house rules (issue 41's fourth bug): during a legislative session a player outside the
    government reads that the thread is closed, and it is: their reply box says why and has no form. Returns that
    player, who posts once the session is over."""
    state = Game.objects.get(pk=game.pk).load_state()
    government = {state.seats[state.president].name, state.seats[state.chancellor].name}
    bystander = next(player for player in players if player.name not in government)
    bystander.page.goto(f"{game_url}?page=last")
    closed = bystander.t("The legislative session begins: the thread is closed until a policy is enacted.")
    expect(bystander.page.locator("#entries .entry.announcement", has_text=closed).last).to_be_visible()
    reply = bystander.page.locator("#reply-box")
    expect(reply).to_contain_text(
        bystander.t(
            "The thread is closed during the legislative session: it opens again once a policy is enacted or vetoed."
        )
    )
    expect(reply.locator("form")).to_have_count(0)
    return bystander


def post(player: Player, game_url: str, text: str) -> None:
    """The player sends `text` by the thread's reply form and reads it in the thread."""
    player.page.goto(f"{game_url}?page=last")
    reply = player.page.locator("#reply-box")
    reply.locator("textarea").fill(text)
    reply.get_by_role("button", name=player.t("Post"), exact=True).click()
    expect(player.page.locator("#entries .entry", has_text=text)).to_have_count(1)


def check_result_on_top(player: Player, winner: str) -> None:
    """A finished game's result is at the top of its page, read without scrolling (issue 41: on a phone it came only
    below the panel)."""
    banner = player.page.locator("#result strong")
    expect(banner).to_have_text(player.t(WINNER_TEXT[winner]))
    bottom = banner.evaluate("element => element.getBoundingClientRect().bottom + window.scrollY")
    assert bottom <= player.page.viewport_size["height"], f"{player.name} must scroll to read who won ({bottom}px)"


@pytest.mark.parametrize(
    ("language", "device"), [("en", "desktop"), ("es", "phone")], ids=["english-desktop", "spanish-phone"]
)
def test_a_whole_game_is_played_in_the_browser_by_new_users(browser, live_server, language, device):
    SCREENSHOTS.mkdir(exist_ok=True)
    players = [
        Player(name, signed_up(browser, live_server, name, language=language, device=device), language)
        for name in NAMES
    ]
    spectator = browser.new_context(base_url=live_server.url).new_page()
    shot = f"{language}-{VIEWPORTS[device]['width']}"

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
    for player in players:  # every seated player hears of the start, not only the first candidate
        player.page.goto("/notifications/")
        expect(player.page.locator("main")).to_contain_text(player.t(STARTED, game="Browser game"))

    # The game: each player in turn reloads the page and makes every move their panel asks for.
    strategy = Strategy()
    idle = 0  # pages in a row on which nobody owed a move
    shot_mid_game = False
    bystander: Player | None = None  # read that a session closed the thread; posts once it is over
    for turn in itertools.count():
        player = players[turn % len(players)]
        if bystander and not in_legislative_session(Game.objects.get(pk=game.pk).load_state()):
            post(bystander, game_url, "Who do we trust?")
            bystander = None
        player.page.goto(game_url)
        if winner_shown(player):
            break
        assert len(strategy.moves) < MAX_MOVES, f"no winner after {MAX_MOVES} moves: {strategy.moves[-10:]}"
        assert idle < len(players), f"nobody has a move to make, yet the game goes on: {strategy.moves[-10:]}"
        if not shot_mid_game and player.panel.locator("input[name=type][value=discard]").count():
            player.page.screenshot(path=SCREENSHOTS / f"thread-mid-game-{shot}.png", full_page=True)
            player.panel.screenshot(path=SCREENSHOTS / f"panel-mid-game-{shot}.png")
            shot_mid_game = True
            bystander = check_session_closes_the_thread(game, players, game_url)
        moved = False
        while len(strategy.moves) < MAX_MOVES and strategy.play(player):  # the answer to a move is the page again
            moved = True
        idle = 0 if moved else idle + 1

    # The end: everyone sees the same winner, the database agrees, and the secret history shows every role.
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert strategy.votes_closed > 0, "no last ballot was told that it closed the vote"
    assert shot_mid_game and bystander is None, "nobody posted once a legislative session was over"
    for player in players:
        player.page.goto(game_url)
        assert winner_shown(player) == game.winner, f"{player.name} sees another result"
        check_result_on_top(player, game.winner)
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
