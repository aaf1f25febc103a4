"""A game's row reads in groups: what it is, its settings, its running state, its result, its bookkeeping. Every
field is in exactly one group, so a field added without a place fails here."""

from collections import Counter

from games.models import Game
from games.models.game import (
    BOOKKEEPING_FIELDS,
    IDENTITY_FIELDS,
    PLAYED_FIELDS,
    RESULT_FIELDS,
    RUNNING_FIELDS,
    SETTINGS_FIELDS,
)

GROUPS = (IDENTITY_FIELDS, SETTINGS_FIELDS, RUNNING_FIELDS, RESULT_FIELDS, BOOKKEEPING_FIELDS)


def test_every_field_of_a_game_is_in_exactly_one_group():
    grouped = Counter(name for group in GROUPS for name in group)
    fields = {field.name for field in Game._meta.concrete_fields if not field.primary_key}
    assert set(grouped) == fields
    assert [name for name, times in grouped.items() if times > 1] == []


def test_a_change_writes_the_running_state_and_result_and_never_a_setting():
    assert set(PLAYED_FIELDS) >= set(RUNNING_FIELDS) - {"seed", "setup"}
    assert set(PLAYED_FIELDS) >= set(RESULT_FIELDS)
    assert not set(PLAYED_FIELDS) & set(SETTINGS_FIELDS + IDENTITY_FIELDS) - {"status"}
