"""GCG export of a duplicate game (Poslfit's .gcg format, as Quackle writes it).

Duplicate play has no opponent: the game is written as one player, ``Top``, playing
each round's top. The rack is the full rack of the round; the word is written in full
with blanks in lowercase; the last token is the cumulative top total.
"""

from __future__ import annotations

from solver.boards import layout
from solver.formats.record import GameRecord
from solver.tiles import tile_set


def export(record: GameRecord) -> str:
    cfg = record.config
    distribution = tile_set(cfg.language, layout(cfg.board).size, smooth=cfg.smooth).name
    lines = [
        "#character-encoding UTF-8",
        "#player1 Top Duplicate top",
        f"#description Duplicate game, seed {cfg.seed}, {cfg.language} tiles, {cfg.board} board",
        f"#lexicon {cfg.lexicon}",
        f"#tile-distribution {distribution}",
    ]
    total = 0
    for entry in record.rounds:
        total += entry.score
        lines.append(f">Top: {entry.rack} {entry.played} +{entry.score} {total}")
    return "\n".join(lines) + "\n"
