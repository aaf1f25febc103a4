"""The house rules a game is played with (RULES.md R3, R4, R11, R12, R15, R18, R23, T4), each declared once here.

A rule's field (in `Settings` when the engine plays it, in `HouseRules` when only the site does) carries how people
read it (a `Rule`): the new-game form, the API, the settings shown to players and the rules page are all derived
from these declarations, so adding a rule means adding a field here and playing it in the engine. Its words are
English msgids that the pages translate.
"""

from dataclasses import asdict, dataclass, field, fields, replace
from typing import Any

from .constants import REBALANCED, SMALL_GAME_MAX
from .errors import InvalidSetup


def gettext_noop(message: str) -> str:
    """Marks a msgid for makemessages without Django (named `_` below, a keyword xgettext knows); the pages
    translate it."""
    return message


# Where a rule's sentence stands on the rules page (templates/games/rules.html): a spot in one of its paragraphs.
PLACES = (
    "roles",
    "deck",
    "ballot",
    "vote",
    "tracker",
    "legislature",
    "execution",
    "nomination_deadline",
    "power_deadline",
)


@dataclass(frozen=True, slots=True)
class Rule:
    """How a house rule reads: its label, the rules page's sentence for each value ("" says nothing) and where it
    stands, its choices as (value, label) (none: true or false), the new-game form's help ("" none), and whether the
    engine plays it or only the site."""

    label: str
    sentences: dict[Any, str]
    place: str
    choices: tuple[tuple[str, str], ...] = ()
    help_text: str = ""
    engine: bool = True
    name: str = ""
    default: Any = None

    @property
    def values(self) -> tuple:
        return tuple(value for value, label in self.choices) if self.choices else (False, True)


def rule(default: Any, label: str, *, place: str, sentences: dict, choices: tuple = (), help_text: str = "") -> Any:
    """A field of `Settings` (the engine's rules) or `HouseRules` (the site's own) declaring a house rule."""
    return field(default=default, metadata={"rule": Rule(label, sentences, place, choices, help_text)})


_ = gettext_noop


@dataclass(frozen=True, slots=True)
class Settings:
    hitler_blind_small: bool = rule(
        False,
        _("Hitler blind in 5-6 player games"),
        place="roles",
        sentences={
            False: _("In this game Hitler knows the fascists too."),
            True: _("In this game Hitler does not know who the fascists are."),
        },
    )
    rebalanced: bool = rule(
        False,
        _("rebalanced for 6, 7 and 9 players"),
        place="deck",
        help_text=_(
            "With 6 players the game starts with one fascist policy already enacted; with 7 players the deck holds "
            "10 fascist policies instead of 11; with 9 players, 9. With 5, 8 or 10 players it changes nothing."
        ),
        sentences={
            False: "",
            True: _(
                "In this game the policies are rebalanced for the table size: with 6 players one fascist policy is on "
                "the board from the start (it grants no power) and the draw pile holds the other 16, 6 liberal and 10 "
                "fascist; with 7 players the deck is 6 liberal and 10 fascist policies; with 9 players, 6 liberal and "
                "9 fascist."
            ),
        },
    )
    tracker_resets_on_election: bool = rule(
        False,
        _("election tracker resets on election"),
        place="tracker",
        sentences={False: "", True: _("In this game it also goes back to 0 when a government is elected.")},
    )
    execution_vote: bool = rule(
        False,
        _("executions need a vote"),
        place="execution",
        sentences={
            False: "",
            True: _(
                "In this game every living player first votes on the execution, as on a government; if the vote "
                "fails, nobody dies."
            ),
        },
    )
    close_vote_early: bool = rule(
        True,
        _("close the vote when everyone has voted"),
        place="vote",
        sentences={
            False: _("The vote stays open until its deadline, even when everyone has voted."),
            True: _("The vote closes as soon as everyone has voted."),
        },
    )
    missing_vote: str = rule(
        "abstain",
        _("a ballot not cast"),
        place="ballot",
        choices=(("abstain", _("Not counted")), ("nein", _("Counted as Nein"))),
        sentences={"abstain": _("A ballot not cast is not counted."), "nein": _("A ballot not cast counts as Nein.")},
    )
    nomination_timeout: str = rule(
        "fail",
        _("when no chancellor is nominated in time"),
        place="nomination_deadline",
        choices=(("fail", _("The candidacy is lost")), ("random", _("A random eligible nominee"))),
        sentences={
            "fail": _("a missing nomination loses the candidacy, as a failed election;"),
            "random": _("a missing nomination is made at random among the eligible players;"),
        },
    )
    power_timeout: str = rule(
        "forfeit",
        _("when a power is not used in time"),
        place="power_deadline",
        choices=(("forfeit", _("The power is forfeited")), ("random", _("A random legal target"))),
        sentences={
            "forfeit": _("an unused power is lost."),
            "random": _("an unused power goes to a random legal target."),
        },
    )

    @classmethod
    def from_dict(cls, values: dict) -> "Settings":
        """Settings from their RULES.md names; an unknown name or a value of the wrong kind is refused."""
        if not isinstance(values, dict):
            raise InvalidSetup("settings must be an object")
        known = {f.name: f.metadata["rule"] for f in fields(cls)}
        for name, value in values.items():
            if name not in known:
                raise InvalidSetup(f"unknown setting {name!r}")
            if known[name].choices:
                if value not in known[name].values:
                    allowed = " or ".join(repr(c) for c in known[name].values)
                    raise InvalidSetup(f"setting {name!r} must be {allowed}")
            elif not isinstance(value, bool):
                raise InvalidSetup(f"setting {name!r} must be true or false")
        return cls(**values)

    def to_dict(self) -> dict:
        return asdict(self)

    def as_played(self, players: int) -> "Settings":
        """These settings as they act at a table of `players`: Hitler is blind from 7 players whatever the variant
        (R3); `rebalanced` is off at the table sizes it leaves as they are."""
        played = replace(self, hitler_blind_small=True) if players > SMALL_GAME_MAX else self
        return played if players in REBALANCED else replace(played, rebalanced=False)


@dataclass(frozen=True, slots=True)
class HouseRules(Settings):
    """A game's house rules as the site keeps them: the engine's settings and the site's own, which the engine
    never sees and replay scripts never hold (REPLAY.md)."""

    # R18: the site closes its thread; the engine has none.
    quiet_legislature: bool = rule(
        True,
        _("thread closed during legislative sessions"),
        place="legislature",
        sentences={
            False: _("In this game players may talk in the thread during the session."),
            True: _(
                "In this game the thread is closed to players during the session, from the draw until a policy is "
                "enacted or vetoed."
            ),
        },
    )

    def for_engine(self) -> Settings:
        return Settings(**{f.name: getattr(self, f.name) for f in fields(Settings)})


_ENGINE = {f.name for f in fields(Settings)}
RULES: tuple[Rule, ...] = tuple(
    sorted(
        (
            replace(f.metadata["rule"], name=f.name, default=f.default, engine=f.name in _ENGINE)
            for f in fields(HouseRules)
        ),
        key=lambda declared: bool(declared.choices),
    )
)  # every house rule in the order the pages list them: the boxes to tick, then the choices
