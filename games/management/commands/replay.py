"""`manage.py replay FILE.json [FILE.json ...]`: play replay scripts through the rules engine (REPLAY.md).

Needs no database or broker. Prints one JSON object (several files: one a line); exits 0 when every action
applied, 1 when one broke a rule, 2 when a file is unreadable or not a valid script.
"""

import json
import sys

from django.core.management.base import BaseCommand

from games.replay import EXIT_INVALID, invalid_output, replay_script


class Command(BaseCommand):
    help = "Play replay scripts (see REPLAY.md) through the rules engine and print the resulting state as JSON."
    requires_system_checks = []
    requires_migrations_checks = False

    def add_arguments(self, parser):
        parser.add_argument("files", nargs="+", metavar="FILE", help="a replay script, or - for standard input")
        parser.add_argument("--view", metavar="NAME", help="add what NAME alone may know")
        parser.add_argument("--reveal", action="store_true", help="add everything, secrets included")

    def handle(self, *args, files, view, reveal, **options):
        worst = 0
        for path in files:
            status, output = self._replay_file(path, view, reveal)
            worst = max(worst, status)
            self.stdout.write(json.dumps(output, indent=None if len(files) > 1 else 2, ensure_ascii=False))
        sys.exit(worst)

    def _replay_file(self, path: str, view: str | None, reveal: bool) -> tuple[int, dict]:
        try:
            if path == "-":
                data = json.load(sys.stdin)
            else:
                with open(path, encoding="utf-8") as file:
                    data = json.load(file)
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
            return self._invalid(path, f"cannot read the script: {error}")
        status, output = replay_script(data, view=view, reveal=reveal)
        if status == EXIT_INVALID:
            self.stderr.write(f"{path}: {output['error']['message']}")
        return status, output

    def _invalid(self, path: str, message: str) -> tuple[int, dict]:
        self.stderr.write(f"{path}: {message}")
        return EXIT_INVALID, invalid_output(message)
