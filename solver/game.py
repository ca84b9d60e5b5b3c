"""The duplicate game simulator: draw, find the top, place it, until the game ends.

This is the backbone of the event flow: the event services run the same steps one at a
time with an arbitrator in the loop; :func:`simulate` runs them all from a seed, and
:func:`replay` re-runs a :class:`GameRecord` and checks that every round comes out the
same: the seed's own draws (or, for a rack typed from a physical draw, a rack the bag and
the minimums allow), the tops, the scores, the boards and the end of the game.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from dataclasses import dataclass, field

from solver.analysis import Analysis, analyse, tops
from solver.boards import Board, layout
from solver.draw import Bag, DrawRules, RackDraw, check_manual_rack, draw_rack, game_over_by_draw
from solver.formats.cgp import format_board
from solver.formats.record import FinalDraw, GameConfig, GameRecord, RecordError, RoundRecord
from solver.lexicon import Lexicon
from solver.move import Move
from solver.notation import format_move, parse_move
from solver.rules import Rules, placed_codes, validate
from solver.tiles import TileSet, tile_set

__all__ = ["EndReason", "Game", "GameConfig", "GameRecord", "replay", "simulate"]


class EndReason:
    """Stable codes of :data:`solver.formats.record.END_REASONS`."""

    DRAW_RULE = "draw_rule"
    NO_MOVE = "no_move"
    STOPPED = "stopped"


def config_rules(config: GameConfig) -> tuple[TileSet, Rules, DrawRules]:
    """The tile set and rules of a configuration; ``ValueError`` on a bad setting."""
    lay = layout(config.board)
    tiles = tile_set(config.language, lay.size, smooth=config.smooth).with_y(config.y_counts_as)
    rules = Rules(bingo_bonus=config.bingo_bonus, first_move_horizontal=config.first_move_horizontal)
    draw_rules = DrawRules(
        rack_size=lay.rack_size,
        early_rounds=config.early_rounds,
        early_vowels=config.early_vowels,
        early_consonants=config.early_consonants,
        late_vowels=config.late_vowels,
        late_consonants=config.late_consonants,
        early_fallback=config.early_fallback,
    )
    return tiles, rules, draw_rules


@dataclass
class Game:
    """A game in progress: board, bag, reliquat and the record so far."""

    config: GameConfig
    lexicon: Lexicon
    board: Board = field(init=False)
    bag: Bag = field(init=False)
    reliquat: list[int] = field(init=False, default_factory=list)
    record: GameRecord = field(init=False)
    tiles: TileSet = field(init=False)
    rules: Rules = field(init=False)
    draw_rules: DrawRules = field(init=False)

    def __post_init__(self) -> None:
        stated = self.config.lexicon_checksum
        if stated and stated != self.lexicon.checksum:
            raise ValueError(
                f"the game was played with another word list than {self.lexicon.name}"
                f" (checksum {stated[:12]}..., this one {self.lexicon.checksum[:12]}...)"
            )
        if not stated:
            self.config = dataclasses.replace(self.config, lexicon_checksum=self.lexicon.checksum)
        self.tiles, self.rules, self.draw_rules = config_rules(self.config)
        self.board = Board(layout(self.config.board), self.tiles)
        self.bag = Bag(self.tiles, self.config.seed)
        self.record = GameRecord(self.config)

    @property
    def round_number(self) -> int:
        return len(self.record.rounds) + 1

    def draw(self) -> RackDraw | None:
        """The next rack by random draw, or None when the draw rule ends the game."""
        return draw_rack(self.bag, self.reliquat, self.round_number, self.tiles, self.draw_rules)

    def draw_manual(self, typed: str, rejected: tuple[str, ...] = ()) -> RackDraw:
        """A rack typed from a physical draw (full rack, reliquat included), checked
        against the bag and the minimums; raises ``IllegalRackError`` with the reason."""
        return check_manual_rack(
            self.bag, self.reliquat, typed, self.round_number, self.tiles, self.draw_rules, rejected=rejected
        )

    def analyse(self, rack: list[int]) -> Analysis:
        return analyse(self.board, self.lexicon, rack, self.rules)

    def play(self, drawn: RackDraw, analysis: Analysis, move: Move | None = None) -> RoundRecord:
        """Place ``move`` (default: the chosen top) and record the round."""
        rack = list(drawn.rack)
        chosen = move or analysis.chosen
        if chosen is None:
            raise ValueError("there is no move to play")
        scored = validate(self.board, chosen, rack, self.lexicon, self.rules)
        self.board.play(scored.move)
        left = Counter(rack)
        left.subtract(placed_codes(scored.placed))
        self.reliquat = sorted(left.elements())
        reliquat, new, rejected = drawn.texts()
        entry = RoundRecord(
            round=drawn.round,
            reliquat=reliquat,
            new=new,
            rejected=rejected,
            manual=drawn.manual,
            moves=analysis.moves,
            top_score=analysis.top_score if analysis.top_score is not None else 0,
            tops=tuple(format_move(m, "gcg") for m in analysis.tops),
            played=format_move(scored.move, "gcg"),
            score=scored.score,
            board=format_board(self.board),
        )
        self.record.rounds.append(entry)
        return entry

    def finish(self, reason: str, final: RackDraw | None = None) -> GameRecord:
        """End the record; ``final`` is the rack that had no move (reason no_move)."""
        self.record.end = reason
        if final is not None:
            self.record.final = FinalDraw(*final.texts(), final.manual)
        return self.record


def simulate(config: GameConfig, *, lexicon: Lexicon, max_rounds: int = 200) -> GameRecord:
    """Play a whole game from ``config.seed``: every round's chosen top is placed."""
    game = Game(config, lexicon)
    while len(game.record.rounds) < max_rounds:
        drawn = game.draw()
        if drawn is None:
            return game.finish(EndReason.DRAW_RULE)
        analysis = game.analyse(list(drawn.rack))
        if analysis.chosen is None:
            # The rack stays drawn, in the record: a replay draws it again and finds no move.
            return game.finish(EndReason.NO_MOVE, drawn)
        game.play(drawn, analysis)
    return game.finish(EndReason.STOPPED)


def replay(record: GameRecord, *, lexicon: Lexicon, check_tops: bool = True) -> GameRecord:
    """Re-run a record and return the record the replay builds.

    Checked each round: a random rack is the seed's own draw (rejected racks included); a
    manual rack comes from the bag and meets the minimums; with ``check_tops`` the move
    count, top score and tops are recomputed; the played move is legal and scores as
    recorded; the board after it is the recorded one. Then the end of the game. Raises
    :class:`RecordError` naming the first round that differs.
    """
    try:
        game = Game(record.config, lexicon)
    except ValueError as exc:
        raise RecordError(f"the game's settings: {exc}") from exc
    size = game.board.size
    for entry in record.rounds:
        where = f"round {entry.round}"
        if entry.round != game.round_number:
            raise RecordError(f"{where}: expected round {game.round_number}")
        drawn = _replay_draw(game, entry)
        try:
            move = parse_move(entry.played, "gcg", size)
            if check_tops:
                analysis = game.analyse(list(drawn.rack))
            else:
                recorded = tuple(parse_move(t, "gcg", size) for t in entry.tops)
                analysis = Analysis(entry.moves, entry.top_score, recorded)
        except ValueError as exc:
            raise RecordError(f"{where}: {exc}") from exc
        if check_tops:
            if (analysis.moves, analysis.top_score) != (entry.moves, entry.top_score):
                raise RecordError(
                    f"{where}: the record says {entry.moves} moves and top {entry.top_score},"
                    f" the replay finds {analysis.moves} and {analysis.top_score}"
                )
            if tuple(format_move(m, "gcg") for m in analysis.tops) != entry.tops:
                raise RecordError(f"{where}: the tops differ from the record")
        try:
            rebuilt = game.play(drawn, analysis, move)
        except ValueError as exc:
            raise RecordError(f"{where}: {entry.played} cannot be played: {exc}") from exc
        if rebuilt.score != entry.score:
            raise RecordError(
                f"{where}: {entry.played} scores {rebuilt.score}, the record says {entry.score}"
            )
        if rebuilt.board != entry.board:
            raise RecordError(f"{where}: the board after {entry.played} differs from the record")
    final = _check_end(game, record)
    return game.finish(record.end, final)


def _replay_draw(game: Game, entry: RoundRecord) -> RackDraw:
    where = f"round {entry.round}"
    try:
        if entry.manual:
            return game.draw_manual(entry.rack, entry.rejected)
        drawn = game.draw()
    except ValueError as exc:
        raise RecordError(f"{where}: {exc}") from exc
    if drawn is None:
        raise RecordError(f"{where}: the draw rule had already ended the game")
    seed_draw = drawn.texts()
    if seed_draw != (entry.reliquat, entry.new, entry.rejected):
        raise RecordError(
            f"{where}: the seed draws {seed_draw[0]}+{seed_draw[1]}"
            f" (rejected: {', '.join(seed_draw[2]) or 'none'}), the record says"
            f" {entry.reliquat}+{entry.new} (rejected: {', '.join(entry.rejected) or 'none'})"
        )
    return drawn


def _check_end(game: Game, record: GameRecord) -> RackDraw | None:
    """Check the end of a replayed record; returns the final rack of a no_move end (the
    recorded one, typed or the seed's; the seed's next draw in a record without one)."""
    if record.end == EndReason.DRAW_RULE:
        pool = game.bag.tiles + tuple(game.reliquat)
        if not game_over_by_draw(game.tiles, pool, game.round_number, game.draw_rules):
            raise RecordError("the record ends by the draw rule, but a rack can still be drawn")
    elif record.end == EndReason.NO_MOVE:
        final = record.final
        try:
            drawn = game.draw_manual(final.rack, final.rejected) if final and final.manual else game.draw()
        except ValueError as exc:
            raise RecordError(f"the end of the game: {exc}") from exc
        if drawn is None or tops(game.board, game.lexicon, list(drawn.rack), game.rules):
            raise RecordError("the record ends with no legal move, but the next rack has one")
        if final is not None and not final.manual:
            seed_draw = drawn.texts()
            if seed_draw != (final.reliquat, final.new, final.rejected):
                raise RecordError(
                    f"the final rack: the seed draws {seed_draw[0]}+{seed_draw[1]},"
                    f" the record says {final.reliquat}+{final.new}"
                )
        return drawn
    return None
