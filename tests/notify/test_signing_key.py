"""The fingerprint of the key the site signs reply addresses with: who records it, and what a process that reads
replies makes of it (games.notify.signing_key)."""

import pytest
from django.core.management.sql import emit_post_migrate_signal

from games.models import InboundEmail, SigningKey
from games.notify.replies import CannotReceive, handle_message
from games.notify.signing_key import another_key, fingerprint
from tests.factories import posts, reply_to, running_game, your_move_email

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("reply_players")]
OLD_KEY = "the-sites-old-key-" + "o" * 40
NEW_KEY = "the-sites-new-key-" + "n" * 40


def recorded() -> str:
    return SigningKey.objects.get().fingerprint


def test_the_fingerprint_is_not_the_key_and_tells_keys_apart():
    assert fingerprint(OLD_KEY) == fingerprint(OLD_KEY) != fingerprint(NEW_KEY)
    assert OLD_KEY not in fingerprint(OLD_KEY) and len(fingerprint(OLD_KEY)) == 64


def test_migrate_records_the_key_of_the_environment_it_runs_in(settings):
    settings.SECRET_KEY = NEW_KEY
    emit_post_migrate_signal(verbosity=0, interactive=False, db="default")
    assert recorded() == fingerprint(NEW_KEY)


def test_the_outbox_records_the_key_it_signs_with_and_a_process_with_only_the_old_one_cannot_receive(settings):
    settings.SECRET_KEY = OLD_KEY
    game = running_game()
    message = your_move_email(game)
    settings.SECRET_KEY = NEW_KEY  # the site's key changed without a migrate: its next email records it
    your_move_email(running_game())
    assert recorded() == fingerprint(NEW_KEY)
    settings.SECRET_KEY = OLD_KEY
    with pytest.raises(CannotReceive, match="another key than the site's"):
        handle_message(reply_to(message, "Read with the old key."))
    assert not InboundEmail.objects.exists() and posts(game) == []


def test_while_the_key_is_rotated_a_process_with_the_sites_key_among_its_fallbacks_receives(settings):
    settings.SECRET_KEY = OLD_KEY
    game = running_game()
    message = your_move_email(game)
    settings.SECRET_KEY, settings.SECRET_KEY_FALLBACKS = NEW_KEY, [OLD_KEY]
    assert not another_key()
    assert handle_message(reply_to(message, "Rotated.")).outcome == InboundEmail.Outcome.POSTED
    assert posts(game) == ["Rotated."]


def test_with_nothing_recorded_a_process_judges_with_its_own_key(settings):
    game = running_game()
    message = your_move_email(game)
    SigningKey.objects.all().delete()
    settings.SECRET_KEY = NEW_KEY
    assert not another_key()
    assert handle_message(reply_to(message, "Unreadable here.")).outcome == InboundEmail.Outcome.FORGED
    assert not SigningKey.objects.exists()  # a process that reads never records its own key
