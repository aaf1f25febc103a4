"""No test module imports another: what tests share lives in tests/factories.py, a conftest fixture or a helper
module (tests/services.py, tests/games/helpers.py, ...), so that moving or deleting one test file never breaks
another, and pytest never collects a module's tests twice under two names."""

import ast
from pathlib import Path

TESTS = Path(__file__).resolve().parent


def is_test_module(dotted: str) -> bool:
    return dotted.rsplit(".", 1)[-1].startswith("test_")


def package_of(path: Path) -> list[str]:
    return ["tests", *path.relative_to(TESTS).parent.parts]


def imported_modules(path: Path):
    """Every module an import statement of `path` names, dotted and absolute (relative imports resolved)."""
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            package = package_of(path)
            base = node.module or ""
            if node.level:
                base = ".".join([*package[: len(package) - node.level + 1], *([node.module] if node.module else [])])
            yield base
            yield from (f"{base}.{alias.name}" for alias in node.names)  # `from tests.web import test_api`


def test_no_test_module_imports_another_test_module():
    offenders = [
        f"{path.relative_to(TESTS.parent)} imports {module}"
        for path in sorted(TESTS.rglob("test_*.py"))
        for module in imported_modules(path)
        if module.startswith("tests.") and is_test_module(module)
    ]
    assert offenders == []


def test_the_layout_check_sees_every_way_of_importing_a_test_module(tmp_path, monkeypatch):
    monkeypatch.setattr(f"{__name__}.TESTS", tmp_path)
    (tmp_path / "web").mkdir()
    module = tmp_path / "web" / "test_x.py"
    for source in (
        "from tests.web.test_api import Api",
        "from tests.web import test_api",
        "import tests.web.test_api",
        "from .test_api import Api",
        "from . import test_api",
        "from ..notify.test_webhooks import Receiver",
    ):
        module.write_text(source + "\n")
        assert any(is_test_module(name) and name.startswith("tests.") for name in imported_modules(module)), source
    module.write_text("from tests.factories import Api\nfrom .helpers import reload\nfrom tests import services\n")
    assert not any(is_test_module(name) for name in imported_modules(module))
