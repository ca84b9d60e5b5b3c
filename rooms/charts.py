"""The chart of a game (scoring/charts.py) as the pages show it: a player's own on the
phone after each round, the podium's on the projector at the end of a game. The SVG is
built on the server, in the page's language: no script draws it, no build step makes it."""

from __future__ import annotations

import functools

from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from rooms.lines import PlayerLines
from scoring.charts import HALL, PHONE, Line, chart_words, gaps, layout, svg
from scoring.standings import Row, minus
from tournaments.models import Game, Round
from tournaments.selectors.shown import GameView
from tournaments.standings import game_scores

#: Lines on the projector's chart: the podium.
PODIUM = 3


def player_chart(view: GameView | None, round: Round | None, lines: PlayerLines) -> str:
    """The player's game so far, its last round included as soon as its result is shown;
    "" before any result. The panel leaves it out while a round is open (the phone is for
    the rack then), yet it is the same then: a phone's stream sends a chart only to a
    phone without it, and every phone of a hall has it again at the close."""
    if view is None or round is None:
        return ""
    tops = [p.top_score for p in view.placed]
    scores: list[int | None] = [lines.credited.get(p.number) for p in view.placed]
    if view.top_score is not None and round.state != Round.State.PLACED:
        # Published, not placed yet: counted already (tournaments.models.rounds.counted_rounds).
        tops.append(view.top_score)
        scores.append(lines.credited.get(round.number))
    if not tops:
        return ""
    return _player_svg(translation.get_language(), tuple(tops), tuple(scores))


#: Drawn once per process for each course of a game (the page's language, the tops, the
#: player's scores): each public change sends every phone of a hall its chart, drawing
#: them would be most of the work of building the phones' panels, and most
#: changes (an open, a close, another player's correction) leave them as they were.
@functools.lru_cache(maxsize=4096)
def _player_svg(language: str | None, tops: tuple[int, ...], scores: tuple[int | None, ...]) -> str:
    total = sum(s or 0 for s in scores)
    at_top = sum(1 for top, s in zip(tops, scores, strict=True) if s is not None and s >= top)
    said = ngettext(
        "Your game: %(total)s points out of %(tops)s (%(gap)s), the top in %(at_top)s of %(rounds)s round.",
        "Your game: %(total)s points out of %(tops)s (%(gap)s), the top in %(at_top)s of %(rounds)s rounds.",
        len(tops),
    ) % {
        "total": total,
        "tops": sum(tops),
        "gap": minus(gaps(list(tops), list(scores))[-1]),
        "at_top": at_top,
        "rounds": len(tops),
    }
    chart = layout(list(tops), [Line(_("you"), scores)], chart_words(_), PHONE)
    return svg(chart, label=said)


def podium_chart(game: Game, rows: list[Row]) -> str:
    """The tops of a finished game and the gap of its first :data:`PODIUM` players."""
    first = rows[:PODIUM]
    tops, scores = game_scores(game, [row.player.id for row in first])
    if not tops or not first:
        return ""
    lines = [Line(row.player.name, tuple(scores[row.player.id])) for row in first]
    said = _(
        "Game %(game)s, round by round: the top of each round, then the gap to the top of %(players)s."
    ) % {
        "game": game.number,
        "players": ", ".join(
            f"{row.player.name} ({minus(gaps(tops, scores[row.player.id])[-1])})" for row in first
        ),
    }
    return svg(layout(tops, lines, chart_words(_), HALL), label=said)
