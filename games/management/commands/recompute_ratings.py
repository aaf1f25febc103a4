"""`manage.py recompute_ratings`: every rating made again from the rated games' results, in the order they were
rated, written in place of the stored ones; it says which stored figures were not those it made (none, unless an
account was deleted since or the rows were changed by hand)."""

from django.core.management.base import BaseCommand

from games.services.ratings import recompute


class Command(BaseCommand):
    help = "Recompute every rating from the rated games' results and say whether the stored figures were the same."

    def handle(self, *args, **options):
        done = recompute()
        self.stdout.write(f"{done.games} rated games replayed, {done.ratings} ratings made.")
        if not done.differing:
            self.stdout.write("Every stored rating was identical to the last digit.")
            return
        self.stdout.write(f"{len(done.differing)} stored ratings differed and were replaced:")
        for key in done.differing:
            self.stdout.write(f"  user {key}")
