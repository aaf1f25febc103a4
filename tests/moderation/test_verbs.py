"""A moderator's verb is one entry of moderation.verbs: the panel's form, the options the view passes on and the
service's dispatch all follow it."""

import pytest

from moderation.forms import GameActionForm
from moderation.models import AuditEntry
from moderation.verbs import OPTIONS, VERBS
from tests.factories import running_game
from tests.games.helpers import reload

pytestmark = pytest.mark.django_db

REQUIRED = [(verb.name, option) for verb in VERBS.values() for option in verb.required]


def form(action: str, **fields) -> GameActionForm:
    return GameActionForm({"action": action, "step": 3, "reason": "because", **fields})


def test_the_form_offers_exactly_the_registrys_verbs():
    assert [name for name, _label in GameActionForm().fields["action"].choices] == list(VERBS)
    assert not form("explode").is_valid()


@pytest.mark.parametrize(("action", "option"), REQUIRED)
def test_a_verb_sent_without_an_option_it_requires_is_refused_with_that_options_message(action, option):
    complete = {name: "7" if name == "hours" else "ann" for name in VERBS[action].required}
    assert form(action, **complete).is_valid()
    refused = form(action, **{**complete, option: ""})
    assert refused.errors[option] == [str(OPTIONS[option].missing)]


def test_a_verb_that_cannot_be_undone_asks_for_confirmation():
    assert form("cancel").errors["confirm"] == [str(VERBS["cancel"].confirm)]
    assert form("cancel", confirm="on").is_valid()
    assert [name for name, verb in VERBS.items() if verb.confirm] == ["cancel"]


def test_the_view_passes_on_only_the_options_of_the_verb(moderator_client):
    game = running_game()
    mod = moderator_client()
    step = reload(game).step_number
    mod.post(f"/moderation/games/{game.pk}/act/", {"action": "pause", "reason": "x", "step": step, "hours": 5})
    entry = AuditEntry.objects.get(action="pause")
    assert entry.details == {} and reload(game).paused_at is not None


def test_a_verb_is_audited_under_its_registered_name(moderator_client):
    game = running_game()
    moderator_client().post(
        f"/moderation/games/{game.pk}/act/", {"action": "lock", "reason": "x", "step": reload(game).step_number}
    )
    assert AuditEntry.objects.filter(game=game, action=VERBS["lock"].audit_name).exists()
