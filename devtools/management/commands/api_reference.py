"""`manage.py api_reference [--check]`: the docs' API reference, written from the live OpenAPI schema."""

from django.core.management.base import BaseCommand, CommandError

from devtools.api_reference import ROOT, expected, stale


class Command(BaseCommand):
    help = "Write docs/integrating/openapi.json and api-reference.md from the API's schema (--check: compare only)."

    def add_arguments(self, parser):
        parser.add_argument("--check", action="store_true", help="write nothing; exit 1 if the files are stale")

    def handle(self, *args, check=False, **options):
        if check:
            if paths := stale():
                names = ", ".join(str(path.relative_to(ROOT)) for path in paths)
                raise CommandError(f"stale: {names}; run `make docs-api`")
            return
        for path, text in expected().items():
            path.write_text(text)
            self.stdout.write(f"wrote {path.relative_to(ROOT)}")
