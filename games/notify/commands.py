"""Moves by email: the commands a "your move" email lists, and a reply's first line read as one.

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
from games.engine.constants import POLICIES
from games.engine.notation import COMMAND_WORDS, CommandWord, command_for, command_move, player_move

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
        move = player_move(state, action)
        command, argument = command_for(move)
        commands.append(Command(_line(command, argument, language), _line(command, argument, "en"), move))
    return commands


def _line(command: CommandWord, argument: str | None, language: str) -> str:
    word = _spelled(command, language)
    return f"{word} {argument}" if argument else word


def _spelled(command: CommandWord, language: str) -> str:
    if not command.translated:
        return command.word
    with translation.override(language):
        return pgettext("email command", command.word)


def read_command(line: str, language: str, names: list[str]) -> dict | None:
    """The move a reply's first line asks for; None when it is no command (it is posted); NotACommand when it
    starts with a command word but does not parse. `names` are the game's players, matched whatever the case."""
    words = line.split()
    if not words:
        return None
    first = words[0].strip(PUNCTUATION).lower()
    command = _command_word(first, language)
    if command is None:
        return None
    if words[0].lower() != first:  # "Nein," or "veto!": a sentence that starts with a command word
        raise NotACommand(line)
    arguments = words[1:]
    if command.takes is None:
        if arguments:
            raise NotACommand(line)
        return command_move(command)
    if len(arguments) != 1:
        raise NotACommand(line)
    argument = arguments[0]
    if command.takes == "policy":
        if argument.upper() not in POLICIES:
            raise NotACommand(line)
        return command_move(command, argument.upper())
    match = next((name for name in names if name.lower() == argument.lower()), None)
    if match is None:
        raise NotACommand(line)
    return command_move(command, match)


def _command_word(word: str, language: str) -> CommandWord | None:
    languages = {"en", language} & {code for code, _name in settings.LANGUAGES}
    for command in COMMAND_WORDS:
        spelled = [_spelled(command, code) for code in languages] if command.translated else [command.word]
        if word in (s.lower() for s in spelled):
            return command
    return None
