"""Every kind of the public log has its sentence in the thread (games/announcements.py) and its notices
(games/notify/bell.py): a new kind without them fails here, not in a reader's page."""

import json
from pathlib import Path

import msgspec
import pytest

from games import announcements
from games.engine import events as ev
from games.engine.settings import HouseRules
from games.notify import bell

STORED = json.loads((Path(__file__).parents[1] / "engine" / "stored" / "events.json").read_text())
ROWS = [(row["event"]["type"], {k: v for k, v in row["event"].items() if k != "type"}) for row in STORED]


@pytest.mark.parametrize(
    ("table", "name"), [(announcements.WORDING, "announcements.WORDING"), (bell.NOTICES, "bell.NOTICES")]
)
def test_every_consumer_covers_every_kind_of_the_log(table, name):
    kinds = set(ev.LOG_ENTRIES)
    assert not kinds - table.keys(), f"{name} misses {sorted(k.__name__ for k in kinds - table.keys())}"
    assert not table.keys() - kinds, f"{name} has kinds the log does not: {table.keys() - kinds}"


def test_t4_every_kind_a_deadline_marks_has_its_sentence():
    marked = {ev.from_stored(kind, data).__class__ for kind, data in ROWS if data.get("by_deadline")}
    assert marked - {ev.VoteClosed, ev.ExecutionVoteClosed} <= announcements.BY_DEADLINE.keys()


@pytest.mark.parametrize(("kind", "data"), ROWS, ids=[f"{kind}-{n}" for n, (kind, _) in enumerate(ROWS)])
def test_every_stored_event_reads_as_a_sentence(kind, data):
    text = announcements.describe_stored(kind, data)
    assert text.rstrip().endswith(".") and "%(" not in text
    assert text.startswith("The deadline passed") == bool(
        data.get("by_deadline") or data.get("reason") in ("timeout", "no_nomination")
    )


def test_r23_execution_vote_closed_names_every_ballot_and_the_tally():
    closed = ev.ExecutionVoteClosed(
        target="eve", ballots={"ann": "ja", "bob": "nein", "dan": "nein"}, missing=["cat"], ja=1, nein=2,
        passed=False, round=6,
    )  # fmt: skip
    assert announcements.describe(closed) == (
        "Ballots: ann: Ja, bob: Nein, dan: Nein (1 Ja, 2 Nein). No ballot from cat. eve is spared."
    )
    approved = msgspec.structs.replace(closed, ballots={"ann": "ja", "eve": "nein"}, missing=[], ja=1, nein=0)
    assert announcements.describe(msgspec.structs.replace(approved, passed=True)) == (
        "Ballots: ann: Ja, eve: Nein (1 Ja, 0 Nein). The execution of eve is approved."
    )


@pytest.mark.parametrize(
    ("quiet", "sentence"),
    [
        (True, "The legislative session begins: the thread is closed until a policy is enacted."),
        (False, "The legislative session begins."),
    ],
)
def test_r18_the_session_is_announced_as_closing_the_thread_only_when_the_house_rule_closes_it(quiet, sentence):
    started = ev.LegislativeSessionStarted(president="ann", chancellor="bob", round=1)
    assert announcements.describe(started, HouseRules(quiet_legislature=quiet)) == sentence


def test_r18_without_the_game_s_rules_the_session_s_start_claims_no_closed_thread():
    started = ev.LegislativeSessionStarted(president="ann", chancellor="bob", round=1)
    assert "closed" not in announcements.describe(started)


def test_r15_variant_the_tracker_going_back_to_0_on_an_election_is_announced():
    words = announcements.describe(ev.TrackerReset(round=2), HouseRules(tracker_resets_on_election=True))
    assert words == "A government was elected: the election tracker goes back to 0 (this game's rule)."


def test_e3_a_missed_round_says_that_only_rounds_owing_a_move_count_and_an_exile_says_why():
    """Missed in rounds 1 and 6 with nothing owed between them is "two in a row": the sentence says why."""
    missed = announcements.describe(ev.RoundMissed(player="eve", missed_rounds=2, round=6))
    assert missed == "eve missed a round: 2 in a row, counting only the rounds in which they owed a move."
    exiled = announcements.describe(ev.Exiled(player="eve", reason="missed_rounds", round=6))
    assert exiled == "eve is exiled from the game: two rounds missed in a row."
    assert announcements.describe(ev.Exiled(player="eve", reason="moderator", round=6)) == (
        "eve is exiled from the game."
    )


def test_rebalanced_at_six_players_the_start_announces_the_fascist_policy_on_the_board():
    """Issue 41: a rebalanced 6-player game starts with a fascist policy enacted, and the thread says so; at 7 and 9
    players the rule changes only the deck, and the start says nothing more."""
    six = ev.GameStarted(players=["ann", "bob", "cat", "dan", "eve", "fay"], round=1)
    said = announcements.describe(six, HouseRules(rebalanced=True))
    assert said.endswith("1 fascist policy is on the board from the start (this game's rule): it grants no power.")
    assert announcements.describe(six, HouseRules()) == announcements.describe(six)
    seven = ev.GameStarted(players=["ann", "bob", "cat", "dan", "eve", "fay", "gus"], round=1)
    assert announcements.describe(seven, HouseRules(rebalanced=True)) == announcements.describe(seven)


@pytest.mark.django_db
def test_rebalanced_six_player_thread_shows_the_starting_policy(client):
    from games.services.transfer import import_script
    from tests.factories import NAMES

    game = import_script({"players": NAMES[:6], "seed": 1, "settings": {"rebalanced": True}, "actions": []})
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert "1 fascist policy is on the board from the start (this game&#x27;s rule): it grants no power." in page
