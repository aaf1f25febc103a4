"""R2, R3, R27: what each player may know."""

from games.engine import player_view, public_view

from .helpers import act, elect, govern, make_game, seat


def teammates(g, name):
    return {mate["name"]: mate["role"] for mate in player_view(g, seat(g, name))["teammates"]}


def test_r3_liberals_know_nobody():
    g = make_game(7)
    assert teammates(g, "ann") == {}


def test_r3_fascists_know_every_fascist_and_hitler():
    g = make_game(7)
    assert teammates(g, "bob") == {"cat": "hitler", "gus": "fascist"}
    assert teammates(g, "gus") == {"bob": "fascist", "cat": "hitler"}


def test_r3_hitler_knows_the_fascist_in_5_and_6_player_games():
    assert teammates(make_game(5), "cat") == {"bob": "fascist"}
    assert teammates(make_game(6), "cat") == {"bob": "fascist"}


def test_r3_hitler_knows_nobody_from_7_players():
    for n in (7, 8, 9, 10):
        assert teammates(make_game(n), "cat") == {}


def test_r3_variant_hitler_blind_small():
    assert teammates(make_game(5, hitler_blind_small=True), "cat") == {}
    assert teammates(make_game(6, hitler_blind_small=True), "cat") == {}
    assert teammates(make_game(5, hitler_blind_small=True), "bob") == {"cat": "hitler"}


def test_r17_only_the_government_sees_the_cards():
    g = make_game(deck="LFF" + "LLLLL" + "F" * 9)
    govern(g, "bob", discard="F", enact="L")
    ann = player_view(g, seat(g, "ann"))["hands"]
    bob = player_view(g, seat(g, "bob"))["hands"]
    assert ann == [
        {
            "round": 1,
            "veto": None,
            "enacted": "L",
            "role": "president",
            "drawn": ["L", "F", "F"],
            "discarded": "F",
            "passed": ["L", "F"],
        }
    ]
    assert bob[0]["received"] == ["L", "F"] and bob[0]["discarded"] == "F"
    for other in ("cat", "dan", "eve"):
        assert player_view(g, seat(g, other))["hands"] == []


def test_r17_the_chancellor_sees_nothing_before_the_president_discards():
    g = make_game()
    elect(g, "bob")
    assert player_view(g, seat(g, "ann"))["hand"] == ["F", "F", "F"]
    assert player_view(g, seat(g, "bob"))["hand"] == []
    assert player_view(g, seat(g, "bob"))["hands"] == []


def test_public_view_holds_no_secret_while_the_game_runs():
    g = make_game(deck="LFF" + "LLLLL" + "F" * 9)
    govern(g, "bob", discard="F", enact="L")
    view = public_view(g)
    assert "reveal" not in view
    text = repr(view)
    for secret in ("'hitler'", "'fascist'", "'liberal'", "drawn", "roles", "'F'", "'L'"):
        assert secret not in text


def test_r27_everything_is_revealed_when_the_game_ends():
    g = make_game()
    act(g, "cancel")
    reveal = public_view(g)["reveal"]
    assert reveal["roles"]["cat"] == "hitler"
    assert reveal["draw_pile"] == list("F" * 11 + "LLLLLL")
    assert "reveal" in player_view(g, seat(g, "ann"))
