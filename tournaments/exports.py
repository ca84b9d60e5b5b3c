"""Exports: CSV for the federation and spreadsheets (the standings, every slip with its
ruling), and the game itself as the solver's JSON game record or as GCG.

CSV is semicolon-separated UTF-8 with a byte-order mark, as French spreadsheets expect,
in the event's ``hall_language``: its column names, decimals with a comma in French (a
point in English), times in the event's local time ("2026-11-28 01:14:08"); numbers plain
(no thousands separator); codes (a ruling's reason, a slip's source) as stored. The JSON
record is what ``services.transfer.event_import`` reads back (a "master game") and ``python -m
solver`` replays.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import json
import re
from decimal import Decimal

from django.db.models import Q
from django.utils import timezone, translation
from django.utils.translation import pgettext_lazy

from scoring.adjudication import Reason
from scoring.standings import Row
from solver.formats import gcg
from tournaments.core import FILE_SETTINGS
from tournaments.display import shown_move
from tournaments.linked import linker
from tournaments.models import Event, Game, Player, Round, Ruling, Slip
from tournaments.standings import event_standings, game_standings
from tournaments.state import game_record

#: What can be exported, with the file extension of each.
EXPORTS = {"standings": "csv", "slips": "csv", "record": "json", "gcg": "gcg"}


#: The columns' names: the English one is the key (and the name in an English export).
COLUMNS = {
    "rank": pgettext_lazy("csv column", "rank"),
    "centre": pgettext_lazy("csv column", "centre"),
    "table": pgettext_lazy("csv column", "table"),
    "name": pgettext_lazy("csv column", "name"),
    "club": pgettext_lazy("csv column", "club"),
    "licence": pgettext_lazy("csv column", "licence"),
    "category": pgettext_lazy("csv column", "category"),
    "total": pgettext_lazy("csv column", "total"),
    "difference": pgettext_lazy("csv column", "difference"),
    "percent": pgettext_lazy("csv column", "percent"),
    "tops": pgettext_lazy("csv column", "tops"),
    "solos": pgettext_lazy("csv column", "solos"),
    "warnings": pgettext_lazy("csv column", "warnings"),
    "penalties": pgettext_lazy("csv column", "penalties"),
    "letterpoints": pgettext_lazy("csv column", "letterpoints"),
    "game": pgettext_lazy("csv column", "game"),
    "round": pgettext_lazy("csv column", "round"),
    "reason": pgettext_lazy("csv column", "reason"),
    "move": pgettext_lazy("csv column", "move"),
    "move score": pgettext_lazy("csv column", "move score"),
    "move_score": pgettext_lazy("csv column", "move_score"),
    "credited at the centre": pgettext_lazy("csv column", "credited at the centre"),
    "credited": pgettext_lazy("csv column", "credited"),
    "penalty": pgettext_lazy("csv column", "penalty"),
    "top": pgettext_lazy("csv column", "top"),
    "solo": pgettext_lazy("csv column", "solo"),
    "corrected": pgettext_lazy("csv column", "corrected"),
    "coordinates": pgettext_lazy("csv column", "coordinates"),
    "word": pgettext_lazy("csv column", "word"),
    "announced": pgettext_lazy("csv column", "announced"),
    "received_at": pgettext_lazy("csv column", "received_at"),
    "source": pgettext_lazy("csv column", "source"),
    "entered_by": pgettext_lazy("csv column", "entered_by"),
    "current": pgettext_lazy("csv column", "current"),
    "late": pgettext_lazy("csv column", "late"),
    "ruling": pgettext_lazy("csv column", "ruling"),
}


def csv_bytes(header: list[str], rows: list[list[object]], language: str = "en") -> bytes:
    """The CSV file of ``rows`` under ``header`` (the columns' keys), in ``language``."""
    out = io.StringIO()
    writer = csv.writer(out, delimiter=";", lineterminator="\r\n")
    with translation.override(language):
        writer.writerow([str(COLUMNS[key]) if key in COLUMNS else key for key in header])
    writer.writerows([_cell(value) for value in row] for row in rows)
    return ("\ufeff" + out.getvalue()).encode("utf-8")


#: What a spreadsheet takes for the start of a formula (OWASP, "CSV injection").
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
_NUMBER = re.compile(r"-?\d+(?:[.,]\d+)?")


def _cell(value: object) -> object:
    """A cell as a spreadsheet should read it: a text from people (a name, a word from a
    slip) that would start a formula ("=HYPERLINK(...)") is written after a quote, so it
    stays text; our own numbers ("-12,50") are left as they are."""
    if isinstance(value, str) and value.startswith(_FORMULA_START) and not _NUMBER.fullmatch(value):
        return "'" + value
    return value


def _decimal(value: float | Decimal, language: str) -> str:
    """Two decimals, with the decimal mark a spreadsheet of ``language`` reads."""
    text = f"{value:.2f}"
    return text.replace(".", ",") if language == "fr" else text


def _moment(value: dt.datetime) -> str:
    """A moment in the event's local time, as a spreadsheet reads a date and time."""
    return timezone.localtime(value).strftime("%Y-%m-%d %H:%M:%S")


def export_game(event: Event, number: int | None) -> Game:
    """Game ``number`` of the event, default the last one; ValueError saying what is missing."""
    games = event.games.order_by("number")
    game = games.last() if number is None else games.filter(number=number).first()
    if game is None:
        raise ValueError(f"{event.name} has no game {number}" if number else f"{event.name} has no game yet")
    return game


STANDINGS_HEADER = [
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


def standings_csv(event: Event, game_number: int | None = None, language: str | None = None) -> bytes:
    """The standings of the event or of one game; of a multiplex's hub, the merged ranking
    of every centre, with a centre column before each player's table there. In
    ``language``, by default the event's ``hall_language``."""
    language = language or event.hall_language
    own = linker(event).own_sheets(event)
    merged = own.export("standings", game_number=game_number, language=language) if own is not None else None
    if merged is not None:
        return merged
    rows = event_standings(event) if game_number is None else game_standings(export_game(event, game_number))
    licences = dict(Player.objects.filter(event=event).values_list("pk", "licence"))
    return csv_bytes(STANDINGS_HEADER, [standings_line(r, licences, language) for r in rows], language)


def standings_line(r: Row, licences: dict[int, str], language: str) -> list[object]:
    return [
        r.rank,
        r.player.table,
        r.player.name,
        r.player.club,
        licences.get(r.player.id, ""),
        r.player.category,
        r.total,
        r.diff,
        _decimal(r.percent, language),
        r.tops,
        r.solos,
        r.warnings,
        r.penalties,
        r.letterpoints,
    ]


def slips_csv(event: Event, language: str | None = None) -> bytes:
    """Every slip handed in (replaced and late ones too) with the ruling of its round: the
    slip as written, the move it was ruled as in the event's notation."""
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
            [
                ruled.reason,
                shown_move(ruled.move, event.board, event.notation),
                ruled.move_score,
                ruled.credited,
                ruled.warnings,
                ruled.penalty,
            ]
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
                _moment(s.received_at),
                s.source,
                entered,
                int(s.current),
                int(s.late),
                *verdict,
            ]
        )
    return csv_bytes(header, body, language or event.hall_language)


def record_json(game: Game, *, seats: bool = False) -> bytes:
    """The game file (see :mod:`tournaments.services.transfer`): the game record of the placed
    rounds (so far, while the game is played), with the event's players, the slips its
    rulings were made on and the arbitrator's corrections."""
    data = game_record(game).to_dict()
    placed = Round.objects.filter(game=game, state=Round.State.PLACED)
    data["settings"] = {key: getattr(game.event, key) for key in FILE_SETTINGS}
    data["players"] = [
        {
            "table": p.table,
            "name": p.name,
            "club": p.club,
            "licence": p.licence,
            "category": p.category,
            "virtual_level": p.virtual_level,
            "paper_only": p.paper_only,
            # The backups only (``seats``): a restored event (the spare laptop) keeps the
            # table cards handed out; an exported record, which may be shared, hands out
            # no table.
            **({"seat_code": p.seat_code} if seats else {}),
        }
        for p in game.event.players.order_by("table")
    ]
    slips = Slip.objects.filter(round__in=placed).select_related("round", "player")
    # The slip that counts (in time), else the last late one: what each ruling was made on.
    chosen: dict[tuple[int, int], Slip] = {}
    for slip in slips.order_by("received_at", "pk"):
        key = (slip.round.number, slip.player.table)
        if slip.current or key not in chosen or not chosen[key].current:
            chosen[key] = slip
    data["slips"] = [
        {
            "round": number,
            "table": table,
            "coordinates": s.coordinates,
            "word": s.word,
            "announced": s.announced_score,
            "source": s.source,
            "late": s.late,
        }
        for (number, table), s in sorted(chosen.items())
    ]
    corrections = Ruling.objects.filter(round__in=placed).select_related("round", "player")
    data["corrections"] = [
        {"round": r.round.number, "table": r.player.table, "kind": "shift", "reason": r.override_reason}
        if r.reason == Reason.SHIFT_ACCEPTED
        else {
            "round": r.round.number,
            "table": r.player.table,
            "kind": "override",
            "reason": r.override_reason,
            "credited": r.credited,
            "warnings": r.warnings,
            "penalty": r.penalty,
        }
        for r in corrections.filter(Q(overridden=True) | Q(reason=Reason.SHIFT_ACCEPTED)).order_by(
            "round__number", "player__table"
        )
    ]
    return (json.dumps(data, ensure_ascii=False, indent=1) + "\n").encode("utf-8")


def game_gcg(game: Game) -> bytes:
    """The tops placed, as one player's game in GCG (see :mod:`solver.formats.gcg`)."""
    return gcg.export(game_record(game)).encode("utf-8")


def export(kind: str, event: Event, game_number: int | None = None) -> bytes:
    """One export by name (:data:`EXPORTS`): the standings of the event or of one game,
    the slips of the event, the record or GCG of one game (default: the last)."""
    if kind == "standings":
        return standings_csv(event, game_number)
    if kind == "slips":
        own = linker(event).own_sheets(event)
        merged = (
            own.export("slips", game_number=None, language=event.hall_language) if own is not None else None
        )
        return merged if merged is not None else slips_csv(event)
    if kind == "record":
        return record_json(export_game(event, game_number))
    if kind == "gcg":
        return game_gcg(export_game(event, game_number))
    raise ValueError(f"unknown export {kind!r}: choose {', '.join(EXPORTS)}")
