"""What the pages show, built only from the engine's public and private views and the public log."""

import math
from collections import Counter
from collections.abc import Iterator
from functools import cache

from django.template.loader import get_template
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from . import fragments
from .announcements import describe_stored
from .engine import GameState, legal_actions, player_view, public_view, secret_view
from .engine import events as ev
from .engine.constants import BALLOTS, POWER_TRACK, ROLE_COUNTS
from .engine.events import from_stored
from .engine.settings import PLACES, RULES, HouseRules, Rule
from .forms import MINUTE_LABELS, GameForm
from .models import Claim, Game, GameEvent


def status_box(game: Game, state: GameState) -> dict:
    """Both tracks with this game's power slots, the tracker, the government, who owes what and by when."""
    return {**board_status(public_view(state)), "deadline": game.deadline, "paused": game.paused_at is not None}


def board_status(view: dict) -> dict:
    """The board of a public view (the status box's, a replay's step's): both tracks with the table size's power
    slots, the tracker and the table; with the view's `reveal` (R27), every role on the table."""
    slots = view["power_track"] + [None]
    return {
        **view,
        "fascist_slots": [
            {"number": n, "power": slots[n - 1], "filled": n <= view["fascist_policies"], "last": n == 6}
            for n in range(1, 7)
        ],
        "liberal_slots": [{"number": n, "filled": n <= view["liberal_policies"]} for n in range(1, 6)],
        "tracker_slots": [{"number": n, "filled": n <= view["election_tracker"]} for n in range(1, 4)],
        "table": table(view),
    }


# The board's table (templates/games/_board.html): an SVG 360 x 266, the seats on an ellipse around the middle.
TABLE_CENTRE, TABLE_RADII = (180, 124), (138, 96)
NAME_LENGTH = 10


def table(view: dict) -> list[dict]:
    """The seats around the table, from the public view only: where each sits, its name (shortened for the
    drawing, whole in its title), the government, term limits, the dead, the exiled, those confirmed not Hitler,
    and once the game is over (R27) every role."""
    players = view["players"]
    roles = view.get("reveal", {}).get("roles", {})
    (cx, cy), (rx, ry) = TABLE_CENTRE, TABLE_RADII
    seats = []
    for index, player in enumerate(players):
        angle = 2 * math.pi * index / len(players) - math.pi / 2  # the first seat at the top, then clockwise
        name = player["name"]
        seats.append(
            {
                **player,
                "x": round(cx + rx * math.cos(angle), 1),
                "y": round(cy + ry * math.sin(angle), 1),
                "label": name if len(name) <= NAME_LENGTH else name[: NAME_LENGTH - 1] + "…",
                "president": name == view["president"],
                "chancellor": name == view["chancellor"],
                "term_limited": name in view["term_limited"],
                "role": roles.get(name, ""),
            }
        )
    return seats


# Everything a post shows of itself and its author, read as plain values (games/live.py page_posts): the page
# fragment holding a page's posts is keyed by them, so that an edit, a hide, an unhide or a new display name is
# another fragment. Not the source text (the HTML is shown), not the quoted post (quoted in the HTML already when it
# was saved).
POST_FIELDS = ("pk", "author_id", "html", "created_at", "edited_at", "hidden_at", "author__username",
               "author__profile__display_name")  # fmt: skip


def post_htmls(game, posts: list[dict]) -> list[str]:
    """Each post's author, times and body as every reader sees them (templates/games/_post.html); what differs per
    reader (edit, quote, report) is the page's. Not kept one by one: the page's fragment keeps them (kept one by
    one, a page read for the first time asked the cache for 25 posts and wrote them, more than rendering them costs).
    Its HTML was sanitised when it was saved."""
    template = get_template("games/_post.html")
    profile = cache(lambda username: reverse("games:user_profile", args=[username]))  # a page has a few authors
    return [template.render({"post": _shown(game, post, profile)}) for post in posts]


def _shown(game, post: dict, profile) -> dict:
    """A post's row with what its header links to, its moments in the reader's zone."""
    edited = post["edited_at"]
    return post | {
        "profile": profile(post["author__username"]) if post["author_id"] else "",
        "created": timezone.localtime(post["created_at"]),
        "edited": timezone.localtime(edited) if edited else None,
        "history": game.address("post_history", post["pk"]) if edited else "",
    }


def board_fragment(status: dict) -> str:
    """The table drawn from the public view (templates/games/_board.html), the same for every reader of a language:
    kept as a fragment keyed by all it draws."""
    shown = {key: status[key] for key in ("table", "round", "tracker_slots", "draw_pile", "discard_pile")}
    shown["reveal"] = bool(status.get("reveal"))
    template = get_template("games/_board.html")
    return fragments.render("board", tuple(sorted(shown.items())), lambda: template.render({"status": shown}))


def announcement_fragments(runs: list[list], rules: HouseRules) -> list[str]:
    """Each run of announcements the thread shows between two posts, as every reader sees it
    (templates/games/_announcements.html), from the fragment cache in one round trip: an event never changes once
    logged, and its type, data and time, with the game's house rules some sentences follow, are the key."""
    template = get_template("games/_announcements.html")

    def maker(run: list):
        return lambda: template.render({"announcements": announcements(run, rules)})

    said = tuple(sorted(rules.to_dict().items()))
    parts = [(said, *((event.type, event.data, event.created_at) for event in run)) for run in runs]
    return fragments.render_many("announcements", [(key, maker(run)) for key, run in zip(parts, runs, strict=True)])


def announcements(events: list[GameEvent], rules: HouseRules | None = None) -> list[dict]:
    """The log's events as the thread says them, following the game's house `rules` where a sentence does."""
    return [
        {
            "kind": "event",
            "created_at": e.created_at,
            "type": e.type,
            "text": describe_stored(e.type, e.data, rules),
            "data": e.data,
        }
        for e in events
        if e.type != ev.DeadlinePassed.type
    ]


def revealed_secrets(state: GameState, events: list[GameEvent]) -> dict:
    """R27: the secret view, each choice a passed deadline made at random (T4) marked as such: a discard, an
    enactment, an investigation's target are the deadline's, not the player's."""
    at_random = _at_random(events)
    secret = secret_view(state)
    for session in secret["sessions"]:
        session["discarded_at_random"] = (ev.PresidentDiscarded, session["round"]) in at_random
        session["enacted_at_random"] = (ev.PolicyEnacted, session["round"]) in at_random
    for investigation in secret["investigations"]:
        investigation["at_random"] = (ev.Investigated, investigation["round"]) in at_random
    return secret


def _at_random(events: list[GameEvent]) -> set[tuple[type, int]]:
    """(event kind, round) of each outcome a deadline applied (T4): a round has one session and one power."""
    return {(entry.__class__, entry.round) for entry in _by_deadline(events)}


def _by_deadline(events: list[GameEvent]) -> Iterator[ev.Event]:
    for e in events:
        if e.data.get("by_deadline"):
            yield from_stored(e.type, e.data)


_GOVERNMENT_KINDS = frozenset(
    kind.type
    for kind in (ev.VoteClosed, ev.PolicyEnacted, ev.VetoAnswered, ev.ExecutionProposed, ev.ExecutionVoteClosed)
)


def government_history(events: list[GameEvent], claims: list[Claim]) -> list[dict]:
    """One row per vote held, an election's or (R23 `execution_vote`) an execution's: round, president, chancellor
    or the player whose execution was put to the vote, ballots, result, policy and the claims filed."""
    rows = []
    claimed = {(claim.round, claim.office): claim for claim in claims}
    current = proposer = None
    for event in events:
        if event.type not in _GOVERNMENT_KINDS:
            continue
        match from_stored(event.type, event.data):
            case ev.VoteClosed() as vote:
                current = _government(vote, claimed)
                rows.append(current)
            case ev.PolicyEnacted(chaos=False) as enacted if current is not None and enacted.round == current["round"]:
                current["policy"] = enacted.policy
            case ev.VetoAnswered(accepted=True) as answer if current is not None and answer.round == current["round"]:
                current["veto"] = True
            case ev.ExecutionProposed(president=president):
                proposer = president
            case ev.ExecutionVoteClosed() as vote:
                rows.append(_vote(vote, president=proposer, chancellor=None) | {"execution_of": vote.target})
    for row in rows:
        row["conflicts"] = claim_conflicts(row)
    return rows


def _government(vote: ev.VoteClosed, claimed: dict) -> dict:
    """An election's row, with the claims its government filed."""
    return _vote(vote, president=vote.president, chancellor=vote.chancellor) | {
        "president_claim": claimed.get((vote.round, Claim.Office.PRESIDENT)),
        "chancellor_claim": claimed.get((vote.round, Claim.Office.CHANCELLOR)),
    }


def _vote(vote: ev.VoteClosed | ev.ExecutionVoteClosed, *, president: str | None, chancellor: str | None) -> dict:
    """A closed vote's row: its ballots by name and its count, public once it closed (R12), nothing enacted yet."""
    return {
        "round": vote.round,
        "president": president,
        "chancellor": chancellor,
        "execution_of": None,
        "ballots": vote.ballots,
        "ja": vote.ja,
        "nein": vote.nein,
        "passed": vote.passed,
        "policy": None,
        "veto": False,
        "president_claim": None,
        "chancellor_claim": None,
    }


def private_panel(game: Game, state: GameState, seat: int, events: list[GameEvent] = ()) -> dict:
    """The seat holder's own knowledge and the form for what they owe, offering only legal choices. A past hand
    whose choice the deadline made (T4, told by the public `events`) says so: the holder did not choose it."""
    view = player_view(state, seat)
    at_random = _at_random(events)
    for hand in view["hands"]:
        own_choice = ev.PresidentDiscarded if hand["role"] == "president" else ev.PolicyEnacted
        hand["at_random"] = (own_choice, hand["round"]) in at_random
    moves = [action for action in legal_actions(state, seat) if action.by == seat] if not state.over else []
    kinds = {action.type for action in moves}
    return {
        **view,
        "step_number": game.step_number,
        "owes": sorted(kinds - {"vote"}) + (["vote"] if "vote" in kinds else []),
        "targets": [state.seats[i].name for i in sorted({a.target for a in moves if a.target is not None})],
        "cards": sorted({a.choice for a in moves if a.type in ("discard", "enact")}),
        "my_ballot": state.votes.get(seat) if "vote" in kinds else None,
        "ballots": BALLOTS,
        "can_veto": "veto" in kinds,
        "alive": state.seats[seat].status == "alive",
        "status": str(state.seats[seat].status),
        **_claims(game, state, seat),
        "running": game.status == Game.Status.RUNNING,
    }


def _claims(game: Game, state: GameState, seat: int) -> dict:
    """The seat's claims, filed or still to file; and the offer to file the claim of the session that just ended
    at the top of the panel until it is filed or the next legislative session starts: then the table
    has moved on, and the claim can still be filed from the list."""
    may_file = game.status == Game.Status.RUNNING and state.seats[seat].status == "alive"
    items = [item for item in seat_claims(game, state, seat) if item["filed"] or may_file]
    ended = state.sessions[-1].round if state.sessions and state.sessions[-1].over else None
    offer = next((item for item in items if item["round"] == ended and not item["filed"] and may_file), None)
    return {"claims": [item for item in items if item is not offer], "claim_offer": offer}


# The claims a government member can file, as buttons: every hand of 3 (president) or 2 (chancellor) cards.
CLAIM_CHOICES = {"president": ["FFF", "FFL", "FLL", "LLL"], "chancellor": ["FF", "FL", "LL"]}


def seat_claims(game: Game, state: GameState, seat: int) -> list[dict]:
    """The sessions this seat sat in, once over, each with its filed claim or the choices to file one (the claims
    read only for a seat that sat in one)."""
    sat = [
        (session.round, office)
        for session in state.sessions
        if session.over  # R18: nothing is said about a session before it is over
        for office, member in (("president", session.president_seat), ("chancellor", session.chancellor_seat))
        if member == seat
    ]
    filed = {(claim.round, claim.office): claim for claim in game.claims.all()} if sat else {}
    return [
        {"round": round_number, "office": office, "filed": filed.get((round_number, office)),
         "choices": [] if (round_number, office) in filed else CLAIM_CHOICES[office]}
        for round_number, office in sat
    ]  # fmt: skip


def claim_question(office: str, round_number: int, cards: str) -> str:
    """The question asked before a claim is filed: it is public and final."""
    values = {"cards": cards, "round": round_number}
    if office == "president":
        question = _("Claim that you drew %(cards)s in round %(round)s?") % values
    else:
        question = _("Claim that you received %(cards)s in round %(round)s?") % values
    return question + " " + _("Everyone will see it, and it cannot be changed.")


def claim_conflicts(row: dict) -> list[str]:
    """Where a government's claims cannot both be true, or contradict the policy on the board."""
    president, chancellor = row["president_claim"], row["chancellor_claim"]
    reasons = []
    if president and chancellor and not Counter(chancellor.cards) <= Counter(president.cards):
        reasons.append(
            _("%(chancellor)s claims cards that %(president)s's claim could not have passed.")
            % {"chancellor": row["chancellor"], "president": row["president"]}
        )
    for claim, name in ((president, row["president"]), (chancellor, row["chancellor"])):
        if claim and row["policy"] and row["policy"] not in claim.cards:
            reasons.append(_("%(name)s's claim does not hold the policy enacted.") % {"name": name})
    return reasons


# The steps with a duration of their own: each is a `<name>_hours` setting of the game.
DURATIONS = ("nomination", "election", "discard", "legislative", "veto_reply", "veto_enact", "power", "execution_vote")


def game_settings(game: Game) -> list[dict]:
    """Every setting of the game in plain words, as players read them before joining and during play: the
    variants, what a missed deadline does, every duration, the deadline hour, absences and the exile filter."""
    labels = GameForm.Meta.labels  # the form's labels are the settings' plain names, translated
    durations = MINUTE_LABELS if game.minute_durations else labels
    rules = game.rules
    rows = [{"label": _(rule.label), "value": _rule_value(rule, getattr(rules, rule.name))} for rule in RULES]
    for name in DURATIONS:
        rows.append({"label": durations[f"{name}_hours"], "value": _span(getattr(game, f"{name}_hours"), game)})
    hour = "—" if game.deadline_hour is None else f"{game.deadline_hour:02d}:00 ({game.time_zone})"
    rows.append({"label": labels["deadline_hour"], "value": hour})
    notice = game.absence_notice_hours
    rows.append({"label": labels["absence_notice_hours"], "value": _hours(notice)})
    days = ngettext("%(count)s day", "%(count)s days", game.absence_max_days) % {"count": game.absence_max_days}
    rows.append({"label": labels["absence_max_days"], "value": days})
    lookback = game.exile_lookback_games
    rows.append({"label": labels["exile_lookback_games"], "value": "—" if not lookback else str(lookback)})
    rows.append({"label": _("rated"), "value": _("yes") if game.is_rated else _("no")})
    minimum = "—" if game.min_rating is None or not game.is_rated else f"{game.min_rating:.1f}"
    rows.append({"label": labels["min_rating"], "value": minimum})
    return rows


def game_rules(game: Game) -> dict:
    """The facts of this game's rules page: its table size's roles and power track, and its variants' sentences
    by their place on the page."""
    liberals, fascists = ROLE_COUNTS[game.player_count]
    track = POWER_TRACK[game.player_count]
    return {
        "players": game.player_count,
        "liberals": liberals,
        "fascists": fascists,
        "variants": variant_sentences(game.rules.as_played(game.player_count)),
        "powers": [{"number": n, "power": power} for n, power in enumerate(track, start=1)],
        "durations": {name: _span(getattr(game, f"{name}_hours"), game) for name in DURATIONS},
        "notice": _hours(game.absence_notice_hours),
        "absence_days": ngettext("%(count)s day", "%(count)s days", game.absence_max_days)
        % {"count": game.absence_max_days},
    }


def variant_sentences(rules: HouseRules) -> dict[str, str]:
    """What the rules page says of each house rule's value, the sentences of each place joined."""
    said = {place: [] for place in PLACES}
    for rule in RULES:
        sentence = rule.sentences[getattr(rules, rule.name)]
        if sentence:
            said[rule.place].append(_(sentence))
    return {place: " ".join(sentences) for place, sentences in said.items()}


def setting_words(name: str, value) -> tuple[str, str]:
    """A setting's label and a value of it in plain words, as the settings of a game show them."""
    rule = next(rule for rule in RULES if rule.name == name)
    return _(rule.label), _rule_value(rule, value)


def _rule_value(rule: Rule, value) -> str:
    return _(dict(rule.choices)[value]) if rule.choices else _yes_no(value)


def _yes_no(value: bool) -> str:
    return _("yes") if value else _("no")


def _span(amount: int, game: Game) -> str:
    if game.minute_durations:
        return ngettext("%(count)s minute", "%(count)s minutes", amount) % {"count": amount}
    return _hours(amount)


def _hours(amount: int) -> str:
    return ngettext("%(count)s hour", "%(count)s hours", amount) % {"count": amount}
