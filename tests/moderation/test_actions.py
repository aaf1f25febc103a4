"""Each moderator action: its effect on the game, its announcement in the thread, its audit entry."""

from datetime import timedelta
from io import StringIO

import pytest
from django.contrib.auth.models import Group
from django.core import mail
from django.core.management import call_command
from django.utils import timezone

from games.engine import player_view
from games.models import Ban, Game, GameEvent, Post, SweepRun
from games.services import GameError, declare_absence, join_game
from games.services.forum import post_message
from moderation.models import AuditEntry, Report, SignIn
from tests.factories import governments, make_user, running_game, with_second_factor
from tests.games.helpers import reload, state_of, user

pytestmark = pytest.mark.django_db


def act(client, game, action, reason="because", **fields):
    """The form of the game's moderation page, sent for the step the page showed (the step now, by default)."""
    fields.setdefault("step", reload(game).step_number)
    return client.post(f"/moderation/games/{game.pk}/act/", {"action": action, "reason": reason, **fields}, follow=True)


def last_audit() -> AuditEntry:
    return AuditEntry.objects.order_by("-pk").first()


def test_pause_and_resume_shift_the_deadline_exactly_and_are_announced(moderator_client):
    now = timezone.now()
    game = running_game(now=now)
    mod = moderator_client()
    act(mod, game, "pause", "a holiday")
    assert reload(game).paused_at is not None and reload(game).deadline is None
    paused_at = reload(game).paused_at
    act(mod, game, "resume", "back")
    resumed = reload(game)
    paused_for = resumed.round_started_at - now
    assert timedelta(0) < paused_for < timedelta(minutes=1)  # the time the game was paused, exactly
    assert resumed.deadline == now + timedelta(hours=48) + paused_for
    assert paused_at is not None
    actions = [e.data["action"] for e in GameEvent.objects.filter(game=game, type="moderator_action")]
    assert actions == ["pause", "resume"]
    assert (last_audit().action, last_audit().reason, last_audit().actor_name) == ("resume", "back", "mod")


def test_a_reason_is_required(moderator_client):
    game = running_game()
    response = act(moderator_client(), game, "pause", "")
    assert "Give a reason" in response.content.decode()
    assert reload(game).paused_at is None and not AuditEntry.objects.filter(action="pause").exists()


def test_extend_and_end_now(moderator_client):
    game = running_game()
    deadline = reload(game).deadline
    mod = moderator_client()
    act(mod, game, "extend", "storm", hours=12)
    assert reload(game).deadline == deadline + timedelta(hours=12)
    act(mod, game, "end_now", "everyone agreed")
    assert state_of(game)["round"] == 2
    assert last_audit().action == "end_now"
    text = mod.get(f"/games/{game.pk}/").content.decode()
    assert "A moderator extended the deadline by 12 hours." in text and "ended the current deadline now" in text


def test_excuse_exile_and_cancel(moderator_client):
    game = running_game()
    mod = moderator_client()
    act(mod, game, "excuse", "hospital", player="ann")
    act(mod, game, "exile", "rules breach", player="dan")
    act(mod, game, "end_now", "round over")
    s = state_of(game)
    assert s["missed"]["ann"] == 0 and s["exiled"] == ["dan"]
    assert AuditEntry.objects.filter(action="exile", target_name="dan").exists()
    response = act(mod, game, "cancel", "abandoned")
    assert "Tick the box to confirm" in response.content.decode()
    assert reload(game).status == Game.Status.RUNNING
    act(mod, game, "cancel", "abandoned", confirm="yes")
    assert reload(game).status == Game.Status.CANCELLED


def test_the_seat_table_marks_the_executed_and_offers_only_the_living(moderator_client):
    from tests.factories import EXECUTED

    game = running_game(actions=EXECUTED)  # dan executed eve
    page = moderator_client().post(f"/moderation/games/{game.pk}/see/", follow=True).content.decode()
    seat_row = page[page.index("<td>eve</td>") : page.index("</tr>", page.index("<td>eve</td>"))]
    assert "<strong>executed</strong>" in seat_row
    assert "<option>eve</option>" not in page and "<option>dan</option>" in page


def test_replacement_keeps_the_seat_role_knowledge_and_history(moderator_client):
    game = running_game(actions=governments(("ann", "bob")))
    before = player_view(reload(game).load_state(), 0)
    make_user("amy")
    mod = moderator_client()
    act(mod, game, "replace", "resigned", player="ann", newcomer="amy")
    act(mod, game, "end_now", "round over")
    after = player_view(reload(game).load_state(), 0)
    assert after["name"] == "amy"
    assert {**after, "name": "ann"} == {**before, "hand": after["hand"]}
    assert (last_audit().action, AuditEntry.objects.get(action="replace").target_name) == ("end_now", "amy")


def seat_row(page: str, name: str) -> str:
    start = page.index(f"<td>{name}</td>")
    return page[start : page.index("</tr>", start)]


def test_e8_e5_a_moderator_seats_the_waiting_substitute_by_replacement_held_against_nobody(moderator_client):
    game = running_game()
    join_game(game.pk, make_user("élodie"), as_substitute=True)
    mod = moderator_client()
    page = act(mod, game, "replace", "resigned", player="dan", newcomer="élodie").content.decode()
    assert "already in this game" not in page
    assert "substitute takes the seat at the end of the round" in seat_row(page, "élodie")
    assert "no longer seated" not in seat_row(page, "élodie")
    act(mod, game, "end_now", "round over")
    assert state_of(game)["alive"] == ["ann", "bob", "cat", "élodie", "eve"]
    [row] = game.seats.filter(user__username="élodie")
    assert (row.number, row.active, row.pending) == (3, True, False)
    dan = game.seats.get(user__username="dan")
    assert (dan.exiled_at, dan.exile_reason) == (None, "") and dan.replaced_at is not None
    assert not AuditEntry.objects.filter(action="exile").exists()


def test_e8_the_seat_table_lists_a_newcomer_named_for_a_seat_as_taking_it_at_the_round_s_end(moderator_client):
    game = running_game()
    make_user("amy")
    mod = moderator_client()
    page = act(mod, game, "replace", "resigned", player="ann", newcomer="amy").content.decode()
    assert "takes the seat at the end of the round" in seat_row(page, "amy")
    assert "no longer seated" not in seat_row(page, "amy")
    page = act(mod, game, "end_now", "round over").content.decode()
    assert "takes the seat" not in seat_row(page, "amy") and "no longer seated" not in seat_row(page, "amy")
    assert "no longer seated" in seat_row(page, "ann")


def test_lock_the_thread_and_hide_a_post(moderator_client, client_for):
    game = running_game(now=timezone.now())
    post = Post.objects.create(
        game=game, author=make_user("ann"), body="abuse", html="<p>abuse</p>", created_at=timezone.now()
    )
    mod = moderator_client()
    act(mod, game, "lock", "calm down")
    response = client_for("bob").post(f"/games/{game.pk}/post/", {"body": "hey", "thread": "main"}, follow=True)
    assert "A moderator has locked this thread." in response.content.decode()
    mod.post(f"/moderation/posts/{post.pk}/visibility/", {"hide": "yes", "reason": "insult"})
    assert "This post was hidden by a moderator." in client_for("bob").get(f"/games/{game.pk}/").content.decode()
    mod.post(f"/moderation/posts/{post.pk}/visibility/", {"hide": "no", "reason": "appeal"})
    assert Post.objects.get().hidden_at is None
    assert [a.action for a in AuditEntry.objects.order_by("pk")] == ["lock_thread", "hide_post", "restore_post"]


def test_the_thread_is_locked_from_a_page_the_game_has_moved_on_from(moderator_client):
    game = running_game(now=timezone.now())
    mod = moderator_client()
    page_step = reload(game).step_number
    act(mod, game, "end_now", "agreed")  # the game moves on before the moderator's next click
    act(mod, game, "lock", "calm down", step=page_step)
    assert reload(game).thread_locked is True


def test_reports_queue(moderator_client, client_for):
    game = running_game(now=timezone.now())
    post = Post.objects.create(
        game=game, author=make_user("ann"), body="rude", html="<p>rude</p>", created_at=timezone.now()
    )
    bob = client_for("bob")
    assert (
        "Thank you"
        in bob.post(f"/moderation/posts/{post.pk}/report/", {"reason": "insult"}, follow=True).content.decode()
    )
    assert (
        "already reported"
        in bob.post(f"/moderation/posts/{post.pk}/report/", {"reason": "again"}, follow=True).content.decode()
    )
    mod = moderator_client()
    assert "insult" in mod.get("/moderation/reports/").content.decode()
    report = Report.objects.get()
    mod.post(f"/moderation/reports/{report.pk}/resolve/", {"resolution": "warned ann"})
    assert Report.objects.get().resolved_at is not None
    assert last_audit().action == "resolve_report"


def test_ban_refuses_joining_until_lifted(moderator_client):
    mod = moderator_client()
    zed = make_user("zed")
    mod.post(f"/moderation/users/{zed.pk}/ban/", {"days": 7, "reason": "cheating"})
    game = running_game()
    with pytest.raises(GameError, match="banned"):
        join_game(game.pk, zed, as_substitute=True)
    mod.post(f"/moderation/bans/{Ban.objects.get().pk}/lift/", {"reason": "appeal accepted"})
    join_game(game.pk, zed, as_substitute=True)
    assert [a.action for a in AuditEntry.objects.order_by("pk")] == ["ban", "lift_ban"]


def test_end_an_absence_early(moderator_client):
    game = running_game()
    absence = declare_absence(
        game.pk,
        user("ann"),
        game.created_at + timedelta(days=2),
        game.created_at + timedelta(days=4),
        now=game.created_at,
    )
    moderator_client().post(f"/moderation/absences/{absence.pk}/end/", {"reason": "came back"})
    assert last_audit().action == "end_absence"


def test_two_seats_signing_in_from_one_address_are_flagged(moderator_client):
    game = running_game()
    SignIn.objects.create(user=user("ann"), ip="203.0.113.7")
    SignIn.objects.create(user=user("bob"), ip="203.0.113.7")
    page = moderator_client().post(f"/moderation/games/{game.pk}/see/", follow=True).content.decode()
    assert "203.0.113.7 (ann, bob)" in page
    assert "<strong>bob</strong>" in moderator_client().get("/moderation/users/?q=ann").content.decode()


def test_the_audit_log_is_searchable_and_append_only(moderator_client):
    game = running_game()
    mod = moderator_client()
    act(mod, game, "pause", "Christmas break")
    assert "Christmas break" in mod.get("/moderation/audit/?q=christmas").content.decode()
    assert "Christmas break" not in mod.get("/moderation/audit/?q=nothing-like-it").content.decode()
    entry = AuditEntry.objects.get()
    entry.reason = "rewritten"
    with pytest.raises(ValueError, match="append-only"):
        entry.save()
    with pytest.raises(ValueError, match="append-only"):
        entry.delete()


def test_healthz_and_the_alert_when_the_sweep_stopped(client):
    running_game()
    make_user("mod").groups.add(Group.objects.get(name="moderators"))
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json()["database"] is True and response.json()["sweep"] is False
    assert mail.outbox == []  # a GET sends nothing: the alert comes from check_health, on a timer
    with pytest.raises(SystemExit):
        call_command("check_health", stdout=StringIO())
    assert len(mail.outbox) == 1 and "sweep has stopped" in mail.outbox[0].subject
    with pytest.raises(SystemExit):
        call_command("check_health", stdout=StringIO())
    assert len(mail.outbox) == 1  # told once per outage
    SweepRun.record("deadlines", 0)
    response = client.get("/healthz")
    assert response.status_code == 503 and response.json()["sweep"] is True  # the other tasks never ran
    assert response.json()["tasks"]["outbox"] == {"last_run_seconds_ago": None, "ok": False}
    for task in SweepRun.Task.values:  # every periodic task, the push outbox's too
        SweepRun.record(task, 0)
    assert client.get("/healthz").status_code == 200


def test_a_double_click_leaves_one_announcement_and_one_audit_entry(moderator_client):
    game = running_game(now=timezone.now())
    post = Post.objects.create(game=game, author=make_user("ann"), body="x", html="x", created_at=timezone.now())
    entry = Ban.objects.create(user=make_user("bob"), until=timezone.now() + timedelta(days=3), reason="r")
    mod = moderator_client()
    for _click in range(2):
        last = act(mod, game, "lock", "calm down")
        act(mod, game, "pause", "a holiday")
        mod.post(f"/moderation/posts/{post.pk}/visibility/", {"hide": "yes", "reason": "insult"})
        mod.post(f"/moderation/bans/{entry.pk}/lift/", {"reason": "appeal"})
    assert "Nothing changed: it was already done." in last.content.decode()
    actions = [e.data["action"] for e in GameEvent.objects.filter(game=game, type="moderator_action")]
    assert actions == ["thread_locked", "pause"]
    audited = [a.action for a in AuditEntry.objects.order_by("pk")]
    assert audited == ["lock_thread", "pause", "hide_post", "lift_ban"]


def test_an_action_from_a_stale_page_is_refused_and_changes_nothing(moderator_client):
    game = running_game(now=timezone.now())
    mod = moderator_client()
    page_step = reload(game).step_number
    act(mod, game, "end_now", "agreed", step=page_step)  # the first click: ann's nomination times out
    deadline = reload(game).deadline
    for action, fields in (("end_now", {}), ("extend", {"hours": 24}), ("excuse", {"player": "bob"})):
        response = act(mod, game, action, "double click", step=page_step, **fields)
        assert "moved on since this page was loaded" in response.content.decode()
    assert reload(game).deadline == deadline and state_of(game)["round"] == 2
    assert [a.action for a in AuditEntry.objects.exclude(action="view_secrets")] == ["end_now"]


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"action": "explode"}, "Select a valid choice"),
        ({"action": "extend", "hours": "lots"}, "Enter a whole number"),
        ({"action": "extend", "hours": 0}, "greater than or equal to 1"),
        ({"action": "excuse", "player": ""}, "Choose a player."),
        ({"action": "replace", "player": "cat", "newcomer": ""}, "Name the account that takes the seat."),
        ({"action": "pause", "reason": "x" * 2001}, "at most 2000 characters"),
        ({"action": "pause", "reason": "nul\x00byte"}, "Null characters are not allowed"),
        ({"action": "pause", "step": "one"}, "Enter a whole number"),
    ],
)
def test_a_malformed_action_is_refused_with_a_message(moderator_client, fields, message):
    game = running_game(now=timezone.now())
    mod = moderator_client()
    fields = {"reason": "because", "step": reload(game).step_number, **fields}
    response = mod.post(f"/moderation/games/{game.pk}/act/", fields, follow=True)
    assert response.status_code == 200
    assert message in response.content.decode()
    assert not AuditEntry.objects.exclude(action="view_secrets").exists()
    assert reload(game).paused_at is None


@pytest.mark.parametrize("target", ["0", "-1", "<b>", "//evil.example/", "https://evil.example/", ""])
def test_the_post_visibility_form_goes_back_only_to_a_page_of_this_site(moderator_client, target):
    game = running_game(now=timezone.now())
    post = Post.objects.create(game=game, author=make_user("ann"), body="x", html="x", created_at=timezone.now())
    response = moderator_client().post(
        f"/moderation/posts/{post.pk}/visibility/", {"hide": "yes", "reason": "insult", "next": target}
    )
    assert (response.status_code, response["Location"]) == (302, "/moderation/reports/")
    assert Post.objects.get().hidden_at is not None


def test_the_post_visibility_form_goes_back_to_the_page_it_came_from(moderator_client):
    game = running_game(now=timezone.now())
    post = Post.objects.create(game=game, author=make_user("ann"), body="x", html="x", created_at=timezone.now())
    back = f"/games/{game.pk}/#post-{post.pk}"
    response = moderator_client().post(
        f"/moderation/posts/{post.pk}/visibility/", {"hide": "yes", "reason": "insult", "next": back}
    )
    assert response["Location"] == back


def test_a_double_click_on_extend_extends_once(moderator_client):
    game = running_game(now=timezone.now())
    mod = moderator_client()
    seen = reload(game).deadline.isoformat()
    act(mod, game, "extend", "storm", hours=12, deadline=seen)
    response = act(mod, game, "extend", "storm", hours=12, deadline=seen)
    assert "The deadline has changed since this page was loaded" in response.content.decode()
    assert reload(game).deadline.isoformat() != seen
    assert AuditEntry.objects.filter(action="extend").count() == 1


def test_a_double_click_on_ban_bans_once(moderator_client):
    bob = make_user("bob")
    mod = moderator_client()
    for _click in range(2):
        mod.post(f"/moderation/users/{bob.pk}/ban/", {"days": 3, "reason": "spam"})
    assert Ban.objects.filter(user=bob).count() == 1 and AuditEntry.objects.filter(action="ban").count() == 1


def test_an_extension_past_90_days_is_refused_with_its_reason_and_changes_nothing(moderator_client):
    game = running_game(now=timezone.now())
    mod = moderator_client()
    act(mod, game, "extend", "storm", hours=720)
    act(mod, game, "extend", "storm", hours=720)
    deadline = reload(game).deadline
    response = act(mod, game, "extend", "storm", hours=720)
    assert "A deadline may be at most 90 days from now: nothing was done." in response.content.decode()
    assert reload(game).deadline == deadline and AuditEntry.objects.filter(action="extend").count() == 2


def test_a_seen_deadline_at_the_calendar_s_end_is_only_a_stale_page(moderator_client):
    game = running_game(now=timezone.now())
    deadline = reload(game).deadline
    response = act(moderator_client(), game, "extend", "storm", hours=12, deadline="9999-12-31T23:59:59-14:00")
    assert (
        response.status_code == 200
        and "The deadline has changed since this page was loaded" in response.content.decode()
    )
    assert reload(game).deadline == deadline and not AuditEntry.objects.filter(action="extend").exists()


def test_no_open_redirect_after_hiding_a_post(client_for):
    game = running_game(now=timezone.now())
    post = post_message(game.pk, user("ann"), "x")
    mod = with_second_factor(client_for("mod"), user("mod"))
    user("mod").groups.add(Group.objects.get(name="moderators"))
    response = mod.post(
        f"/moderation/posts/{post.pk}/visibility/", {"hide": "yes", "reason": "r", "next": "https://evil.example/"}
    )
    assert response.url == "/moderation/reports/"
