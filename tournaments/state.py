"""Rebuild a game's position (board, bag, reliquat) from its rounds in the database.

The rounds are the only record: each random draw is redrawn from the game's seed and
must come out as stored, each typed rack is checked against the bag again, and each
placed move is played again. A mismatch means the data was changed behind the services'
back, and is reported instead of being silently trusted.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass

from django.utils.translation import gettext as _

from solver import lexicon as lexmod
from solver.analysis import Analysis
from solver.draw import RackDraw
from solver.formats.record import FinalDraw, GameConfig, GameRecord, RoundRecord
from solver.game import Game as SolverGame
from solver.notation import parse_move
from tournaments import models
from tournaments.core import ApplicationError

_lexicons: dict[str, lexmod.Lexicon] = {}
_lock = threading.Lock()


class StateError(RuntimeError):
    """The stored rounds do not replay: the database was changed outside the services."""


class LexiconNotReadyError(ApplicationError):
    """The event's word list is still being imported, or its import failed."""


def lexicon_ready(lexicon: models.Lexicon) -> None:
    """Refuse a word list that a worker has not (or could not) compile: a game on half a
    list would rule valid words out. Raises ``LexiconNotReadyError``."""
    if lexicon.state == models.Lexicon.State.IMPORTING:
        raise LexiconNotReadyError(
            _("the word list %(name)s is still being imported (%(progress)s%%): wait until it is ready")
            % {"name": lexicon.name, "progress": lexicon.progress}
        )
    if lexicon.state != models.Lexicon.State.READY:
        raise LexiconNotReadyError(
            _("the word list %(name)s could not be imported: choose another list in the event's settings")
            % {"name": lexicon.name}
        )


def solver_lexicon(lexicon: models.Lexicon) -> lexmod.Lexicon:
    """The compiled lexicon, loaded once per process (a worker keeps it between tasks).
    Raises ``LexiconNotReadyError`` for a list not ready."""
    lexicon_ready(lexicon)
    with _lock:
        cached = _lexicons.get(lexicon.checksum)
        if cached is not None:
            return cached
        if lexicon.bundled:
            compiled = lexmod.load_bundled(lexicon.bundled)
            if compiled.checksum != lexicon.checksum:
                raise StateError(f"lexicon {lexicon.name}: the word list changed (checksum differs)")
            _lexicons[lexicon.checksum] = compiled
            return compiled
    return compile_imported(lexicon.checksum, bytes(lexicon.content), lexicon.name)


def compile_imported(
    checksum: str,
    packed: bytes,
    name: str,
    *,
    max_bytes: int | None = None,
    progress: lexmod.Progress | None = None,
) -> lexmod.Lexicon:
    """Compile an imported list (kept gzipped in the database so that every worker machine
    has it) through a file named by its checksum; raises ``LexiconError``."""
    with _lock:
        cached = _lexicons.get(checksum)
        if cached is not None:
            return cached
        path = lexmod.cache_dir() / "imports" / f"{checksum}.txt.gz"
        if not path.exists():
            lexmod.atomic_write(path, packed)
        compiled = lexmod.load(path, name=name, max_bytes=max_bytes, progress=progress)
        if compiled.checksum != checksum:
            raise StateError(f"lexicon {name}: the word list changed (checksum differs)")
        _lexicons[checksum] = compiled
        return compiled


def game_config(game: models.Game) -> GameConfig:
    return event_config(game.event, game.seed)


def event_config(event: models.Event, seed: int) -> GameConfig:
    """The solver's settings of a game of ``event`` drawn from ``seed``."""
    return GameConfig(
        board=event.board,
        language=event.language,
        lexicon=event.lexicon.name,
        lexicon_checksum=event.lexicon.checksum,
        seed=seed,
        smooth=event.smooth,
        bingo_bonus=event.bingo_bonus,
        first_move_horizontal=event.first_move_horizontal,
        y_counts_as=event.y_counts_as,
        early_rounds=event.early_rounds,
        early_vowels=event.early_vowels,
        early_consonants=event.early_consonants,
        late_vowels=event.late_vowels,
        late_consonants=event.late_consonants,
        early_fallback=event.early_fallback,
    )


@dataclass
class Position:
    """A game after its placed rounds, and the current round's draw if one is pending."""

    game: SolverGame
    current: models.Round | None
    drawn: RackDraw | None


def redraw(game: SolverGame, round: models.Round) -> RackDraw:
    """Take a stored round's rack from the bag again, as it was first drawn."""
    where = f"round {round.number}"
    if round.manual:
        return game.draw_manual(round.rack, tuple(round.rejected))
    drawn = game.draw()
    if drawn is None or drawn.texts() != (round.reliquat, round.new_tiles, tuple(round.rejected)):
        raise StateError(f"{where}: the stored draw is not the seed's draw")
    return drawn


def rebuild(game: models.Game) -> Position:
    config = game_config(game)
    solver_game = SolverGame(config, solver_lexicon(game.event.lexicon))
    current: models.Round | None = None
    drawn: RackDraw | None = None
    for round in game.rounds.order_by("number"):
        if current is not None:
            raise StateError(f"round {round.number} follows a round that was never placed")
        this_draw = redraw(solver_game, round)
        if round.state != models.Round.State.PLACED:
            current, drawn = round, this_draw
            continue
        size = solver_game.board.size
        tops = tuple(parse_move(t, "gcg", size) for t in round.tops)
        analysis = Analysis(round.move_count or 0, round.top_score, tops)
        solver_game.play(this_draw, analysis, parse_move(round.chosen, "gcg", size))
    return Position(solver_game, current, drawn)


def master_record(game: models.Game) -> GameRecord | None:
    """The record a master game replays, read once per Game object (a draw, a solve and a
    page each ask several times)."""
    if game.master is None:
        return None
    cached: GameRecord | None = getattr(game, "_master_record", None)
    if cached is None:
        cached = GameRecord.from_dict(game.master)
        game._master_record = cached  # type: ignore[attr-defined]
    return cached


def master_round(game: models.Game, number: int) -> RoundRecord | None:
    """Round ``number`` of the master game ``game`` replays, if it has one that far."""
    record = master_record(game)
    if record is None:
        return None
    return record.rounds[number - 1] if 1 <= number <= len(record.rounds) else None


def master_final(game: models.Game, number: int) -> FinalDraw | None:
    """The rack that had no move in the master game, if ``number`` is the round after its
    last one and it ended so."""
    record = master_record(game)
    return record.final if record is not None and number == len(record.rounds) + 1 else None


def game_record(game: models.Game) -> GameRecord:
    """The JSON game record of a game's placed rounds, as the solver writes one: a game
    still being played gives the record so far (no end)."""
    position = rebuild(game)
    if game.state != models.Game.State.ENDED:
        return position.game.record
    # The rack drawn and never played when no move was left is part of the record.
    final = position.drawn if game.end_reason == "no_move" else None
    return position.game.finish(game.end_reason, final)
