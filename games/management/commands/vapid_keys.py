"""`manage.py vapid_keys`: a new key pair for Web Push (VAPID, RFC 8292), printed as the settings take it.

`--file PATH` writes the private key to PATH instead, only if PATH holds none yet (`make run` keeps one in
var/ and passes it as VAPID_PRIVATE_KEY_FILE). A new key stops pushes to every device until its owner opens the
devices page on it again: docs/running/push.md says when it is worth it.
"""

import os
from pathlib import Path

from django.core.management.base import BaseCommand

from games.notify.webpush import new_private_key, public_key_of


class Command(BaseCommand):
    help = "Make a VAPID key pair for Web Push and print it (or keep the private key in a file)."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--file", help="write the private key here unless the file already holds one")

    def handle(self, *args, file: str | None = None, **options) -> None:
        if file:
            path = Path(file)
            if path.exists() and path.read_text().strip():
                self.stdout.write(f"{path} already holds a key: kept")
                return
            path.parent.mkdir(parents=True, exist_ok=True)
            descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)  # a secret: its owner only
            with os.fdopen(descriptor, "w") as handle:
                handle.write(new_private_key() + "\n")
            self.stdout.write(f"a new private key written to {path}")
            return
        private = new_private_key()
        self.stdout.write(f"VAPID_PRIVATE_KEY={private}")
        self.stdout.write(f"# the public key browsers subscribe with (the site derives it): {public_key_of(private)}")
