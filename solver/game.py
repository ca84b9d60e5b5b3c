"""The duplicate game simulator: draw, find the top, place it, until the game ends.

This is the backbone of the event flow: the event services run the same steps one at a
time with an arbitrator in the loop; :func:`simulate` runs them all from a seed, and
:func:`replay` re-runs a :class:`GameRecord` and checks that every round comes out the
same (racks from the bag, tops, scores, boards).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from solver.analysis import Analysis, analyse
from solver.boards import Board, layout
from solver.draw import Bag, DrawRules, RackDraw, draw_rack, game_over_by_draw, parse_tiles, rack_meets
from solver.formats.cgp import format_board
from solver.formats.record import GameConfig, GameRecord, RecordError, RoundRecord
from solver.lexicon import Lexicon
from solver.move import Move
from solver.notation import format_move, parse_move
from solver.rules import Rules, placed_codes, validate
from solver.tiles import TileSet, rack_string, tile_set

__all__ = ["EndReason", "Game", "GameConfig", "GameRecord", "replay", "simulate"]


class EndReason:
    DRAW_RULE = "the bag and rack can no longer meet the vowel/consonant minimums"
    NO_MOVE = "no legal move"
    STOPPED = "stopped by the arbitrator"


def config_rules(config: GameConfig) -> tuple[TileSet, Rules, DrawRules]:
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
    )
    return tiles, rules, draw_rules


@dataclass
class Game:
    """A game in progress: board, bag, reliquat and the record so far."""

    config: GameConfig
    lexicon: Lexicon
    board: Board = field(init=False)
    bag: Bag = field(init=False)
    reliquat: list[int] = field(default_factory=list)
    record: GameRecord = field(init=False)
    tiles: TileSet = field(init=False)
    rules: Rules = field(init=False)
    draw_rules: DrawRules = field(init=False)

    def __post_init__(self) -> None:
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
        entry = RoundRecord(
            round=drawn.round,
            reliquat=rack_string(drawn.reliquat),
            new=rack_string(drawn.new),
            rejected=tuple(rack_string(r) for r in drawn.rejected),
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

    def finish(self, reason: str) -> GameRecord:
        self.record.end = reason
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
            game.bag.put_back(list(drawn.rack))
            return game.finish(EndReason.NO_MOVE)
        game.play(drawn, analysis)
    return game.finish(EndReason.STOPPED)


def replay(record: GameRecord, *, lexicon: Lexicon, check_tops: bool = True) -> GameRecord:
    """Re-run a record: each rack must come from the bag and meet the draw rule, each
    played move must be legal with its recorded score, and (with ``check_tops``) the tops
    must be the same. Returns the record rebuilt by the replay; raises
    :class:`RecordError` at the first round that differs.
    """
    game = Game(record.config, lexicon)
    size = game.board.size
    for entry in record.rounds:
        where = f"round {entry.round}"
        if entry.round != game.round_number:
            raise RecordError(f"{where}: expected round {game.round_number}")
        drawn = _replay_draw(game, entry)
        rack = list(drawn.rack)
        analysis = game.analyse(rack) if check_tops else Analysis(entry.moves, entry.top_score, ())
        if check_tops and (analysis.moves, analysis.top_score) != (entry.moves, entry.top_score):
            raise RecordError(
                f"{where}: the record says {entry.moves} moves and top {entry.top_score},"
                f" the replay finds {analysis.moves} and {analysis.top_score}"
            )
        if check_tops and tuple(format_move(m, "gcg") for m in analysis.tops) != entry.tops:
            raise RecordError(f"{where}: the tops differ from the record")
        move = parse_move(entry.played, "gcg", size)
        try:
            rebuilt = game.play(drawn, analysis, move)
        except ValueError as exc:
            raise RecordError(f"{where}: {entry.played} cannot be played: {exc}") from exc
        if rebuilt.score != entry.score or rebuilt.board != entry.board:
            raise RecordError(f"{where}: {entry.played} scores {rebuilt.score} or leaves another board")
    if record.end == EndReason.DRAW_RULE and not game_over_by_draw(
        game.tiles, game.bag.tiles + tuple(game.reliquat), game.round_number, game.draw_rules
    ):
        raise RecordError("the record ends by the draw rule, but a rack can still be drawn")
    return game.finish(record.end)


def _replay_draw(game: Game, entry: RoundRecord) -> RackDraw:
    """Take the recorded rack out of the bag as the draw did, checking the draw rule."""
    where = f"round {entry.round}"
    vowels, consonants = game.draw_rules.minimums(entry.round)
    try:
        rejected = [parse_tiles(r) for r in entry.rejected]
        reliquat = parse_tiles(entry.reliquat)
        new = parse_tiles(entry.new)
    except ValueError as exc:
        raise RecordError(f"{where}: {exc}") from exc
    if rejected:
        # A rejected rack goes back to the bag whole, reliquat included.
        game.bag.put_back(game.reliquat)
        game.reliquat = []
        if reliquat:
            raise RecordError(f"{where}: after a rejected rack the next rack has no reliquat")
    pool = Counter(game.bag.tiles)
    for rack in rejected:
        if Counter(rack) - pool:
            raise RecordError(f"{where}: the rejected rack {rack_string(rack)} is not in the bag")
        if rack_meets(game.tiles, rack, vowels, consonants):
            raise RecordError(f"{where}: the rejected rack {rack_string(rack)} meets the minimums")
    if sorted(reliquat) != sorted(game.reliquat):
        raise RecordError(f"{where}: the reliquat should be {rack_string(game.reliquat) or 'empty'}")
    try:
        game.bag.remove(new)
    except ValueError as exc:
        raise RecordError(f"{where}: {exc}") from exc
    if not rack_meets(game.tiles, reliquat + new, vowels, consonants):
        raise RecordError(f"{where}: the rack {entry.rack} does not meet the minimums")
    return RackDraw(entry.round, tuple(reliquat), tuple(new), tuple(tuple(r) for r in rejected), entry.manual)
