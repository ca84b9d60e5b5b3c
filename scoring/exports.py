"""CSV exports for the federation and spreadsheets: the standings, and every slip with its
ruling. Semicolon-separated UTF-8 with a byte-order mark, as French spreadsheets expect;
numbers plain (no thousands separator), decimals with a point."""

from __future__ import annotations

import csv
import io

from scoring.selectors import event_standings, game_standings
from tournaments.models import Event, Player, Ruling, Slip


def _csv(header: list[str], rows: list[list[object]]) -> bytes:
    out = io.StringIO()
    writer = csv.writer(out, delimiter=";", lineterminator="\r\n")
    writer.writerow(header)
    writer.writerows(rows)
    return ("\ufeff" + out.getvalue()).encode("utf-8")


def standings_csv(event: Event, game_number: int | None = None) -> bytes:
    if game_number is None:
        rows = event_standings(event)
    else:
        game = event.games.filter(number=game_number).first()
        if game is None:
            raise ValueError(f"{event.name} has no game {game_number}")
        rows = game_standings(game)
    licences = dict(Player.objects.filter(event=event).values_list("pk", "licence"))
    header = [
        "rank",
        "table",
        "name",
        "club",
        "licence",
        "category",
        "total",
        "difference",
        "percent",
        "tops",
        "solos",
        "warnings",
        "penalties",
        "letterpoints",
    ]
    body: list[list[object]] = [
        [
            r.rank,
            r.player.table,
            r.player.name,
            r.player.club,
            licences.get(r.player.id, ""),
            r.player.category,
            r.total,
            r.diff,
            f"{r.percent:.2f}",
            r.tops,
            r.solos,
            r.warnings,
            r.penalties,
            r.letterpoints,
        ]
        for r in rows
    ]
    return _csv(header, body)


def slips_csv(event: Event) -> bytes:
    """Every slip handed in (replaced and late ones too) with the ruling of its round."""
    rulings = {(r.round_id, r.player_id): r for r in Ruling.objects.filter(round__game__event=event)}
    slips = (
        Slip.objects.filter(round__game__event=event)
        .select_related("round__game", "player", "entered_by")
        .order_by("round__game__number", "round__number", "player__table", "received_at")
    )
    header = [
        "game",
        "round",
        "table",
        "name",
        "coordinates",
        "word",
        "announced",
        "received_at",
        "source",
        "entered_by",
        "current",
        "late",
        "ruling",
        "move",
        "move_score",
        "credited",
        "warnings",
        "penalty",
    ]
    body: list[list[object]] = []
    for s in slips:
        ruling = rulings.get((s.round_id, s.player_id))
        # Only the slip the ruling was made on carries it (not a replaced one).
        ruled = ruling if ruling is not None and ruling.slip_id == s.pk else None
        verdict: list[object] = (
            [ruled.reason, ruled.move, ruled.move_score, ruled.credited, ruled.warnings, ruled.penalty]
            if ruled is not None
            else [""] * 6
        )
        announced = "" if s.announced_score is None else s.announced_score
        entered = s.entered_by.get_username() if s.entered_by else ""
        body.append(
            [
                s.round.game.number,
                s.round.number,
                s.player.table,
                s.player.name,
                s.coordinates,
                s.word,
                announced,
                s.received_at.isoformat(),
                s.source,
                entered,
                int(s.current),
                int(s.late),
                *verdict,
            ]
        )
    return _csv(header, body)
