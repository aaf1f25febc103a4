"""A game over shows its players and its creator "Play again with the same players" (a POST form), which makes its
rematch and leads there; once made, everyone who reads the game sees a link to the rematch instead, at once (the
page's ETag changes with it)."""

import pytest
from allauth.account.models import EmailAddress
from django.test import Client
from django.urls import reverse

from games.models import Game, Seat
from games.services.rematch import rematch
from tests.factories import START, finished_game, make_user, running_game

pytestmark = pytest.mark.django_db
ASK = "Play again with the same players"
LINK = "Go to the rematch"


def made_rematch(game: Game) -> Game:
    return Game.objects.get(pk=game.pk).rematch


def test_a_player_of_a_finished_game_is_offered_the_rematch_form(client_for):
    game = finished_game()
    page = client_for("bob").get(game.get_absolute_url()).content.decode()
    assert ASK in page and f'action="{game.address("rematch")}"' in page
    assert LINK not in page


@pytest.mark.parametrize("who", ["visitor", "stranger"])
def test_a_reader_who_held_no_seat_is_offered_no_form(who, client_for):
    game = finished_game()
    client = Client() if who == "visitor" else client_for("zed")
    page = client.get(game.get_absolute_url()).content.decode()
    assert ASK not in page and LINK not in page


def test_a_running_game_offers_no_rematch(client_for):
    make_user("ann")
    game = running_game()
    assert ASK not in client_for("ann").get(game.get_absolute_url()).content.decode()


def test_asking_makes_the_rematch_and_leads_to_its_lobby(client_for):
    game = finished_game()
    response = client_for("cat").post(game.address("rematch"), follow=True)
    made = made_rematch(game)
    assert response.redirect_chain[-1][0] == made.get_absolute_url()
    page = response.content.decode()
    assert "Here is the rematch, with the same settings: the other players are invited." in page
    assert list(Seat.objects.filter(game=made).values_list("name", flat=True)) == ["cat"]


def test_asking_again_leads_to_the_same_rematch(client_for):
    game = finished_game()
    client_for("cat").post(game.address("rematch"))
    response = client_for("dan").post(game.address("rematch"), follow=True)
    assert response.redirect_chain[-1][0] == made_rematch(game).get_absolute_url()
    assert "This game&#x27;s rematch was already made: here it is." in response.content.decode()
    assert Game.objects.count() == 2


def test_a_visitor_who_posts_is_asked_to_sign_in():
    game = finished_game()
    response = Client().post(game.address("rematch"))
    assert response.url.startswith(reverse("account_login"))
    assert Game.objects.count() == 1


def test_a_stranger_who_posts_is_refused_and_nothing_is_made(client_for):
    game = finished_game()
    response = client_for("zed").post(game.address("rematch"), follow=True)
    assert response.redirect_chain[-1][0] == game.get_absolute_url()
    assert "Only the game&#x27;s players and its creator can ask to play it again." in response.content.decode()
    assert Game.objects.count() == 1


def test_once_made_everyone_sees_the_link_and_is_led_to_the_rematch(client_for):
    game = finished_game()
    visitor = Client()
    before = visitor.get(game.get_absolute_url())
    made, _new = rematch(game.pk, make_user("ann"), now=START)
    again = visitor.get(game.get_absolute_url(), HTTP_IF_NONE_MATCH=before["ETag"])
    assert again.status_code == 200  # the page's ETag changed with the rematch
    for client in (visitor, client_for("bob"), client_for("zed")):
        page = client.get(game.get_absolute_url()).content.decode()
        assert LINK in page and ASK not in page
    assert visitor.get(game.address("rematch")).url == made.get_absolute_url()


def test_before_a_rematch_its_address_leads_back_to_the_game():
    game = finished_game()
    assert Client().get(game.address("rematch")).url == game.get_absolute_url()


def test_an_unlisted_game_s_readers_are_led_to_its_rematch_s_own_secret_address(client_for):
    game = finished_game()
    Game.objects.filter(pk=game.pk).update(visibility=Game.Visibility.UNLISTED, link_key="k" * 32)
    game = Game.objects.get(pk=game.pk)
    client_for("ann").post(game.address("rematch"))
    made = made_rematch(game)
    assert made.visibility == Game.Visibility.UNLISTED and made.link_key not in ("", game.link_key)
    assert Client().get(game.address("rematch")).url == made.address()
    assert Client().get(f"/games/{game.pk}/rematch/").status_code == 404  # a stranger at its number


def test_an_unverified_player_is_sent_to_verify_their_email(client_for):
    game = finished_game()
    client = client_for("eve")
    EmailAddress.objects.filter(user__username="eve").update(verified=False)
    response = client.post(game.address("rematch"))
    assert response.url == reverse("account_email")
    assert Game.objects.count() == 1
