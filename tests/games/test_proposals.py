"""The table's proposals (services.proposals): a living player proposes to pause, resume or extend, the living
vote, and a passed proposal applies the moderators' intervention once, on the record as the table's."""

from datetime import timedelta

import pytest
from django.core import mail

from games.announcements import describe_stored
from games.models import Game, GameEvent, Notification, Proposal, ProposalBallot
from games.notify.email import send_due_emails
from games.services import GameError, end_now, exile, make_move, pause, sweep_due_deadlines
from games.services.proposals import close_due_proposals, propose, vote_on_proposal
from tests.factories import EXECUTED, START, make_user, running_game

from .helpers import in_threads, reload, user

pytestmark = pytest.mark.django_db
HOUR = timedelta(hours=1)
NOW = START + HOUR


def table_actions(game) -> list[dict]:
    return [e.data for e in GameEvent.objects.filter(game=game, type="moderator_action").order_by("index")]


def ballot(game, name: str, yes: bool, *, now=NOW) -> bool:
    proposal = Proposal.objects.get(game=game, closed_at=None)
    return vote_on_proposal(game.pk, user(name), proposal.pk, yes, now=now)


def test_an_extension_passes_with_a_majority_of_the_living_and_moves_the_deadline():
    game = running_game()
    proposal = propose(game.pk, user("ann"), "extend", hours=12, now=NOW)
    ballot(game, "bob", True)
    assert reload(game).deadline == START + 48 * HOUR  # 2 of 5: not yet
    ballot(game, "cat", True)
    proposal.refresh_from_db()
    assert (proposal.outcome, proposal.closed_at) == (Proposal.Outcome.PASSED, NOW)
    assert reload(game).deadline == START + 60 * HOUR
    assert table_actions(game) == [{"action": "extend", "hours": 12, "by_table": True}]


def test_a_proposal_fails_once_a_majority_can_no_longer_be_reached():
    game = running_game()
    proposal = propose(game.pk, user("ann"), "pause", reason="holidays", now=NOW)
    ballot(game, "bob", False)
    ballot(game, "cat", True)
    ballot(game, "dan", False)
    assert Proposal.objects.get(pk=proposal.pk).outcome == ""  # eve's yes would still make 3 of 5
    ballot(game, "eve", False)
    assert Proposal.objects.get(pk=proposal.pk).outcome == Proposal.Outcome.FAILED
    assert reload(game).paused_at is None
    assert table_actions(game) == []


def test_a_passed_pause_and_a_passed_resume_apply_the_moderators_pause_and_resume():
    game = running_game()
    propose(game.pk, user("ann"), "pause", reason="the server of our chat is down", now=NOW)
    ballot(game, "bob", True)
    ballot(game, "cat", True)
    assert reload(game).paused_at == NOW
    later = NOW + 10 * HOUR
    propose(game.pk, user("dan"), "resume", now=later)
    ballot(game, "eve", True, now=later)
    ballot(game, "ann", True, now=later)
    game = reload(game)
    assert game.paused_at is None
    assert game.deadline == START + 58 * HOUR  # every deadline moves on by the 10 hours of the pause
    assert [entry["action"] for entry in table_actions(game)] == ["pause", "resume"]


def test_a_pause_until_a_moment_resumes_by_itself_then():
    game = running_game()
    propose(game.pk, user("ann"), "pause", reason="a weekend away", until=NOW + 5 * HOUR, now=NOW)
    ballot(game, "bob", True)
    ballot(game, "cat", True)
    assert close_due_proposals(now=NOW + 4 * HOUR) == 0
    assert close_due_proposals(now=NOW + 5 * HOUR) == 1
    assert close_due_proposals(now=NOW + 6 * HOUR) == 0  # once
    game = reload(game)
    assert (game.paused_at, game.deadline) == (None, START + 53 * HOUR)
    assert table_actions(game)[-1] == {"action": "resume", "by_table": True}


def test_a_proposal_lapses_at_the_steps_deadline():
    game = running_game()
    proposal = propose(game.pk, user("ann"), "extend", hours=6, now=NOW)
    assert proposal.lapses_at == START + 48 * HOUR  # sooner than 48 hours from now
    sweep_due_deadlines(now=START + 48 * HOUR)
    assert close_due_proposals(now=START + 48 * HOUR) == 1
    proposal.refresh_from_db()
    assert proposal.outcome == Proposal.Outcome.LAPSED
    with pytest.raises(GameError, match="closed"):
        vote_on_proposal(game.pk, user("bob"), proposal.pk, True, now=START + 49 * HOUR)
    assert table_actions(game) == []


def test_a_proposal_lapses_when_its_step_ends_and_a_new_one_may_be_made():
    game = running_game()
    first = propose(game.pk, user("ann"), "extend", hours=6, now=NOW)
    make_move(game.pk, user("ann"), {"type": "nominate", "target": "bob"}, reload(game).step_number, now=NOW)
    second = propose(game.pk, user("bob"), "extend", hours=3, now=NOW + HOUR)
    first.refresh_from_db()
    assert (first.outcome, second.outcome) == (Proposal.Outcome.LAPSED, "")


def test_a_proposal_lapses_after_48_hours():
    game = running_game()
    Game.objects.filter(pk=game.pk).update(deadline=START + 120 * HOUR)  # a five-day step
    proposal = propose(game.pk, user("ann"), "extend", hours=6, now=NOW)
    assert proposal.lapses_at == NOW + 48 * HOUR
    assert close_due_proposals(now=NOW + 47 * HOUR) == 0
    assert close_due_proposals(now=NOW + 48 * HOUR) == 1
    assert Proposal.objects.get(pk=proposal.pk).outcome == Proposal.Outcome.LAPSED


def test_one_proposal_open_at_a_time():
    game = running_game()
    propose(game.pk, user("ann"), "extend", hours=6, now=NOW)
    with pytest.raises(GameError, match="already open"):
        propose(game.pk, user("bob"), "pause", reason="tired", now=NOW)
    assert Proposal.objects.filter(game=game).count() == 1


def test_the_dead_the_exiled_and_strangers_may_neither_propose_nor_vote():
    game = running_game(actions=EXECUTED)
    make_user("zed")
    for name, code in (("eve", "not_alive"), ("zed", "not_a_player")):
        with pytest.raises(GameError) as refused:
            propose(game.pk, user(name), "extend", hours=6, now=NOW)
        assert refused.value.code == code
    proposal = propose(game.pk, user("ann"), "extend", hours=6, now=NOW)
    with pytest.raises(GameError):
        vote_on_proposal(game.pk, user("eve"), proposal.pk, True, now=NOW)
    ballot(game, "bob", True)
    assert Proposal.objects.get(pk=proposal.pk).outcome == ""  # 2 of the 4 living: a majority is 3
    ballot(game, "cat", True)
    assert Proposal.objects.get(pk=proposal.pk).outcome == Proposal.Outcome.PASSED


def test_an_exiled_player_may_not_vote():
    game = running_game()
    moderator = make_user("mod")
    exile(game.pk, moderator, "bob", now=NOW)
    end_now(game.pk, moderator, now=NOW)  # the round ends: bob is exiled
    proposal = propose(game.pk, user("ann"), "extend", hours=6, now=NOW)
    with pytest.raises(GameError) as refused:
        vote_on_proposal(game.pk, user("bob"), proposal.pk, True, now=NOW)
    assert refused.value.code == "not_a_player"  # an exiled player holds no seat any more
    ballot(game, "cat", True)
    assert Proposal.objects.get(pk=proposal.pk).outcome == ""  # 2 of the 4 living
    ballot(game, "dan", True)
    assert Proposal.objects.get(pk=proposal.pk).outcome == Proposal.Outcome.PASSED


def test_terms_out_of_range_are_refused_and_change_nothing():
    game = running_game()
    for kind, terms in (
        ("extend", {"hours": 0}),
        ("extend", {"hours": 73}),
        ("pause", {"reason": " "}),
        ("pause", {"reason": "x", "until": NOW - HOUR}),
        ("resume", {}),  # not paused
        ("shorten", {}),
    ):
        with pytest.raises(GameError):
            propose(game.pk, user("ann"), kind, now=NOW, **terms)
    pause(game.pk, make_user("mod"), now=NOW)
    with pytest.raises(GameError, match="paused"):
        propose(game.pk, user("ann"), "extend", hours=6, now=NOW)
    assert not Proposal.objects.exists()


def test_a_second_ballot_changes_nothing():
    game = running_game()
    proposal = propose(game.pk, user("ann"), "extend", hours=6, now=NOW)
    assert ballot(game, "bob", False) is True
    assert ballot(game, "bob", True) is False
    assert list(ProposalBallot.objects.filter(proposal=proposal).values_list("seat__name", "yes")) == [
        ("ann", True),
        ("bob", False),
    ]


def test_a_ballot_after_the_close_is_refused_and_applies_nothing_again():
    game = running_game()
    proposal = propose(game.pk, user("ann"), "extend", hours=6, now=NOW)
    ballot(game, "bob", True)
    ballot(game, "cat", True)
    with pytest.raises(GameError, match="closed"):
        vote_on_proposal(game.pk, user("dan"), proposal.pk, True, now=NOW)
    assert reload(game).deadline == START + 54 * HOUR
    assert len(table_actions(game)) == 1


def test_the_table_is_told_of_a_proposal_and_of_its_outcome():
    game = running_game()
    proposal = propose(game.pk, user("ann"), "extend", hours=6, now=NOW)
    told = Notification.objects.filter(kind=Notification.Kind.PROPOSAL, data__outcome="")
    assert sorted(told.values_list("user__username", flat=True)) == ["bob", "cat", "dan", "eve"]
    assert told.get(user__username="bob").email == Notification.Email.PENDING  # "your move" emails are on
    ballot(game, "bob", True)
    ballot(game, "cat", True)
    outcome = Notification.objects.filter(kind=Notification.Kind.PROPOSAL, data__outcome="passed")
    assert sorted(outcome.values_list("user__username", flat=True)) == ["ann", "bob", "cat", "dan", "eve"]
    assert outcome.first().data["proposal"] == proposal.pk


def test_the_thread_says_the_players_voted_it():
    assert describe_stored("moderator_action", {"action": "extend", "hours": 12, "by_table": True}) == (
        "The players voted to extend the deadline by 12 hours."
    )
    assert describe_stored("moderator_action", {"action": "extend", "hours": 1, "by_table": True}) == (
        "The players voted to extend the deadline by 1 hour."
    )
    assert describe_stored("moderator_action", {"action": "pause", "by_table": True}) == (
        "The players voted to pause the game: deadlines are frozen and moves closed."
    )
    assert describe_stored("moderator_action", {"action": "resume", "by_table": True}) == (
        "The players voted to resume the game; the deadlines move on by the time it was paused."
    )
    assert describe_stored("moderator_action", {"action": "pause"}) == (
        "A moderator paused the game: deadlines are frozen and moves closed."
    )


@pytest.mark.slow
@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_concurrent_deciding_ballots_apply_the_extension_once():
    game = running_game()
    proposal = propose(game.pk, user("ann"), "extend", hours=6, now=NOW)
    ballot(game, "bob", True)
    voters = [user(name) for name in ("cat", "dan", "eve", "bob")]
    results = in_threads(*(lambda u=u: vote_on_proposal(game.pk, u, proposal.pk, True, now=NOW) for u in voters))
    assert results.count(True) == 1  # the first closes it; the others find it closed, bob has voted already
    assert reload(game).deadline == START + 54 * HOUR
    assert len(table_actions(game)) == 1


def test_a_proposal_reaches_the_table_by_email():
    game = running_game()
    for name in ("ann", "bob"):
        make_user(name)  # with an email address
    propose(game.pk, user("ann"), "pause", reason="the chat is down", until=NOW + 5 * HOUR, now=NOW)
    send_due_emails(now=NOW)
    (email,) = [message for message in mail.outbox if message.to == ["bob@example.com"]]
    assert "ann proposes to pause Imported game (5 players) (the chat is down)." in email.body
    assert "Vote yes or no on your panel." in email.body
    (own,) = [message for message in mail.outbox if message.to == ["ann@example.com"]]  # her "your move"
    assert "proposes" not in own.body  # the proposer is not told of her own proposal
