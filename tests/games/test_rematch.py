"""Play again with the same players: a game over (finished or cancelled) gets one rematch, a new lobby with its
settings and visibility, made by the player who asks (who joins it); everyone else who held a seat is invited, once,
in the bell and by email as each chose, and seated only by their own click."""

from datetime import timedelta

import pytest
from django.core import mail

from games.models import Game, Notification, Profile, Seat
from games.models.game import SETTINGS_FIELDS
from games.services import GameError, cancel, join_game
from games.services.rematch import rematch, rematch_name
from games.tasks import send_emails
from tests.factories import NAMES, START, finished_game, make_user, running_game

from .helpers import in_threads, reload, user

pytestmark = pytest.mark.django_db
PLAYERS = NAMES[:5]


def cancelled_game() -> Game:
    for name in PLAYERS:
        make_user(name)
    game = running_game()
    cancel(game.pk, make_user("mod"), now=START)
    return reload(game)


def test_the_game_the_tests_play_again_is_finished():
    assert finished_game().status == Game.Status.FINISHED


def test_the_rematch_has_every_setting_the_house_rules_and_the_visibility_of_the_game():
    game = finished_game(missing_vote="nein")
    Game.objects.filter(pk=game.pk).update(
        house_rules=game.rules.to_dict() | {"quiet_legislature": False},
        visibility=Game.Visibility.UNLISTED,
        link_key="k" * 32,
        nomination_hours=5,
        election_hours=30,
        deadline_hour=20,
        time_zone="Europe/Warsaw",
        exile_lookback_games=3,
        lobby_days=9,
        minute_durations=True,
    )
    game = reload(game)
    made, new = rematch(game.pk, user("bob"), now=START)
    assert new
    made = reload(made)
    assert {name: getattr(made, name) for name in SETTINGS_FIELDS} == {
        name: getattr(game, name) for name in SETTINGS_FIELDS
    }
    assert made.rules.missing_vote == "nein" and made.rules.quiet_legislature is False
    assert made.visibility == Game.Visibility.UNLISTED
    assert made.link_key and made.link_key != game.link_key
    assert made.status == Game.Status.OPEN
    assert reload(game).rematch == made and made.rematch_of == reload(game)


def test_the_rematch_is_named_after_the_game_and_made_by_the_player_who_asked_who_alone_is_seated():
    game = finished_game()
    made, _new = rematch(game.pk, user("cat"), now=START)
    assert made.name == f"{game.name} (rematch)"
    assert made.created_by == user("cat")
    assert list(Seat.objects.filter(game=made).values_list("user__username", flat=True)) == ["cat"]
    assert made.lobby_closes_at == START + timedelta(days=made.lobby_days)  # made now, open for its lobby's days


def test_a_long_name_is_cut_to_fit_with_its_rematch_mark():
    name = rematch_name("x" * 100)
    assert len(name) == Game._meta.get_field("name").max_length
    assert name.endswith("x (rematch)")


def test_every_other_player_is_invited_once_in_the_bell_and_by_email_as_each_chose():
    game = finished_game()
    send_emails()  # the game's own news, sent before
    mail.outbox.clear()
    Profile.objects.filter(pk=Profile.of(user("eve")).pk).update(email_moves=False)
    made, _new = rematch(game.pk, user("ann"), now=START)
    rematch(game.pk, user("bob"), now=START)  # asked again: the same rematch, nobody invited twice
    notices = Notification.objects.filter(kind=Notification.Kind.REMATCH)
    assert sorted(notices.values_list("user__username", flat=True)) == ["bob", "cat", "dan", "eve"]
    assert set(notices.values_list("game", flat=True)) == {made.pk}
    assert notices.get(user__username="eve").email == Notification.Email.NONE
    send_emails()
    assert sorted(message.to[0] for message in mail.outbox) == [f"{n}@example.com" for n in ("bob", "cat", "dan")]
    [to_bob] = [message for message in mail.outbox if message.to == ["bob@example.com"]]
    assert to_bob.subject == f"ann invites you to play {game.name} again: {made.name} is open for sign-ups."
    assert made.get_absolute_url() in to_bob.body


def test_an_invited_player_is_seated_only_by_their_own_click_with_the_usual_checks():
    game = finished_game()
    made, _new = rematch(game.pk, user("ann"), now=START)
    assert not Seat.objects.filter(game=made, user=user("bob")).exists()
    join_game(made.pk, user("bob"), now=START)
    assert Seat.objects.filter(game=made, user=user("bob")).exists()
    dan = user("dan")
    dan.emailaddress_set.update(verified=False)
    with pytest.raises(GameError) as refused:
        join_game(made.pk, dan, now=START)
    assert refused.value.code == "email_unverified"


def test_asking_again_leads_to_the_rematch_already_made():
    game = finished_game()
    first, new = rematch(game.pk, user("ann"), now=START)
    again, made_again = rematch(game.pk, user("eve"), now=START)
    assert new and not made_again
    assert again == first
    assert Game.objects.count() == 2


def test_a_cancelled_game_may_be_played_again_by_its_players():
    game = cancelled_game()
    made, new = rematch(game.pk, user("eve"), now=START)
    assert new and made.status == Game.Status.OPEN


def test_a_running_game_is_refused_with_a_clear_message_and_nothing_made():
    for name in PLAYERS:
        make_user(name)
    game = running_game()
    with pytest.raises(GameError, match="only once it is over") as refused:
        rematch(game.pk, user("ann"), now=START)
    assert refused.value.code == "not_over"
    assert Game.objects.count() == 1


def test_a_stranger_is_refused_with_a_clear_message_and_nothing_made():
    game = finished_game()
    with pytest.raises(GameError, match="Only the game's players and its creator") as refused:
        rematch(game.pk, make_user("zed"), now=START)
    assert refused.value.code == "not_in_game"
    assert Game.objects.count() == 1 and reload(game).rematch is None
    assert not Notification.objects.filter(kind=Notification.Kind.REMATCH).exists()


def test_a_player_who_may_not_create_a_game_is_refused_and_nothing_is_made():
    game = finished_game()
    user("bob").emailaddress_set.update(verified=False)
    with pytest.raises(GameError) as refused:
        rematch(game.pk, user("bob"), now=START)
    assert refused.value.code == "email_unverified"
    assert Game.objects.count() == 1 and reload(game).rematch is None


def test_the_creator_who_held_no_seat_may_ask():
    game = finished_game()
    Game.objects.filter(pk=game.pk).update(created_by=make_user("host"))
    made, _new = rematch(game.pk, user("host"), now=START)
    invited = Notification.objects.filter(kind=Notification.Kind.REMATCH, game=made)
    assert sorted(invited.values_list("user__username", flat=True)) == PLAYERS


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_players_asking_at_once_make_one_rematch():
    game = finished_game()
    results = in_threads(*(lambda name=name: rematch(game.pk, user(name), now=START) for name in ("ann", "bob")))
    assert sorted(new for _made, new in results) == [False, True]
    assert results[0][0] == results[1][0]
    assert Game.objects.filter(status=Game.Status.OPEN).count() == 1
    assert Notification.objects.filter(kind=Notification.Kind.REMATCH).count() == 4
