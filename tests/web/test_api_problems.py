"""Issue 27: the API's refusals in a program's words (games/api/problems.py, its documents and handlers): the
field a 422 is about, a stale step with the step and the game to read, a body that is not JSON told apart from
other bad requests."""

import json

import pytest
from django.test import RequestFactory
from ninja.errors import HttpError

from games.api import api
from games.models import Post
from games.services import GameError, pause
from tests.factories import Api, game_now, make_user, token_for

pytestmark = pytest.mark.django_db


def answer_to(error: Exception) -> tuple[int, dict]:
    """What the API answers when a request meets this error, through its own exception handlers."""
    response = api.on_exception(RequestFactory().post("/api/v1/games/1/moves"), error)
    return response.status_code, json.loads(response.content)


def test_a_posts_field_named_body_is_named_not_taken_for_the_request_body():
    game = game_now()
    response = Api(token_for("ann")).post(f"/games/{game.pk}/posts", {"body": "x" * 20_001})
    problem = response.json()
    assert (response.status_code, problem["code"]) == (422, "invalid_request")
    assert [(error["field"], error["location"]) for error in problem["errors"]] == [("body", "body.payload.body")]
    assert "body is too long: at most 20000 characters" in problem["detail"], problem["detail"]
    assert "request body" not in problem["detail"] and not Post.objects.filter(game=game).exists()


def test_a_query_field_and_a_body_field_of_the_wrong_kind_keep_their_names():
    game = game_now()
    api_client = Api(token_for("ann"))
    query = api_client.get(f"/games/{game.pk}/events?after=-1").json()
    assert [(error["field"], error["location"]) for error in query["errors"]] == [("after", "query.after")]
    typed = api_client.post(f"/games/{game.pk}/posts", {"body": 5}).json()
    assert [error["problem"] for error in typed["errors"]] == ["body must be text"]


def test_a_stale_move_names_the_game_to_read_not_a_placeholder():
    game = game_now()
    response = Api(token_for("ann")).post(f"/games/{game.pk}/moves", {"type": "nominate", "target": "bob",
                                                                       "step_number": 0})  # fmt: skip
    detail = response.json()["detail"]
    assert f"GET /api/v1/games/{game.pk}/me" in detail and "{" not in detail, detail


def test_a_moderators_stale_step_names_the_step_as_a_players_does():
    """The interventions refuse a stale page with the same code: the API words it with the step, not a 500."""
    game = game_now()
    with pytest.raises(GameError) as refused:
        pause(game.pk, make_user("mod"), step=0)
    status, problem = answer_to(refused.value)
    assert (status, problem["code"], problem["step_number"]) == (409, "stale_step", game.step_number)
    assert f"moved on to step {game.step_number}" in problem["detail"]
    assert f"/api/v1/games/{game.pk}/me" in problem["detail"]


def test_a_refusal_without_the_facts_its_program_wording_needs_keeps_the_services_words():
    status, problem = answer_to(GameError("The game has moved on: nothing was done.", code="stale_step"))
    assert (status, problem["detail"]) == (409, "The game has moved on: nothing was done.")


def test_only_a_body_that_cannot_be_parsed_is_said_not_to_be_json(settings):
    settings.DEBUG = True
    game = game_now()
    api_client = Api(token_for("ann"))
    response = api_client.client.post(f"/api/v1/games/{game.pk}/moves", "{not json",
                                      content_type="application/json", **api_client.headers)  # fmt: skip
    assert response.status_code == 400 and "not valid JSON" in response.json()["detail"]
    status, problem = answer_to(HttpError(400, "Only one file may be sent."))
    assert (status, problem["code"], problem["detail"]) == (400, "invalid_request", "Only one file may be sent.")
