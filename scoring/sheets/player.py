"""The player sheet: each round's rack and top, the player's slip as read, what it was
credited and why, and the running total against the tops'. One player, or every player
of the game in one PDF, each on new pages (to hand each player their own)."""

from __future__ import annotations

from dataclasses import dataclass

from reportlab.platypus import Flowable, PageBreak, Spacer

from scoring.charts import SHEET, Line, Size, chart_words, layout
from scoring.sheets.base import ENGLISH, MARGIN, Sheet, Words, text
from scoring.sheets.chart import drawing
from scoring.standings import minus


@dataclass(frozen=True)
class PlayerRound:
    number: int
    rack: str
    top: str  # the move placed, in the event's notation
    top_score: int
    slip: str  # as read: "H4 WORD 34", "-" for none
    credited: int
    ruling: str  # the reason in words, with warnings, penalty, solo
    cumulative: int
    top_cumulative: int


class PlayerSheet(Sheet):
    landscape = True

    def __init__(
        self,
        *,
        event_name: str,
        game: int,
        players: list[tuple[str, list[PlayerRound]]],
        date: str = "",
        words: Words = ENGLISH,
    ) -> None:
        _ = words.gettext
        super().__init__(
            event_name=event_name, subtitle=_("game %(number)s") % {"number": game}, date=date, words=words
        )
        self.game = game
        self.players = players
        if len(players) == 1:
            self.title = self._heading(players[0][0])
        else:
            self.title = _("Player sheets, game %(number)s") % {"number": game}
        self.page_label = _("page {page} of {pages}")

    def _heading(self, player: str) -> str:
        _ = self.words.gettext
        return _("%(player)s, game %(number)s") % {"player": player, "number": self.game}

    def story(self) -> list[Flowable]:
        if len(self.players) == 1:
            return self._game(*self.players[0])
        story: list[Flowable] = []
        for i, (player, rounds) in enumerate(self.players):
            if i:
                story.append(PageBreak())
            story += [text(self._heading(player), self.styles["heading"]), *self._game(player, rounds)]
        return story

    def _game(self, player: str, rounds: list[PlayerRound]) -> list[Flowable]:
        """The table of the rounds, then the same game drawn (the chart of the phone)."""
        if not rounds:
            return [self._table(rounds)]
        size = Size(self.pagesize[0] - 2 * MARGIN, SHEET.height, SHEET.font)
        line = Line(player, tuple(r.credited for r in rounds))
        # The tops as the "To the top" column counts them (the top score, not the score of
        # the move placed, which a master game may set lower), so that both say one gap.
        before = [0, *(r.top_cumulative for r in rounds[:-1])]
        tops = [r.top_cumulative - b for r, b in zip(rounds, before, strict=True)]
        chart = layout(tops, [line], chart_words(self.words.gettext), size)
        return [self._table(rounds), Spacer(1, 4 * 2.835), drawing(chart)]

    def _table(self, rounds: list[PlayerRound]) -> Flowable:
        _ = self.words.gettext
        cell = self.styles["cell"]
        header = [
            _("Round"),
            _("Rack"),
            _("Top"),
            _("Score"),
            _("Slip"),
            _("Credited"),
            _("Ruling"),
            _("Total"),
            _("To the top"),
        ]
        body = [
            [
                r.number,
                r.rack,
                r.top,
                r.top_score,
                text(r.slip, cell),
                minus(r.credited),
                text(r.ruling, cell),
                minus(r.cumulative),
                minus(r.cumulative - r.top_cumulative),
            ]
            for r in rounds
        ]
        widths = (0.05, 0.1, 0.16, 0.06, 0.18, 0.07, 0.24, 0.07, 0.07)
        return self.table(header, body, widths, numeric_from=7)
