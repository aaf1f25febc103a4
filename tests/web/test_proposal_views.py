"""The table's proposals on the private panel: proposing, voting, and what the panel and the thread then show."""

from datetime import timedelta

import pytest
from django.utils import timezone

from games.models import Proposal
from games.services import pause
from tests.factories import EXECUTED, make_user, running_game
from tests.games.helpers import reload

pytestmark = pytest.mark.django_db


def propose(client, game, **fields):
    return client.post(f"/games/{game.pk}/proposal/", fields, follow=True)


def vote(client, game, vote: str):
    proposal = Proposal.objects.get(game=game, closed_at=None)
    return client.post(f"/games/{game.pk}/proposal/vote/", {"proposal": proposal.pk, "vote": vote}, follow=True)


def test_two_players_propose_and_pass_an_extension_from_their_panels(client_for):
    game = running_game(now=timezone.now())
    deadline = reload(game).deadline
    page = client_for("ann").get(f"/games/{game.pk}/").content.decode()
    assert "Ask the table to pause or extend" in page
    page = propose(client_for("ann"), game, kind="extend", hours="12").content.decode()
    assert "Your proposal is open: the table votes on it from their panels." in page
    assert "You voted yes." in page
    bob = client_for("bob")
    page = bob.get(f"/games/{game.pk}/").content.decode()
    assert "ann proposes to extend the deadline by 12 hours." in page
    assert "Yes: 1, no: 0. It passes with 3 yes votes of the living players." in page
    page = vote(bob, game, "yes").content.decode()
    assert "Your vote is counted." in page and "You voted yes." in page
    vote(client_for("cat"), game, "yes")
    assert reload(game).deadline == deadline + timedelta(hours=12)
    page = client_for("dan").get(f"/games/{game.pk}/").content.decode()
    assert "The players voted to extend the deadline by 12 hours." in page
    assert "Ask the table to pause or extend" in page  # closed: a new one may be made


def test_a_proposal_with_bad_terms_is_refused_and_changes_nothing(client_for):
    game = running_game(now=timezone.now())
    ann = client_for("ann")
    for fields in ({"kind": "extend", "hours": "73"}, {"kind": "pause", "reason": ""}, {"kind": "nap"}):
        response = propose(ann, game, **fields)
        assert response.redirect_chain[-1][0].endswith("#proposal")
    assert not Proposal.objects.exists()


def test_a_paused_game_offers_only_to_resume(client_for):
    game = running_game(now=timezone.now())
    pause(game.pk, make_user("mod"))
    page = client_for("ann").get(f"/games/{game.pk}/").content.decode()
    panel = page.split('id="proposal"')[1].split("</details>")[0]
    assert 'value="resume"' in panel and 'value="extend"' not in panel


def test_the_dead_and_strangers_see_no_proposal_form_and_are_refused(client_for):
    game = running_game(actions=EXECUTED, now=timezone.now())
    assert 'id="proposal"' not in client_for("eve").get(f"/games/{game.pk}/").content.decode()
    refusals = {"eve": "Only living players can propose or vote.", "zed": "Only the game&#x27;s players can propose"}
    for name, refusal in refusals.items():
        assert refusal in propose(client_for(name), game, kind="extend", hours="6").content.decode()
    assert not Proposal.objects.exists()


def test_a_second_vote_from_the_panel_changes_nothing(client_for):
    game = running_game(now=timezone.now())
    propose(client_for("ann"), game, kind="extend", hours="6")
    bob = client_for("bob")
    vote(bob, game, "no")
    page = vote(bob, game, "yes").content.decode()
    assert "Nothing changed: it was already done." in page
    assert "You voted no." in page
