"""The rules variants and timeout outcomes a game is played with (RULES.md R3, R15, R23, T1, T4)."""

from dataclasses import asdict, dataclass, fields

from .errors import InvalidSetup

_CHOICES = {
    "missing_vote": ("abstain", "nein"),
    "nomination_timeout": ("fail", "random"),
    "power_timeout": ("forfeit", "random"),
}


@dataclass(frozen=True, slots=True)
class Settings:
    hitler_blind_small: bool = False
    tracker_resets_on_election: bool = False
    execution_vote: bool = False
    close_vote_early: bool = True
    missing_vote: str = "abstain"
    nomination_timeout: str = "fail"
    power_timeout: str = "forfeit"

    @classmethod
    def from_dict(cls, values: dict) -> "Settings":
        """Settings from their RULES.md names; an unknown name or a value of the wrong kind is refused."""
        if not isinstance(values, dict):
            raise InvalidSetup("settings must be an object")
        known = {f.name: f for f in fields(cls)}
        for name, value in values.items():
            if name not in known:
                raise InvalidSetup(f"unknown setting {name!r}")
            if name in _CHOICES:
                if value not in _CHOICES[name]:
                    allowed = " or ".join(repr(c) for c in _CHOICES[name])
                    raise InvalidSetup(f"setting {name!r} must be {allowed}")
            elif not isinstance(value, bool):
                raise InvalidSetup(f"setting {name!r} must be true or false")
        return cls(**values)

    def to_dict(self) -> dict:
        return asdict(self)
