from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.utils import timezone

from games.models import Absence, Ban, Game, Post, Seat
from games.services import cancel
from games.services.transfer import import_script
from moderation.models import Report
from tests.factories import make_user, reauthenticated, running_game, script, with_second_factor
from tests.web.attacks import GOOD_END, GOOD_START


def pytest_make_parametrize_id(config, val, argname):
    """The dates three days from now by name: the same test ids in every xdist worker, which collect at other
    moments (their ids must match)."""
    return {GOOD_START: "GOOD_START", GOOD_END: "GOOD_END"}.get(val) if isinstance(val, str) else None


@pytest.fixture
def world():
    """A running game (ann..eve, a vote open, posts, a report, an absence) and a finished one; a moderator."""
    now = timezone.now()
    game = running_game(now=now, actions=[{"type": "nominate", "by": "ann", "target": "bob"}])
    other = running_game(now=now)
    Game.objects.filter(pk=other.pk).update(name="Other")
    ghost = make_user("ghost")
    post = Post.objects.create(game=game, author=make_user("ann"), body="hi", html="<p>hi</p>", created_at=now)
    buried = Post.objects.create(
        game=game, author=ghost, thread=Post.Thread.GRAVEYARD, body="b", html="b", created_at=now
    )
    report = Report.objects.create(post=post, reporter=make_user("bob"), reason="rude")
    seat = Seat.objects.get(game=game, name="cat")
    absence = Absence.objects.create(seat=seat, starts_at=now + timedelta(days=2), ends_at=now + timedelta(days=3))
    ban = Ban.objects.create(user=ghost, until=now + timedelta(days=3), reason="spam")
    moderator = make_user("mod")
    moderator.groups.add(Group.objects.get(name="moderators"))
    cancel(other.pk, moderator)  # the other game is over
    ids = {
        "game_id": game.pk,
        "post_id": post.pk,
        "absence_id": absence.pk,
        "report_id": report.pk,
        "user_id": make_user("dan").pk,
        "ban_id": ban.pk,
        "username": "ann",
        "token": "forged-token",
        "key": "forged-key",
        "uidb36": "1",
    }
    elsewhere = {**ids, "game_id": other.pk, "post_id": buried.pk}
    return {"real": ids, "elsewhere": elsewhere}


@pytest.fixture
def moderator(client_for):
    client = client_for("mod")
    user = get_user_model().objects.get(username="mod")
    user.groups.add(Group.objects.get(name="moderators"))
    return reauthenticated(with_second_factor(client, user), user)


@pytest.fixture
def games():
    """Ann's running game, a stranger's game she is not seated in (7 players: eve..., not ann), a finished game."""
    mine = running_game(now=timezone.now())
    strangers = script(5)
    names = dict(zip(strangers["players"], [f"x{number}" for number in range(5)], strict=True))
    strangers.update(players=list(names.values()), first_president="x0")
    strangers["roles"] = {names[name]: role for name, role in strangers["roles"].items()}
    others = import_script(strangers, now=timezone.now())
    Game.objects.filter(pk=others.pk).update(created_by=make_user("zed"))
    over = running_game(now=timezone.now())
    cancel(over.pk, make_user("mod0"))
    return {"mine": mine, "other": others, "over": over}
