"""The public game log: every event type, what it means and its fields (besides `type` and `round`).

Events hold only what every player may know. Secrets (cards, roles, investigation and peek results) are in
GameState.sessions/investigations/peeks and reach people only through views.py. A test checks that every
event a game emits is listed here.

The event that carries a passed deadline's outcome (T4) has one more field, `by_deadline: true`: the nomination,
ballot count, discard, enactment, veto answer or power use that the deadline applied, not the player, and at
random where T4 draws (which card stays secret: only the event's usual fields are public). It directly follows
`deadline_passed`. Logs written before it existed lack it.
"""

EVENT_TYPES = {
    "game_started": "the game began; players: names in seat order",
    "round_started": "a presidential candidacy began (E1); president: the candidate",
    "candidacy_lost": "the candidacy ended with no government (R13, T4, T6); president, reason: "
    "no_nomination (the deadline passed) or nobody_eligible",
    "nominated": "the candidate nominated a chancellor (R9); president, chancellor",
    "vote_closed": "an election's ballots revealed (R11, R12); president, chancellor, ballots {name: ja|nein}, "
    "missing [names], ja, nein, passed",
    "tracker_advanced": "the election tracker moved on (R13, R19); election_tracker",
    "chaos": "the tracker reached 3: the top card is enacted (R14)",
    "policy_enacted": "a policy was enacted (R17, R14); policy L|F, chaos, liberal_policies, fascist_policies",
    "deck_reshuffled": "the discards were shuffled into a new draw pile (R6); draw_pile: its size",
    "confirmed_not_hitler": "an elected chancellor is confirmed not Hitler (R16); player",
    "legislative_session_started": "an elected government starts its session (R17); president, chancellor",
    "president_discarded": "the president passed two cards to the chancellor (R17); president",
    "veto_requested": "the chancellor asked for a veto (R19); chancellor",
    "veto_answered": "the president answered the veto request (R19); president, accepted",
    "power_granted": "the president holds a power (R20); president, power",
    "power_forfeited": "a power was lost (R20, T4); president, power, reason: no_target or timeout",
    "policy_peeked": "the president looked at the top three cards (R22); president",
    "investigated": "the president investigated a player (R21); president, target (the result is secret)",
    "special_election": "the president picked the next candidate (R24); president, candidate",
    "execution_proposed": "variant execution_vote: the president proposes an execution (R23); president, target",
    "execution_vote_closed": "variant execution_vote: the ballots revealed (R23); target, ballots, missing, ja, "
    "nein, passed",
    "executed": "a player was executed, role unrevealed (R23); president, target",
    "deadline_passed": "the current step's deadline passed and its outcome applies (T4); step",
    "round_missed": "a player missed the round that just ended (E2, E3); player, missed_rounds: in a row",
    "warned": "a player missed a round: one more in a row and they are exiled (E7); player, missed_rounds",
    "exiled": "a player was exiled (E3, E5, E8); player, reason: missed_rounds or moderator",
    "substituted": "a substitute took an exiled player's seat (E5); player (the newcomer), replaces",
    "replaced": "a moderator gave a seat to a new person (E8); player (the newcomer), replaces",
    "substitute_joined": "a person signed up as a substitute (E5); player",
    "substitute_withdrawn": "a substitute no longer waits for a seat (E5); player",
    "absence_started": "a player's announced absence began (E4); player",
    "absence_ended": "a player's announced absence ended (E4); player",
    "excused": "a moderator excused a player's misses in this round (E8); player",
    "exile_scheduled": "a moderator will exile a player when the round ends (E8); player",
    "replacement_scheduled": "a moderator will replace a player when the round ends (E8); player",
    "replacement_withdrawn": "a replacement scheduled for the round's end was called off (E8); player (the seat)",
    "game_over": "the game ended (R26, R27, E8); winner (null if cancelled), win_reason, roles {name: role}",
}
