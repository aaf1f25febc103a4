"""import_replay / export_replay: a script in, the same script out, and replaying it gives the game's state."""

import json
from io import StringIO
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from games.engine import secret_view, summary
from games.models import Game
from games.replay import replay_script
from games.services.transfer import IllegalScriptAction, export_script, import_script
from tests.factories import SHARED_SCENARIOS, START

pytestmark = pytest.mark.django_db
OURS = Path(__file__).resolve().parents[1] / "scenarios"
SCRIPTS = sorted(SHARED_SCENARIOS.glob("*.json")) + sorted(OURS.glob("*.json"))


def without_expect(data: dict) -> dict:
    return {key: value for key, value in data.items() if key != "expect"}


@pytest.mark.parametrize("path", SCRIPTS, ids=[p.stem for p in SCRIPTS])
def test_import_then_export_gives_the_script_back(path):
    data = json.loads(path.read_text())
    if not data["expect"]["ok"]:
        with pytest.raises(IllegalScriptAction) as refused:
            import_script(data, now=START)
        assert refused.value.index == data["expect"]["error_index"]
        assert not Game.objects.exists()
        return
    game = import_script(data, now=START)
    exported = export_script(game)
    assert exported == {**without_expect(data), "rng": "named-streams"}  # exports always name the scheme
    status, output = replay_script(exported)
    assert status == 0
    assert output["state"] == summary(Game.objects.get(pk=game.pk).load_state())


def test_unknown_names_become_users_with_unusable_passwords():
    import_script(json.loads((SHARED_SCENARIOS / "abstain-elects.json").read_text()), now=START)
    user = get_user_model().objects.get(username="gus")
    assert not user.has_usable_password()


def command(*args) -> tuple[int, str, str]:
    out, err = StringIO(), StringIO()
    try:
        call_command(*args, stdout=out, stderr=err)
    except SystemExit as exit:
        return exit.code, out.getvalue(), err.getvalue()
    return 0, out.getvalue(), err.getvalue()


def test_commands_print_the_game_and_its_script():
    status, out, _ = command("import_replay", str(SHARED_SCENARIOS / "nomination-timeout.json"))
    created = json.loads(out)
    assert status == 0
    assert created["url"] == f"/games/{created['game_id']}/"
    status, out, _ = command("export_replay", str(created["game_id"]))
    assert json.loads(out)["actions"] == [{"type": "timeout"}]


def test_import_exit_statuses(tmp_path):
    status, _, err = command("import_replay", str(SHARED_SCENARIOS / "term-limit-last-chancellor.json"))
    assert status == 1
    assert "action 8: cat is term-limited" in err
    bad = tmp_path / "bad.json"
    bad.write_text('{"players": []}')
    status, _, err = command("import_replay", str(bad))
    assert status == 2
    assert "players" in err
    assert not Game.objects.exists()


def test_a_game_stored_before_named_streams_exports_and_replays_on_the_single_stream():
    """A game set up before the fair-play change has no scheme in its setup and an integer `rng` in its state:
    it exports as single-stream and its export replays to the same state."""
    script = {"players": ["ann", "bob", "cat", "dan", "eve"], "seed": 11, "rng": "single-stream"}
    script["actions"] = [{"type": "timeout"}] * 5  # five lost candidacies, a chaos policy from the random deck
    game = import_script(script, now=START)
    stored = Game.objects.get(pk=game.pk)
    assert json.loads(stored.state)["rng"]["scheme"] == "single-stream"
    Game.objects.filter(pk=game.pk).update(setup={k: v for k, v in stored.setup.items() if k != "rng"})
    exported = export_script(Game.objects.get(pk=game.pk))
    assert exported["rng"] == "single-stream"
    status, output = replay_script(exported, reveal=True)
    assert status == 0
    assert output["state"] == summary(stored.load_state())
    assert output["secret"] == secret_view(stored.load_state())
    _, named = replay_script({**exported, "rng": "named-streams"}, reveal=True)
    assert named["secret"]["roles"] != output["secret"]["roles"]
