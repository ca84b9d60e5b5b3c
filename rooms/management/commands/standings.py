"""``python manage.py standings --event X [--game N] [--category C] [--json]``

The standings of the event (all games cumulated) or of one game: rank (shared on ties,
or the event's tie-break), name, club, category, total, difference to the top total,
percentage of the top total (2 decimals), tops, solos, warnings, penalties, letterpoints
and the points / letterpoints ratio. Only placed rounds count.
"""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import CommandError, CommandParser

from rooms.management.commands._common import ArbiterCommand, latest_game, plural
from scoring.standings import Row, to_dict
from tournaments.selectors.games import event_games
from tournaments.selectors.players import event_categories
from tournaments.standings import event_standings, game_standings, top_total


class Command(ArbiterCommand):
    help = "Print the standings of the event, or of one game (--game N)."

    def add_command_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--game", type=int, metavar="N", help="one game only (default: all games)")
        parser.add_argument("--category", metavar="C", help="one category or series, ranked within it")
        parser.add_argument("--json", action="store_true", help="print one JSON object")

    def run(self, *args: Any, **opts: Any) -> None:
        event = self.event()
        category = opts["category"]
        if category is not None:
            known = event_categories(event)
            if category not in known:
                raise CommandError(
                    f"no player in category {category!r} (categories: {', '.join(known) or 'none'})"
                )
        if opts["game"] is not None:
            game = latest_game(event, opts["game"])
            rows = game_standings(game, category=category)
            total = top_total(game)
            title = f"{event.name}, game {game.number}"
        else:
            rows = event_standings(event, category=category)
            total = sum(top_total(g) for g in event_games(event))
            title = f"{event.name}, {plural(event.games.count(), 'game')}"
        if category is not None:
            title += f", category {category}"
        if opts["json"]:
            payload = {
                "event": {"id": event.pk, "code": event.code, "name": event.name},
                "game": opts["game"],
                "category": category,
                "top_total": total,
                "rows": [to_dict(r) for r in rows],
            }
            self.say(json.dumps(payload, ensure_ascii=False))
            return
        self.say(f"Standings: {title} (top total {total})")
        for line in table_lines(rows):
            self.say(line)


def table_lines(rows: list[Row]) -> list[str]:
    """Aligned columns, the text ones as wide as their longest entry."""
    name_w = max([len("name"), *(len(r.player.name) for r in rows)])
    club_w = max([len("club"), *(len(r.player.club) for r in rows)])
    cat_w = max([len("cat."), *(len(r.player.category) for r in rows)])
    header = (
        f"{'rank':>4}  {'name':<{name_w}}  {'club':<{club_w}}  {'cat.':<{cat_w}}  {'total':>6} {'diff':>6}"
        f" {'%':>7} {'tops':>4} {'solos':>5} {'warn':>4} {'pen':>4} {'letterpts':>9} {'ratio':>6}"
    )
    lines = [header]
    for r in rows:
        ratio = "-" if r.ratio is None else f"{r.ratio:.2f}"
        lines.append(
            f"{r.rank:>4}  {r.player.name:<{name_w}}  {r.player.club:<{club_w}}  {r.player.category:<{cat_w}}"
            f"  {r.total:>6} {r.diff:>6} {r.percent:>7.2f} {r.tops:>4} {r.solos:>5} {r.warnings:>4}"
            f" {r.penalties:>4} {r.letterpoints:>9} {ratio:>6}"
        )
    return lines
