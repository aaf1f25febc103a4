"""The two ways an action or a set-up can be wrong."""


class IllegalAction(Exception):
    """An action the rules forbid now. The message is meant for the player; the state is unchanged."""


class InvalidSetup(ValueError):
    """A game that cannot be set up as asked (player count, roles, deck, settings, a forced reshuffle)."""
