"""Issue 15: one email per game step, answerable by a reply that is posted in the thread; the emails themselves.

The round trip is real: the site sends through an SMTP server (aiosmtpd on loopback), the reply comes back
through the LMTP server (`manage.py lmtp_server`'s) and through `manage.py receive_email`, as an MTA delivers it.
"""

import email
import smtplib
import subprocess
import sys
from datetime import timedelta
from email import policy
from email.message import EmailMessage
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.core import mail
from django.core.management import call_command

from games.management.commands.lmtp_server import lmtp_controller
from games.models import Game, InboundEmail, Notification, Post, Profile
from games.notify.bell import queue_reminders
from games.notify.email import send_due_emails
from games.notify.email_compose import fit_subject
from games.notify.replies import handle_message
from games.notify.reply_tokens import make_token, read_token, reply_address
from tests.factories import START, make_user, posts, reply_to, running_game, votes, with_second_factor, your_move_email
from tests.games.processes import environment
from tests.notify.conftest import REPLY, one_character_changed
from tests.services import free_port

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("reply_players")]
ROOT = Path(__file__).resolve().parents[2]


# The emails themselves


def test_subjects_fit_and_are_cut_on_a_word_with_an_ellipsis():
    polish = "Ostrzeżenie: opuściłeś rundę w grze Długa nazwa gry " + "bardzo " * 20 + "przez jakiś czas."
    cut = fit_subject(polish)
    assert len(cut) <= 150 and cut.endswith("…")
    assert polish.startswith(cut[:-1]) and polish[len(cut) - 1] == " "  # a whole word, then the ellipsis
    assert fit_subject("Short: kept whole.") == "Short: kept whole."


def test_a_digest_item_and_the_preferences_line_set_a_no_break_space_before_colons_in_french():
    game = running_game()
    profile = Profile.of(make_user("bob"))
    profile.language = "fr"
    profile.save()
    Notification.objects.create(
        user=profile.user, game=game, kind="event", data={"event": "chaos", "round": 3}, key="e1", created_at=START,
        email=Notification.Email.PENDING, email_due_at=START,
    )  # fmt: skip
    send_due_emails(now=START)
    digest = next(m for m in mail.outbox if m.to == ["bob@example.com"])
    assert f"{game.name}\u00a0: " in digest.body
    assert "Vos préférences d'envoi\u00a0: " in digest.body or "\u00a0: http" in digest.body


def test_list_unsubscribe_is_one_link_that_turns_off_that_emails_category(client):
    game = running_game()
    message = your_move_email(game)
    header = message.extra_headers["List-Unsubscribe"]
    assert header.count("<") == 1  # RFC 8058: one link, not alternatives
    path = header.strip("<>").removeprefix("http://127.0.0.1:8000")
    assert client.post(path, {"List-Unsubscribe": "One-Click"}).status_code == 200
    profile = Profile.objects.get(user__username="ann")
    assert (profile.email_moves, profile.reminders, profile.email_warnings) == (False, "both", True)


def test_a_24_hour_steps_24_hour_reminder_is_not_sent_at_its_start_but_the_3_hour_one_is():
    game = running_game()
    Game.objects.filter(pk=game.pk).update(step_started_at=START, deadline=START + timedelta(hours=24))
    assert queue_reminders(now=START + timedelta(minutes=5)) == 0  # the "your move" email just said it
    assert queue_reminders(now=START + timedelta(hours=21, minutes=1)) == 1
    assert Notification.objects.get(kind="reminder").data["hours"] == 3


def test_who_turned_off_move_emails_still_gets_that_reminder():
    game = running_game()
    Profile.of(make_user("ann"))
    Profile.objects.filter(user__username="ann").update(email_moves=False)
    Game.objects.filter(pk=game.pk).update(step_started_at=START, deadline=START + timedelta(hours=24))
    assert queue_reminders(now=START + timedelta(minutes=5)) == 1


def test_a_step_email_carries_a_reply_address_a_digest_does_not():
    game = running_game()
    message = your_move_email(game)
    token = read_token(message.extra_headers["Reply-To"].split("+")[1].split("@")[0])
    assert (token.game_id, token.step_number) == (game.pk, 1)
    assert len(message.extra_headers["Reply-To"].split("@")[0]) <= 64
    assert "Reply above this line" in message.body.splitlines()[0]


def test_reply_tokens_survive_case_folding_and_a_key_rotation(settings):
    token = make_token(7, 42, 3)
    assert read_token(token.upper()) == read_token(token)
    settings.SECRET_KEY, settings.SECRET_KEY_FALLBACKS = "a-new-key-" * 5, [settings.SECRET_KEY]
    assert (read_token(token).user_id, read_token(token).game_id) == (7, 42)
    settings.SECRET_KEY_FALLBACKS = []
    assert read_token(token) is None
    assert read_token(token[:-1] + ("a" if token[-1] != "a" else "b")) is None


def test_with_reply_by_email_off_the_email_has_no_reply_address_and_a_reply_is_refused():
    game = running_game()
    token_address = reply_address(make_token(make_user("ann").pk, game.pk, 1))
    Profile.of(make_user("ann"))
    Profile.objects.filter(user__username="ann").update(reply_by_email=False)
    message = your_move_email(game)
    assert "Reply-To" not in message.extra_headers
    mail.outbox.clear()
    result = handle_message(reply_to(message, "Hello all", to=token_address))
    assert result.outcome == InboundEmail.Outcome.REFUSED and posts(game) == []
    assert "turned off" in mail.outbox[0].body and "> Hello all" in mail.outbox[0].body


# Replies become posts


def test_a_reply_is_posted_as_its_recipient_without_the_quoted_email():
    game = running_game()
    message = your_move_email(game)
    result = handle_message(reply_to(message, "I nominate **bob**: trust me.\n\n-- \nAnn, sent from my phone"))
    assert result.outcome == InboundEmail.Outcome.POSTED
    post = Post.objects.get(game=game)
    assert (post.author.username, post.body) == ("ann", "I nominate **bob**: trust me.")
    assert "<strong>bob</strong>" in post.html  # Markdown kept


def test_an_html_only_reply_is_made_text_safely():
    game = running_game()
    message = your_move_email(game)
    reply = EmailMessage(policy=policy.SMTP)
    reply["From"], reply["To"] = "ann@example.com", message.extra_headers["Reply-To"]
    reply["Subject"], reply["Message-ID"] = "Re: move", "<html@mail.example>"
    reply.set_content(
        "<div>Bob is <b>fine</b><br>really &amp; truly<script>alert(1)</script></div>"
        "<blockquote>Your move in ...</blockquote>",
        subtype="html",
    )
    assert handle_message(reply.as_bytes()).outcome == InboundEmail.Outcome.POSTED
    body = Post.objects.get(game=game).body
    assert body.startswith("Bob is fine\nreally & truly") and "<" not in body and "Your move" not in body


def test_a_refused_reply_is_answered_once_in_the_persons_language_with_what_they_wrote():
    # ann nominated and the government was elected: the legislative session is under way, the thread closed.
    game = running_game(
        actions=[{"type": "nominate", "by": "ann", "target": "bob"}, *votes("ann", "bob", "cat", "dan", "eve")]
    )
    Profile.of(make_user("cat"))
    Profile.objects.filter(user__username="cat").update(language="fr")
    token_address = reply_address(make_token(make_user("cat").pk, game.pk, 3))
    raw = reply_to(_original(), "Je pense que bob ment.", sender="cat@example.com", to=token_address)
    assert handle_message(raw).outcome == InboundEmail.Outcome.REFUSED
    assert posts(game) == []
    answer = mail.outbox[-1]
    assert answer.to == ["cat@example.com"] and answer.extra_headers["Auto-Submitted"] == "auto-replied"
    assert "session législative" in answer.body and "> Je pense que bob ment." in answer.body
    assert handle_message(raw).outcome is None and len(mail.outbox) == 1  # delivered again: nothing more


def _original():
    message = mail.EmailMessage(subject="Your move", body="Your move in the game.")
    message.extra_headers = {}
    return message


@pytest.mark.parametrize(
    "change, outcome",
    [
        ({"to": "reply+" + "a" * 42 + "@reply.example.org"}, InboundEmail.Outcome.FORGED),
        ({"to": "someone@example.org"}, InboundEmail.Outcome.FORGED),
        ({"sender": "mallory@example.org"}, InboundEmail.Outcome.WRONG_SENDER),
        ({"Auto_Submitted": "auto-replied"}, InboundEmail.Outcome.AUTOMATIC),
        ({"X_Autoreply": "yes"}, InboundEmail.Outcome.AUTOMATIC),
        ({"Precedence": "bulk"}, InboundEmail.Outcome.AUTOMATIC),
        ({"Return_Path": "<>"}, InboundEmail.Outcome.AUTOMATIC),
    ],
)
def test_forged_wrong_sender_and_automatic_replies_are_dropped_without_an_answer(change, outcome):
    game = running_game()
    message = your_move_email(game)
    mail.outbox.clear()
    assert handle_message(reply_to(message, "Vote ja!", **change)).outcome == outcome
    assert posts(game) == [] and mail.outbox == []
    assert InboundEmail.objects.get().outcome == outcome


def test_another_players_token_does_not_let_a_player_post_as_them():
    game = running_game()
    bobs = reply_address(make_token(make_user("bob").pk, game.pk, 1))
    message = your_move_email(game)
    raw = reply_to(message, "I am bob, trust me", sender="ann@example.com", to=bobs)
    assert handle_message(raw).outcome == InboundEmail.Outcome.WRONG_SENDER and posts(game) == []


def test_a_token_with_one_character_changed_from_the_players_own_address_is_dropped_at_once():
    game = running_game()
    message = your_move_email(game)
    mail.outbox.clear()
    raw = reply_to(message, "nominate bob", to=one_character_changed(message.extra_headers["Reply-To"]))
    assert handle_message(raw).outcome == InboundEmail.Outcome.FORGED
    assert posts(game) == [] and mail.outbox == [] and Game.objects.get(pk=game.pk).step_number == 1


def test_an_oversized_reply_is_dropped_unread(settings):
    settings.INBOUND_MAX_BYTES = 2_000
    game = running_game()
    message = your_move_email(game)
    mail.outbox.clear()
    assert handle_message(reply_to(message, "x " * 2_000)).outcome == InboundEmail.Outcome.OVERSIZED
    assert posts(game) == [] and mail.outbox == []


def test_a_reply_delivered_twice_is_posted_once():
    game = running_game()
    raw = reply_to(your_move_email(game), "Once only.")
    assert handle_message(raw).outcome == InboundEmail.Outcome.POSTED
    assert handle_message(raw).outcome is None
    assert posts(game) == ["Once only."]


@pytest.mark.parametrize(
    "forgery",
    [{"to": "reply+" + "a" * 42 + "@reply.example.org"}, {"sender": "mallory@example.org"}],
    ids=["no-valid-token", "wrong-sender"],
)
def test_a_forged_message_does_not_claim_the_message_id_of_the_genuine_reply_after_it(forgery):
    game = running_game()
    message = your_move_email(game)
    forged = reply_to(message, "Forged first.", message_id="<taken@mail.example>", **forgery)
    assert handle_message(forged).outcome in (InboundEmail.Outcome.FORGED, InboundEmail.Outcome.WRONG_SENDER)
    genuine = reply_to(message, "The genuine reply.", message_id="<taken@mail.example>")
    assert handle_message(genuine).outcome == InboundEmail.Outcome.POSTED
    assert handle_message(genuine).outcome is None  # still acts once
    assert handle_message(forged).outcome is None  # and a dropped message is counted once
    assert posts(game) == ["The genuine reply."]


# Real parts: SMTP out, LMTP and the MTA's pipe in


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_round_trip_through_smtp_out_and_lmtp_and_the_pipe_in(smtp_server, settings):
    game = running_game()
    send_due_emails(now=START)
    _recipients, sent = next((r, m) for r, m in smtp_server.messages if r == ["ann@example.com"])
    reply_address_ = sent["Reply-To"]
    controller = lmtp_controller("127.0.0.1", free_port())
    controller.start()
    try:
        with smtplib.LMTP("127.0.0.1", controller.port) as lmtp:
            reply = _reply_from(sent, "Through LMTP.", "<lmtp@mail.example>")
            assert lmtp.sendmail("ann@example.com", [reply_address_], reply) == {}
            assert lmtp.sendmail("ann@example.com", [reply_address_], reply) == {}  # again: acts once
    finally:
        controller.stop()
    piped = subprocess.run(
        [sys.executable, "manage.py", "receive_email", "--recipient", reply_address_],
        input=_reply_from(sent, "Through the pipe.", "<pipe@mail.example>"),
        cwd=ROOT, capture_output=True, check=False, timeout=120,
        env=environment(REPLY_ADDRESS=REPLY, SECRET_KEY=settings.SECRET_KEY),
    )  # fmt: skip
    assert piped.returncode == 0, piped.stderr.decode()
    assert sorted(posts(game)) == ["Through LMTP.", "Through the pipe."]


def _reply_from(sent, text: str, message_id: str) -> bytes:
    reply = EmailMessage(policy=policy.SMTP)
    reply["From"], reply["To"], reply["Message-ID"] = "ann@example.com", sent["Reply-To"], message_id
    reply["Subject"] = "Re: " + sent["Subject"]
    quoted = "\n".join(f"> {line}" for line in sent.get_body(("plain",)).get_content().splitlines())
    reply.set_content(f"{text}\n\nOn Mon, 2 Mar 2026, Secret Hitler by post wrote:\n{quoted}\n")
    return reply.as_bytes()


def test_receive_email_exits_75_when_the_database_is_away_so_the_mta_retries():
    raw = b"From: ann@example.com\r\nTo: x@example.org\r\nMessage-ID: <down@x>\r\n\r\nHello\r\n"
    env = {
        "DATABASE_URL": "postgres://nobody@127.0.0.1:1/none",
        "PATH": "/usr/bin:/bin",
        "REPLY_ADDRESS": REPLY,
        "DEBUG": "1",
    }
    piped = subprocess.run(
        [sys.executable, "manage.py", "receive_email"],
        input=raw,
        cwd=ROOT,
        capture_output=True,
        env=env,
        check=False,
        timeout=120,
    )
    assert piped.returncode == 75, piped.stderr.decode()[-500:]


def test_receive_email_reads_one_message_on_standard_input(monkeypatch, capsys):
    game = running_game()
    raw = reply_to(your_move_email(game), "From stdin.")

    class Stdin:
        buffer = __import__("io").BytesIO(raw)

    monkeypatch.setattr(sys, "stdin", Stdin)
    call_command("receive_email")
    assert posts(game) == ["From stdin."]
    assert email.message_from_bytes(raw)["Message-ID"] == InboundEmail.objects.get().message_id


def test_the_moderators_dashboard_counts_the_replies_dropped_for_security(client_for):
    game = running_game()
    message = your_move_email(game)
    handle_message(reply_to(message, "forged", to="reply+" + "b" * 42 + "@reply.example.org"))
    handle_message(reply_to(message, "not ann", sender="mallory@example.org", message_id="<m2@x>"))
    handle_message(reply_to(message, "away", message_id="<m3@x>", Auto_Submitted="auto-replied"))
    moderator = client_for("mod")
    get_user_model().objects.get(username="mod").groups.add(Group.objects.get(name="moderators"))
    with_second_factor(moderator, get_user_model().objects.get(username="mod"))
    page = moderator.get("/moderation/").content.decode()
    assert "Replies by email dropped in the last 7 days" in page
    assert "no reply address this site signed: 1" in page
    assert "verified address of the person it was sent to: 1" in page
    assert "automatic reply" not in page  # not an attack: not counted there


def test_attachments_are_ignored_and_only_the_text_is_posted():
    game = running_game()
    reply = email.message_from_bytes(reply_to(your_move_email(game), "See attached."), policy=policy.SMTP)
    reply.add_attachment(b"\x89PNG binary", maintype="image", subtype="png", filename="proof.png")
    assert handle_message(reply.as_bytes()).outcome == InboundEmail.Outcome.POSTED
    assert posts(game) == ["See attached."]


@pytest.mark.postgres
def test_nul_bytes_and_broken_headers_in_a_reply_are_handled_not_retried_forever():
    game = running_game()
    message = your_move_email(game)
    raw = reply_to(message, "Hello\x00 all", message_id="<nulid@mail.example>")
    raw = raw.replace(b"<nulid@mail.example>", b"<nul\x00id@mail.example>").replace(
        b"Subject: Re:", b"Subject: Re:\x00"
    )
    result = handle_message(raw)  # on PostgreSQL a NUL in a text column would raise: the MTA would retry forever
    assert result.outcome == InboundEmail.Outcome.POSTED
    assert posts(game) == ["Hello all"]
    assert InboundEmail.objects.get().message_id.startswith("sha256:")
    forged_sender = reply_to(message, "x", message_id="<other@mail.example>").replace(
        b"ann@example.com>", b"ann\x00@example.com>", 1
    )
    assert handle_message(forged_sender).outcome == InboundEmail.Outcome.WRONG_SENDER
