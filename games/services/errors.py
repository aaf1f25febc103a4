class GameError(Exception):
    """A request the game refuses, with a message for the person who made it. Nothing was changed."""
