"""Copy the README's screenshots from the browser tests' output to docs/screenshots/.

``python -m pytest tests/e2e`` writes every screenshot to var/screenshots/ (or to
``ARBITER_SCREENSHOTS``); this copies the set the README and issue 13 show, refusing to
run when one is missing (a test that did not get that far), and puts the projector's
screens (tests/e2e/test_projector.py: every board, screen and aspect ratio) on one sheet
a board in docs/screenshots/projector/. Look at each before committing."""

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
#: The projector's sheets: a row a screen, a column a window (test_projector's names).
PROJECTOR_BOARDS = ("standard", "large", "grand")
PROJECTOR_PLAYERS = 300
PROJECTOR_ROLES = ("all", "board", "round", "standings")
PROJECTOR_SIZES = ("1920x1080", "1920x1200", "1440x1080", "1280x720", "1280x800", "960x720")
#: Each screen drawn this high on a sheet (pixels); JPEG at this quality (the sheets are
#: for looking at the layout, about 350 KB each).
SHEET_ROW, SHEET_QUALITY = 200, 60


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
    return projector(source / "projector", target / "projector")


def projector(source: Path, target: Path) -> int:
    from PIL import Image, ImageDraw  # ReportLab's dependency: installed with Arbiter

    names = [
        f"{board}-{PROJECTOR_PLAYERS}-{role}-{size}.jpg"
        for board in PROJECTOR_BOARDS
        for role in PROJECTOR_ROLES
        for size in PROJECTOR_SIZES
    ]
    missing = [name for name in names if not (source / name).exists()]
    if missing:
        print(f"missing in {source}: {len(missing)} screens (python -m pytest tests/e2e/test_projector.py)")
        return 1
    target.mkdir(parents=True, exist_ok=True)
    pad, head = 10, 30
    for board in PROJECTOR_BOARDS:
        rows = []
        for role in PROJECTOR_ROLES:
            row = []
            for size in PROJECTOR_SIZES:
                with Image.open(source / f"{board}-{PROJECTOR_PLAYERS}-{role}-{size}.jpg") as image:
                    width = round(image.width * SHEET_ROW / image.height)
                    row.append(image.resize((width, SHEET_ROW), Image.Resampling.LANCZOS))
            rows.append(row)
        widths = [max(row[i].width for row in rows) for i in range(len(PROJECTOR_SIZES))]
        sheet = Image.new(
            "RGB",
            (sum(widths) + pad * (len(widths) + 1), head + len(rows) * (SHEET_ROW + head) + pad),
            "white",
        )
        draw = ImageDraw.Draw(sheet)
        x = pad
        for i, size in enumerate(PROJECTOR_SIZES):
            draw.text((x, 5), size, fill="black", font_size=20)
            y = head
            for role, row in zip(PROJECTOR_ROLES, rows, strict=True):
                draw.text((x, y + 3), f"?screen={role}", fill="#333", font_size=20)
                sheet.paste(row[i], (x, y + head - 4))
                y += SHEET_ROW + head
            x += widths[i] + pad
        name = f"{board}-{PROJECTOR_PLAYERS}-players.jpg"
        sheet.save(target / name, quality=SHEET_QUALITY)
        print(f"projector/{name}: the {board} board, every screen and window")
    for role in PROJECTOR_ROLES:
        with Image.open(source / f"standard-{PROJECTOR_PLAYERS}-{role}-1920x1080.jpg") as image:
            image.save(target / f"{role}-1080p.jpg", quality=SHEET_QUALITY)
    for moment in ("published-all", "over-all"):
        with Image.open(source / f"moment-{moment}.jpg") as image:
            image.save(target / f"{moment}-4x3-720p.jpg", quality=SHEET_QUALITY)
    return 0


if __name__ == "__main__":
    sys.exit(main())
