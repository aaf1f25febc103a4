"""The new-game form as a browser shows it: what its inputs let through before anything is sent, and its
choices in full on a phone."""

import re

import pytest

from games.forms import GameForm
from games.models import Game
from tests.factories import form_data

pytestmark = pytest.mark.django_db


def input_tag(page: str, name: str) -> str:
    return re.search(rf'<input [^>]*name="{name}"[^>]*>', page).group(0)


def test_t1_every_duration_input_refuses_zero_in_the_browser_as_the_server_does(client_for):
    page = client_for("ann").get("/games/new/").content.decode()
    for name in GameForm.DURATIONS:
        assert 'min="1"' in input_tag(page, name), name


@pytest.mark.parametrize("name", GameForm.DURATIONS)
def test_t1_a_zero_duration_is_refused_once_with_its_reason(client_for, name):
    response = client_for("ann").post("/games/new/", form_data(**{name: 0}))
    assert not Game.objects.exists()
    text = response.content.decode()
    assert text.count("A duration is at least one hour.") == 1
    assert "greater than or equal to" not in text


def test_visibility_is_a_choice_of_whole_sentences_not_a_cut_off_list(client_for):
    page = client_for("ann").get("/games/new/").content.decode()
    fieldset = re.search(r'<fieldset class="choices"><legend>Visibility</legend>(.*?)</fieldset>', page, re.S).group(1)
    assert 'type="radio" name="visibility" value="public"' in fieldset and "checked" in fieldset
    assert "Unlisted: readable by anyone with the link" in fieldset
    assert '<select name="visibility"' not in page


def test_an_unlisted_game_is_made_from_the_radio_choice(client_for):
    client_for("ann").post("/games/new/", form_data(visibility="unlisted"))
    assert Game.objects.get().visibility == Game.Visibility.UNLISTED


def test_r4_the_rebalanced_box_says_where_it_acts_and_where_it_changes_nothing(client_for):
    page = " ".join(client_for("ann").get("/games/new/").content.decode().split())
    assert 'name="rebalanced"' in page
    assert "With 6 players the game starts with one fascist policy already enacted" in page
    assert "With 5, 8 or 10 players it changes nothing." in page
