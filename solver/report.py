"""The game sheet as text: what ``python -m solver play`` prints.

One line a round: number, rack as reliquat + new tiles, the top with its coordinates in
the event's notation, its score, the cumulative top total; rejected racks on their own
line under the round; the final board at the end.
"""

from __future__ import annotations

from solver.boards import layout
from solver.formats.cgp import parse_board
from solver.formats.record import GameRecord
from solver.notation import format_move, parse_move


def game_sheet(record: GameRecord, *, notation: str = "gcg") -> str:
    cfg = record.config
    lay = layout(cfg.board)
    lines = [
        f"Duplicate game, seed {cfg.seed}: {cfg.language} tiles, {cfg.board} board"
        f" {lay.size}x{lay.size}, lexicon {cfg.lexicon}",
        "",
        f"{'rd':>3}  {'rack':<12} {'top':<26} {'score':>5} {'total':>6}  moves",
    ]
    total = 0
    for entry in record.rounds:
        total += entry.score
        move = parse_move(entry.played, "gcg", lay.size)
        shown = format_move(move, notation)
        rack = f"{entry.reliquat}+{entry.new}" if entry.reliquat else entry.new
        extra = f"  ({len(entry.tops)} equal tops)" if len(entry.tops) > 1 else ""
        lines.append(
            f"{entry.round:>3}  {rack:<12} {shown:<26} {entry.score:>5} {total:>6}  {entry.moves}{extra}"
        )
        for rejected in entry.rejected:
            lines.append(f"     rejected: {rejected}")
    lines.append("")
    lines.append(f"Top total: {total} in {len(record.rounds)} rounds. End: {record.end_text}.")
    if record.rounds:
        board = parse_board(record.rounds[-1].board, lay)
        lines.append("")
        lines.extend(board_lines(board.rows(), lay.symbols, lay.size, notation))
    return "\n".join(lines)


def board_lines(rows: list[str], symbols: str, size: int, notation: str) -> list[str]:
    """The board as text, empty squares showing their premium symbol (docs/rules.md#boards),
    labelled as the notation reads it: FISF rows are letters and columns numbers, GCG the
    reverse."""
    letters = [chr(65 + i) for i in range(size)]
    numbers = [str(i + 1) for i in range(size)]
    row_labels, col_labels = (letters, numbers) if notation == "fisf" else (numbers, letters)
    out = ["     " + " ".join(f"{c:<2}"[:2] if notation == "fisf" else c for c in col_labels).rstrip()]
    for r, row in enumerate(rows):
        cells = [ch if ch != "." else symbols[r * size + c] for c, ch in enumerate(row)]
        sep = "  " if notation == "fisf" else " "
        out.append(f"{row_labels[r]:>3}  " + sep.join(cells))
    return out
