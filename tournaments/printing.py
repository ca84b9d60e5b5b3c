"""Which sheet, for which event and game, in which language: the one entry point of the
console's downloads and ``print_sheet``. Reads the database, hands plain rows to the
sheets of :mod:`scoring.sheets` (which know nothing of the models)."""

from __future__ import annotations

from decimal import Decimal
from typing import TYPE_CHECKING

from django.utils import formats, translation

from tournaments.linked import linker
from tournaments.models import Event, Game, Player, Round, Ruling
from tournaments.models.rounds import counted_rounds
from tournaments.standings import (
    counted_round_numbers,
    event_standings,
    game_standings,
    top_total,
)

if TYPE_CHECKING:
    from scoring.sheets.player import PlayerRound

KINDS = ("standings", "rounds", "player", "game", "round")


class ActiveLanguage:
    """The sheets' words (:class:`scoring.sheets.base.Words`) in the language active when
    they are laid out: :func:`render_sheet` lays them out under ``translation.override``."""

    def gettext(self, message: str) -> str:
        return translation.gettext(message)

    def number(self, value: Decimal | float, decimals: int) -> str:
        return formats.number_format(value, decimals)


WORDS = ActiveLanguage()


class SheetError(ValueError):
    """A sheet that cannot be printed: an unknown kind or game."""


def _last_game(event: Event) -> Game | None:
    """The game a sheet is of by default: the last with a ruled round (a game just started,
    its first rack drawn, has nothing to print yet), else the last."""
    ruled = event.games.filter(rounds__state__in=(Round.State.ADJUDICATED, Round.State.PLACED))
    return ruled.order_by("number").last() or event.games.order_by("number").last()


def _game(event: Event, number: int | None) -> Game:
    if number is None:
        game = _last_game(event)
        if game is None:
            raise SheetError(f"{event.name} has no game yet")
        return game
    game = event.games.filter(number=number).first()
    if game is None:
        raise SheetError(f"{event.name} has no game {number}")
    return game


def render_sheet(
    kind: str,
    *,
    event: Event,
    game_number: int | None = None,
    category: str | None = None,
    player_id: int | None = None,
    language: str = "fr",
    round_number: int | None = None,
) -> bytes:
    if kind not in KINDS:
        raise SheetError(f"unknown sheet {kind!r}: choose {', '.join(KINDS)}")
    with translation.override(language):
        date = formats.date_format(event.starts_on, "DATE_FORMAT")
        own = linker(event).own_sheets(event)
        if own is not None:
            return own.sheet(kind, game_number=game_number, category=category, date=date)
        if kind == "standings":
            return _standings(event, game_number, category, date, round_number)
        game = _game(event, game_number)
        if kind == "rounds":
            return _rounds(event, game, date)
        if kind == "round":
            return _round_result(event, game, round_number, date)
        if kind == "player":
            # Without a player: every player's sheet in one PDF, in table order.
            players = list(event.players.order_by("table"))
            if player_id is not None:
                players = [p for p in players if p.pk == player_id]
            if not players:
                missing = f"no player {player_id}" if player_id is not None else "no players"
                raise SheetError(f"{event.name} has {missing}")
            return _player_sheet(event, game, players, date)
        return _game_sheet(event, game, date)


def _standings(
    event: Event, game_number: int | None, category: str | None, date: str, after: int | None = None
) -> bytes:
    """The standings of the event or of one game; of one game ``after`` a round: as they
    stood after it (a ranking after each round)."""
    from scoring.sheets.standings import StandingsSheet

    if game_number is None:
        if after is not None:
            raise SheetError("the standings after a round are of one game: say which")
        rows = event_standings(event, category=category)
        total = sum(top_total(g) for g in event.games.all())
        last = _last_game(event)
    else:
        last = _game(event, game_number)
        if after is not None and after not in counted_round_numbers(last):
            raise SheetError(f"round {after} of game {last.number} has no results yet")
        rows = game_standings(last, category=category, after_round=after)
        total = top_total(last, after_round=after)
    sheet = StandingsSheet(
        event_name=event.name,
        rows=rows,
        top_total=total,
        game=game_number,
        category=category,
        date=date,
        words=WORDS,
        progress=_progress(last, after),
    )
    return sheet.render()


def _progress(game: Game | None, after: int | None = None) -> str:
    """Where the game stood when the sheet was printed (or ``after`` which round): a sheet
    pinned to the wall at round 6 must not be read as the final standings."""
    if game is None:
        return ""
    last = game.rounds.counted().order_by("number").last()
    number = last.number if last is not None else 0
    values = {"round": after if after is not None else number, "game": game.number}
    if game.state == Game.State.ENDED and (after is None or after == number):
        return translation.gettext("After round %(round)s of game %(game)s: the game is over.") % values
    return translation.gettext("After round %(round)s of game %(game)s, game in progress.") % values


def _round_result(event: Event, game: Game, number: int | None, date: str) -> bytes:
    from scoring.sheets.round import RoundLine, RoundResultSheet
    from tournaments.display import rack_text, ruling_text, shown_move

    ruled = game.rounds.filter(state__in=(Round.State.ADJUDICATED, Round.State.PLACED))
    round = ruled.filter(number=number).first() if number is not None else ruled.order_by("number").last()
    if round is None:
        which = f"round {number}" if number is not None else "any ruled round"
        raise SheetError(
            f"game {game.number} of {event.name} has no {which}: a round is ruled when it closes"
        )
    totals: dict[int, int] = {}
    earlier = Ruling.objects.filter(
        counted_rounds("round__"), round__game=game, round__number__lt=round.number
    ).values_list("player_id", "credited")
    for player_id, credited in earlier:
        totals[player_id] = totals.get(player_id, 0) + credited
    rulings = list(round.rulings.select_related("player", "slip"))
    for ruling in rulings:
        totals[ruling.player_id] = totals.get(ruling.player_id, 0) + ruling.credited
    rulings.sort(key=lambda r: (-totals[r.player_id], r.player.table))
    lines, rank = [], 0
    for i, ruling in enumerate(rulings):
        if i == 0 or totals[ruling.player_id] != totals[rulings[i - 1].player_id]:
            rank = i + 1  # equal totals share the rank
        slip = ruling.slip
        move = shown_move(ruling.move, event.board, event.notation) if ruling.move else ""
        if not move and slip is not None:
            move = f"{slip.coordinates} {slip.word}".strip()
        lines.append(
            RoundLine(
                rank,
                ruling.player.table,
                ruling.player.name,
                move,
                ruling.credited,
                ruling_text(ruling.reason),
                totals[ruling.player_id],
            )
        )
    top = shown_move(round.tops[0], event.board, event.notation) if round.tops else ""
    return RoundResultSheet(
        event_name=event.name,
        game=game.number,
        round=round.number,
        rack=rack_text(round.reliquat, round.new_tiles),
        top=top,
        top_score=round.top_score or 0,
        placed=shown_move(round.chosen, event.board, event.notation) if round.chosen else top,
        lines=lines,
        date=date,
        words=WORDS,
    ).render()


def _placed(game: Game) -> list[Round]:
    return list(game.rounds.filter(state=Round.State.PLACED).order_by("number"))


def _rounds(event: Event, game: Game, date: str) -> bytes:
    from scoring.sheets.rounds import PlayerLine, RoundsSheet

    rounds = list(game.rounds.counted().order_by("number"))  # the standings' rounds
    index = {r.pk: i for i, r in enumerate(rounds)}
    scores: dict[int, list[int | None]] = {}
    rulings = Ruling.objects.filter(round__in=rounds).values_list("player_id", "round_id", "credited")
    for player_id, round_id, credited in rulings:
        scores.setdefault(player_id, [None] * len(rounds))[index[round_id]] = credited
    lines = [
        PlayerLine(row.rank, row.player.name, scores.get(row.player.id, [None] * len(rounds)), row.total)
        for row in game_standings(game)
    ]
    tops = [r.top_score or 0 for r in rounds]
    return RoundsSheet(
        event_name=event.name, game=game.number, tops=tops, lines=lines, date=date, words=WORDS
    ).render()


def _game_sheet(event: Event, game: Game, date: str) -> bytes:
    from scoring.sheets.rounds import GameRound, GameSheet
    from tournaments.display import PREMIUM_MARKS, board_cells, end_reason_text, rack_text, shown_move
    from tournaments.state import rebuild

    cumulative = 0
    rounds = []
    for r in _placed(game):
        cumulative += r.top_score or 0
        rounds.append(
            GameRound(
                number=r.number,
                rack=rack_text(r.reliquat, r.new_tiles),
                rejected=list(r.rejected),
                move=shown_move(r.chosen, event.board, event.notation),
                score=r.chosen_score or 0,
                cumulative=cumulative,
            )
        )
    position = rebuild(game)
    board = position.game.board
    from tournaments.display import axis_labels

    row_labels, columns = axis_labels(board.size, event.notation)
    cells = board_cells(board.rows(), board.layout, position.game.tiles, event.notation, set())
    grid = [
        (label, [(c.letter, c.premium) for c in line]) for label, line in zip(row_labels, cells, strict=True)
    ]
    end = end_reason_text(game.end_reason) if game.state == Game.State.ENDED else ""
    sheet = GameSheet(
        event_name=event.name,
        game=game.number,
        rounds=rounds,
        board=grid,
        columns=columns,
        end=end,
        date=date,
        words=WORDS,
        marks={premium: str(mark) for premium, (mark, _name) in PREMIUM_MARKS.items()},
    )
    return sheet.render()


def _player_sheet(event: Event, game: Game, players: list[Player], date: str) -> bytes:
    from scoring.sheets.player import PlayerSheet

    placed = _placed(game)
    # Every ruling of the game at once, by player then round: one query for 300 players.
    rulings: dict[int, dict[int, Ruling]] = {p.pk: {} for p in players}
    for r in Ruling.objects.filter(player__in=players, round__game=game).select_related("slip"):
        rulings[r.player_id][r.round_id] = r
    pages = [(f"{p.table} · {p.name}", _player_rounds(event, placed, rulings[p.pk])) for p in players]
    return PlayerSheet(
        event_name=event.name, game=game.number, players=pages, date=date, words=WORDS
    ).render()


def _player_rounds(event: Event, placed: list[Round], rulings: dict[int, Ruling]) -> list[PlayerRound]:
    from django.utils.translation import gettext as _

    from scoring.sheets.player import PlayerRound
    from tournaments.display import rack_text, ruling_text, shown_move

    lines = []
    total = tops = 0
    for r in placed:
        ruling = rulings.get(r.pk)
        credited = ruling.credited if ruling else 0
        total += credited
        tops += r.top_score or 0
        slip = ruling.slip if ruling else None
        read = "-"
        if slip is not None:
            read = f"{slip.coordinates} {slip.word}".strip() or "-"
            if slip.announced_score is not None:
                read += f" {slip.announced_score}"
        notes = [ruling_text(ruling.reason)] if ruling else [_("not in the game yet")]
        if ruling and ruling.warnings:
            notes.append(_("%(count)s warning(s)") % {"count": ruling.warnings})
        if ruling and ruling.penalty:
            notes.append(_("penalty %(points)s") % {"points": ruling.penalty})
        if ruling and ruling.solo:
            notes.append(_("solo"))
        if ruling and ruling.overridden:
            notes.append(_("corrected: %(reason)s") % {"reason": ruling.override_reason})
        lines.append(
            PlayerRound(
                number=r.number,
                rack=rack_text(r.reliquat, r.new_tiles),
                top=shown_move(r.chosen, event.board, event.notation),
                top_score=r.chosen_score or 0,
                slip=read,
                credited=credited,
                ruling=", ".join(notes),
                cumulative=total,
                top_cumulative=tops,
            )
        )
    return lines
