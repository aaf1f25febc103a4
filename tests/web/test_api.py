"""Issue 17: the open API. Tokens, reads, writes through the same services as the site, problem documents with
their codes, the per-token rate limit, ETags; a whole 7-player game played through the API alone, matching the
same moves made through the web forms; and no secret in any answer."""

import random
import re
from datetime import timedelta

import pytest
import time_machine
from allauth.account.models import EmailAddress
from django.test import Client
from django.utils import timezone

from games.models import ActionRecord, ApiToken, Game, GameEvent
from games.services.transfer import import_script
from tests.factories import (
    ACTIONS,
    DECK_A,
    DECK_B,
    NAMES,
    PLAYERS,
    ROLES_A,
    ROLES_B,
    Api,
    game_now,
    make_user,
    script,
    token_for,
)

pytestmark = pytest.mark.django_db
FORM_FIELD = {"vote": "vote", "discard": "policy", "enact": "policy", "veto_reply": "accept"}


# Tokens


def test_a_token_is_made_on_the_profile_page_shown_once_kept_as_a_digest_and_revoked(client_for):
    ann = client_for("ann")
    page = ann.post("/profile/tokens/", {"name": "my bot", "scope": "play"}).content.decode()
    secret = re.search(r'value="(shp_[^"]+)"', page).group(1)
    assert '<label for="new-token"><strong>Your new token:</strong></label>' in page  # its colon never alone
    token = ApiToken.objects.get()
    assert token.digest == ApiToken.digest_of(secret) and secret not in str(vars(token))
    assert secret not in ann.get("/profile/tokens/").content.decode()  # shown once
    assert Api(secret).get("/me/notifications").status_code == 200
    ann.post(f"/profile/tokens/{token.pk}/revoke/")
    response = Api(secret).get("/me/notifications")
    assert response.status_code == 401 and response.json()["code"] == "unauthorized"


def test_the_session_cookie_is_never_a_credential_for_the_api(client_for):
    game = game_now()
    ann = client_for("ann")  # signed in on the site
    response = ann.post(f"/api/v1/games/{game.pk}/moves", {"type": "nominate", "target": "bob", "step_number": 1},
                        content_type="application/json")  # fmt: skip
    assert response.status_code == 401 and not ActionRecord.objects.filter(game=game).exists()


def test_t1_the_ballot_that_closes_the_vote_is_answered_with_the_result():
    game = import_script(script(actions=[{"type": "nominate", "by": "ann", "target": "bob"}]), now=timezone.now())
    for name in ("ann", "bob", "cat", "dan"):
        Api(token_for(name)).post(f"/games/{game.pk}/moves", {"type": "vote", "vote": "ja", "step_number": 2})
    first = Api(token_for("ann")).post(f"/games/{game.pk}/moves", {"type": "vote", "vote": "nein", "step_number": 2})
    assert first.json()["message"] == "Your ballot is Nein. You may change it until the vote closes."
    last = Api(token_for("eve")).post(
        f"/games/{game.pk}/moves",
        {"type": "vote", "vote": "nein", "step_number": 2},
    )
    message = last.json()["message"]
    assert message.startswith("Your ballot is Nein. Every living player has voted: the vote is closed. Ballots: ")
    assert message.endswith("(3 Ja, 2 Nein). The government is elected.")
    assert [e["type"] for e in last.json()["events"]][:1] == ["vote_closed"]


def test_a_read_token_may_not_play():
    game = game_now()
    response = Api(token_for("ann", "read")).post(
        f"/games/{game.pk}/moves", {"type": "nominate", "target": "bob", "step_number": 1}
    )
    assert (response.status_code, response.json()["code"]) == (403, "insufficient_scope")


def test_last_used_is_written_at_most_once_a_minute():
    secret = token_for("ann")
    with time_machine.travel(timezone.now(), tick=False) as clock:
        Api(secret).get("/me/notifications")
        first = ApiToken.objects.get().last_used_at
        clock.shift(timedelta(seconds=30))
        Api(secret).get("/me/notifications")
        assert ApiToken.objects.get().last_used_at == first
        clock.shift(timedelta(seconds=31))
        Api(secret).get("/me/notifications")
        assert ApiToken.objects.get().last_used_at > first


# Reads


def test_public_reads_need_no_token_and_the_private_view_is_the_panels():
    game = game_now()
    anonymous = Api()
    assert [g["id"] for g in anonymous.get("/lobby").json()["running"]] == [game.pk]
    public = anonymous.get(f"/games/{game.pk}").json()
    assert public["public"]["president"] == "ann" and "roles" not in str(public["public"])
    assert anonymous.get(f"/games/{game.pk}/me").status_code == 401
    mine = Api(token_for("ann")).get(f"/games/{game.pk}/me").json()
    assert (mine["role"], mine["owes"], mine["step_number"]) == ("liberal", True, 1)
    assert {"type": "nominate", "target": "bob"} in mine["moves"]
    stranger = Api(token_for("zoe")).get(f"/games/{game.pk}/me")
    assert (stranger.status_code, stranger.json()["code"]) == (403, "not_seated")


def test_events_and_posts_follow_a_cursor():
    game = game_now()
    api = Api(token_for("ann"))
    last = api.get(f"/games/{game.pk}/events").json()[-1]["index"]
    assert api.get(f"/games/{game.pk}/events?after={last}").json() == []
    api.post(f"/games/{game.pk}/moves", {"type": "nominate", "target": "bob", "step_number": 1})
    news = api.get(f"/games/{game.pk}/events?after={last}").json()
    assert [event["type"] for event in news] == ["nominated"]
    first = api.post(f"/games/{game.pk}/posts", {"body": "Hello **all**"}).json()
    assert first["html"] == "<p>Hello <strong>all</strong></p>"
    assert api.get(f"/games/{game.pk}/posts?after={first['id']}").json() == []


def test_every_read_has_an_etag_and_a_304():
    game = game_now()
    first = Api().get(f"/games/{game.pk}/events")
    again = Api().get(f"/games/{game.pk}/events", HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304 and again.content == b""


def test_every_read_answers_head_as_get_without_the_body_with_its_etag_and_304():
    game = game_now()
    key = import_script(script(5), now=timezone.now(), visibility=Game.Visibility.UNLISTED).link_key
    api = Api(token_for("ann"))
    paths = [path for path, operations in api.get("/openapi.json").json()["paths"].items() if "get" in operations]
    assert len(paths) >= 7
    for path in paths:
        path = path.removeprefix("/api/v1").replace("{game_id}", str(game.pk)).replace("{username}", "ann")
        path = path.replace("{key}", key)
        got, head = api.get(path), api.head(path)
        assert (head.status_code, got.status_code) == (200, 200), path
        assert head["ETag"] == got["ETag"] and head["Content-Type"] == got["Content-Type"], path
        assert head.content == b"" and int(head["Content-Length"]) == len(got.content), path
        assert api.head(path, HTTP_IF_NONE_MATCH=got["ETag"]).status_code == 304, path


def test_my_deadlines_and_notifications():
    game = game_now()
    api = Api(token_for("ann"))
    (owed,) = api.get("/me/deadlines").json()
    assert (owed["game"], owed["step"]) == (game.pk, "nominate")
    assert "Your move" in api.get("/me/notifications").json()[0]["text"]
    assert Api(token_for("bob")).get("/me/deadlines").json() == []


# Refusals


@pytest.mark.parametrize(
    "body, status, code",
    [
        ({"type": "nominate", "target": "ann", "step_number": 1}, 409, "self_target"),
        ({"type": "nominate", "target": "bob", "step_number": 0}, 409, "stale_step"),
        ({"type": "vote", "vote": "ja", "step_number": 1}, 409, "wrong_step"),
        ({"type": "nominate", "target": "bob"}, 422, "invalid_request"),
        ({"type": "dance", "step_number": 1}, 422, "invalid_request"),
        ({"type": "nominate", "target": "bob\x00", "step_number": 1}, 422, "invalid_request"),
        ({"type": "nominate", "target": "bob", "step_number": 10**30}, 422, "invalid_request"),
    ],
)
def test_a_refused_move_is_a_problem_document_with_its_code_and_changes_nothing(body, status, code):
    game = game_now()
    response = Api(token_for("ann")).post(f"/games/{game.pk}/moves", body)
    assert (response.status_code, response.json()["code"]) == (status, code)
    assert response["Content-Type"] == "application/problem+json"
    assert response.json()["detail"] and not ActionRecord.objects.filter(game=game).exists()


def test_a_stale_move_is_told_the_step_the_game_is_at_not_to_reload_a_page():
    game = game_now()
    response = Api(token_for("ann")).post(f"/games/{game.pk}/moves", {"type": "nominate", "target": "bob",
                                                                       "step_number": 0})  # fmt: skip
    problem = response.json()
    assert (response.status_code, problem["code"], problem["step_number"]) == (409, "stale_step", 1)
    assert "moved on to step 1" in problem["detail"]
    assert "page" not in problem["detail"] and "eload" not in problem["detail"]


@pytest.mark.parametrize(
    "body, location, words",
    [
        ({"type": "vote", "vote": "maybe", "step_number": 1}, "body.payload.vote", "vote must be 'ja' or 'nein'"),
        ({"type": "nominate", "target": "bob"}, "body.payload.step_number", "step_number is missing"),
        ({"type": "dance", "step_number": 1}, "body.payload.type", "type must be 'nominate', 'vote'"),
        ({"type": "nominate", "step_number": "one"}, "body.payload.step_number", "step_number must be a whole"),
        ({"type": "nominate", "step_number": -1}, "body.payload.step_number", "step_number must be at least 0"),
        ({"type": "nominate", "target": "b" * 151, "step_number": 1}, "body.payload.target", "at most 150 characters"),
        ({"type": "nominate", "target": "bob\x00", "step_number": 1}, "body.payload.target", "not allowed"),
    ],
)
def test_an_invalid_request_names_the_field_and_what_is_wrong_with_it(body, location, words):
    game = game_now()
    response = Api(token_for("ann")).post(f"/games/{game.pk}/moves", body)
    problem = response.json()
    assert (response.status_code, problem["code"]) == (422, "invalid_request")
    assert words in problem["detail"] and location in problem["detail"], problem["detail"]
    assert location in [error["location"] for error in problem["errors"]]
    assert not ActionRecord.objects.filter(game=game).exists()


def test_a_body_that_is_not_json_is_told_so_in_the_callers_language(settings):
    settings.DEBUG = True  # django-ninja then adds its parser's own English words
    game = game_now()
    api = Api(token_for("ann"))
    response = api.client.post(f"/api/v1/games/{game.pk}/moves", "{not json", content_type="application/json",
                               **api.headers)  # fmt: skip
    assert (response.status_code, response.json()["code"]) == (400, "invalid_request")
    assert "not valid JSON" in response.json()["detail"] and "Expecting" not in response.json()["detail"]


def test_a_refusal_is_in_the_token_owners_language():
    game = game_now()
    Api(token_for("ann")).get("/me/notifications")
    from games.models import Profile

    Profile.of(make_user("ann"))
    Profile.objects.filter(user__username="ann").update(language="fr")
    response = Api(token_for("ann")).post(f"/games/{game.pk}/moves", {"type": "nominate", "target": "ann",
                                                                       "step_number": 1})  # fmt: skip
    assert "ne peut pas" in response.json()["detail"] or "lui-même" in response.json()["detail"]


def test_unknown_and_out_of_range_games_are_problems():
    assert Api().get("/games/999999").json()["code"] == "no_such_game"
    assert Api().get("/games/99999999999999999999999").status_code == 422


def test_the_rate_limit_answers_429_with_retry_after(settings):
    settings.API_REQUESTS_PER_MINUTE = 3
    api = Api(token_for("ann"))
    statuses = [api.get("/me/notifications").status_code for _ in range(4)]
    assert statuses == [200, 200, 200, 429]
    refused = api.get("/me/notifications")
    assert refused.json()["code"] == "rate_limited" and 1 <= int(refused["Retry-After"]) <= 60


def test_the_schema_and_the_docs_are_served():
    schema = Api().get("/openapi.json").json()
    assert schema["openapi"].startswith("3.") and "/api/v1/games/{game_id}/moves" in schema["paths"]
    problems = schema["paths"]["/api/v1/games/{game_id}/moves"]["post"]["responses"]["409"]["content"]
    assert list(problems) == ["application/problem+json"]
    assert Api().get("/docs").status_code == 200


# A whole game, and no secret


def play_through_the_api(game: Game, names: list[str], seed: int) -> list[tuple[str, dict]]:
    """Every player a token; at each turn a seat that owes a move makes one of its legal moves, by the API."""
    apis = {name: Api(token_for(name)) for name in names}
    pick = random.Random(seed).choice
    made = []
    while Game.objects.get(pk=game.pk).status == Game.Status.RUNNING:
        views = {name: api.get(f"/games/{game.pk}/me").json() for name, api in apis.items()}
        owing = [name for name, view in views.items() if view["owes"]]
        name = pick(owing)
        move = pick(views[name]["moves"])
        response = apis[name].post(f"/games/{game.pk}/moves", {**move, "step_number": views[name]["step_number"]})
        assert response.status_code == 200, response.json()
        made.append((name, move, views[name]["step_number"]))
        assert len(made) < 500
    return made


def play_through_the_forms(game: Game, made: list) -> None:
    clients = {}
    for name, move, step_number in made:
        if name not in clients:
            clients[name] = Client(SERVER_NAME="127.0.0.1")
            clients[name].force_login(make_user(name))
        fields = {"type": move["type"], "step_number": step_number, "confirmed": "yes"}
        if "target" in move:
            fields["target"] = move["target"]
        if move["type"] in FORM_FIELD:
            value = move.get(FORM_FIELD[move["type"]])
            fields[FORM_FIELD[move["type"]]] = ("yes" if value else "no") if move["type"] == "veto_reply" else value
        assert clients[name].post(f"/games/{game.pk}/move/", fields).status_code == 302


@pytest.mark.slow
def test_a_whole_7_player_game_through_the_api_matches_the_same_moves_through_the_forms(settings):
    settings.API_REQUESTS_PER_MINUTE = 10_000  # seven bots reading every turn: more than one person's limit
    names = NAMES[:7]
    by_api = import_script(script(7), now=timezone.now())
    made = play_through_the_api(by_api, names, seed=17)
    by_forms = import_script(script(7), now=timezone.now())
    play_through_the_forms(by_forms, made)
    api_game, forms_game = Game.objects.get(pk=by_api.pk), Game.objects.get(pk=by_forms.pk)
    assert api_game.status == Game.Status.FINISHED
    assert (forms_game.status, forms_game.winner, forms_game.win_reason) == (
        api_game.status, api_game.winner, api_game.win_reason,
    )  # fmt: skip

    def log(game):
        return [(e.type, e.data) for e in GameEvent.objects.filter(game=game).order_by("index")]

    assert log(forms_game) == log(api_game)
    assert [r.action for r in ActionRecord.objects.filter(game=by_api).order_by("index")] == [
        r.action for r in ActionRecord.objects.filter(game=by_forms).order_by("index")
    ]


def normalised(response, game: Game) -> str:
    text = response.content.decode().replace(f'"id": {game.pk}', '"id": ID').replace(f"/games/{game.pk}/", "/games/ID/")
    text = re.sub(r'"game": \d+', '"game": ID', text)
    return re.sub(r'"(deadline|created_at|edited_at)": "[^"]+"', r'"\1": "TIME"', text)


def test_two_games_with_the_same_public_history_give_the_same_api_answers(settings):
    settings.API_REQUESTS_PER_MINUTE = 10_000
    tokens = {name: token_for(name) for name in PLAYERS}
    answers = []
    # Both games start at the same moment, on the minute, so that their deadlines read the same (a slow machine
    # once crossed a minute between the two imports).
    start = timezone.now().replace(second=0, microsecond=0) + timedelta(minutes=1)
    for roles, deck in ((ROLES_A, DECK_A), (ROLES_B, DECK_B)):
        with time_machine.travel(start):
            Game.objects.all().delete()
            script_ = {"players": PLAYERS, "roles": roles, "deck": deck, "first_president": "ann", "actions": ACTIONS}
            game = import_script(script_, now=timezone.now(), name="The same game")
            seen = {}
            for who in [None, *PLAYERS]:
                api = Api(tokens[who] if who else None)
                game_paths = (f"/games/{game.pk}", f"/games/{game.pk}/events", f"/games/{game.pk}/posts")
                for path in ("/lobby", "/stats", *game_paths):  # issue 31: the statistics, while games run
                    seen[(who, path.replace(str(game.pk), "ID"))] = normalised(api.get(path), game)
                if who:
                    seen[(who, "/stats/players")] = normalised(api.get(f"/stats/players/{who}"), game)
                    for path in ("/me/deadlines", "/me/notifications"):
                        # a notice's id, whatever it is (equal to the game's by chance, normalised() wrote it ID)
                        seen[(who, path)] = re.sub(r'"id": (\d+|ID)', '"id": N', normalised(api.get(path), game))
        answers.append(seen)
    assert answers[0] == answers[1]


def test_nothing_new_after_a_cursor_costs_one_query(django_assert_num_queries):
    game = game_now()
    first = Api().get(f"/games/{game.pk}/events?after=1")
    with django_assert_num_queries(1):
        again = Api().get(f"/games/{game.pk}/events?after=1", HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304
    Api(token_for("ann")).post(f"/games/{game.pk}/moves", {"type": "nominate", "target": "bob", "step_number": 1})
    news = Api().get(f"/games/{game.pk}/events?after=1", HTTP_IF_NONE_MATCH=first["ETag"])
    assert news.status_code == 200 and news.json()[-1]["type"] == "nominated"  # a new event: a new tag


def test_joining_needs_a_verified_email_and_says_so():
    game = game_now()
    api = Api(token_for("zed"))
    EmailAddress.objects.filter(user__username="zed").update(verified=False)
    response = api.post(f"/games/{game.pk}/join?as_substitute=true")
    assert response.status_code == 409, response.json()
    assert response.json()["code"] == "email_unverified"
    assert "Verify your email address first" in response.json()["detail"]
    assert Game.objects.get(pk=game.pk).load_state().substitutes == []


def test_the_lobby_counts_players_not_substitutes_as_the_site_does(client_for):
    from games.services import create_game, join_game

    game = create_game(make_user("ann"), name="Open one", player_count=7)
    join_game(game.pk, make_user("bob"))
    join_game(game.pk, make_user("cat"), as_substitute=True)
    (listed,) = Api().get("/lobby").json()["open"]
    assert (listed["id"], listed["players"]) == (game.pk, 2)
