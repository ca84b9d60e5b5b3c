"""The house (docs/architecture.md): its floors, checked by import-linter on every test run
(imports run downwards only: solver <- scoring <- tournaments <- plumbing <- rooms | api <-
multiplex <- the site; the rooms and the API never import each other, and the game and the
duplicate rules never import Django), and its module map, checked against the tree."""

from __future__ import annotations

import logging
import re
import tomllib
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from importlinter.cli import lint_imports

ROOT = Path(__file__).resolve().parent.parent
CONFIG = ROOT / "pyproject.toml"


@contextmanager
def _logging_kept() -> Iterator[None]:
    """import-linter configures logging (``dictConfig``), which disables every logger that
    exists: the tests after this one in its process would log nothing (the error page's
    reference, say)."""
    root = logging.getLogger()
    loggers = [lg for lg in logging.root.manager.loggerDict.values() if isinstance(lg, logging.Logger)]
    kept = [(lg, lg.disabled, lg.level, lg.propagate, list(lg.handlers)) for lg in [root, *loggers]]
    try:
        yield
    finally:
        for lg, disabled, level, propagate, handlers in kept:
            lg.disabled, lg.level, lg.propagate, lg.handlers = disabled, level, propagate, handlers


def test_the_import_contracts_hold() -> None:
    with _logging_kept():
        assert lint_imports(config_filename=str(CONFIG), no_cache=True) == 0


def test_every_package_of_the_project_is_under_the_contracts() -> None:
    # A new top-level package outside root_packages would escape every contract.
    packages = {p.parent.name for p in ROOT.glob("*/__init__.py")} - {"tests"}
    config = tomllib.loads(CONFIG.read_text())["tool"]["importlinter"]
    assert packages == set(config["root_packages"])


# The module map of docs/architecture.md: a section a package, headed "### `name/`...", and
# under it a table whose first column names modules by their path from the package's
# folder; a name ending in "/" is a folder, and the names after it in the same cell are
# its modules. Every module of every package is named (migrations and __init__.py aside),
# and every name is there in the tree.
MAP = ROOT / "docs" / "architecture.md"
_PACKAGE_HEADING = re.compile(r"^###\s+`([a-z_]+)/`")
_NAME = re.compile(r"`([^`\s]+)`")


def _project_packages() -> set[str]:
    return {p.parent.name for p in ROOT.glob("*/__init__.py")} - {"tests"}


def _mapped() -> dict[str, set[str]]:
    """Package -> the paths its map names, each from the project's root."""
    mapped: dict[str, set[str]] = {}
    package = None
    for line in MAP.read_text("utf-8").splitlines():
        if line.startswith("#"):
            heading = _PACKAGE_HEADING.match(line)
            package = heading.group(1) if heading else None
            if package is not None:
                mapped.setdefault(package, set())
            continue
        if package is None or not line.startswith("|") or line.startswith("|---"):
            continue
        first = line.split("|")[1]
        folder = ""
        for name in _NAME.findall(first):
            if name.endswith("/"):
                folder = name
                mapped[package].add(f"{package}/{folder}")
            else:
                mapped[package].add(f"{package}/{folder}{name}")
    return mapped


def _modules(package: str) -> set[str]:
    found = set()
    for path in (ROOT / package).rglob("*.py"):
        relative = path.relative_to(ROOT)
        if path.name == "__init__.py" or "migrations" in relative.parts:
            continue
        found.add(relative.as_posix())
    return found


def test_every_package_has_a_section_in_the_module_map() -> None:
    mapped = set(_mapped())
    missing = sorted(_project_packages() - mapped)
    stale = sorted(mapped - _project_packages())
    assert not missing, f"docs/architecture.md: no '### `name/`' section for the package(s) {missing}"
    assert not stale, f"docs/architecture.md: a section for {stale}, which is no package of the project"


def test_every_module_is_in_the_module_map_and_every_name_there_exists() -> None:
    mapped = _mapped()
    problems = []
    for package in sorted(_project_packages() & set(mapped)):
        names = mapped[package]
        problems += [
            f"{path} is not in docs/architecture.md: add it to the table under '### `{package}/`'"
            for path in sorted(_modules(package) - names)
        ]
        problems += [
            f"docs/architecture.md names {path}, which does not exist: moved or removed?"
            for path in sorted(names)
            if not (ROOT / path.rstrip("/")).exists()
        ]
    assert not problems, "The module map and the tree differ:\n" + "\n".join(problems)
