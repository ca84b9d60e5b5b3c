"""The house's floors (README, "Module map"), checked by import-linter on every test run:
imports run downwards only (solver <- scoring <- tournaments <- rooms | api <- the
project's URLs), the rooms and the API never import each other, and the game and the
duplicate rules never import Django."""

from __future__ import annotations

import tomllib
from pathlib import Path

from importlinter.cli import lint_imports

ROOT = Path(__file__).resolve().parent.parent
CONFIG = ROOT / "pyproject.toml"


def test_the_import_contracts_hold() -> None:
    assert lint_imports(config_filename=str(CONFIG), no_cache=True) == 0


def test_every_package_of_the_project_is_under_the_contracts() -> None:
    # A new top-level package outside root_packages would escape every contract.
    packages = {p.parent.name for p in ROOT.glob("*/__init__.py")} - {"tests"}
    config = tomllib.loads(CONFIG.read_text())["tool"]["importlinter"]
    assert packages == set(config["root_packages"])
