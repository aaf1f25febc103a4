"""The two ways an action or a set-up can be wrong."""


def _(template: str) -> str:
    """Marks a message for translation: the site's catalogues pick it up; the engine itself speaks English."""
    return template


class IllegalAction(Exception):
    """An action the rules forbid now. The message is meant for the player; the state is unchanged.

    `template` (with %(name)s placeholders) and `params` let the site show the message in the player's language;
    `code` names the refusal for programs (the API's problem documents: "term_limited", "wrong_step", ...), given
    once, where it is raised.
    """

    def __init__(self, template: str, *, code: str = "illegal_action", **params) -> None:
        self.template = template
        self.code = code
        self.params = params
        super().__init__(template % params if params else template)


class InvalidSetup(ValueError):
    """A game that cannot be set up as asked (player count, roles, deck, settings, a forced reshuffle)."""
