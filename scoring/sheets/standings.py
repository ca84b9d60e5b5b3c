"""The standings sheet: per game, or cumulated over the event's games."""

from __future__ import annotations

from reportlab.platypus import Flowable, Paragraph

from scoring.sheets.base import ENGLISH, Sheet, Words
from scoring.standings import Row, minus

#: Fractions of the page's width (they sum to 1).
WIDTHS = (0.06, 0.22, 0.16, 0.09, 0.08, 0.08, 0.08, 0.06, 0.06, 0.06, 0.05)


class StandingsSheet(Sheet):
    def __init__(
        self,
        *,
        event_name: str,
        rows: list[Row],
        top_total: int,
        game: int | None,
        category: str | None = None,
        date: str = "",
        words: Words = ENGLISH,
        progress: str = "",
    ) -> None:
        _ = words.gettext
        subtitle = _("game %(number)s") % {"number": game} if game else _("all games")
        super().__init__(event_name=event_name, subtitle=subtitle, date=date, words=words)
        self.title = _("Standings, game %(number)s") % {"number": game} if game else _("Standings, all games")
        if category:
            self.title += f" · {category}"
        self.page_label = _("page {page} of {pages}")
        self.rows = rows
        self.top_total = top_total
        #: When it was printed, in words ("After round 6 of game 2, game in progress.").
        self.progress = progress

    def story(self) -> list[Flowable]:
        _ = self.words.gettext
        header = [
            _("Rank"),
            _("Name"),
            _("Club"),
            _("Category"),
            _("Total"),
            _("To the top"),
            "%",
            _("Tops"),
            _("Solos"),
            _("Warn."),
            _("Pen."),
        ]
        body = [
            [
                r.rank,
                Paragraph(r.player.name, self.styles["cell"]),
                Paragraph(r.player.club, self.styles["cell"]),
                r.player.category,
                r.total,
                minus(r.diff),
                self.words.number(r.percent, 2),
                r.tops,
                r.solos,
                r.warnings,
                r.penalties,
            ]
            for r in self.rows
        ]
        summary = _("Top total: %(total)s · %(count)s players") % {
            "total": self.top_total,
            "count": len(self.rows),
        }
        said = [Paragraph(self.progress, self.styles["body"])] if self.progress else []
        return [
            *said,
            Paragraph(summary, self.styles["body"]),
            self.table(header, body, WIDTHS, numeric_from=4),
        ]
