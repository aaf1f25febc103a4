"""A player whose account is renamed (staff do it in the admin) keeps their place: every way in finds a person by
their account, and the name the game knows them by stays the one they joined with, only ever shown."""

import json
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.test import Client
from django.utils import timezone

from games.models import ActionRecord, Claim, Game, InboundEmail, Note, Notification, Seat
from games.notify.email import send_due_emails
from games.notify.replies import handle_message
from games.services import (
    GameError,
    create_game,
    declare_absence,
    end_now,
    exile,
    join_game,
    leave_game,
    make_move,
    replace,
    request_resignation,
)
from games.services.forum import file_claim, post_message
from games.services.moves import check_move
from games.services.notes import save_notes
from games.services.transfer import import_script
from tests.factories import EXECUTED, NAMES, START, Api, governments, make_user, reply_to, running_game, token_for

from .helpers import reload, state_of, user

pytestmark = pytest.mark.django_db
SOON = START + timedelta(hours=1)
VETO_SCENARIO = "tests/scenarios/t4-veto-reply-timeout-is-refusal-and-miss.json"


def renamed(name: str, new_name: str):
    """What staff do in the admin: the account's user name changes, nothing else."""
    person = user(name)
    person.username = new_name
    person.save()
    return person


def move(game: Game, person, now=SOON, **fields) -> list[dict]:
    return make_move(game.pk, person, fields, reload(game).step_number, now=now)


def signed_in(person) -> Client:
    client = Client()
    client.force_login(person)
    return client


def last_record(game: Game) -> ActionRecord:
    return ActionRecord.objects.filter(game=game).order_by("index").last()


def test_a_renamed_government_nominates_votes_discards_and_enacts():
    game = running_game()
    anna, bobby = renamed("ann", "anna"), renamed("bob", "bobby")
    move(game, anna, type="nominate", target="bob")
    for person in (anna, bobby, user("cat"), user("dan"), user("eve")):
        move(game, person, type="vote", vote="ja")
    move(game, anna, type="discard", policy="F")
    move(game, bobby, type="enact", policy="F")
    assert state_of(game)["fascist_policies"] == 1
    record = last_record(game)
    assert (record.action, record.actor, record.actor_name) == (
        {"type": "enact", "policy": "F", "by": "bob"},  # the name the game knows, which replays read
        bobby,
        "bobby",
    )


def test_a_renamed_president_uses_the_execution_power():
    game = running_game(actions=EXECUTED[:-1])
    daniel = renamed("dan", "daniel")
    check_move(game.pk, daniel, {"type": "execute", "target": "eve"}, reload(game).step_number, now=SOON)
    move(game, daniel, type="execute", target="eve")
    assert state_of(game)["dead"] == ["eve"]


def test_r19_a_renamed_chancellor_asks_for_a_veto_and_a_renamed_president_answers():
    with open(VETO_SCENARIO) as file:
        data = json.load(file)
    data.pop("expect")
    data["actions"] = data["actions"][:-3]  # eve, chancellor after the fifth fascist policy, holds two cards
    game = import_script(data, now=START)
    move(game, renamed("eve", "evelyn"), type="veto")
    move(game, renamed("dan", "daniel"), type="veto_reply", accept=False)
    assert [r.action["type"] for r in ActionRecord.objects.filter(game=game).order_by("-index")[:2]] == [
        "veto_reply",
        "veto",
    ]


def test_a_renamed_player_posts_claims_keeps_notes_announces_an_absence_and_asks_to_resign():
    game = running_game(actions=governments(("ann", "bob")))
    anna = renamed("ann", "anna")
    post = post_message(game.pk, anna, "Trust me.", now=SOON)
    claim = file_claim(game.pk, anna, 1, "FFF", now=SOON)
    assert save_notes(game.pk, anna, "bob is fine", now=SOON)
    declare_absence(game.pk, anna, START + 2 * timedelta(days=1), START + 3 * timedelta(days=1), now=SOON)
    seat = request_resignation(game.pk, anna, now=SOON)
    assert (post.author, claim.office, claim.author_name) == (anna, Claim.Office.PRESIDENT, "anna")
    assert Note.objects.get(game=game).author == anna
    assert (seat.name, seat.resign_requested_at) == ("ann", SOON)


def test_a_player_renamed_in_the_lobby_plays_the_game_it_starts():
    creator = make_user("ann")
    game = create_game(creator, player_count=5, now=START)
    for name in NAMES[1:4]:
        join_game(game.pk, make_user(name), now=START)
    for name in NAMES[:4]:
        renamed(name, f"{name}-renamed")
    join_game(game.pk, make_user("eve"), now=START)
    state = reload(game).load_state()
    assert sorted(seat.name for seat in state.seats) == NAMES[:5]  # the names they joined with
    president = Seat.objects.get(game=game, number=state.president).user
    target = next(seat.name for number, seat in enumerate(state.seats) if number != state.president)
    move(game, president, now=START + timedelta(minutes=1), type="nominate", target=target)
    assert state_of(game)["step"] == "vote"


def test_a_newcomer_with_the_name_a_renamed_player_joined_with_is_told_it_is_taken():
    game = create_game(make_user("ann"), player_count=5, now=START)
    join_game(game.pk, make_user("bob"), now=START)
    renamed("bob", "bobby")
    get_user_model().objects.create(username="bob", email="bob.too@example.com")  # bobby keeps bob@example.com
    newcomer = make_user("bob")
    with pytest.raises(GameError, match="bob is already in this game") as refusal:
        join_game(game.pk, newcomer, now=START)
    assert refusal.value.code == "name_taken"
    assert game.seats.count() == 2


def test_a_renamed_player_leaves_a_lobby():
    game = create_game(make_user("ann"), player_count=5, now=START)
    join_game(game.pk, make_user("bob"), now=START)
    leave_game(game.pk, renamed("bob", "bobby"))
    assert list(game.seats.values_list("name", flat=True)) == ["ann"]


def test_a_renamed_player_moves_through_the_panel_and_the_api():
    game = running_game(now=timezone.now())
    anna = renamed("ann", "anna")
    page = signed_in(anna).get(f"/games/{game.pk}/").content.decode()
    assert 'id="panel"' in page and "Nominate a chancellor" in page
    form = {"type": "nominate", "target": "bob", "step_number": reload(game).step_number}
    asked = signed_in(anna).post(f"/games/{game.pk}/move/", form)
    assert asked.status_code == 200  # the question, not a refusal sent back to the page
    assert "Nominate bob as chancellor? This cannot be undone." in asked.content.decode()
    done = signed_in(anna).post(f"/games/{game.pk}/move/", {**form, "confirmed": "yes"}, follow=True)
    assert "You nominated bob as chancellor." in done.content.decode()
    renamed("bob", "bobby")
    answer = Api(token_for("bobby")).post(
        f"/games/{game.pk}/moves", {"type": "vote", "vote": "ja", "step_number": reload(game).step_number}
    )
    assert answer.status_code == 200, answer.json()
    assert last_record(game).action == {"type": "vote", "vote": "ja", "by": "bob"}


def test_a_renamed_player_moves_by_replying_to_the_move_email(settings):
    settings.REPLY_ADDRESS = "reply+{token}@reply.example.org"
    make_user("ann")  # with a verified address, which replies must come from
    game = running_game(now=timezone.now())
    anna = renamed("ann", "anna")
    send_due_emails(now=timezone.now())
    message = next(m for m in mail.outbox if m.to == [anna.email] and "Reply-To" in m.extra_headers)
    assert handle_message(reply_to(message, "nominate bob")).outcome == InboundEmail.Outcome.MOVED
    assert state_of(game)["step"] == "vote"


def test_a_renamed_player_is_told_of_their_move_and_shown_in_the_thread():
    game = running_game(now=timezone.now())
    anna, bobby = renamed("ann", "anna"), renamed("bob", "bobby")
    move(game, anna, now=timezone.now(), type="nominate", target="bob")
    told = Notification.objects.filter(user=bobby, kind=Notification.Kind.YOUR_MOVE)
    assert told.filter(data__step_number=reload(game).step_number).exists()
    post_message(game.pk, anna, "Who wants to govern?")
    page = signed_in(user("cat")).get(f"/games/{game.pk}/").content.decode()
    assert "Who wants to govern?" in page and '<a href="/users/anna/">anna</a>' in page


def test_a_renamed_player_is_mentioned_by_their_new_name():
    game = running_game(now=timezone.now())
    anna = renamed("ann", "anna")
    post = post_message(game.pk, user("cat"), "Not me, @anna!")
    assert '<a href="/users/anna/" rel="nofollow noopener noreferrer">@anna</a>' in post.html
    assert Notification.objects.filter(user=anna, kind=Notification.Kind.MENTION).exists()


def test_the_status_box_links_a_renamed_player_to_their_profile():
    game = running_game(now=timezone.now())
    renamed("ann", "anna")
    page = Client().get(f"/games/{game.pk}/", follow=True).content.decode()
    status = page.split('id="status"')[1].split("</section>")[0]
    assert f'href="/games/{game.pk}/players/ann/">ann</a>' in status
    assert Client().get(f"/games/{game.pk}/players/ann/")["Location"] == "/users/anna/"


def test_e5_a_renamed_substitute_takes_the_seat_of_a_renamed_player_and_moves():
    game = running_game()
    join_game(game.pk, make_user("sam"), as_substitute=True, now=START)
    samuel = renamed("sam", "samuel")
    renamed("ann", "anna")
    moderator = make_user("mod")
    exile(game.pk, moderator, "ann", now=SOON)
    end_now(game.pk, moderator, now=SOON)  # the round ends: sam takes ann's seat
    assert state_of(game)["alive"] == ["sam", "bob", "cat", "dan", "eve"]
    move(game, user("bob"), type="nominate", target="cat")
    move(game, samuel, type="vote", vote="ja")
    assert last_record(game).action == {"type": "vote", "vote": "ja", "by": "sam"}


def test_e8_a_replacement_renamed_before_the_hand_over_moves_once_seated():
    game = running_game()
    moderator = make_user("mod")
    make_user("zoe")
    replace(game.pk, moderator, "ann", "zoe", now=SOON)
    zoey = renamed("zoe", "zoey")
    end_now(game.pk, moderator, now=SOON)
    assert Seat.objects.get(game=game, user=zoey).number == 0
    move(game, user("bob"), type="nominate", target="cat")
    move(game, zoey, type="vote", vote="nein")
    assert last_record(game).action == {"type": "vote", "vote": "nein", "by": "zoe"}


def test_e8_a_renamed_player_named_to_take_another_seat_is_refused_as_already_in_the_game():
    game = running_game()
    renamed("bob", "bobby")
    with pytest.raises(GameError, match="bobby is already in this game"):
        replace(game.pk, make_user("mod"), "cat", "bobby", now=SOON)
    assert not Seat.objects.filter(game=game, pending=True).exists()
