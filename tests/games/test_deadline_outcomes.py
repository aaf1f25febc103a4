"""T4, T5: every outcome a deadline applies, whether it passed (the sweep) or a moderator ended it, is announced
as the deadline's, in order, without the secret; the secret history marks the choice made at random."""

import json
import re
from datetime import timedelta

import pytest
import time_machine
from django.contrib.auth.models import Group

from games.models import Game, GameEvent
from games.presenters import announcements, revealed_secrets
from games.services import sweep_due_deadlines
from games.services.transfer import import_script
from moderation.services import game_action
from tests.factories import START, governments, make_user, running_game, script, votes

from .helpers import reload

pytestmark = pytest.mark.django_db

ENDED = "A moderator ended the current deadline now."
VETO_SCENARIO = "tests/scenarios/t4-veto-reply-timeout-is-refusal-and-miss.json"


def _at_the_veto_reply() -> Game:
    """dan, president, has been asked for a veto by eve (the scenario, up to its timeout)."""
    with open(VETO_SCENARIO) as file:
        data = json.load(file)
    data.pop("expect", None)
    data["actions"] = data["actions"][:-2]
    return import_script(data, now=START)


NOMINATED = [{"type": "nominate", "by": "ann", "target": "bob"}]
ELECTED = NOMINATED + votes("ann", "bob", "cat", "dan", "eve")
# 7 players: bob's government enacts the 2nd fascist policy and he may investigate; cat's, the 3rd: a special
# election.
INVESTIGATING = governments(("ann", "bob"), ("bob", "cat"), players=7)
PICKING = [*INVESTIGATING, {"type": "timeout"}, *governments(("cat", "dan"), players=7)]
# 5 players: dan's government enacts the 4th fascist policy (the 3rd was a peek) and he may execute.
EXECUTING = governments(("ann", "bob"), ("bob", "dan"), ("cat", "eve"), ("dan", "ann"))

CASES = {
    "no_nomination": (lambda: running_game(), "The deadline passed: ann did not nominate, and the candidacy is lost."),
    "random_nominee": (
        lambda: running_game(nomination_timeout="random"),
        re.compile(
            r"The deadline passed: ann did not nominate, so (bob|cat|dan|eve) was nominated at random\. "
            r"The vote is open\."
        ),
    ),
    "missing_ballots_not_counted": (
        lambda: running_game(actions=NOMINATED + votes("ann", "bob", "cat")),
        "The deadline passed: the vote is closed, and the ballots missing from dan, eve are not counted. "
        "Ballots: ann: Ja, bob: Ja, cat: Ja (3 Ja, 0 Nein). The government is elected.",
    ),
    "missing_ballots_nein": (
        lambda: running_game(actions=NOMINATED + votes("ann", "bob"), missing_vote="nein"),
        "The deadline passed: the vote is closed, and the ballots missing from cat, dan, eve count as Nein. "
        "Ballots: ann: Ja, bob: Ja (2 Ja, 3 Nein). The election fails.",
    ),
    "missing_execution_ballots": (
        lambda: running_game(
            actions=[*EXECUTING, {"type": "execute", "by": "dan", "target": "eve"}, *votes("ann", "bob")],
            execution_vote=True,
        ),
        "The deadline passed: the vote is closed, and the ballots missing from cat, dan, eve are not counted. "
        "Ballots: ann: Ja, bob: Ja (2 Ja, 0 Nein). The execution of eve is approved.",
    ),
    "random_discard": (
        lambda: running_game(actions=ELECTED),
        "The deadline passed: ann did not discard, so a random policy was discarded; "
        "the other two go to the chancellor.",
    ),
    "random_enactment": (
        lambda: running_game(actions=[*ELECTED, {"type": "discard", "by": "ann", "policy": "F"}]),
        "The deadline passed: the chancellor did not enact, so one of the two policies was enacted at random. "
        "A fascist policy is enacted (liberal 0 of 5, fascist 1 of 6).",
    ),
    "veto_refused": (_at_the_veto_reply, "The deadline passed: dan did not answer, so the veto is refused."),
    "power_forfeited": (
        lambda: running_game(7, actions=INVESTIGATING),
        "The deadline passed: bob did not use the power, which is forfeited.",
    ),
    "random_investigation": (
        lambda: running_game(7, actions=INVESTIGATING, power_timeout="random"),
        re.compile(
            r"The deadline passed: bob did not choose, so (ann|cat|dan|eve|fay|gus) was picked at random and is "
            r"investigated\."
        ),
    ),
    "random_special_election": (
        lambda: running_game(7, actions=PICKING, power_timeout="random"),
        re.compile(
            r"The deadline passed: cat did not choose, so (ann|bob|dan|eve|fay|gus) was picked at random as the next "
            r"candidate\."
        ),
    ),
    "random_execution": (
        lambda: running_game(actions=EXECUTING, power_timeout="random"),
        re.compile(
            r"The deadline passed: dan did not choose, so (ann|bob|cat|eve) was picked at random and is executed\."
        ),
    ),
}


def _moderator():
    moderator = make_user("mod")
    moderator.groups.add(Group.objects.get(name="moderators"))
    return moderator


def _by_the_sweep(game: Game) -> None:
    with time_machine.travel(reload(game).deadline + timedelta(seconds=1), tick=False):
        assert sweep_due_deadlines() == 1


def _by_a_moderator(game: Game) -> None:
    with time_machine.travel(START + timedelta(hours=1), tick=False):
        assert game_action(_moderator(), game.pk, "end_now", "agreed", step=reload(game).step_number)


WAYS = {"sweep": (_by_the_sweep, []), "moderator": (_by_a_moderator, [ENDED])}


def _thread_since(game: Game, index: int) -> list[str]:
    events = GameEvent.objects.filter(game=game, index__gte=index).order_by("index")
    return [entry["text"] for entry in announcements(list(events))]


@pytest.mark.parametrize("way", WAYS)
@pytest.mark.parametrize("outcome", CASES)
def test_t4_t5_the_outcome_is_announced_as_the_deadline_s_after_the_moderator_s_word(outcome, way):
    arrange, sentence = CASES[outcome]
    apply, before = WAYS[way]
    game = arrange()
    first = reload(game).event_count
    apply(game)
    thread = _thread_since(game, first)
    assert thread[: len(before)] == before
    said = thread[len(before)]
    assert sentence.fullmatch(said) if isinstance(sentence, re.Pattern) else said == sentence, thread
    assert ENDED not in thread[len(before) :]  # the moderator's word comes before the outcome and what follows


@pytest.mark.parametrize("way", WAYS)
def test_t4_a_random_discard_is_marked_in_the_secret_history_and_named_nowhere_in_public(way, client_for):
    game = running_game(actions=ELECTED)
    WAYS[way][0](game)
    events = list(GameEvent.objects.filter(game=game).order_by("index"))
    (discarded,) = [e for e in events if e.type == "president_discarded"]
    assert set(discarded.data) == {"round", "president", "by_deadline"}  # which card: nowhere in the public log
    session = revealed_secrets(reload(game).load_state(), events)["sessions"][0]
    assert session["president_discarded"] == "F" and session["discarded_at_random"]
    assert not session["enacted_at_random"]
    page = client_for("eve").get(f"/games/{game.pk}/").content.decode()
    assert "a random policy was discarded" in page
    assert "discarded a" not in page.lower()


@pytest.mark.parametrize("way", WAYS)
def test_t4_a_random_enactment_and_investigation_are_marked_in_the_secret_history(way):
    game = running_game(7, actions=INVESTIGATING[:-1], power_timeout="random")  # bob's chancellor has to enact
    WAYS[way][0](game)  # the enactment: the 2nd fascist policy, bob may investigate
    WAYS[way][0](game)  # the investigation
    events = list(GameEvent.objects.filter(game=game).order_by("index"))
    secret = revealed_secrets(reload(game).load_state(), events)
    assert [s["enacted_at_random"] for s in secret["sessions"]] == [False, True]
    assert [s["discarded_at_random"] for s in secret["sessions"]] == [False, False]
    assert [i["at_random"] for i in secret["investigations"]] == [True]


def test_t4_a_move_the_player_made_is_not_marked_at_random():
    game = running_game(actions=[*ELECTED, {"type": "discard", "by": "ann", "policy": "F"}])
    events = list(GameEvent.objects.filter(game=game).order_by("index"))
    session = revealed_secrets(reload(game).load_state(), events)["sessions"][0]
    assert not session["discarded_at_random"]
    assert "ann passes two policies to the chancellor." in [entry["text"] for entry in announcements(events)]


def test_t4_the_secret_history_page_marks_the_random_discard(client_for):
    game = import_script(script(actions=[*ELECTED, {"type": "timeout"}, {"type": "cancel"}]), now=START)
    page = client_for("eve").get(f"/games/{game.pk}/history/").content.decode()
    assert page.count("(at random: the deadline passed)") == 1
    assert "The deadline passed: ann did not discard, so a random policy was discarded" in page
