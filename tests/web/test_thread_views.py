"""The game thread and the graveyard: who reads, who posts, editing with history, quoting, unread, the reveal."""

import re
from datetime import timedelta

import pytest
import time_machine
from django.contrib.auth import get_user_model
from django.utils import timezone

from games.models import Claim, Notification, Post
from games.services import GameError, cancel, join_game, make_move
from games.services.forum import file_claim, post_message
from tests.factories import EXECUTED, governments, make_user, running_game
from tests.games.helpers import user

pytestmark = pytest.mark.django_db


def post(client, game, body, thread="main", **extra):
    return client.post(f"/games/{game.pk}/post/", {"body": body, "thread": thread, **extra}, follow=True)


def shown(client, page):
    """What the page's script does once the page is shown (site.js, markRead): it sends the reader's read mark."""
    form = page.content.decode().split('<form id="read-mark"', 1)[1].split("</form>", 1)[0]
    action = form.split('action="', 1)[1].split('"', 1)[0]
    assert client.post(action, dict(re.findall(r'name="(thread|up_to)" value="([^"]*)"', form))).status_code == 204
    return page


def test_anyone_reads_the_game_thread(client):
    game = running_game()
    page = client.get(f"/games/{game.pk}/")
    assert page.status_code == 200
    assert "Round 1: ann is the presidential candidate." in page.content.decode()


def test_a_living_player_posts_markdown_rendered_and_sanitised(client_for):
    game = running_game(now=timezone.now())
    response = post(client_for("ann"), game, "**Ja** from me <script>alert(1)</script> @bob")
    text = response.content.decode()
    assert "<strong>Ja</strong> from me &lt;script&gt;alert(1)&lt;/script&gt;" in text
    assert '<a href="/users/bob/" rel="nofollow noopener noreferrer">@bob</a>' in text
    assert "<script>alert" not in text


def test_spectators_and_the_dead_do_not_post_in_the_game_thread(client_for, client):
    game = running_game(actions=EXECUTED, now=timezone.now())
    assert "Spectators read the game thread" in post(client_for("zed"), game, "hi").content.decode()
    assert "The dead and the exiled cannot post" in post(client_for("eve"), game, "hi").content.decode()
    assert post(client, game, "hi").redirect_chain[-1][0].startswith("/accounts/login/")
    assert not Post.objects.exists()


def test_the_graveyard_is_closed_to_the_living_and_open_to_the_dead_and_spectators(client_for, client):
    game = running_game(actions=EXECUTED, now=timezone.now())
    assert client_for("ann").get(f"/games/{game.pk}/graveyard/").status_code == 403
    assert client.get(f"/games/{game.pk}/graveyard/").status_code == 403
    eve = client_for("eve")
    assert eve.get(f"/games/{game.pk}/graveyard/").status_code == 200
    post(eve, game, "I was liberal, avenge me", thread="graveyard")
    zed = client_for("zed")  # a spectator: warned first, since who reads it may never take a seat
    assert "avenge me" not in zed.get(f"/games/{game.pk}/graveyard/").content.decode()
    zed.post(f"/games/{game.pk}/read/", {"thread": "graveyard"})
    assert "avenge me" in zed.get(f"/games/{game.pk}/graveyard/").content.decode()
    assert "avenge me" not in client_for("ann").get(f"/games/{game.pk}/").content.decode()
    assert (
        "The living cannot read the graveyard."
        in post(client_for("ann"), game, "let me in", "graveyard").content.decode()
    )
    assert not Post.objects.filter(body="let me in").exists()


def test_the_graveyard_opens_to_all_at_the_end(client_for, client):
    game = running_game(actions=EXECUTED, now=timezone.now())
    post(client_for("eve"), game, "secret talk", thread="graveyard")
    cancel(game.pk, make_user("mod"))
    assert "secret talk" in client.get(f"/games/{game.pk}/graveyard/").content.decode()


def test_r18_the_thread_is_closed_during_the_legislative_session(client_for):
    game = running_game(actions=governments(("ann", "bob"))[:6], now=timezone.now())
    response = post(client_for("cat"), game, "what did you draw?")
    assert "closed during the legislative session" in response.content.decode()
    assert not Post.objects.exists()


def test_r18_setting_off_keeps_the_thread_open(client_for):
    game = running_game(actions=governments(("ann", "bob"))[:6], now=timezone.now())
    game.house_rules["quiet_legislature"] = False
    game.save()
    post(client_for("cat"), game, "what did you draw?")
    assert Post.objects.count() == 1


def test_edit_within_15_minutes_with_the_history_visible_to_all(client_for, client):
    game = running_game(now=timezone.now())
    ann = client_for("ann")
    post(ann, game, "I drew FFL")
    message = Post.objects.get()
    ann.post(f"/games/{game.pk}/posts/{message.pk}/edit/", {"body": "I drew FFF"})
    message.refresh_from_db()
    assert message.body == "I drew FFF" and message.edited_at
    history = client.get(f"/games/{game.pk}/posts/{message.pk}/history/").content.decode()
    assert "I drew FFL" in history and "I drew FFF" in history
    with time_machine.travel(timezone.now() + timedelta(minutes=16)):
        response = ann.post(f"/games/{game.pk}/posts/{message.pk}/edit/", {"body": "I drew LLL"})
    assert "15 minutes" in response.content.decode()
    assert Post.objects.get().body == "I drew FFF"


def test_only_the_author_edits(client_for):
    game = running_game(now=timezone.now())
    post(client_for("ann"), game, "mine")
    message = Post.objects.get()
    assert client_for("bob").get(f"/games/{game.pk}/posts/{message.pk}/edit/").status_code == 403


def test_reply_with_quote(client_for):
    game = running_game(now=timezone.now())
    post(client_for("ann"), game, "bob is fascist")
    message = Post.objects.get()
    bob = client_for("bob")
    page = bob.get(f"/games/{game.pk}/?page=1&quote={message.pk}").content.decode()
    assert "&gt; bob is fascist" in page
    assert f"[**ann** wrote:](/games/{game.pk}/?page=1#post-{message.pk})" in page  # who, and a link to the post
    assert f'name="quote_of" value="{message.pk}"' in page
    post(bob, game, f"[**ann** wrote:](/games/{game.pk}/?page=1#post-{message.pk})\n> bob is fascist\n\nNo.")
    reply = Post.objects.latest("pk")
    assert f'<a href="/games/{game.pk}/?page=1#post-{message.pk}"' in reply.html and "<blockquote>" in reply.html


def test_jump_to_first_unread(client_for):
    game = running_game(now=timezone.now())
    ann, bob = client_for("ann"), client_for("bob")
    for number in range(30):
        Post.objects.create(
            game=game,
            author=make_user("cat"),
            body=f"p{number}",
            html=f"<p>p{number}</p>",
            created_at=timezone.now() + timedelta(seconds=number),
        )
    shown(bob, bob.get(f"/games/{game.pk}/?page=1"))  # bob has read the first 25
    first_unread = Post.objects.get(body="p25")
    assert bob.get(f"/games/{game.pk}/unread/").url == f"/games/{game.pk}/?page=2#post-{first_unread.pk}"
    assert ann.get(f"/games/{game.pk}/unread/").url.endswith(f"#post-{Post.objects.get(body='p0').pk}")


def test_rate_limit_on_posting(client_for, settings):
    settings.POSTS_PER_MINUTE = 2
    now = timezone.now()
    game = running_game(now=now)
    ann = client_for("ann")
    with time_machine.travel(now, tick=False):  # however slow the machine, the three posts are at one moment
        post(ann, game, "one")
        post(ann, game, "two")
        assert "posting too fast" in post(ann, game, "three").content.decode()
    assert Post.objects.count() == 2


def test_r27_the_secret_history_only_after_the_end(client):
    game = running_game()
    assert client.get(f"/games/{game.pk}/history/").status_code == 403
    cancel(game.pk, make_user("mod"))
    page = client.get(f"/games/{game.pk}/history/").content.decode()
    assert 'cat: <span class="role-hitler">Hitler</span>' in page


def test_r27_the_seed_and_the_replay_script_are_published_at_the_end(client):
    from games.engine import summary
    from games.models import Game
    from games.replay import replay_script

    game = running_game(actions=[{"type": "timeout"}])
    assert client.get(f"/games/{game.pk}/replay.json").status_code == 404  # no such page while it runs
    cancel(game.pk, make_user("mod"))
    page = client.get(f"/games/{game.pk}/history/").content.decode()
    assert f"the seed {game.seed} (named-streams scheme)" in page
    response = client.get(f"/games/{game.pk}/replay.json")
    assert response["Content-Disposition"] == f'attachment; filename="game-{game.pk}.json"'
    script = response.json()
    assert (script["seed"], script["rng"], script["actions"][-1]) == (game.seed, "named-streams", {"type": "cancel"})
    status, replayed = replay_script(script)
    assert status == 0
    assert replayed["state"] == summary(Game.objects.get(pk=game.pk).load_state())


def test_a_refused_post_keeps_its_text(client_for, settings):
    settings.POSTS_PER_MINUTE = 1
    game = running_game(now=timezone.now())
    ann = client_for("ann")
    post(ann, game, "first")
    response = post(ann, game, "a long and heated argument about bob")
    page = response.content.decode()
    assert response.status_code == 409 and "posting too fast" in page
    assert "a long and heated argument about bob</textarea>" in page
    assert Post.objects.count() == 1


def test_r18_a_post_refused_during_the_legislative_session_keeps_its_text(client_for):
    game = running_game(actions=governments(("ann", "bob"))[:6], now=timezone.now())  # R18: the session is on
    response = post(client_for("cat"), game, "bob is lying")
    assert "closed during the legislative session" in response.content.decode()
    assert "bob is lying</textarea>" in response.content.decode()


def test_normal_talk_is_never_too_fast(client_for):
    game = running_game(now=timezone.now())
    ann = client_for("ann")
    with time_machine.travel(timezone.now(), tick=False):
        for number in range(6):  # six answers in one minute
            assert post(ann, game, f"reply {number}").status_code == 200
    assert Post.objects.count() == 6


def test_jump_to_the_first_unread_post_only_for_a_reader_with_posts_to_read(client, client_for):
    game = running_game(now=timezone.now())
    ann = client_for("ann")
    assert "Jump to the first unread post" not in ann.get(f"/games/{game.pk}/").content.decode()  # nothing said
    post(ann, game, "hello")
    assert "Jump to the first unread post" in ann.get(f"/games/{game.pk}/").content.decode()
    assert "Jump to the first unread post" not in client.get(f"/games/{game.pk}/").content.decode()  # anonymous


def test_a_quote_parameter_that_is_not_a_number_is_ignored(client):
    game = running_game(now=timezone.now())
    for value in ("²", "٣", "1" * 40, "-1"):
        assert client.get(f"/games/{game.pk}/?quote={value}").status_code == 200, value


def test_r9_each_announcement_is_shown_once_between_the_posts_it_came_between_on_their_page(client_for):
    """The game's announcements are read once for the page and its history, and each page shows those made after
    the last post of the page before and up to its own last post (the last page: up to now)."""
    start = timezone.now()
    game = running_game(now=start)
    ann = get_user_model().objects.get(username="ann")
    Post.objects.bulk_create(
        Post(game=game, author=ann, body=f"p{n}", html=f"<p>p{n}</p>", created_at=start + timedelta(minutes=n))
        for n in range(1, 31)
    )  # page 1: posts 1-25; page 2: posts 26-30
    nomination = {"type": "nominate", "target": "bob"}
    make_move(game.pk, ann, nomination, game.step_number, now=start + timedelta(minutes=27.5))
    reader = client_for("zed")
    first, second = (reader.get(f"/games/{game.pk}/?page={page}").content.decode() for page in (1, 2))
    assert first.count('class="entry announcement"') == 2  # the game's start and its first round, before post 1
    assert first.index('class="entry announcement"') < first.index("<p>p1</p>")
    assert second.count('class="entry announcement"') == 1
    assert second.index("<p>p27</p>") < second.index('class="entry announcement"') < second.index("<p>p28</p>")


def test_a_hidden_post_is_neither_in_its_history_nor_quotable(client_for):
    game = running_game(now=timezone.now())
    post = post_message(game.pk, user("ann"), "insult")
    Post.objects.filter(pk=post.pk).update(hidden_at=timezone.now())
    bob = client_for("bob")
    assert bob.get(f"/games/{game.pk}/posts/{post.pk}/history/").status_code == 404
    assert "insult" not in bob.get(f"/games/{game.pk}/?quote={post.pk}").content.decode()
    assert bob.get(f"/games/{game.pk}/?quote=abc").status_code == 200


def test_r18_no_claim_before_the_session_is_over_and_none_from_the_dead():
    game = running_game(actions=governments(("ann", "bob"))[:6])  # the president has not discarded yet
    with pytest.raises(GameError, match="no legislative session of yours"):
        file_claim(game.pk, user("ann"), 1, "FFF")
    dead = running_game(actions=EXECUTED)
    with pytest.raises(GameError, match="living player"):
        file_claim(dead.pk, user("eve"), 3, "FF")
    assert not Claim.objects.exists()


def test_graveyard_mentions_do_not_reach_the_living_and_substitutes_do_not_read_it(client_for):
    game = running_game(actions=EXECUTED, now=timezone.now())
    post_message(game.pk, user("eve"), "@ann is a liberal, trust her", thread="graveyard")
    assert not Notification.objects.filter(kind="mention").exists()
    sam = client_for("sam")
    join_game(game.pk, user("sam"), as_substitute=True)
    assert sam.get(f"/games/{game.pk}/graveyard/").status_code == 403


def new_line_above(page) -> str | None:
    """The text of the post just below the "New posts" line, or None if the page has no line."""
    text = page.content.decode()
    if text.count('class="new-posts"') != 1:
        assert 'class="new-posts"' not in text
        return None
    after = text.split('class="new-posts"', 1)[1]
    return after.split('<div class="body">', 1)[1].split("</div>", 1)[0]


def test_the_new_posts_line_stands_above_what_the_reader_had_not_read_their_own_aside(client_for):
    game = running_game(now=timezone.now())
    post_message(game.pk, user("cat"), "Read before.")
    ann, url = client_for("ann"), f"/games/{game.pk}/"
    first = shown(ann, ann.get(url))
    assert new_line_above(first) is None  # a first visit: everything is new
    post_message(game.pk, user("ann"), "Mine.")
    post_message(game.pk, user("dan"), "Unread.")
    second = shown(ann, ann.get(url, HTTP_IF_NONE_MATCH=first["ETag"]))
    assert new_line_above(second) == "<p>Unread.</p>"
    again = ann.get(url, HTTP_IF_NONE_MATCH=second["ETag"])  # reloaded: not the cached page with its line
    assert again.status_code == 200 and new_line_above(again) is None  # read now
    assert ann.get(url, HTTP_IF_NONE_MATCH=again["ETag"]).status_code == 304  # and nothing has moved since


def test_a_live_page_keeps_its_line_where_it_was_loaded_and_news_comes_below_it(client_for):
    game = running_game(now=timezone.now())
    post_message(game.pk, user("cat"), "Read before.")
    ann, url = client_for("ann"), f"/games/{game.pk}/"
    shown(ann, ann.get(url))
    post_message(game.pk, user("dan"), "Unread.")
    page = ann.get(url)
    mark = page.content.decode().split('data-read="', 1)[1].split('"', 1)[0]
    post_message(game.pk, user("eve"), "Newer still.")
    news = ann.get(url, HTTP_X_LIVE="1", HTTP_X_READ_BEFORE=mark)
    assert new_line_above(news) == "<p>Unread.</p>"
    assert new_line_above(ann.get(url, HTTP_X_LIVE="1", HTTP_X_READ_BEFORE="not a time")) is None  # nothing breaks


def _read(client, path: str) -> str:
    return " ".join(client.get(path).content.decode().split())


CLOSED_SESSION = "The legislative session begins: the thread is closed until a policy is enacted."


def test_r18_the_session_s_start_says_the_thread_is_closed_only_while_the_house_rule_closes_it(client):
    game = running_game(actions=governments(("ann", "bob"))[:6], now=timezone.now())
    assert CLOSED_SESSION in _read(client, f"/games/{game.pk}/")
    game.house_rules["quiet_legislature"] = False
    game.save()
    page = _read(client, f"/games/{game.pk}/")  # the kept announcements are keyed by the house rules too
    assert "The legislative session begins." in page and CLOSED_SESSION not in page


# 5 players: dan's government enacts the 4th fascist policy (the 3rd was a peek) and he may execute.
EXECUTING = governments(("ann", "bob"), ("bob", "dan"), ("cat", "eve"), ("dan", "ann"))
PROPOSED = [*EXECUTING, {"type": "execute", "by": "dan", "target": "eve"}]


@pytest.mark.parametrize(
    ("ballots", "count", "row"),
    [
        (
            {"ann": "ja", "bob": "ja", "cat": "ja", "dan": "nein", "eve": "nein"},
            "Ballots: ann: Ja, bob: Ja, cat: Ja, dan: Nein, eve: Nein (3 Ja, 2 Nein). "
            "The execution of eve is approved.",
            "execution of eve approved (3\u20132)",
        ),
        (
            {"ann": "nein", "bob": "ja", "cat": "nein", "dan": "ja", "eve": "nein"},
            "Ballots: ann: Nein, bob: Ja, cat: Nein, dan: Ja, eve: Nein (2 Ja, 3 Nein). eve is spared.",
            "eve spared (2\u20133)",
        ),
    ],
)
def test_r23_the_execution_vote_s_ballots_are_named_in_the_thread_the_governments_and_the_secret_history(
    client, ballots, count, row
):
    cast = [{"type": "vote", "by": name, "vote": ballot} for name, ballot in ballots.items()]
    game = running_game(actions=[*PROPOSED, *cast], execution_vote=True, now=timezone.now())
    page = _read(client, f"/games/{game.pk}/")
    assert count in page
    governments_table = page.split('id="history"')[1].split("</section>")[0]
    assert row in governments_table
    named = ", ".join(f"{name}: {'Ja' if ballot == 'ja' else 'Nein'}" for name, ballot in ballots.items())
    assert named in governments_table
    cancel(game.pk, make_user("mod"))
    assert count in _read(client, f"/games/{game.pk}/history/")
