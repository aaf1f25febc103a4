from django.contrib.auth import get_user_model

from games.engine import summary
from games.models import Game


def user(name: str):
    return get_user_model().objects.get(username=name)


def reload(game: Game) -> Game:
    return Game.objects.get(pk=game.pk)


def state_of(game: Game) -> dict:
    return summary(reload(game).load_state())
