"""`manage.py import_replay FILE.json`: create a live game from a replay script (REPLAY.md)."""

import json
import sys

from django.core.management.base import BaseCommand

from games.replay import EXIT_ILLEGAL, EXIT_INVALID, ScriptError
from games.services.transfer import IllegalScriptAction, import_script


class Command(BaseCommand):
    help = "Create a live game from a replay script; print its id and page. Exits 1 or 2 as replay does."

    def add_arguments(self, parser):
        parser.add_argument("file", help="a replay script, or - for standard input")

    def handle(self, *args, file, **options):
        try:
            data = json.load(sys.stdin) if file == "-" else _read(file)
            game = import_script(data)
        except (OSError, UnicodeDecodeError, json.JSONDecodeError, ScriptError) as error:
            self.stderr.write(f"{file}: {error}")
            sys.exit(EXIT_INVALID)
        except IllegalScriptAction as error:
            self.stderr.write(f"{file}: action {error.index}: {error}")
            sys.exit(EXIT_ILLEGAL)
        self.stdout.write(json.dumps({"game_id": game.pk, "url": game.get_absolute_url()}))


def _read(path: str):
    with open(path, encoding="utf-8") as file:
        return json.load(file)
