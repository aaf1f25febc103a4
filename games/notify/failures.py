"""What a periodic job could not do in one run, as the deadline sweep does it: each failure logged with its error,
counted, and its first errors kept on the job's run record (the moderators' dashboard shows them), while the job
goes on with the next row. A row that failed is settled as failed, so that no run claims it to crash again."""

import logging
from dataclasses import dataclass, field

log = logging.getLogger(__name__)
KEPT = 5  # errors kept on the run record: enough to see what is wrong, never a wall of text


@dataclass
class Failures:
    count: int = 0
    errors: list[str] = field(default_factory=list)

    def add(self, what: str, error: BaseException | str) -> str:
        """Log the failure of `what` (a row, a game) and keep it; returns the error as it is stored on the row."""
        text = error if isinstance(error, str) else describe(error)
        log.error("%s failed: %s", what, text, exc_info=None if isinstance(error, str) else error)
        self.count += 1
        if len(self.errors) < KEPT:
            self.errors.append(f"{what}: {text}")
        return text


class Described(Exception):
    """An error standing for another whose own text holds a secret (a webhook's URL): its text is the other's
    description with the secret cut, its traceback the other's (frames name code, never values)."""


def describe(error: BaseException) -> str:
    if isinstance(error, Described):
        return str(error)[:2000]
    return f"{type(error).__name__}: {error}"[:2000]
