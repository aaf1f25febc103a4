"""Whoever the admin shows a running game's secret (an action record with its hand or ballot, a graveyard post or
its earlier text, a report of one) is on the record as its witness before the page is drawn, as on the game's
own admin page, and may then never take a seat in that game. Nobody filters rows by what a secret says."""

import pytest
from django.contrib.auth.models import Permission

from games.models import ActionRecord, Game, Note, Post, PostRevision, SecretWitness
from games.services import GameError, cancel, join_game
from moderation.models import AuditEntry, Report
from tests.factories import START, governments, make_user, running_game, strongly_signed_in

pytestmark = pytest.mark.django_db
WORD = "zanzibar"  # said in the graveyard only


@pytest.fixture
def game() -> Game:
    """A running game in its second round: ann discarded a card, and the dead talk in the graveyard."""
    game = running_game(actions=governments(("ann", "bob")))
    ghost = make_user("ghost")
    post = Post.objects.create(
        game=game, author=ghost, thread=Post.Thread.GRAVEYARD, body=f"{WORD}: bob is hitler", html="x", created_at=START
    )
    PostRevision.objects.create(post=post, body=f"{WORD}?", html="x", created_at=START)
    Report.objects.create(post=post, reporter=ghost, reason=f"says {WORD}")
    return game


@pytest.fixture
def staff(client):
    """A signed-in staff member who may only view the rows of the models named."""

    def staff(*models: str, name: str = "sam"):
        account = make_user(name)
        account.is_staff = True
        account.save()
        account.user_permissions.add(*Permission.objects.filter(codename__in=[f"view_{m}" for m in models]))
        strongly_signed_in(client, account)
        return client, account

    return staff


def secret_pages(game: Game) -> dict[str, tuple[str, str]]:
    """Each admin page that shows one of the game's secrets: the model its reader must be allowed to view, and the
    page's address."""
    discard = next(row for row in ActionRecord.objects.filter(game=game) if row.action["type"] == "discard")
    post = Post.objects.get(game=game, thread=Post.Thread.GRAVEYARD)
    return {
        "an action record": ("actionrecord", f"/admin/games/actionrecord/{discard.pk}/change/"),
        "a graveyard post": ("post", f"/admin/games/post/{post.pk}/change/"),
        "a graveyard post's earlier text": (
            "postrevision",
            f"/admin/games/postrevision/{post.revisions.get().pk}/change/",
        ),
        "a report of a graveyard post": ("report", f"/admin/moderation/report/{post.reports.get().pk}/change/"),
        "the posts searched for a graveyard word": ("post", f"/admin/games/post/?q={WORD}"),
        "the reports searched for a graveyard word": ("report", f"/admin/moderation/report/?q={WORD}"),
    }


SECRET_PAGES = [
    "an action record",
    "a graveyard post",
    "a graveyard post's earlier text",
    "a report of a graveyard post",
    "the posts searched for a graveyard word",
    "the reports searched for a graveyard word",
]


@pytest.mark.parametrize("page", SECRET_PAGES)
def test_reading_a_running_games_secret_in_the_admin_makes_a_witness_who_never_takes_a_seat(game, staff, page):
    model, address = secret_pages(game)[page]
    client, sam = staff(model)
    response = client.get(address)
    assert response.status_code == 200
    assert SecretWitness.objects.filter(game=game, user=sam).exists()
    assert AuditEntry.objects.filter(game=game, actor=sam, action="view_secrets").exists()
    with pytest.raises(GameError, match="seen this game's secrets"):
        join_game(game.pk, sam, as_substitute=True, now=START)


@pytest.mark.parametrize("page", SECRET_PAGES)
def test_a_secret_in_the_admin_is_left_out_for_anyone_in_its_game(game, staff, page):
    model, address = secret_pages(game)[page]
    client, _ann = staff(model, name="ann")  # ann holds a seat
    response = client.get(address)
    if "?q=" in address:
        assert response.context["cl"].result_count == 0
    else:
        assert response.status_code == 302  # "doesn't exist", as any row one may not see
    assert not SecretWitness.objects.filter(game=game).exists()


def test_a_page_refused_for_want_of_permission_makes_no_witness(game, staff):
    client, sam = staff()
    for _model, address in secret_pages(game).values():
        assert client.get(address).status_code == 403
    assert not SecretWitness.objects.filter(user=sam).exists()


def test_what_holds_no_secret_makes_no_witness(game, staff):
    """A list without a search names rows without their secrets; a post in the game thread is public; a game
    that is over has no secret left (R27)."""
    client, sam = staff("actionrecord", "post", "postrevision", "report")
    main = Post.objects.create(game=game, author=sam, body=f"{WORD} in public", html="x", created_at=START)
    for address in ("/admin/games/actionrecord/", "/admin/games/post/", "/admin/moderation/report/"):
        assert client.get(address).status_code == 200
    assert client.get(f"/admin/games/post/{main.pk}/change/").status_code == 200
    assert not SecretWitness.objects.exists()
    cancel(game.pk, make_user("mod"))
    for _model, address in secret_pages(game).values():
        assert client.get(address).status_code == 200
    assert not SecretWitness.objects.exists()


@pytest.mark.parametrize(
    ("model", "lookup"),
    [
        ("actionrecord", "action__policy=F"),
        ("actionrecord", "action__icontains=hitler"),
        ("post", f"body__icontains={WORD}"),
        ("post", "html__icontains=hitler"),
        ("postrevision", f"body__startswith={WORD}"),
        ("note", "body__icontains=hitler"),
        ("report", f"reason__icontains={WORD}"),
    ],
)
def test_the_admin_refuses_to_filter_rows_by_what_a_secret_says(game, staff, model, lookup):
    Note.objects.create(game=game, author=make_user("ann"), body="cat is hitler", updated_at=START)
    app = "moderation" if model == "report" else "games"
    client, _sam = staff(model)
    assert client.get(f"/admin/{app}/{model}/?{lookup}").status_code == 400
    assert not SecretWitness.objects.exists()
