"""What an MTA's pipe runs for each reply: `python deploy/receive_email.py [--env-file FILE] [--recipient ADDRESS]`.

Postfix's pipe starts its command with an empty environment: `--env-file` reads the site's settings from the
file the systemd units name (EnvironmentFile=, systemd's format), so the reply is judged with the site's
database and key, not the development defaults. A site that cannot start (the file unreadable, a setting that
does not parse, DEBUG=0 without SECRET_KEY) exits 75 (EX_TEMPFAIL) with the reason on standard error, as
`manage.py receive_email` does when it cannot judge a message: the MTA keeps the message and tries again, where
Python's exit 1 after a traceback would bounce it for good.
"""

import argparse
import os
import sys
from pathlib import Path

EX_TEMPFAIL = 75
ROOT = Path(__file__).resolve().parents[1]


def read_env_file(path: str) -> dict[str, str]:
    """systemd's EnvironmentFile= format: KEY=VALUE lines, comments (# or ;), a value possibly quoted."""
    values = {}
    for number, line in enumerate(Path(path).read_text().splitlines(), start=1):
        line = line.strip()
        if not line or line[0] in "#;":
            continue
        key, equals, value = line.partition("=")
        if not equals or not key.strip().isidentifier():
            raise ValueError(f"{path}, line {number}: not KEY=VALUE")  # the line itself may hold a secret
        value = value.strip()
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
            value = value[1:-1]
        values[key.strip()] = value
    return values


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--env-file", help="the site's environment file (systemd's EnvironmentFile=)")
    options, rest = parser.parse_known_args(argv)
    try:
        if options.env_file:
            os.environ.update(read_env_file(options.env_file))
        os.environ.setdefault("DJANGO_SETTINGS_MODULE", "sh_site.settings")
        sys.path.insert(0, str(ROOT))
        import django

        django.setup()
        from django.core.management import call_command

        call_command("receive_email", *rest)
    except Exception as error:  # whatever it is, nothing was judged: a reply must never bounce for it
        reason = str(error).rstrip(".")
        print(
            f"receive_email: the site cannot start: {reason}. Nothing was recorded; the MTA tries again.",
            file=sys.stderr,
        )
        return EX_TEMPFAIL
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
