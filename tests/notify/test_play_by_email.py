"""Issue 16: a reply to a "your move" email that is one of its step's commands makes the move.

Each refusal (a stale step, an illegal move, a sentence that starts with a command word, a pause, a passed
deadline) changes nothing and is answered once; a replayed message, a wrong sender or another player's token
changes nothing. And a whole 5-player game is played by email alone, through the LMTP server.
"""

import random
import re
import smtplib
from datetime import timedelta

import pytest
from django.core import mail
from django.utils import timezone

from games.management.commands.lmtp_server import lmtp_controller
from games.models import ActionRecord, Game, InboundEmail, Post, Profile
from games.notify.email import send_due_emails
from games.notify.replies import handle_message
from games.notify.reply_tokens import make_token, reply_address
from tests.factories import make_user, reply_to, running_game, votes
from tests.services import free_port

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("reply_players")]
COMMAND = re.compile(r"^    (\S+(?: \S+)?)(?:   \((.+)\))?$")


def game_now(**settings) -> Game:
    """A running game whose step started now (its deadline days ahead): ann is the presidential candidate."""
    return running_game(now=timezone.now(), **settings)


def new_emails(seen: int = 0):
    send_due_emails(now=timezone.now())
    return mail.outbox[seen:]


def email_to(name: str, game: Game):
    return next(m for m in reversed(new_emails()) if m.to == [f"{name}@example.com"] and "Reply-To" in m.extra_headers)


def commands_in(message) -> list[str]:
    return [match.group(1) for line in message.body.splitlines() if (match := COMMAND.match(line))]


def records(game: Game) -> list[dict]:
    return list(ActionRecord.objects.filter(game=game).order_by("index").values_list("action", flat=True))


def test_the_move_email_lists_the_steps_commands_in_the_readers_language_and_in_english():
    game = game_now()
    Profile.of(make_user("ann"))
    Profile.objects.filter(user__username="ann").update(language="fr")
    body = email_to("ann", game).body
    assert "    nommer bob   (nominate bob)" in body
    assert "    nommer ann" not in body  # only the legal choices: not themself
    assert commands_in(email_to("ann", game))[:1] == ["nommer bob"]


def test_a_command_makes_the_move_for_its_step_and_is_confirmed_by_one_email():
    game = game_now()
    message = email_to("ann", game)
    mail.outbox.clear()
    assert handle_message(reply_to(message, "nominate bob")).outcome == InboundEmail.Outcome.MOVED
    assert records(game) == [{"type": "nominate", "target": "bob", "by": "ann"}]
    assert ActionRecord.objects.get(game=game).source == ActionRecord.Source.PLAYER
    (confirmation,) = mail.outbox
    assert confirmation.subject.startswith("Done: ") and "You nominated bob as chancellor." in confirmation.body
    assert Post.objects.filter(game=game).count() == 0


def test_a_sentence_that_starts_with_a_ballot_is_refused_and_never_posted_R11():
    game = game_now(actions=[{"type": "nominate", "by": "ann", "target": "bob"}])
    message = email_to("cat", game)
    mail.outbox.clear()
    result = handle_message(reply_to(message, "Nein, bob lies.\nHe is a fascist.", sender="cat@example.com"))
    assert result.outcome == InboundEmail.Outcome.REFUSED
    assert Post.objects.filter(game=game).count() == 0 and len(records(game)) == 1
    (answer,) = mail.outbox
    assert "nothing was posted" in answer.body and "    ja" in answer.body and "> Nein, bob lies." in answer.body


def test_a_ballot_by_email_is_secret_until_the_vote_closes_R11():
    game = game_now(actions=[{"type": "nominate", "by": "ann", "target": "bob"}])
    assert handle_message(reply_to(email_to("cat", game), "nein", sender="cat@example.com")).outcome == "moved"
    assert Post.objects.filter(game=game).count() == 0
    told = [m.to for m in mail.outbox if "Your ballot is Nein" in m.body]
    assert told == [["cat@example.com"]]  # the confirmation, to cat alone


def test_t1_the_ballot_that_closes_the_vote_is_confirmed_with_the_result_not_as_changeable():
    game = game_now(actions=[{"type": "nominate", "by": "ann", "target": "bob"}, *votes("ann", "bob", "cat", "dan")])
    message = email_to("eve", game)
    mail.outbox.clear()
    assert handle_message(reply_to(message, "nein", sender="eve@example.com")).outcome == "moved"
    (confirmation,) = [m for m in mail.outbox if m.to == ["eve@example.com"]]
    body = " ".join(confirmation.body.split())  # as read, whatever the line folding
    assert "Your ballot is Nein. Every living player has voted: the vote is closed." in body
    assert "(4 Ja, 1 Nein). The government is elected." in body
    assert "You may change it" not in body


def test_t1_a_ballot_by_email_in_french_that_closes_the_vote_says_so_in_french():
    game = game_now(actions=[{"type": "nominate", "by": "ann", "target": "bob"}, *votes("ann", "bob", "cat", "dan")])
    Profile.of(make_user("eve"))
    Profile.objects.filter(user__username="eve").update(language="fr")
    message = email_to("eve", game)
    mail.outbox.clear()
    assert handle_message(reply_to(message, "nein", sender="eve@example.com")).outcome == "moved"
    (confirmation,) = [m for m in mail.outbox if m.to == ["eve@example.com"]]
    body = " ".join(confirmation.body.split())
    assert "le vote est clos" in body and "Le gouvernement est élu." in body
    assert "Vous pouvez le changer" not in body


def test_a_command_for_a_step_that_has_moved_on_changes_nothing_and_says_why():
    game = game_now()
    message = email_to("ann", game)
    handle_message(reply_to(message, "nominate bob"))
    mail.outbox.clear()
    result = handle_message(reply_to(message, "nominate cat", message_id="<again@mail.example>"))
    assert result.outcome == InboundEmail.Outcome.REFUSED and "moved on" in result.reason
    assert len(records(game)) == 1 and len(mail.outbox) == 1


def test_an_illegal_command_is_refused_with_the_rules_reason_R9():
    game = game_now()
    mail.outbox.clear()
    token_address = reply_address(make_token(make_user("ann").pk, game.pk, Game.objects.get(pk=game.pk).step_number))
    message = mail.EmailMessage(subject="Your move", body="")
    message.extra_headers = {}
    result = handle_message(reply_to(message, "nominate ann", to=token_address))
    assert result.outcome == InboundEmail.Outcome.REFUSED and "cannot nominate themself" in result.reason
    assert records(game) == []


@pytest.mark.parametrize("fault", ["paused", "deadline passed"])
def test_a_command_while_paused_or_after_the_deadline_changes_nothing(fault):
    game = game_now()
    message = email_to("ann", game)
    if fault == "paused":
        Game.objects.filter(pk=game.pk).update(paused_at=timezone.now())
    else:
        Game.objects.filter(pk=game.pk).update(deadline=timezone.now() - timedelta(minutes=1))
    mail.outbox.clear()
    result = handle_message(reply_to(message, "nominate bob"))
    assert result.outcome == InboundEmail.Outcome.REFUSED
    assert ("paused" in result.reason) if fault == "paused" else ("deadline" in result.reason)
    assert records(game) == [] and len(mail.outbox) == 1


def test_replayed_wrong_sender_and_another_players_token_change_nothing():
    game = game_now()
    message = email_to("ann", game)
    raw = reply_to(message, "nominate bob")
    assert handle_message(raw).outcome == "moved"
    assert handle_message(raw).outcome is None  # the same Message-ID again
    cats = reply_address(make_token(make_user("cat").pk, game.pk, 2))
    assert handle_message(reply_to(message, "ja", to=cats, message_id="<x1@m>")).outcome == "wrong_sender"
    assert handle_message(reply_to(message, "ja", sender="eve@example.com", message_id="<x2@m>")).outcome == (
        "wrong_sender"
    )
    assert records(game) == [{"type": "nominate", "target": "bob", "by": "ann"}]


@pytest.mark.slow
@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_whole_game_is_played_by_email_alone_through_lmtp():
    game = game_now()
    choose = random.Random(16).choice
    controller = lmtp_controller("127.0.0.1", free_port())
    controller.start()
    sent, seen, rounds = [], 0, 0
    try:
        while Game.objects.get(pk=game.pk).status == Game.Status.RUNNING and rounds < 300:
            rounds += 1
            emails = new_emails(seen)
            seen = len(mail.outbox)
            movers = [m for m in emails if "Reply-To" in m.extra_headers and commands_in(m)]
            assert movers, "a running game always owes someone a move, and their email lists it"
            for number, message in enumerate(movers):
                command = choose(commands_in(message))
                reply = reply_to(message, command, sender=message.to[0], message_id=f"<{rounds}.{number}@mail.example>")
                with smtplib.LMTP("127.0.0.1", controller.port) as lmtp:
                    assert lmtp.sendmail(message.to[0], [message.extra_headers["Reply-To"]], reply) == {}
                sent.append((message.to[0].split("@")[0], command))
    finally:
        controller.stop()
    game = Game.objects.get(pk=game.pk)
    assert game.status == Game.Status.FINISHED and game.winner in ("liberal", "fascist")
    made = records(game)
    assert len(made) == len(sent)  # every command made its move, once, and nothing else moved the game
    assert {record.source for record in ActionRecord.objects.filter(game=game)} == {ActionRecord.Source.PLAYER}
    assert [record["by"] for record in made] == [who for who, _command in sent]
    assert not Post.objects.filter(game=game).exists()
