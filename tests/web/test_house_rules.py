"""Each house rule is declared once (games.engine.settings): the new-game form, the API's schema and answers, the
settings shown to players and the rules page all come from that declaration, in every value of every rule."""

import pytest
from django.test import Client
from django.utils import translation

from games.api import api
from games.engine.settings import RULES, Rule
from games.forms import GameForm
from games.presenters import game_settings
from games.services import create_game
from tests.factories import make_user

pytestmark = pytest.mark.django_db

EVERY_VALUE = [pytest.param(rule, value, id=f"{rule.name}={value}") for rule in RULES for value in rule.values]


def shown(rule: Rule, value) -> str:
    """What the settings list says of a value: its choice's label, or yes or no."""
    return dict(rule.choices)[value] if rule.choices else ("yes" if value else "no")


@pytest.mark.parametrize("rule", RULES, ids=lambda rule: rule.name)
def test_each_rule_is_a_field_of_the_new_game_form_with_its_default(rule):
    field = GameForm().fields[rule.name]
    assert (str(field.label), field.initial) == (rule.label, rule.default)
    if rule.choices:
        assert [(value, str(label)) for value, label in field.choices] == list(rule.choices)


@pytest.mark.parametrize("rule", RULES, ids=lambda rule: rule.name)
def test_each_rule_is_in_the_api_schema_with_its_type_and_choices(rule):
    schema = api.get_openapi_schema()["components"]["schemas"]["GameSettings"]["properties"][rule.name]
    assert schema["type"] == ("string" if rule.choices else "boolean")
    assert schema.get("enum") == (list(rule.values) if rule.choices else None)


@pytest.mark.parametrize(("rule", "value"), EVERY_VALUE)
def test_each_value_of_each_rule_is_taken_by_the_form_and_shown_everywhere(rule, value):
    assert GameForm().fields[rule.name].clean(value) == value
    game = create_game(make_user("ann"), player_count=6, **{rule.name: value})  # every rule acts at 6 players
    assert getattr(game.rules, rule.name) == value
    with translation.override("en"):
        assert {"label": rule.label, "value": shown(rule, value)} in [
            {key: str(text) for key, text in row.items()} for row in game_settings(game)
        ]
    assert Client().get(f"/api/v1/games/{game.pk}").json()["settings"][rule.name] == value
    page = " ".join(Client(HTTP_ACCEPT_LANGUAGE="en").get(f"/games/{game.pk}/rules/").content.decode().split())
    if rule.sentences[value]:
        assert rule.sentences[value] in page
    for other, sentence in rule.sentences.items():
        if other != value and sentence and sentence not in rule.sentences[value]:
            assert sentence not in page


def test_the_settings_list_the_form_and_the_api_keep_the_rules_in_one_order():
    names = [rule.name for rule in RULES]
    assert [name for name in GameForm().fields if name in names] == names
    api_settings = api.get_openapi_schema()["components"]["schemas"]["GameSettings"]["properties"]
    assert [name for name in api_settings if name in names] == names
