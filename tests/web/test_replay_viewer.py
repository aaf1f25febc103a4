"""Issue 31: a finished game's replay (/games/N/replay/), built from its stored replay script and the engine: every
finished game of the suite (the scenarios that end, ../shared's and ours, and games played to their end at random)
steps from its deal to the stored final state; nothing of a running game is reachable; posts and claims are
shown where they belong; an address the game does not have is a 404 that says so."""

import json
import re
from datetime import timedelta
from pathlib import Path

import pytest
from django.test import Client

from games.access import is_over
from games.engine import public_view, secret_view, summary
from games.models import ActionRecord, Claim, Game, Post
from games.replay import moments, parse_script, play
from games.services.transfer import export_script, import_script
from tests.factories import SHARED_SCENARIOS, START, make_user, played_to_the_end, running_game

pytestmark = pytest.mark.django_db
OURS = Path(__file__).resolve().parents[1] / "scenarios"


def _finished_scenarios() -> list[Path]:
    found = []
    for path in sorted(SHARED_SCENARIOS.glob("*.json")) + sorted(OURS.glob("*.json")):
        state, error = play(parse_script(json.loads(path.read_text())))
        if error is None and state.over:
            found.append(path)
    return found


FINISHED = {path.stem: json.loads(path.read_text()) for path in _finished_scenarios()}
FINISHED |= {f"random-{players}-players": played_to_the_end(players, seed=players) for players in range(5, 11)}


def section(html: str, number: int) -> str:
    """The page's section of step `number`."""
    start = html.index(f'id="step-{number}"')
    end = html.find('class="card replay-step"', start)
    return html[start : end if end != -1 else len(html)]


def test_the_suite_has_finished_games_of_every_table_size_and_the_shared_ones():
    assert len(FINISHED) >= 10
    assert {"hitler-chancellor-after-three", "liberal-policies-win"} <= set(FINISHED)


@pytest.mark.parametrize("name", sorted(FINISHED))
def test_r27_every_finished_game_steps_from_its_deal_to_its_stored_final_state(name):
    game = import_script(FINISHED[name], name=name)
    assert is_over(game)
    found = moments(export_script(game))
    stored = game.load_state()
    assert found[-1].public == public_view(stored) and found[-1].secret == secret_view(stored)
    assert summary(stored)["winner"] == found[-1].public["winner"]
    client, seen = Client(), []
    for number in sorted({moment.public["round"] for moment in found}):
        page = client.get(f"/games/{game.pk}/replay/?round={number}")
        assert page.status_code == 200
        seen += [int(n) for n in re.findall(r'data-step="(\d+)"', page.content.decode())]
    assert seen == list(range(len(found)))  # each step on one page, in order
    last = len(found) - 1
    html = client.get(f"/games/{game.pk}/replay/?step={last}").content.decode()
    assert f"Step {last} of {last}" in html and "role-hitler" in html


def test_r27_a_running_games_replay_does_not_exist():
    game = running_game()
    client = Client()
    for query in ("", "?step=0", "?round=1", "?step=1"):
        assert client.get(f"/games/{game.pk}/replay/{query}").status_code == 404
    assert "/replay/" not in client.get(f"/games/{game.pk}/").content.decode()


@pytest.mark.parametrize(
    ("query", "words"),
    [
        ("?step=abc", "no such step"),
        ("?step=-1", "no such step"),
        ("?step=" + "9" * 40, "no such step"),
        ("?round=0", "no such round"),
        ("?round=x", "no such round"),
    ],
)
def test_a_step_or_round_the_game_does_not_have_is_a_404_that_says_so(query, words):
    game = import_script(FINISHED["liberal-policies-win"])
    page = Client().get(f"/games/{game.pk}/replay/{query}")
    assert page.status_code == 404 and words in page.content.decode()


def test_each_post_is_shown_at_the_step_it_was_written_in():
    game = import_script(FINISHED["liberal-policies-win"])
    Game.objects.filter(pk=game.pk).update(started_at=START)
    for record in ActionRecord.objects.filter(game=game):  # action k applied k hours after the start
        ActionRecord.objects.filter(pk=record.pk).update(created_at=START + timedelta(hours=record.index + 1))
    ann = make_user("ann")
    for text, hours in (("before-anything", 0.5), ("after-third-move", 3.5), ("at-the-end", 500)):
        Post.objects.create(
            game=game, author=ann, body=text, html=f"<p>{text}</p>", created_at=START + timedelta(hours=hours)
        )
    client = Client()
    first = client.get(f"/games/{game.pk}/replay/?step=0").content.decode()
    assert "before-anything" in section(first, 0) and "before-anything" not in section(first, 1)
    third = client.get(f"/games/{game.pk}/replay/?step=3").content.decode()
    assert "Step 3 of" in third[third.index('id="replay-at"') :].split("</output>")[0]  # without script too
    assert "after-third-move" in section(third, 3) and "after-third-move" not in section(third, 4)
    last = len(moments(export_script(game))) - 1
    end = client.get(f"/games/{game.pk}/replay/?step={last}").content.decode()
    assert "at-the-end" in section(end, last)


def test_r27_claims_are_shown_against_the_cards_really_drawn():
    game = import_script(FINISHED["liberal-policies-win"])
    session = next(s for s in moments(export_script(game))[-1].secret["sessions"] if s["round"] == 1)
    passed = list(session["drawn"])
    passed.remove(session["president_discarded"])
    true_cards, false_cards = "".join(session["drawn"]), "FF" if sorted(passed) != ["F", "F"] else "LL"
    for office, name, cards in (("president", session["president"], true_cards),
                                ("chancellor", session["chancellor"], false_cards)):  # fmt: skip
        Claim.objects.create(game=game, round=1, office=office, author_name=name, cards=cards, created_at=START)
    html = Client().get(f"/games/{game.pk}/replay/?round=1").content.decode()
    claims = html[html.index('id="claims-title"') :]
    assert f"{session['president']}, president, claimed" in claims
    assert claims.count("<strong>true</strong>") == 1 and claims.count('class="claim-false">false') == 1


@pytest.mark.parametrize(
    ("query", "status"),
    [("?step=%00", 400), ("?round=%00", 400), ("?step=1&step=" + "9" * 5000, 400), ("?step=" + "9" * 7, 404)],
)
def test_forged_addresses_are_refused_and_change_nothing(query, status):
    game = import_script(FINISHED["liberal-policies-win"])
    before = (Game.objects.count(), Post.objects.count(), ActionRecord.objects.count())
    assert Client().get(f"/games/{game.pk}/replay/{query}").status_code == status
    assert Client().get(f"/games/{10**30}/replay/").status_code == 404  # no such game
    assert (Game.objects.count(), Post.objects.count(), ActionRecord.objects.count()) == before


def test_the_replay_tells_what_the_president_discarded_in_the_third_person_in_spanish():
    """The panel speaks to its player ("descartaste"); the replay tells of a president ("descartó")."""
    game = import_script(FINISHED["liberal-policies-win"])
    html = Client().get(f"/games/{game.pk}/replay/?round=1", HTTP_ACCEPT_LANGUAGE="es").content.decode()
    sessions = html[html.index("Sesiones legislativas hasta ahora") :]
    assert "robó" in sessions and "descartó" in sessions and "descartaste" not in sessions


def test_a_step_past_the_last_opens_the_last():
    game = import_script(FINISHED["liberal-policies-win"])
    last = len(moments(export_script(game))) - 1
    page = Client().get(f"/games/{game.pk}/replay/?step=99999")
    assert page.status_code == 200 and f"Step {last} of {last}" in page.content.decode()


def test_a_move_that_ends_a_round_is_shown_in_the_round_it_was_made_in():
    """A veto, a failed vote or an enactment ends its round: the step it makes is that round's, not the next's."""
    game = import_script(FINISHED["random-7-players"])
    found = moments(export_script(game))
    client, pages, crossing = Client(), {}, 0
    for moment in found[1:]:
        made_in = found[moment.number - 1].public["round"]
        crossing += made_in != moment.public["round"]
        if made_in not in pages:
            pages[made_in] = client.get(f"/games/{game.pk}/replay/?round={made_in}").content.decode()
        assert f"Step {moment.number} of {len(found) - 1}, round {made_in}</h2>" in pages[made_in]
    assert crossing > 1  # the game has moves that end rounds


def test_r23_under_the_execution_vote_the_replay_tells_the_president_proposed_and_shows_the_ballots():
    script = json.loads((OURS / "r23-execution-vote-passes.json").read_text())
    script.pop("expect")
    script["actions"].append({"type": "cancel"})
    game = import_script(script)
    html = " ".join(Client().get(f"/games/{game.pk}/replay/?round=4").content.decode().split())
    assert "dan proposes executing bob." in html
    assert html.count("dan executes bob.") == 1  # the announcement once the vote passed, not the proposal's step
    assert "Ballots: ann: Ja, bob: Nein, cat: Ja, dan: Ja, eve: Ja (4 Ja, 1 Nein)." in html
