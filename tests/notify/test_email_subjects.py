"""An email's subject: one line, whatever its text held, and in French the no-break space its body keeps."""

import pytest
from django.core import mail
from django.utils import timezone

from games.models import InboundEmail, Profile
from games.notify.email import send_due_emails
from games.notify.email_compose import fit_subject
from games.notify.replies import handle_message
from tests.factories import make_user, reply_to, running_game, your_move_email

pytestmark = pytest.mark.django_db


def test_a_french_your_move_subject_keeps_the_no_break_space_before_its_colon():
    """The body said "la partie X\u00a0: ..." and the subject "la partie X : ...": the subject's folding of
    white space also folded U+00A0."""
    game = running_game()
    french("ann")
    message = your_move_email(game)
    assert f"{game.name}\u00a0: " in message.body
    assert f"À vous de jouer dans la partie {game.name}\u00a0: " in message.subject
    assert message.message()["Subject"]  # Django accepts the header as it is


def french(name: str) -> None:
    profile = Profile.of(make_user(name))
    profile.language = "fr"
    profile.save()


@pytest.mark.usefixtures("reply_players")
def test_the_answer_to_a_french_reply_keeps_the_no_break_spaces_of_its_subject():
    french("ann")
    game = running_game(now=timezone.now())
    send_due_emails(now=timezone.now())
    message = next(m for m in mail.outbox if m.to == ["ann@example.com"] and "Reply-To" in m.extra_headers)
    mail.outbox.clear()
    message.subject = f"{game.name}\u00a0: nommer"  # what the mail client quotes back as "Re: ..."
    assert handle_message(reply_to(message, "nommer bob")).outcome == InboundEmail.Outcome.MOVED
    (answer,) = mail.outbox
    assert answer.subject == f"Fait\u00a0: Re: {game.name}\u00a0: nommer"


@pytest.mark.parametrize("breaking", ["\n", "\r\n", "\r", "\t", "\u2028", "\x85", "\x0b"])
def test_a_subject_never_carries_a_line_break(breaking):
    subject = fit_subject(f"Tour 1\u00a0: à vous{breaking}Bcc: victim@example.com")
    assert subject == "Tour 1\u00a0: à vous Bcc: victim@example.com"
    assert not any(character in subject for character in "\r\n\x0b\x0c\x85\u2028\u2029")


def test_a_subject_cut_to_fit_keeps_a_word_and_its_no_break_space_together():
    words = "Tour 12\u00a0: " + "très " * 40
    cut = fit_subject(words, limit=40)
    assert len(cut) <= 40 and cut.endswith("…")
    assert cut.startswith("Tour 12\u00a0: très")


def test_english_subjects_are_as_before():
    assert fit_subject("  Your move   in Game: nominate  ") == "Your move in Game: nominate"
