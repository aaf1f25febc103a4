"""Issue 27: HEAD on the API's reads and the API's moves attacked as a hostile user would, each sent NUL bytes, huge
and negative values, dates at the calendar's ends, numbers where dates go, other games' ids and stale steps. What a
user notices: never a 5xx, a clear 4xx or form error, nothing changed, no other game's secret in the answer."""

import re

import pytest

from games.models import ActionRecord, Game
from tests.factories import Api, token_for
from tests.web.attacks import assert_refused, snapshot

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]


FORGED_TAGS = [
    '"' + "0" * 60_000 + '"',
    "\x00",
    'W/"x\x00y"',
    "*",
    '"a", ' * 5000,
    "\u00e9\u2028",
]


def read_paths(game_id: int) -> list[str]:
    return [
        "/lobby", f"/games/{game_id}", f"/games/{game_id}/me", f"/games/{game_id}/events",
        f"/games/{game_id}/posts", "/me/notifications", "/me/deadlines",
    ]  # fmt: skip


@pytest.mark.parametrize("tag", FORGED_TAGS)
def test_head_with_a_forged_if_none_match_answers_as_get_without_a_body(games, tag):
    api = Api(token_for("ann"))
    for path in read_paths(games["mine"].pk):
        head = api.head(path, HTTP_IF_NONE_MATCH=tag)
        assert head.status_code in (200, 304, 400), (path, head.status_code)
        assert head.content == b"", path


@pytest.mark.parametrize("tag", [*FORGED_TAGS, None])
def test_head_on_another_player_s_private_view_is_a_4xx_without_a_tag(games, tag):
    api = Api(token_for("ann"))
    headers = {} if tag is None else {"HTTP_IF_NONE_MATCH": tag}
    head = api.head(f"/games/{games['other'].pk}/me", **headers)
    assert head.status_code in (403, 404)
    got = Api(token_for("x0")).get(f"/games/{games['other'].pk}/me")
    assert got.status_code == 200
    assert head.get("ETag") in (None, "") or head["ETag"] != got["ETag"]
    # a stranger's guessing by the owner's tag learns nothing either
    guessed = api.head(f"/games/{games['other'].pk}/me", HTTP_IF_NONE_MATCH=got["ETag"])
    assert guessed.status_code in (403, 404)


def test_a_move_with_a_stale_step_is_a_409_worded_for_the_api(games):
    game = games["mine"]
    game.refresh_from_db()
    before = snapshot()
    body = {"type": "nominate", "step_number": game.step_number + 5, "target": "bob"}
    response = Api(token_for("ann")).post(f"/games/{game.pk}/moves", body)
    assert response.status_code == 409
    assert "reload" not in response.json()["detail"].lower()
    assert snapshot() == before


@pytest.mark.parametrize(
    ("field", "value"),
    [("step_number", "abc"), ("step_number", 10**30), ("step_number", -1), ("step_number", 1e20),
     ("vote", 1), ("vote", "maybe"), ("accept", "perhaps"), ("target", 7), ("type", ["nominate"]),
     ("policy", "X")],
)  # fmt: skip
def test_a_move_with_a_wrong_typed_field_is_a_422_naming_the_field(games, field, value):
    game = games["mine"]
    game.refresh_from_db()
    body = {"type": "nominate", "step_number": game.step_number, "target": "bob", field: value}
    before = snapshot()
    response = Api(token_for("ann")).post(f"/games/{game.pk}/moves", body)
    assert response.status_code == 422, response.content[:300]
    assert field in response.json()["detail"]
    assert re.search(r"(must|should|is not|at least|at most|input)", response.json()["detail"], re.I)
    assert snapshot() == before


@pytest.mark.parametrize("field", ["type", "target", "vote", "policy"])
def test_a_move_with_a_nul_byte_in_a_string_is_a_4xx(games, field):
    game = games["mine"]
    game.refresh_from_db()
    body = {"type": "nominate", "step_number": game.step_number, "target": "bob"}
    body[field] = "bo\x00b" if field == "target" else "x\x00"
    before = snapshot()
    response = Api(token_for("ann")).post(f"/games/{game.pk}/moves", body)
    assert_refused(response)
    assert snapshot() == before


@pytest.mark.parametrize("game_key", ["other", "over"])
def test_a_move_in_a_game_one_is_not_seated_in_is_a_4xx_and_leaks_nothing(games, game_key):
    game = games[game_key]
    game.refresh_from_db()
    before = snapshot()
    body = {"type": "nominate", "step_number": game.step_number, "target": "bob"}
    response = Api(token_for("ann")).post(f"/games/{game.pk}/moves", body)
    assert_refused(response)
    text = response.content.decode().lower()
    assert "fascist" not in text and "hitler" not in text and "liberal" not in text
    assert snapshot() == before


def test_a_stranger_s_head_with_the_owner_s_etag_learns_nothing_of_an_unlisted_game(games):
    """A 304 to a stranger would confirm a guessed tag: at an unlisted game's number a stranger finds no game,
    whatever the tag (they read it at its link key)."""
    other = games["other"]
    Game.objects.filter(pk=other.pk).update(visibility=Game.Visibility.UNLISTED)
    owner = Api(token_for("x0"))
    stranger = Api(token_for("ann"))
    for path in (f"/games/{other.pk}/me", f"/games/{other.pk}/events", f"/games/{other.pk}/posts"):
        tag = owner.get(path)["ETag"]
        for method in (stranger.get, stranger.head):
            assert method(path, HTTP_IF_NONE_MATCH=tag).status_code == 404, path


def test_a_stranger_s_move_is_refused_and_its_refusal_tells_only_what_the_public_read_does(games):
    """A stale step is checked before the seat: a stranger learns the step number, which GET /games/N shows to
    anyone; with the right step the refusal is not_seated."""
    other = games["other"]
    other.refresh_from_db()
    api = Api(token_for("ann"))
    body = {"type": "nominate", "step_number": other.step_number + 3, "target": "x1"}
    stale = api.post(f"/games/{other.pk}/moves", body)
    assert stale.status_code == 409
    assert stale.json()["step_number"] == api.get(f"/games/{other.pk}").json()["step_number"]
    body["step_number"] = other.step_number
    assert api.post(f"/games/{other.pk}/moves", body).json()["code"] == "not_seated"
    assert not ActionRecord.objects.filter(game=other, source=ActionRecord.Source.PLAYER).exists()
