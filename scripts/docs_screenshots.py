"""Copy the README's screenshots from the browser tests' output to docs/screenshots/.

``python -m pytest tests/e2e`` writes every screenshot to var/screenshots/ (or to
``ARBITER_SCREENSHOTS``); this copies the set the README and issue 13 show, refusing to
run when one is missing (a test that did not get that far). Look at each before committing."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: docs name -> what it shows, at the size the people using it have.
SET = {
    "console-review": "the console (laptop, 1366 px): a closed round's rulings grouped by move",
    "console-equal-tops": "the console: equal tops to choose from, the one selected shown on the board",
    "console-history": "the console: the history of the event in sentences",
    "phone-open": "a phone (360 px): the round open, the rack and the slip form",
    "phone-tapped": "a phone: a word placed by tapping the board and the rack",
    "phone-result": "a phone: the sixth round's result and the player's game drawn",
    "projector-join": "the projector (1080p): the join screen before the game",
    "projector-round": "the projector: a round, the board and the standings",
    "projector-result": "the projector (720p): the top of the round once published",
    "projector-game-over": "the projector: the game drawn beside the final standings",
    "board-vision-none": "the projector's board: premiums in letters, the last move's corners",
    "board-vision-deuteranopia": "the same board as a deuteranope sees it (Chromium's simulation)",
    "board-vision-achromatopsia": "the same board without colour: every premium still told apart",
}
#: The docs names the browser tests save under another name: the result after six rounds
#: (test_the_projector_is_read_from_the_back_of_the_hall), with a chart worth looking at.
SOURCE = {"phone-result": "phone-game-chart"}


def main(source: Path = ROOT / "var" / "screenshots", target: Path = ROOT / "docs" / "screenshots") -> int:
    sources = {name: source / f"{SOURCE.get(name, name)}.png" for name in SET}
    missing = [path.name for path in sources.values() if not path.exists()]
    if missing:
        print(f"missing in {source}: {', '.join(missing)} (run python -m pytest tests/e2e first)")
        return 1
    target.mkdir(parents=True, exist_ok=True)
    for name, what in SET.items():
        shutil.copyfile(sources[name], target / f"{name}.png")
        print(f"{name}.png: {what}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
