"""Measuring code is not product code: production settings install neither the devtools app nor its views, and
the package pyproject builds leaves it out."""

import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from setuptools import find_packages

# Each case starts Django in a process of its own: not in `make test-fast`.
pytestmark = pytest.mark.slow
ROOT = Path(__file__).resolve().parents[2]
PRODUCTION = {"DEBUG": "0", "SECRET_KEY": "k" * 50, "ALLOWED_HOSTS": "sh.example.org", "SITE_URL": "https://x"}
PROBE = """
import sys
import django
django.setup()
from django.apps import apps
from django.core.management import get_commands
from django.urls import Resolver404, resolve
try:
    mounted = bool(resolve("/bench/bare/"))
except Resolver404:
    mounted = False
print(apps.is_installed("devtools"), "bench_engine" in get_commands(), mounted, "devtools" in sys.modules)
"""


def start(**environment: str) -> subprocess.CompletedProcess:
    """A fresh process setting Django up with exactly this environment (and the machine's PATH), probing it."""
    env = {"PATH": os.environ["PATH"], "DJANGO_SETTINGS_MODULE": "sh_site.settings", **environment}
    return subprocess.run([sys.executable, "-c", PROBE], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)


def probe(**environment: str) -> tuple[str, ...]:
    result = start(**environment)
    assert result.returncode == 0, result.stderr
    return tuple(result.stdout.split())


def test_production_installs_no_devtools_and_mounts_no_bench_views():
    installed, commands, mounted, imported = probe(**PRODUCTION)
    assert (installed, commands, mounted, imported) == ("False", "False", "False", "False")


def test_debug_installs_devtools_without_mounting_the_bench_views():
    assert probe(DEBUG="1") == ("True", "True", "False", "True")


def test_the_benchmarks_server_installs_devtools_and_mounts_its_views():
    assert probe(**PRODUCTION, DEVTOOLS="1", BENCH_VIEWS="1") == ("True", "True", "True", "True")


def test_bench_views_without_devtools_refuse_to_start():
    result = start(**PRODUCTION, BENCH_VIEWS="1")
    assert result.returncode != 0
    assert "BENCH_VIEWS needs DEVTOOLS on" in result.stderr


def test_the_built_package_ships_no_measuring_code():
    found = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"]["find"]
    shipped = find_packages(ROOT, include=found["include"])
    assert "games" in shipped and "sh_site" in shipped
    assert not [name for name in shipped if name.split(".")[0] in ("devtools", "bench", "tests")]
