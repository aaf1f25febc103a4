"""The house rules' declarations: the engine's settings, which replay scripts hold, and the site's own."""

import pytest

from games.engine import InvalidSetup, Settings
from games.engine.settings import RULES, HouseRules


def test_r18_quiet_legislature_is_the_site_s_rule_never_a_replay_script_s():
    assert [rule.name for rule in RULES if not rule.engine] == ["quiet_legislature"]
    assert "quiet_legislature" not in Settings().to_dict()
    with pytest.raises(InvalidSetup, match="unknown setting 'quiet_legislature'"):
        Settings.from_dict({"quiet_legislature": False})
    assert HouseRules.from_dict({"quiet_legislature": False}).for_engine() == Settings()


def test_every_rule_has_a_sentence_for_each_of_its_values_and_its_default_among_them():
    for rule in RULES:
        assert set(rule.sentences) == set(rule.values), rule.name
        assert rule.default in rule.values, rule.name


def test_r3_hitler_is_blind_from_seven_players_whatever_the_variant():
    assert Settings().as_played(6).hitler_blind_small is False
    assert Settings().as_played(7).hitler_blind_small is True
