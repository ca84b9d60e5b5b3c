"""Which sheet, for which event and game, in which language: the one entry point of the
console's downloads, the Celery task and ``print_sheet``."""

from __future__ import annotations

from django.utils import formats, translation

from scoring.selectors import event_standings, game_standings, top_total
from tournaments.models import Event

KINDS = ("standings",)


class SheetError(ValueError):
    """A sheet that cannot be printed: an unknown kind, game or player."""


def render_sheet(
    kind: str,
    *,
    event: Event,
    game_number: int | None = None,
    category: str | None = None,
    language: str = "fr",
) -> bytes:
    if kind not in KINDS:
        raise SheetError(f"unknown sheet {kind!r}: choose {', '.join(KINDS)}")
    from scoring.sheets.standings import StandingsSheet

    with translation.override(language):
        date = formats.date_format(event.starts_on, "DATE_FORMAT")
        if game_number is None:
            rows = event_standings(event, category=category)
            total = sum(top_total(g) for g in event.games.all())
        else:
            game = event.games.filter(number=game_number).first()
            if game is None:
                raise SheetError(f"{event.name} has no game {game_number}")
            rows = game_standings(game, category=category)
            total = top_total(game)
        sheet = StandingsSheet(
            event_name=event.name, rows=rows, top_total=total, game=game_number, category=category, date=date
        )
        return sheet.render()
