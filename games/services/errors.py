class GameError(Exception):
    """A request the game refuses, with a message for the person who made it (translated) and a stable `code`
    for programs (the API answers both), given once, where it is raised, with the facts a program needs that the
    message states in words (`details`: the step the game is at). Nothing was changed."""

    def __init__(self, message: str, *, code: str = "refused", **details) -> None:
        self.code = code
        self.details = details
        super().__init__(message)
