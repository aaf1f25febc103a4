"""A finished game's replay: the board and every secret of each step, built by playing the game's stored
replay script through the engine (games/replay.py moments: the code that replays games, not the log's words),
beside the thread's posts of each step's period and the claims filed against the cards really drawn.

One page per round, each step a section with a link of its own (`?step=42#step-42`); the page's script
(static/js/replay.js) shows one step at a time, with first, previous, next, last, a slider and the arrow keys, and
goes to another round's page when a step is there. While the game runs nothing of it exists (404, as the replay
script)."""

import re
from bisect import bisect_right
from dataclasses import dataclass, field
from itertools import accumulate

from django.http import Http404
from django.shortcuts import render
from django.utils.translation import gettext as _

from games.access import is_over
from games.announcements import POLICY, describe
from games.engine.events import DeadlinePassed
from games.engine.settings import HouseRules
from games.models import Claim, Post
from games.presenters import POST_FIELDS, board_status, post_htmls
from games.replay import Moment, moments
from games.services.transfer import export_script

from .common import reach

NUMBER = re.compile(r"[0-9]{1,6}")


@dataclass
class Step:
    """A moment of the replay as its page shows it."""

    number: int
    round: int
    move: str  # the action that led here, in words ("" for the deal)
    log: list[str]  # the announcements it made
    status: dict  # presenters.board_status, with every role (R27)
    secret: dict  # engine/views.py secret_view
    posts: list[str] = field(default_factory=list)  # the thread's posts of the step's period, as HTML

    @property
    def board_id(self) -> str:  # the board's title, one a step on the page
        return f"board-{self.number}"


def replay(request, game_id: int):
    game = reach(request, game_id)
    if not is_over(game) or game.setup is None:
        raise Http404(_("The replay opens when the game ends."))
    found = moments(export_script(game))
    rules = game.rules
    # A step belongs to the round its move was made in (a veto or a failed vote that ends round 6 is round 6's),
    # the deal to the first.
    made_in = [found[0].public["round"], *(moment.public["round"] for moment in found[:-1])]
    steps = [_step(moment, rules, made_in[moment.number]) for moment in found]
    rounds = sorted({step.round for step in steps})
    shown_round, asked = _round_asked(request, steps, rounds)
    shown = [step for step in steps if step.round == shown_round]
    _add_posts(game, shown, steps)
    place = rounds.index(shown_round)
    context = {
        "game": game,
        "steps": shown,
        "last": steps[-1].number,
        "round": shown_round,
        "current": shown[0].number if asked is None else asked,  # the slider's and the count's, without script
        "rounds": rounds,
        "previous_round": rounds[place - 1] if place else None,
        "next_round": rounds[place + 1] if place + 1 < len(rounds) else None,
        "claims": _claims(game, shown_round, found[-1].secret),
        "roles": found[0].secret["roles"],
    }
    return render(request, "games/replay.html", context)


def _round_asked(request, steps: list[Step], rounds: list[int]) -> tuple[int, int | None]:
    """The round of `?step=N` and N (past the last step, the last), or `?round=R`, or the first; a step that is no
    number or a round the game does not have is a 404."""
    asked_step, asked_round = request.GET.get("step"), request.GET.get("round")
    if asked_step is not None:
        if not NUMBER.fullmatch(asked_step):
            raise Http404(_("This game has no such step."))
        number = min(int(asked_step), steps[-1].number)
        return steps[number].round, number
    if asked_round is not None:
        if not NUMBER.fullmatch(asked_round) or int(asked_round) not in rounds:
            raise Http404(_("This game has no such round."))
        return int(asked_round), None
    return rounds[0], None


def _step(moment: Moment, rules: HouseRules, round_number: int) -> Step:
    view = moment.public | {"reveal": moment.secret}  # every role on the table, at every step
    log = [describe(event, rules) for event in moment.events if not isinstance(event, DeadlinePassed)]
    move = describe_move(moment.action, rules) if moment.action else _("The roles are dealt and the deck shuffled.")
    return Step(moment.number, round_number, move, log, board_status(view), moment.secret)


def _add_posts(game, shown: list[Step], steps: list[Step]) -> None:
    """The game thread's posts from the moment each shown step was reached until the next step's: step k is
    reached when the game's k-th action was applied (the deal, when the game started)."""
    times = [game.started_at, *game.actions.order_by("index").values_list("created_at", flat=True)]
    if len(times) != len(steps) or None in times:  # never so (every action is recorded, a started game has its
        return  # start), but no periods rather than wrong ones
    reached = list(accumulate(times, max))  # in order, whatever a clock did
    first, after = shown[0].number, shown[-1].number + 1
    posts = Post.objects.filter(game=game, thread=Post.Thread.MAIN, created_at__gte=reached[first])
    if after < len(reached):
        posts = posts.filter(created_at__lt=reached[after])
    rows = list(posts.order_by("created_at", "pk").values(*POST_FIELDS))
    for row, html in zip(rows, post_htmls(game, rows), strict=True):
        number = bisect_right(reached, row["created_at"]) - 1  # the last step reached when it was posted
        shown[number - first].posts.append(html)


def _claims(game, round_number: int, secret: dict) -> list[dict]:
    """The claims filed for the round's legislative session, each beside the cards really drawn (R27)."""
    session = next((s for s in secret["sessions"] if s["round"] == round_number), None)
    if session is None:
        return []
    drawn = list(session["drawn"])
    passed = list(drawn)
    if session["president_discarded"]:
        passed.remove(session["president_discarded"])
    really = {Claim.Office.PRESIDENT: drawn, Claim.Office.CHANCELLOR: passed}
    rows = []
    for claim in Claim.objects.filter(game=game, round=round_number):
        cards = really[claim.office]
        rows.append(
            {"claim": claim, "really": cards, "true": sorted(claim.cards) == sorted(cards), "office": claim.office}
        )
    return rows


def describe_move(action: dict, rules: HouseRules) -> str:
    """An action of the replay script (REPLAY.md) in words, with what it hid while the game ran, as the game's house
    `rules` made it (under `execution_vote` an execution is only proposed): for a finished game's replay only."""
    a = action
    match a["type"]:
        case "nominate":
            return _("%(by)s nominates %(target)s for chancellor.") % a
        case "vote":
            return (_("%(by)s votes Ja.") if a["vote"] == "ja" else _("%(by)s votes Nein.")) % a
        case "discard":
            return _("%(by)s discards %(policy)s.") % {"by": a["by"], "policy": POLICY[a["policy"]]()}
        case "enact":
            return _("%(by)s enacts %(policy)s.") % {"by": a["by"], "policy": POLICY[a["policy"]]()}
        case "veto":
            return _("%(by)s asks for a veto.") % a
        case "veto_reply":
            return (_("%(by)s accepts the veto.") if a["accept"] else _("%(by)s refuses the veto.")) % a
        case "investigate":
            return _("%(by)s investigates %(target)s.") % a
        case "special_election":
            return _("%(by)s calls a special election: %(target)s is the next candidate.") % a
        case "execute" if rules.execution_vote:
            return _("%(by)s proposes executing %(target)s.") % a
        case "execute":
            return _("%(by)s executes %(target)s.") % a
        case "timeout":
            return _("The deadline passes.")
        case "absence":
            return (_("%(by)s announces an absence.") if a["away"] else _("%(by)s is back.")) % a
        case "substitute":
            return _("%(name)s signs up as a substitute.") % a
        case "excuse":
            return _("A moderator excuses %(player)s's missed moves in this round.") % a
        case "exile":
            return _("A moderator exiles %(player)s at the end of the round.") % a
        case "replace":
            return _("A moderator gives %(player)s's seat to %(name)s at the end of the round.") % a
        case "cancel":
            return _("A moderator cancels the game.")
        case _:
            return a["type"]
