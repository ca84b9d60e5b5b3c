"""The standings sheet: per game, or cumulated over the event's games."""

from __future__ import annotations

from collections.abc import Mapping

from reportlab.platypus import Flowable

from scoring.sheets.base import ENGLISH, Sheet, Words, text
from scoring.standings import Row, minus

#: Fractions of the page's width (they sum to 1).
WIDTHS = (0.06, 0.22, 0.16, 0.09, 0.08, 0.08, 0.08, 0.06, 0.06, 0.06, 0.05)
#: A multiplex's merged ranking: a centre column after the name, taken from the name and club.
MERGED_WIDTHS = (0.06, 0.17, 0.12, 0.10, 0.09, 0.08, 0.08, 0.07, 0.06, 0.07, 0.05, 0.05)


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
        centres: Mapping[int, str] | None = None,
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
        #: The centre of each player (by id) of a multiplex's merged ranking.
        self.centres = centres

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
                text(r.player.name, self.styles["cell"]),
                text(r.player.club, self.styles["cell"]),
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
        widths: tuple[float, ...] = WIDTHS
        if self.centres is not None:
            centres = self.centres
            header.insert(2, _("Centre"))
            for r, line in zip(self.rows, body, strict=True):
                line.insert(2, text(centres.get(r.player.id, ""), self.styles["cell"]))
            widths = MERGED_WIDTHS
        summary = _("Top total: %(total)s · %(count)s players") % {
            "total": self.top_total,
            "count": len(self.rows),
        }
        said = [text(self.progress, self.styles["body"])] if self.progress else []
        return [
            *said,
            text(summary, self.styles["body"]),
            self.table(header, body, widths, numeric_from=len(header) - 7),
        ]
