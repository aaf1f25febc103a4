"""The private panel's forms: moves with their step number, claims, absences, resignation."""

import re
from datetime import timedelta

import pytest
from django.utils import timezone

from games.models import Absence, ActionRecord, Claim, Seat
from games.services import pause
from tests.factories import governments, make_user, running_game
from tests.games.helpers import reload, state_of

pytestmark = pytest.mark.django_db


def move(client, game, step_number=None, confirmed="yes", **fields):
    """A move from the panel, its confirmation already given (as the browser's dialog gives it)."""
    step_number = reload(game).step_number if step_number is None else step_number
    data = {"step_number": step_number, "confirmed": confirmed, **fields}
    return client.post(f"/games/{game.pk}/move/", data, follow=True)


def test_the_panel_offers_only_legal_choices(client_for):
    game = running_game(actions=[*governments(("ann", "bob"))], now=timezone.now())
    page = client_for("bob").get(f"/games/{game.pk}/").content.decode()
    assert "Nominate a chancellor" in page
    options = page.split('name="target"')[1].split("</select>")[0]
    assert "bob</option>" not in options and "ann</option>" in options  # R9; bob was chancellor: R10 with 5 alive
    assert "Nominate a chancellor" not in client_for("ann").get(f"/games/{game.pk}/").content.decode()


def test_a_move_through_the_panel(client_for):
    game = running_game(now=timezone.now())
    response = move(client_for("ann"), game, type="nominate", target="bob")
    assert "You nominated bob as chancellor." in response.content.decode()
    assert state_of(game)["step"] == "vote"
    for name in ("ann", "bob", "cat", "dan", "eve"):
        move(client_for(name), game, type="vote", vote="ja")
    assert state_of(game)["step"] == "discard"
    response = move(client_for("ann"), game, type="discard", policy="F")
    assert "You discarded a Fascist policy." in response.content.decode()
    response = move(client_for("bob"), game, type="enact", policy="F")
    assert "You enacted a Fascist policy." in response.content.decode()
    assert state_of(game)["fascist_policies"] == 1


def test_t2_an_irreversible_move_is_asked_before_it_is_made(client_for):
    game = running_game(now=timezone.now())
    ann = client_for("ann")
    before = reload(game).state
    page = move(ann, game, confirmed="", type="nominate", target="bob").content.decode()
    assert "Nominate bob as chancellor? This cannot be undone." in page
    assert reload(game).state == before  # asking changed nothing
    form = page.split('<form method="post" action="/games/')[1].split("</form>")[0]
    fields = dict(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)"', form))
    fields.pop("csrfmiddlewaretoken", None)
    step = str(reload(game).step_number)
    assert fields == {"type": "nominate", "step_number": step, "target": "bob", "confirmed": "yes"}
    page = ann.post(f"/games/{game.pk}/move/", fields, follow=True).content.decode()
    assert "You nominated bob as chancellor." in page
    assert state_of(game)["step"] == "vote"


def test_r11_a_ballot_is_not_asked_twice(client_for):
    game = running_game(actions=[{"type": "nominate", "by": "ann", "target": "bob"}], now=timezone.now())
    page = move(client_for("cat"), game, confirmed="", type="vote", vote="nein").content.decode()
    assert "Your ballot is Nein." in page  # a ballot can be changed until the vote closes: no question


def test_a_move_that_would_be_refused_is_refused_before_the_question(client_for):
    game = running_game(now=timezone.now())
    page = move(client_for("ann"), game, confirmed="", type="nominate", target="ann").content.decode()
    assert "ann cannot nominate themself as chancellor." in page and "Are you sure?" not in page
    stale = reload(game).step_number - 1
    page = move(client_for("ann"), game, stale, confirmed="", type="nominate", target="bob").content.decode()
    assert "moved on since this page was loaded" in page and "Are you sure?" not in page


@pytest.mark.parametrize("confirmed", ["", "yes"])
def test_a_target_left_unchosen_is_refused_and_changes_nothing(client_for, confirmed):
    game = running_game(now=timezone.now())
    before = reload(game).state
    page = move(client_for("ann"), game, confirmed=confirmed, type="nominate", target="").content.decode()
    assert "Choose a player first: nothing was done." in page and "Are you sure?" not in page
    assert reload(game).state == before


def test_the_panel_starts_on_choose_a_player(client_for):
    game = running_game(now=timezone.now())
    page = client_for("ann").get(f"/games/{game.pk}/").content.decode()
    options = page.split('name="target"')[1].split("</select>")[0]
    assert re.findall(r"<option[^>]*>([^<]*)</option>", options)[0] == "Choose a player"
    assert '<option value="" selected disabled>' in options
    assert 'data-choose="Choose bob"' in options


def test_the_panel_carries_each_choice_s_question_for_the_browser(client_for):
    game = running_game(now=timezone.now())
    page = client_for("ann").get(f"/games/{game.pk}/").content.decode()
    assert 'data-confirm="Nominate bob as chancellor? This cannot be undone."' in page
    assert '<input type="hidden" name="confirmed" value="" autocomplete="off">' in page


@pytest.mark.parametrize(
    ("who", "fields", "message"),
    [
        ("bob", {"type": "nominate", "target": "cat"}, "Only ann, the presidential candidate, can nominate now."),
        ("ann", {"type": "nominate", "target": "ann"}, "ann cannot nominate themself as chancellor."),
        ("ann", {"type": "nominate", "target": "nobody"}, "nobody is not a player in this game."),
        ("ann", {"type": "discard", "policy": "F"}, "That move is not possible now"),
        ("ann", {"type": "cancel"}, "Unknown move."),
        ("zed", {"type": "vote", "vote": "ja"}, "You do not hold a seat in this game."),
    ],
)
def test_refused_moves_say_why_and_change_nothing(client_for, who, fields, message):
    game = running_game(now=timezone.now())
    before = reload(game).state
    response = move(client_for(who), game, **fields)
    assert message in response.content.decode()
    assert reload(game).state == before


def test_a_stale_form_is_refused(client_for):
    game = running_game(now=timezone.now())
    stale = reload(game).step_number
    move(client_for("ann"), game, type="nominate", target="bob")
    response = move(client_for("ann"), game, step_number=stale, type="nominate", target="cat")
    assert "moved on since this page was loaded" in response.content.decode()
    response = client_for("ann").post(f"/games/{game.pk}/move/", {"type": "vote", "vote": "ja"}, follow=True)
    assert "The form is incomplete" in response.content.decode()


def test_moves_are_closed_while_paused(client_for):
    game = running_game(now=timezone.now())
    pause(game.pk, make_user("mod"))
    assert "paused" in move(client_for("ann"), game, type="nominate", target="bob").content.decode()


def claim(client, game, cards: str, round_number: int = 1, confirmed: str = "yes"):
    data = {"round": round_number, "cards": cards, "confirmed": confirmed}
    return client.post(f"/games/{game.pk}/claim/", data, follow=True).content.decode()


def test_claims_are_filed_once_by_the_government(client_for):
    game = running_game(actions=governments(("ann", "bob")), now=timezone.now())
    ann = client_for("ann")
    page = ann.get(f"/games/{game.pk}/").content.decode()
    assert "the three cards you say you drew" in page
    claim(ann, game, "fff")
    assert Claim.objects.get().cards == "FFF"
    assert "already filed" in claim(ann, game, "FFL")
    assert "no legislative session of yours" in claim(client_for("cat"), game, "FFL")
    assert "2 or 3 cards" in claim(client_for("bob"), game, "X")
    history = client_for("cat").get(f"/games/{game.pk}/").content.decode()
    assert (
        'P: <span class="cards"><span class="card-F">F</span><span class="card-F">F</span><span class="card-F">F</span>'
        in history
    )


def test_a_claim_is_picked_from_buttons_asked_first_and_stays_in_its_author_s_panel(client_for):
    game = running_game(actions=governments(("ann", "bob")), now=timezone.now())
    bob = client_for("bob")
    page = bob.get(f"/games/{game.pk}/").content.decode()
    offered = re.findall(r'<button type="submit" name="cards" value="(\w+)"', page)
    assert offered == ["FF", "FL", "LL"]  # the chancellor's two cards, picked, never typed
    assert 'data-confirm="Claim that you received FL in round 1? Everyone will see it' in page
    asked = claim(bob, game, "FL", confirmed="")
    assert "Claim that you received FL in round 1? Everyone will see it, and it cannot be changed." in asked
    assert not Claim.objects.exists()  # the question filed nothing
    claim(bob, game, "FF")
    panel = bob.get(f"/games/{game.pk}/").content.decode().split('id="panel"')[1].split("</section>")[0]
    assert "you claimed you received" in panel and 'name="cards"' not in panel


def test_claims_that_cannot_both_be_true_are_marked(client_for):
    game = running_game(actions=governments(("ann", "bob"), ("bob", "cat")), now=timezone.now())
    claim(client_for("ann"), game, "FFF")
    claim(client_for("bob"), game, "FL")  # ann says she passed two fascist policies
    claim(client_for("bob"), game, "FFL", round_number=2)
    claim(client_for("cat"), game, "LL", round_number=2)  # a fascist policy was enacted
    page = client_for("dan").get(f"/games/{game.pk}/").content.decode()
    rows = page.split('id="history"')[1].split("<tbody")[1].split("</tr>")
    assert 'class="conflict"' in rows[0] and "bob claims cards that ann&#x27;s claim could not have passed." in rows[0]
    assert "cat&#x27;s claim does not hold the policy enacted." in rows[1]
    assert "bob&#x27;s claim does not hold" not in rows[1]


def test_announce_an_absence(client_for):
    game = running_game(now=timezone.now())
    start = (timezone.now() + timedelta(days=2)).strftime("%Y-%m-%dT%H:%M")
    end = (timezone.now() + timedelta(days=3)).strftime("%Y-%m-%dT%H:%M")
    response = client_for("ann").post(f"/games/{game.pk}/absence/", {"starts_at": start, "ends_at": end}, follow=True)
    assert "Your absence is announced" in response.content.decode()
    assert Absence.objects.count() == 1
    soon = (timezone.now() + timedelta(hours=1)).strftime("%Y-%m-%dT%H:%M")
    response = client_for("ann").post(f"/games/{game.pk}/absence/", {"starts_at": soon, "ends_at": end}, follow=True)
    assert "at least 24 hours" in response.content.decode()


def test_resign_asks_a_moderator(client_for):
    game = running_game(now=timezone.now())
    response = client_for("cat").post(f"/games/{game.pk}/resign/", follow=True)
    assert "A moderator will hand your seat" in response.content.decode()
    assert Seat.objects.get(game=game, name="cat").resign_requested_at is not None


def test_r11_the_ballot_cast_is_marked_and_may_change_until_the_vote_closes(client_for):
    game = running_game(actions=[{"type": "nominate", "by": "ann", "target": "bob"}], now=timezone.now())
    cat = client_for("cat")
    page = move(cat, game, type="vote", vote="nein").content.decode()
    assert "Your ballot is Nein. You may change it until the vote closes." in page
    assert 'value="nein" class="secondary" aria-pressed="true">✓ Nein' in page
    page = move(cat, game, type="vote", vote="ja").content.decode()
    assert 'value="ja" aria-pressed="true">✓ Ja!' in page and "✓ Nein" not in page


def test_t1_the_ballot_that_closes_the_vote_says_so_with_the_result(client_for):
    game = running_game(actions=[{"type": "nominate", "by": "ann", "target": "bob"}], now=timezone.now())
    for name in ("ann", "bob", "cat"):
        move(client_for(name), game, type="vote", vote="nein")
    move(client_for("dan"), game, type="vote", vote="ja")
    page = move(client_for("eve"), game, type="vote", vote="ja").content.decode()
    assert "Your ballot is Ja. Every living player has voted: the vote is closed." in page
    assert "(2 Ja, 3 Nein). The election fails." in page
    assert "You may change it until the vote closes" not in page


def test_t4_a_past_hand_whose_choice_the_deadline_made_says_so_to_its_holder(client_for):
    elected = governments(("ann", "bob"))[:-2]
    game = running_game(actions=[*elected, {"type": "timeout"}], now=timezone.now())
    mark = '<span class="muted at-random">(at random: the deadline passed)</span>'
    ann, bob = client_for("ann"), client_for("bob")
    move(bob, game, type="enact", policy="F")
    assert mark in ann.get(f"/games/{game.pk}/").content.decode().split("Your legislative sessions")[1]
    assert mark not in bob.get(f"/games/{game.pk}/").content.decode()  # bob enacted himself
    chosen = running_game(actions=governments(("ann", "bob")), now=timezone.now())
    assert mark not in client_for("ann").get(f"/games/{chosen.pk}/").content.decode()


def test_a_move_on_no_such_game_is_a_404_whatever_the_form(client_for):
    """The move reads its game once, locking it: no game is a 404 (not a refusal sending back to a page that does
    not exist), with a valid form, a forged one, or one asking for confirmation; and nothing is recorded."""
    game = running_game(now=timezone.now())
    ann, missing = client_for("ann"), game.pk + 1000
    for fields in (
        {"type": "nominate", "target": "bob", "step_number": "1", "confirmed": "yes"},
        {"type": "nominate", "target": "bob", "step_number": "x\x00y"},
        {"type": "execute", "target": "bob", "step_number": "1"},  # irreversible: asked first
    ):
        assert ann.post(f"/games/{missing}/move/", fields).status_code == 404
    assert ActionRecord.objects.filter(game=game).count() == reload(game).action_count


def test_a_move_keeps_only_its_own_fields(client_for):
    game = running_game(now=timezone.now())
    ann = client_for("ann")
    ann.post(f"/games/{game.pk}/move/", {"step_number": 1, "type": "nominate", "target": "bob", "policy": "Q"})
    assert not ActionRecord.objects.filter(game=game).exists()  # a value no move takes: refused whole
    nomination = {"step_number": 1, "type": "nominate", "target": "bob", "policy": "L", "confirmed": "yes"}
    ann.post(f"/games/{game.pk}/move/", nomination)
    assert ActionRecord.objects.filter(game=game).last().action == {"type": "nominate", "target": "bob", "by": "ann"}


# 5 players: dan's government enacts the 4th fascist policy (the 3rd was a peek) and he may execute.
EXECUTING = governments(("ann", "bob"), ("bob", "dan"), ("cat", "eve"), ("dan", "ann"))


def test_r23_an_execution_without_the_vote_is_asked_as_final(client_for):
    game = running_game(actions=EXECUTING, now=timezone.now())
    page = client_for("dan").get(f"/games/{game.pk}/").content.decode()
    assert "Execute a player" in page and 'data-confirm="Execute eve? This cannot be undone."' in page


def test_r23_under_the_execution_vote_the_president_is_asked_to_propose_and_told_the_table_votes(client_for):
    game = running_game(actions=EXECUTING, execution_vote=True, now=timezone.now())
    dan = client_for("dan")
    page = dan.get(f"/games/{game.pk}/").content.decode()
    assert "Propose a player for execution: the table will vote on it" in page
    assert 'data-confirm="Propose executing eve? The table will vote on it."' in page
    assert "Execute eve?" not in page and "cannot be undone" not in page
    asked = move(dan, game, confirmed="", type="execute", target="eve").content.decode()  # without JavaScript
    assert "Propose executing eve? The table will vote on it." in asked and "Execute eve?" not in asked
    done = move(dan, game, type="execute", target="eve").content.decode()
    assert "You proposed executing eve: the table votes on it." in done
    assert state_of(game)["step"] == "execution_vote" and "eve" in state_of(game)["alive"]


def test_r23_the_ballot_on_an_execution_names_whose_and_tells_its_target_it_is_their_own(client_for):
    proposed = [*EXECUTING, {"type": "execute", "by": "dan", "target": "eve"}]
    game = running_game(actions=proposed, execution_vote=True, now=timezone.now())
    assert "Your ballot on executing eve" in client_for("ann").get(f"/games/{game.pk}/").content.decode()
    own = client_for("eve").get(f"/games/{game.pk}/").content.decode()
    assert "Your ballot on your own execution" in own and "Your ballot on executing eve" not in own
