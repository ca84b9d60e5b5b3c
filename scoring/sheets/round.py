"""The result of one round, printed from the round page: its rack, its top and the move
placed, then every player's slip, score and ruling, ranked by the total after it."""

from __future__ import annotations

from dataclasses import dataclass

from reportlab.platypus import Flowable

from scoring.sheets.base import ENGLISH, Sheet, Words, text
from scoring.standings import minus


@dataclass(frozen=True)
class RoundLine:
    rank: int
    table: int
    name: str
    move: str  # in the event's notation; "" without a slip
    score: int
    ruling: str  # why, in words
    total: int  # after this round


class RoundResultSheet(Sheet):
    def __init__(
        self,
        *,
        event_name: str,
        game: int,
        round: int,
        rack: str,
        top: str,
        top_score: int,
        placed: str,
        lines: list[RoundLine],
        date: str = "",
        words: Words = ENGLISH,
    ) -> None:
        _ = words.gettext
        values = {"round": round, "game": game}
        super().__init__(
            event_name=event_name,
            subtitle=_("game %(game)s, round %(round)s") % values,
            date=date,
            words=words,
        )
        self.title = _("Result of round %(round)s, game %(game)s") % values
        self.page_label = _("page {page} of {pages}")
        self.rack, self.top, self.top_score, self.placed = rack, top, top_score, placed
        self.lines = lines

    def story(self) -> list[Flowable]:
        _ = self.words.gettext
        said = [
            _("Rack: %(rack)s") % {"rack": self.rack},
            _("Top: %(move)s, %(score)s points") % {"move": self.top, "score": self.top_score},
        ]
        if self.placed and self.placed != self.top:
            said.append(_("Placed on the board: %(move)s") % {"move": self.placed})
        header = [_("Rank"), _("Table"), _("Name"), _("Move"), _("Ruling"), _("Score"), _("Total")]
        body = [
            [
                line.rank,
                line.table,
                text(line.name, self.styles["cell"]),
                line.move,
                text(line.ruling, self.styles["cell"]),
                minus(line.score),
                minus(line.total),
            ]
            for line in self.lines
        ]
        widths = (0.06, 0.06, 0.22, 0.18, 0.3, 0.08, 0.1)
        return [
            *[text(sentence, self.styles["body"]) for sentence in said],
            self.table(header, body, widths, numeric_from=5),
        ]
