"""Issue 27: the moderator's extension (T5) attacked as a hostile user would, each sent NUL bytes, huge and negative
values, dates at the calendar's ends, numbers where dates go, other games' ids and stale steps. What a user notices:
never a 5xx, a clear 4xx or form error, nothing changed, no other game's secret in the answer."""

import pytest
from django.utils import timezone

from moderation.models import AuditEntry
from tests.factories import running_game
from tests.web.attacks import HUGE, assert_refused, refusal, snapshot

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]


FORGED_EXTENSIONS = [
    {"hours": "0"},
    {"hours": "-1"},
    {"hours": "-23"},
    {"hours": "721"},
    {"hours": str(10**30)},
    {"hours": "1e20"},
    {"hours": "inf"},
    {"hours": "1\x00"},
    {"hours": HUGE},
    {"hours": "24", "step": "-1"},
    {"hours": "24", "step": "0"},
    {"hours": "24", "step": str(10**30)},
    {"hours": "24", "step": "\x00"},
    {"hours": "24", "step": HUGE},
    {"hours": "24", "deadline": "9999-12-31T23:59:59+14:00"},
    {"hours": "24", "deadline": "0001-01-01T00:00:00-14:00"},
    {"hours": "24", "deadline": "\x00"},
    {"hours": "24", "deadline": HUGE},
    {"hours": "24", "deadline": "2027-01-01T00:00:00-23:59"},
    {"hours": "24", "reason": "x\x00y"},
    {"hours": "24", "reason": HUGE},
]


@pytest.mark.parametrize("fields", FORGED_EXTENSIONS)
def test_t5_a_forged_extension_is_refused_and_changes_nothing(moderator, fields):
    game = running_game(now=timezone.now())
    game.refresh_from_db()
    data = {"action": "extend", "reason": "because", "step": str(game.step_number), **fields}
    before = snapshot()
    response = moderator.post(f"/moderation/games/{game.pk}/act/", data)
    assert response.status_code in (302, 400), response.status_code
    assert refusal(response)
    assert snapshot() == before


@pytest.mark.parametrize("behind", [-1000, -1, 1])
def test_t5_an_extension_from_a_stale_page_is_refused_and_changes_nothing(moderator, behind):
    game = running_game(now=timezone.now())
    game.refresh_from_db()
    before = snapshot()
    data = {"action": "extend", "reason": "because", "step": game.step_number - behind, "hours": "24"}
    response = moderator.post(f"/moderation/games/{game.pk}/act/", data)
    assert response.status_code in (302, 400)
    assert "reload" in refusal(response).lower() or "nothing was done" in refusal(response).lower()
    assert snapshot() == before


def test_t5_an_extension_at_the_horizon_is_refused_and_changes_nothing(moderator):
    game = running_game(now=timezone.now())
    before = snapshot()
    for _ in range(10):  # each 30 days: the horizon stops them
        moderator.post(
            f"/moderation/games/{game.pk}/act/",
            {"action": "extend", "reason": "r", "step": game.step_number, "hours": "720"},
        )
    game.refresh_from_db()
    assert AuditEntry.objects.count() - before["audit"] < 10


def test_t5_an_extension_of_another_game_id_is_a_4xx(moderator, games):
    before = snapshot()
    for game_id in (99_999_999, 10**30, 0, -1):
        response = moderator.post(
            f"/moderation/games/{game_id}/act/", {"action": "extend", "reason": "r", "step": "0", "hours": "24"}
        )
        assert_refused(response)
    assert snapshot() == before


def test_t5_an_extension_by_a_player_is_a_4xx(client_for, games):
    before = snapshot()
    response = client_for("ann").post(
        f"/moderation/games/{games['mine'].pk}/act/", {"action": "extend", "reason": "r", "step": "0", "hours": "24"}
    )
    assert response.status_code in (302, 403, 404)
    assert snapshot() == before


def test_t5_an_extension_of_a_finished_game_is_refused(moderator, games):
    over = games["over"]
    over.refresh_from_db()
    before = snapshot()
    data = {"action": "extend", "reason": "r", "step": over.step_number, "hours": "24"}
    response = moderator.post(f"/moderation/games/{over.pk}/act/", data)
    assert response.status_code in (302, 400, 403, 404)
    assert snapshot() == before
