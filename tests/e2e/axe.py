"""The accessibility check of the browser tests: axe-core (the npm package, installed by
.ci/run from package.json) injected into the page and run against WCAG 2.1 A and AA.

Every page state a browser test photographs is checked (``shot`` calls
:func:`assert_accessible`): a serious or critical violation fails the test, with what axe
says and where. Without axe-core a test fails in CI and runs unchecked elsewhere (a warning
says so: ``npm ci`` installs it)."""

from __future__ import annotations

import warnings
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from tests.integration.conftest import in_ci

AXE = Path(__file__).resolve().parents[2] / "node_modules" / "axe-core" / "axe.min.js"
#: The rules of WCAG 2.1 levels A and AA (axe's tags).
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
#: The impacts that fail a test; "minor" and "moderate" ones are reported, not failed.
FAILING = ("serious", "critical")


@cache
def _source() -> str:
    return AXE.read_text("utf-8")


def violations(page: Any) -> list[dict[str, Any]]:
    """axe's violations of the page as it is now (its frames included)."""
    if not page.evaluate("() => typeof window.axe !== 'undefined'"):
        # Evaluated through the browser's debugging protocol: the pages' Content-Security-
        # Policy (scripts from 'self' only) rightly refuses an injected <script>.
        page.evaluate(_source())
    found: list[dict[str, Any]] = page.evaluate(
        "tags => axe.run(document, {runOnly: {type: 'tag', values: tags}, resultTypes: ['violations']})"
        ".then(r => r.violations)",
        TAGS,
    )
    return found


def describe(found: list[dict[str, Any]]) -> str:
    lines = []
    for v in found:
        lines.append(f"{v['impact']}: {v['id']}: {v['help']} ({v['helpUrl'].split('?')[0]})")
        for node in v["nodes"][:5]:
            lines.append(f"    {' '.join(map(str, node['target']))}: {node.get('failureSummary', '')[:300]}")
    return "\n".join(lines)


def assert_accessible(page: Any, state: str) -> None:
    """No serious or critical WCAG 2.1 A/AA violation in ``state`` of the page."""
    if not AXE.exists():
        message = f"no axe-core at {AXE}: run npm ci"
        if in_ci():
            pytest.fail(f"CI must check accessibility ({message}); .ci/run installs it", pytrace=False)
        warnings.warn(f"{state}: not checked for accessibility ({message})", stacklevel=2)
        return
    failing = [v for v in violations(page) if v.get("impact") in FAILING]
    assert not failing, f"{state}: accessibility violations (WCAG 2.1 A/AA)\n{describe(failing)}"
