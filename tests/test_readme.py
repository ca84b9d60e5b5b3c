"""The README's first two commands are the contract with a newcomer and with CI."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _commands() -> list[str]:
    lines = (ROOT / "README.md").read_text("utf-8").splitlines()
    return [line.strip() for line in lines if line.startswith("    ") and line.strip()][:2]


def test_the_readme_starts_with_a_run_and_a_test_command() -> None:
    run, test = _commands()
    assert run == "pip install -e . && python manage.py serve"
    assert test.startswith("pip install -e '.[dev]'") and "pytest" in test


def test_ci_runs_the_readme_test_command_verbatim() -> None:
    _, test = _commands()
    ci = (ROOT / ".ci" / "run").read_text("utf-8").splitlines()
    assert test in [line.strip() for line in ci]


def test_the_screenshots_shown_are_in_docs() -> None:
    """The README's pictures and the set of issue 13 (console, phone, projector), copied
    from the browser tests by scripts/docs_screenshots.py."""
    import re

    from scripts.docs_screenshots import SET

    readme = (ROOT / "README.md").read_text("utf-8")
    shown = re.findall(r"\((docs/screenshots/[\w-]+\.png)\)", readme)
    assert shown and all((ROOT / path).is_file() for path in shown), shown
    for name in SET:
        picture = ROOT / "docs" / "screenshots" / f"{name}.png"
        assert picture.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n", name
