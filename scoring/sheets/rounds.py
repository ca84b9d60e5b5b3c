"""The round-by-round sheet (one line per player, one column per round, the top's score in
the header row) and the game sheet (racks, tops, cumulative top total, final board)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from reportlab.lib import colors
from reportlab.lib.units import mm
from reportlab.platypus import Flowable, KeepTogether, Spacer, Table, TableStyle

from scoring.sheets.base import BOLD, ENGLISH, MARGIN, PADDING, REGULAR, Sheet, Words, line_width, text
from scoring.standings import minus

#: The rank's and the total's shares of the page's width in the round-by-round sheet.
RANK, TOTAL = 0.04, 0.06
#: The least share of the names when the rounds are many; a name wraps within it.
NAME_LEAST = 0.12
#: The round columns' room on either side: narrow, so that a long game's scores fit across.
ROUND_PADDING = 2.0


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
        # A long game's rounds do not fit across one page: they are shared out among
        # tables one under the other, each with the ranks, the names and the totals.
        n = len(self.tops)
        need = self._round_need()
        room = (1 - RANK - NAME_LEAST - TOTAL) * (self.pagesize[0] - 2 * MARGIN)
        tables = max(-(-n // max(int(room // need), 1)), 1)
        size = -(-n // tables)  # the tables as even as can be
        bounds = [(first, min(first + size, n)) for first in range(0, n, size)] or [(0, 0)]
        story: list[Flowable] = []
        for first, last in bounds:
            if story:
                story.append(Spacer(1, 4 * mm))
            story.append(self._table(first, last, need))
        return story

    def _round_need(self) -> float:
        """The width every round column needs, in points: the widest round's number, top or
        score, so that the rounds stay evenly spaced."""
        cells = [
            *(line_width(str(i + 1), BOLD) for i in range(len(self.tops))),
            *(line_width(str(t), BOLD) for t in self.tops),
            *(line_width(minus(s), REGULAR) for line in self.lines for s in line.scores if s is not None),
        ]
        return max(cells, default=0.0) + 2 * ROUND_PADDING

    def _table(self, first: int, last: int, need: float) -> Table:
        """The rounds ``first + 1`` to ``last``, each column at least ``need`` points wide."""
        _ = self.words.gettext
        n = last - first
        # Name and total take what the rounds leave; the rounds share the rest evenly.
        round_share = max(min(0.035, 0.62 / max(n, 1)), need / (self.pagesize[0] - 2 * MARGIN))
        widths = [RANK, 0.22, *([round_share] * n), TOTAL]
        widths[1] += 1 - sum(widths)
        header = [_("Rank"), _("Name"), *[str(i + 1) for i in range(first, last)], _("Total")]
        tops = self.tops[first:last]
        top_row = ["", _("Top"), *[str(t) for t in tops], str(sum(self.tops))]
        body = [
            [
                line.rank,
                text(line.name, self.styles["cell"]),
                *["" if s is None else minus(s) for s in line.scores[first:last]],
                minus(line.total),
            ]
            for line in self.lines
        ]
        paddings = [PADDING, PADDING, *([ROUND_PADDING] * n), PADDING]
        # The round numbers and the tops' scores on every page.
        table = self.table(header, [top_row, *body], widths, numeric_from=2, header_rows=2, paddings=paddings)
        table.setStyle(
            TableStyle(
                [
                    ("BACKGROUND", (0, 1), (-1, 1), colors.HexColor("#eef8f0")),  # the tops' row
                    ("LINEBELOW", (0, 1), (-1, 1), 0.6, colors.black),
                ]
            )
        )
        return table


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
