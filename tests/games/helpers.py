import threading

from django.contrib.auth import get_user_model
from django.db import connection

from games.engine import summary
from games.models import Game


def user(name: str):
    return get_user_model().objects.get(username=name)


def reload(game: Game) -> Game:
    return Game.objects.get(pk=game.pk)


def state_of(game: Game) -> dict:
    return summary(reload(game).load_state())


def in_threads(*functions) -> list:
    """Run each function in its own thread (its own database connection), all released at once; their results or
    the exceptions they raised, in order."""
    barrier, results = threading.Barrier(len(functions)), [None] * len(functions)

    def run(index, function):
        barrier.wait()
        try:
            results[index] = function()
        except Exception as error:
            results[index] = error
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i, f)) for i, f in enumerate(functions)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    return results
