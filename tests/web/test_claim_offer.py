"""Issue 29: when a legislative session ends, its president and chancellor are offered, at the top of their panel,
to file their claim (R18: only then), with the claim's buttons right there and none picked for them. The offer
goes once the claim is filed or once the next legislative session starts (the claim stays in "Your claims"); a
"your move" sent as the session ends says it too."""

import re

import pytest
from django.core import mail
from django.utils import timezone

from games.models import Game, Notification
from games.notify.email import send_due_emails
from games.services import make_move
from games.services.transfer import import_script
from tests.factories import NAMES, governments, make_user, running_game, script, votes

pytestmark = pytest.mark.django_db


def offer(client, game) -> str:
    """The claim offer of the viewer's panel ("" when there is none)."""
    page = client.get(f"/games/{game.pk}/").content.decode()
    found = re.search(r'<div class="claim-offer".*?</form>\s*</div>', page, flags=re.S)
    return found.group(0) if found else ""


def file_claim(client, game, cards: str, round_number: int = 1):
    data = {"round": round_number, "cards": cards, "confirmed": "yes"}
    return client.post(f"/games/{game.pk}/claim/", data, follow=True)


def test_r18_no_offer_while_the_session_is_under_way(client_for):
    game = running_game(actions=governments(("ann", "bob"))[:-1], now=timezone.now())  # bob holds two cards
    assert offer(client_for("ann"), game) == "" and offer(client_for("bob"), game) == ""


def test_r18_the_president_and_the_chancellor_are_offered_their_claim_when_the_session_ends(client_for):
    game = running_game(actions=governments(("ann", "bob")), now=timezone.now())
    president, chancellor = offer(client_for("ann"), game), offer(client_for("bob"), game)
    assert "Your legislative session is over: file your claim" in president
    assert "As president, say publicly which three cards you drew." in president
    assert re.findall(r'name="cards" value="(\w+)"', president) == ["FFF", "FFL", "FLL", "LLL"]
    assert "As chancellor, say publicly which two cards you received." in chancellor
    assert re.findall(r'name="cards" value="(\w+)"', chancellor) == ["FF", "FL", "LL"]
    for name in ("cat", "dan", "eve", "zed"):
        assert offer(client_for(name), game) == "", name
    assert "claim-offer" not in client_for("ann").__class__().get(f"/games/{game.pk}/").content.decode()


def test_the_offer_is_prefilled_with_nothing_whatever_the_cards(client_for):
    """Two games where ann drew other cards (FFF, then FLL) offer her the very same form: the truth is not in it."""
    offers = []
    for deck in ("F" * 11 + "L" * 6, "FLLFFFFFFFFFLLLL" + "F"):
        actions = [
            {"type": "nominate", "by": "ann", "target": "bob"},
            *votes(*NAMES[:5]),
            {"type": "discard", "by": "ann", "policy": "F"},
            {"type": "enact", "by": "bob", "policy": deck[1]},
        ]
        game = import_script(script(actions=actions, deck=deck), now=timezone.now())
        html = offer(client_for("ann"), game)
        offers.append(re.sub(r'name="csrfmiddlewaretoken" value="[^"]+"|/games/\d+/', "", html))
        assert "checked" not in html and "aria-pressed" not in html and "selected" not in html
    assert offers[0] and offers[0] == offers[1]


def test_the_offer_goes_once_the_claim_is_filed(client_for):
    game = running_game(actions=governments(("ann", "bob")), now=timezone.now())
    ann, bob = client_for("ann"), client_for("bob")
    assert "Your claim is on the record." in file_claim(ann, game, "FFL").content.decode()
    assert offer(ann, game) == ""
    assert offer(bob, game) != ""  # the chancellor has not said anything yet
    panel = ann.get(f"/games/{game.pk}/").content.decode()
    assert "you claimed you drew" in panel


def test_the_offer_goes_when_the_next_session_starts_and_the_claim_stays_in_the_list(client_for):
    actions = [*governments(("ann", "bob")), {"type": "nominate", "by": "bob", "target": "cat"}, *votes(*NAMES[:5])]
    game = running_game(actions=actions, now=timezone.now())  # bob and cat's session has started
    ann = client_for("ann")
    assert offer(ann, game) == ""
    page = ann.get(f"/games/{game.pk}/").content.decode()
    assert "Round 1: the three cards you say you drew" in page  # still filed from "Your claims"
    assert file_claim(ann, game, "FFF").status_code == 200


def test_the_offer_stays_through_the_next_nomination_and_vote(client_for):
    actions = [*governments(("ann", "bob")), {"type": "nominate", "by": "bob", "target": "cat"}]
    game = running_game(actions=actions, now=timezone.now())
    assert offer(client_for("ann"), game) != "" and offer(client_for("bob"), game) != ""


def test_the_your_move_sent_as_the_session_ends_offers_the_claim(client_for, django_capture_on_commit_callbacks):
    # 7 players: the second fascist policy gives the president (bob) an investigation as his session ends.
    actions = [*governments(("ann", "bob"), players=7), {"type": "nominate", "by": "bob", "target": "cat"}]
    actions += [*votes(*NAMES[:7]), {"type": "discard", "by": "bob", "policy": "F"}]
    game = running_game(7, actions=actions, now=timezone.now())
    with django_capture_on_commit_callbacks(execute=True):
        step = Game.objects.get(pk=game.pk).step_number
        make_move(game.pk, make_user("cat"), {"type": "enact", "policy": "F"}, step)
    notice = Notification.objects.get(game=game, user__username="bob", kind=Notification.Kind.YOUR_MOVE)
    assert notice.data["claim"] == {"round": 2, "office": "president"}
    assert not any("claim" in n.data for n in Notification.objects.filter(user__username="cat"))  # owes nothing now
    make_user("bob")  # with an email address
    send_due_emails(now=timezone.now())
    email = next(m for m in mail.outbox if m.to == ["bob@example.com"])
    assert "Your legislative session of round 2 is over: you may claim the cards you drew" in email.body
    bell = client_for("bob").get("/notifications/").content.decode()
    assert "you may claim the cards you drew" in bell


def test_a_your_move_with_no_session_ending_offers_nothing(django_capture_on_commit_callbacks):
    game = running_game(now=timezone.now())
    with django_capture_on_commit_callbacks(execute=True):
        make_move(game.pk, make_user("ann"), {"type": "nominate", "target": "bob"}, game.step_number)
    assert Notification.objects.filter(kind=Notification.Kind.YOUR_MOVE).exists()
    assert not any("claim" in n.data for n in Notification.objects.all())
