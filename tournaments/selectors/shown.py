"""The game as the phones, the projector and the API show it: no secret before its time.
:func:`public_view` replays the game, so its result is cached per live version."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.core.cache import cache

from solver.notation import parse_move
from solver.tiles import ALPHABET, BLANK_CHAR, rack_codes
from tournaments.display import Cell, axis_labels, board_cells, rack_text, shown_move, tile_values
from tournaments.models import Event, Game, Round
from tournaments.selectors.games import current_game, player_sight
from tournaments.state import rebuild


@dataclass(frozen=True)
class PlacedRound:
    number: int
    rack: str
    move: str
    score: int
    top_score: int


@dataclass
class GameView:
    """A game as phones and the projector show it: no secret before its time."""

    event_id: int
    game: int
    game_state: str
    round: int | None
    state: str | None
    deadline: str | None
    rows: list[tuple[str, list[Cell]]]  # (row label, cells)
    col_labels: list[str]
    rack: str  # "" while the round is drawn and not open
    rack_values: list[tuple[str, int]]
    to_come: list[tuple[str, int, int]]  # (letter, count, value), unseen tiles only
    to_come_total: int
    values: list[tuple[str, int]]
    placed: list[PlacedRound]
    top_total: int
    #: After the close and adjudication: the tops and the move to be placed.
    top_score: int | None = None
    tops: list[str] = field(default_factory=list)
    chosen: str = ""


def _placed_squares(game_rounds: list[Round], size: int) -> set[tuple[int, int]]:
    placed = [r for r in game_rounds if r.state == Round.State.PLACED and r.chosen]
    if not placed:
        return set()
    move = parse_move(placed[-1].chosen, "gcg", size)
    step = (0, 1) if move.across else (1, 0)
    return {(move.row + i * step[0], move.col + i * step[1]) for i in range(len(move.word))}


def game_view(game: Game) -> GameView:
    event = game.event
    position = rebuild(game)
    board = position.game.board
    tiles = position.game.tiles
    rounds = list(game.rounds.order_by("number"))
    current = position.current
    sight = player_sight(current) if current is not None else None
    revealed = sight is not None and sight.rack
    rack = current.rack if current is not None and revealed else ""
    # The letters still to come: the bag, plus the rack itself while it is still secret.
    unseen = list(position.game.bag.counts())
    if current is not None and not revealed:
        for code in rack_codes(current.rack):
            unseen[code] += 1
    to_come = [(ALPHABET[c - 1], unseen[c], tiles.values[c]) for c in range(1, 27) if unseen[c]]
    if unseen[0]:
        to_come.append((BLANK_CHAR, unseen[0], 0))
    row_labels, col_labels = axis_labels(board.size, event.notation)
    cells = board_cells(
        board.rows(), board.layout, tiles, event.notation, _placed_squares(rounds, board.size)
    )
    placed = [
        PlacedRound(
            r.number,
            rack_text(r.reliquat, r.new_tiles),
            shown_move(r.chosen, event.board, event.notation),
            r.chosen_score or 0,
            r.top_score or 0,
        )
        for r in rounds
        if r.state == Round.State.PLACED
    ]
    view = GameView(
        event_id=event.pk,
        game=game.number,
        game_state=game.state,
        round=current.number if current else None,
        state=current.state if current else None,
        deadline=current.deadline.isoformat() if current and current.deadline else None,
        rows=list(zip(row_labels, cells, strict=True)),
        col_labels=col_labels,
        rack=rack,
        rack_values=tile_values(tiles, rack),
        to_come=to_come,
        to_come_total=sum(unseen),
        values=[(ALPHABET[c - 1], tiles.values[c]) for c in range(1, 27)],
        placed=placed,
        # The rounds counted in every total: the placed ones, and the current one once its
        # results are published (tournaments.models.rounds.counted_rounds).
        top_total=sum(p.top_score for p in placed)
        + ((current.top_score or 0) if current is not None and sight is not None and sight.answers else 0),
    )
    if current is not None and sight is not None and sight.answers:
        view.top_score = current.top_score
        view.tops = [shown_move(t, event.board, event.notation) for t in current.tops]
        # The move fixed at the publication (the one then placed); none yet only for a
        # centre waiting for the hub's: the top score is told alone.
        view.chosen = shown_move(current.chosen, event.board, event.notation)
    return view


def public_view(event: Event, version: str, game: Game | None = None) -> GameView | None:
    """:func:`game_view` of the current game (``game``, when the caller has it), cached
    per live version: a hall of phones asking at once after a change replays the game
    once."""
    game = game or current_game(event)
    if game is None:
        return None
    # Pickled by its class's path: the key holds the path, so that a view cached by a
    # release where the class lived elsewhere is never read back (Redis outlives a deploy).
    key = f"arbiter:{GameView.__module__}.GameView:{event.pk}:{game.pk}:{version}"
    view: GameView | None = cache.get(key)
    if view is None:
        view = game_view(game)
        cache.set(key, view, 300)
    return view
