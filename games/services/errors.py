class GameError(Exception):
    """A request the game refuses, with a message for the person who made it (translated) and a stable `code`
    for programs (the API answers both), given once, where it is raised. Nothing was changed."""

    def __init__(self, message: str, *, code: str = "refused") -> None:
        self.code = code
        super().__init__(message)
