"""Issue 17: schemathesis against the live schema on a test server, as an anonymous caller and as a seated player.

Every operation of the schema gets generated requests (half of them aimed at a real running game): no answer
may be a 500, every answer must fit the schema, and a refused call (4xx) must change nothing in the database.
"""

import pytest
import requests
import schemathesis
from django.utils import timezone
from hypothesis import HealthCheck, Phase, given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st
from schemathesis.checks import not_a_server_error, response_schema_conformance

from games.models import Absence, ActionRecord, Claim, Game, Post, Seat
from tests.factories import running_game, token_for

EXAMPLES = 12


def snapshot() -> tuple:
    """What a refused call must leave as it was."""
    return (
        ActionRecord.objects.count(),
        Post.objects.count(),
        Claim.objects.count(),
        Absence.objects.count(),
        list(Seat.objects.order_by("pk").values_list("pk", "active", "number")),
        list(Game.objects.order_by("pk").values_list("pk", "status", "step_number", "state")),
    )


@pytest.mark.slow
@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("caller", ["anonymous", "seated player"])
def test_every_operation_answers_within_its_schema_and_a_refusal_changes_nothing(live_server, settings, caller):
    settings.API_REQUESTS_PER_MINUTE = 100_000
    game = running_game(now=timezone.now())
    headers = {"Authorization": f"Bearer {token_for('ann')}"} if caller == "seated player" else {}
    raw = requests.get(f"{live_server.url}/api/v1/openapi.json", timeout=30).json()
    schema = schemathesis.openapi.from_dict(raw)
    operations = [result.ok() for result in schema.get_all_operations()]
    assert len(operations) >= 12
    for operation in operations:

        @given(case=operation.as_strategy(), aim=st.booleans())
        @hypothesis_settings(
            max_examples=EXAMPLES,
            deadline=None,
            database=None,
            phases=[Phase.generate],
            suppress_health_check=list(HealthCheck),
        )
        def call(case, aim):
            if aim and case.path_parameters and "game_id" in case.path_parameters:
                case.path_parameters["game_id"] = game.pk  # a real game: its refusals are the interesting ones
            if case.headers:  # the schema's bearer scheme makes schemathesis send made-up tokens: ours, or none
                case.headers.pop("Authorization", None)
            before = snapshot()
            response = case.call(base_url=live_server.url, headers=headers, timeout=30)
            case.validate_response(response, checks=[not_a_server_error, response_schema_conformance])
            if 400 <= response.status_code < 500:
                assert snapshot() == before, f"{case.method} {case.formatted_path} refused but changed the game"

        call()
