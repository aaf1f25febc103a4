"""The rules engine as it stood before issue 14's speed-up, for `bench_engine`'s before/after comparison and the
test that today's engine lists the same legal moves: read from git into var/, never kept as a copy in the tree.

The tag `engine-before` names the commit; a clone without tags (as CI's may be) falls back to the commit written
here. The engine imports only itself (relative imports), so its `games/engine` folder loads as a package of its
own beside today's.
"""

import importlib.util
import io
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path
from types import ModuleType

TAG = "engine-before"
COMMIT = "bb9f5f9e8155c797fc472bc0ea16e367cd6117de"  # the parent of fdda82b, whose copy bench/engine_before it was
PACKAGE = "engine_before"
ROOT = Path(__file__).resolve().parents[1]
CACHE = ROOT / "var" / "engine_before"


class EngineBeforeUnavailable(RuntimeError):
    """No git, no repository, or a clone without the commit (a shallow one)."""


def _git(*arguments: str) -> bytes:
    try:
        result = subprocess.run(["git", *arguments], cwd=ROOT, capture_output=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired) as error:
        raise EngineBeforeUnavailable(f"git cannot run: {error}") from None
    if result.returncode != 0:
        raise EngineBeforeUnavailable(f"git {arguments[0]}: {result.stderr.decode(errors='replace').strip()}")
    return result.stdout


def commit() -> str:
    """The tag's commit, else COMMIT when this clone lacks the tag; raises when neither is in the repository."""
    for name in (f"refs/tags/{TAG}", COMMIT):
        try:
            return _git("rev-parse", "--verify", "--quiet", f"{name}^{{commit}}").decode().strip()
        except EngineBeforeUnavailable as error:
            missing = error
    raise EngineBeforeUnavailable(f"neither the tag {TAG} nor the commit {COMMIT} is here ({missing})")


def _extract(sha: str) -> Path:
    """`games/engine` at `sha`, extracted once into var/engine_before/<sha>; safe when processes race to it."""
    folder = CACHE / sha
    if (folder / "__init__.py").exists():
        return folder
    archive = _git("archive", "--format=tar", sha, "games/engine")
    CACHE.mkdir(parents=True, exist_ok=True)
    scratch = Path(tempfile.mkdtemp(dir=CACHE))
    try:
        with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
            tar.extractall(scratch, filter="data")
        try:
            os.rename(scratch / "games" / "engine", folder)
        except OSError:
            if not (folder / "__init__.py").exists():  # else another process extracted it first
                raise
    finally:
        shutil.rmtree(scratch)
    return folder


def load() -> ModuleType:
    """The engine before, imported as the package `engine_before`; raises EngineBeforeUnavailable, saying why."""
    if PACKAGE in sys.modules:
        return sys.modules[PACKAGE]
    folder = _extract(commit())
    spec = importlib.util.spec_from_file_location(
        PACKAGE, folder / "__init__.py", submodule_search_locations=[str(folder)]
    )
    module = importlib.util.module_from_spec(spec)
    sys.modules[PACKAGE] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[PACKAGE]
        raise
    return module
