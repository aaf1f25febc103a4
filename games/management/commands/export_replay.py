"""`manage.py export_replay GAME_ID`: print a game's replay script (REPLAY.md), moderators' actions included."""

import json

from django.core.management.base import BaseCommand, CommandError

from games.models import Game
from games.services import GameError
from games.services.transfer import export_script


class Command(BaseCommand):
    help = "Print a game's replay script on standard output."

    def add_arguments(self, parser):
        parser.add_argument("game_id", type=int)

    def handle(self, *args, game_id, **options):
        try:
            script = export_script(Game.objects.get(pk=game_id))
        except Game.DoesNotExist:
            raise CommandError(f"there is no game {game_id}") from None
        except GameError as error:
            raise CommandError(str(error)) from None
        self.stdout.write(json.dumps(script, indent=2, ensure_ascii=False))
