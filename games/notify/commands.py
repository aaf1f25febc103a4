"""Moves by email (issue 16): the commands a "your move" email lists, and a reply's first line read as one.

A command is one line: a command word, then a player's name or a card for the moves that take one
(`nominate bob`, `discard F`, `ja`, `veto`, `accept`, `execute dan`). The words are English, and also the
reader's own language (the translations of the context "email command"): `nommer bob` is `nominate bob` for a
French reader. A line whose first word is a command word is a command, and never a post: a "Nein, bob lies"
that does not parse is refused, not published (R11: a ballot is secret).
"""

from dataclasses import dataclass

from django.conf import settings
from django.utils import translation
from django.utils.translation import pgettext

from games.engine import GameState, legal_actions
from games.engine.constants import BALLOTS, POLICIES
from games.services.moves import move_of

# Move type -> its command word, marked for translation (context "email command"), and what follows it.
WORDS = {
    "nominate": (lambda: pgettext("email command", "nominate"), "name"),
    "discard": (lambda: pgettext("email command", "discard"), "card"),
    "enact": (lambda: pgettext("email command", "enact"), "card"),
    "veto": (lambda: pgettext("email command", "veto"), None),
    "accept": (lambda: pgettext("email command", "accept"), None),
    "refuse": (lambda: pgettext("email command", "refuse"), None),
    "investigate": (lambda: pgettext("email command", "investigate"), "name"),
    "special_election": (lambda: pgettext("email command", "pick"), "name"),
    "execute": (lambda: pgettext("email command", "execute"), "name"),
}
PUNCTUATION = ".,;:!?¡¿\"'()"


@dataclass(frozen=True)
class Command:
    text: str  # as the reader writes it, in their language
    english: str  # the same in English (always accepted)
    move: dict  # for the service layer (games.services.moves.make_move)


class NotACommand(ValueError):
    """A first line that starts with a command word but is no command: refused, never posted."""


def commands_for(state: GameState, seat: int, language: str) -> list[Command]:
    """The commands `seat` may send now, one per legal move, in `language` and in English."""
    commands = []
    for action in legal_actions(state, seat):
        kind, move = action.type, move_of(state, action)
        if kind == "vote":
            key, argument = None, action.choice
        elif kind == "veto_reply":
            key, argument = ("accept" if action.choice else "refuse"), None
        elif kind in ("discard", "enact"):
            key, argument = kind, action.choice
        elif kind == "veto":
            key, argument = kind, None
        else:
            key, argument = kind, move["target"]
        commands.append(Command(_line(key, argument, language), _line(key, argument, "en"), move))
    return commands


def _line(key: str | None, argument: str | None, language: str) -> str:
    if key is None:
        return argument  # a ballot: ja or nein, the game's own words in every language
    with translation.override(language):
        word = WORDS[key][0]()
    return f"{word} {argument}" if argument else word


def read_command(line: str, language: str, names: list[str]) -> dict | None:
    """The move a reply's first line asks for; None when it is no command (it is posted); NotACommand when it
    starts with a command word but does not parse. `names` are the game's players, matched whatever the case."""
    words = line.split()
    if not words:
        return None
    first = words[0].strip(PUNCTUATION).lower()
    key = _command_key(first, language)
    if key is None:
        return None
    if words[0].lower() != first:  # "Nein," or "veto!": a sentence that starts with a command word
        raise NotACommand(line)
    arguments = words[1:]
    if key in BALLOTS:
        if arguments:
            raise NotACommand(line)
        return {"type": "vote", "vote": key}
    takes = WORDS[key][1]
    if takes is None:
        if arguments:
            raise NotACommand(line)
        return {"type": "veto"} if key == "veto" else {"type": "veto_reply", "accept": key == "accept"}
    if len(arguments) != 1:
        raise NotACommand(line)
    argument = arguments[0]
    if takes == "card":
        if argument.upper() not in POLICIES:
            raise NotACommand(line)
        return {"type": key, "policy": argument.upper()}
    match = next((name for name in names if name.lower() == argument.lower()), None)
    if match is None:
        raise NotACommand(line)
    return {"type": key, "target": match}


def _command_key(word: str, language: str) -> str | None:
    if word in BALLOTS:
        return word
    for key, (spelled, _takes) in WORDS.items():
        for code in {"en", language} & {code for code, _name in settings.LANGUAGES}:
            with translation.override(code):
                if spelled().lower() == word:
                    return key
    return None
