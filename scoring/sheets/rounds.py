"""The round-by-round sheet (one line per player, one column per round, the top's score in
the header row) and the game sheet (racks, tops, cumulative top total, final board)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from reportlab.lib import colors
from reportlab.lib.units import mm
from reportlab.platypus import Flowable, KeepTogether, Spacer, Table, TableStyle

from scoring.sheets.base import BOLD, ENGLISH, MARGIN, REGULAR, Sheet, Words, text
from scoring.standings import minus


@dataclass(frozen=True)
class PlayerLine:
    rank: int
    name: str
    scores: Sequence[int | None]  # one per placed round; None: no ruling (joined later)
    total: int


class RoundsSheet(Sheet):
    landscape = True

    def __init__(
        self,
        *,
        event_name: str,
        game: int,
        tops: list[int],
        lines: list[PlayerLine],
        date: str = "",
        words: Words = ENGLISH,
    ) -> None:
        _ = words.gettext
        super().__init__(
            event_name=event_name, subtitle=_("game %(number)s") % {"number": game}, date=date, words=words
        )
        self.title = _("Round by round, game %(number)s") % {"number": game}
        self.page_label = _("page {page} of {pages}")
        self.tops = tops
        self.lines = lines

    def story(self) -> list[Flowable]:
        _ = self.words.gettext
        n = len(self.tops)
        # Name and total take what the rounds leave; the rounds share the rest evenly.
        round_share = min(0.035, 0.62 / max(n, 1))
        widths = [0.04, 0.22, *([round_share] * n), 0.06]
        rest = 1 - sum(widths)
        widths[1] += rest
        header = [_("Rank"), _("Name"), *[str(i + 1) for i in range(n)], _("Total")]
        top_row = ["", _("Top"), *[str(t) for t in self.tops], str(sum(self.tops))]
        body = [
            [line.rank, line.name, *["" if s is None else minus(s) for s in line.scores], minus(line.total)]
            for line in self.lines
        ]
        table = self.table(header, [top_row, *body], widths, numeric_from=2)
        table.repeatRows = 2  # the round numbers and the tops' scores on every page
        table.setStyle(
            TableStyle(
                [
                    ("FONT", (0, 1), (-1, 1), BOLD, 8),  # the tops' row
                    ("BACKGROUND", (0, 1), (-1, 1), colors.HexColor("#eef8f0")),
                    ("LINEBELOW", (0, 1), (-1, 1), 0.6, colors.black),
                ]
            )
        )
        return [table]


@dataclass(frozen=True)
class GameRound:
    number: int
    rack: str  # reliquat+new tiles
    rejected: list[str]
    move: str  # in the event's notation
    score: int
    cumulative: int


#: Square colours of the final board, by the premium class of tournaments.display.
PREMIUM_COLOURS = {
    "l2": "#bfe3f5",
    "l3": "#3f9fd6",
    "l4": "#1c5f9e",
    "w2": "#f7c6cf",
    "w3": "#cc3339",
    "w4": "#9b1c31",
}
#: The premiums' marks when the caller gives none (English); each premium is printed in
#: letters on its empty square, so that a grey print or a colour-blind reader tells them apart.
PREMIUM_MARKS = {"l2": "DL", "l3": "TL", "l4": "QL", "w2": "DW", "w3": "TW", "w4": "QW"}
#: Marks in white on the darker premiums (AA contrast), in ink on the others.
LIGHT_INK = ("l4", "w3", "w4")


class GameSheet(Sheet):
    def __init__(
        self,
        *,
        event_name: str,
        game: int,
        rounds: list[GameRound],
        board: list[tuple[str, list[tuple[str, str]]]],
        columns: list[str],
        end: str,
        date: str = "",
        words: Words = ENGLISH,
        marks: dict[str, str] | None = None,
    ) -> None:
        """``board``: (row label, [(letter, premium class)]) rows; a blank is lowercase.
        ``marks``: the premiums' marks in the reader's language (premium class -> "MT")."""
        _ = words.gettext
        super().__init__(
            event_name=event_name, subtitle=_("game %(number)s") % {"number": game}, date=date, words=words
        )
        self.title = _("Game sheet, game %(number)s") % {"number": game}
        self.page_label = _("page {page} of {pages}")
        self.rounds = rounds
        self.board = board
        self.columns = columns
        self.end = end
        self.marks = marks or PREMIUM_MARKS

    def story(self) -> list[Flowable]:
        _ = self.words.gettext
        header = [_("Round"), _("Rack"), _("Rejected"), _("Top"), _("Score"), _("Total")]
        body = [[r.number, r.rack, ", ".join(r.rejected), r.move, r.score, r.cumulative] for r in self.rounds]
        story: list[Flowable] = [self.table(header, body, (0.08, 0.2, 0.2, 0.32, 0.1, 0.1), numeric_from=4)]
        if self.end:
            story.append(text(_("End of the game: %(reason)s.") % {"reason": self.end}, self.styles["body"]))
        # The board is never cut: it goes to the next page whole if it does not fit.
        story += [
            Spacer(1, 4 * mm),
            KeepTogether([text(_("Final board"), self.styles["heading"]), self._board()]),
        ]
        return story

    def _board(self) -> Table:
        size = len(self.board)
        usable = min(self.pagesize[0] - 2 * MARGIN, 150 * mm)
        cell = usable / (size + 1)
        data = [["", *self.columns]]
        for label, cells in self.board:
            # A blank keeps its lowercase letter: told by its shape, not by its red alone.
            data.append([label, *[letter or self.marks.get(premium, "") for letter, premium in cells]])
        table = Table(data, colWidths=[cell] * (size + 1), rowHeights=[cell] * (size + 1))
        commands: list[tuple[Any, ...]] = [
            ("FONT", (0, 0), (-1, -1), BOLD, cell * 0.55),
            ("FONT", (0, 0), (-1, 0), REGULAR, cell * 0.35),  # column names
            ("FONT", (0, 0), (0, -1), REGULAR, cell * 0.35),  # row names
            ("ALIGN", (0, 0), (-1, -1), "CENTER"),
            ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
            ("GRID", (1, 1), (-1, -1), 0.3, colors.grey),
        ]
        for r, (_label, cells) in enumerate(self.board, start=1):
            for c, (letter, premium) in enumerate(cells, start=1):
                if letter:
                    commands.append(("BACKGROUND", (c, r), (c, r), colors.HexColor("#f6d98c")))  # a tile
                    if letter.islower():  # a blank: its letter in red italics-like colour
                        commands.append(("TEXTCOLOR", (c, r), (c, r), colors.HexColor("#b3261e")))
                elif premium:
                    commands.append(("BACKGROUND", (c, r), (c, r), colors.HexColor(PREMIUM_COLOURS[premium])))
                    commands.append(("FONT", (c, r), (c, r), BOLD, cell * 0.3))  # the mark, small
                    if premium in LIGHT_INK:
                        commands.append(("TEXTCOLOR", (c, r), (c, r), colors.white))
        table.setStyle(TableStyle(commands))
        return table
