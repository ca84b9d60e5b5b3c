"""``python -m solver``: analyse a position, simulate a game, build or check a lexicon.

The ``analyse --json`` output is a contract other tools rely on::

    {"moves": N, "top_score": S, "top_moves": ["8D WORD", ...]}

``moves`` counts distinct placements, ``top_moves`` lists every move scoring S in the
requested notation, chosen top first (see :mod:`solver.analysis`); with no legal move
``top_score`` is null.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from solver import lexicon as lexmod
from solver.analysis import analyse
from solver.boards import LAYOUT_NAMES, layout
from solver.errors import IllegalMoveError, IllegalRackError, InvalidMoveError
from solver.formats import cgp
from solver.notation import STYLES, format_move
from solver.rules import Rules
from solver.tiles import tile_set


def _lexicon(spec: str) -> lexmod.Lexicon:
    """A word list path, or the name of a bundled lexicon (``enable``, ``french``)."""
    if spec in lexmod.BUNDLED and not Path(spec).exists():
        return lexmod.load_bundled(spec)
    return lexmod.load(spec)


def _cmd_analyse(args: argparse.Namespace) -> int:
    lay = layout(args.board)
    tiles = tile_set(args.tiles, lay.size, smooth=not args.nosmooth)
    position = cgp.parse_position(args.cgp, lay, tiles)
    lex = _lexicon(args.lexicon)
    rules = Rules(bingo_bonus=args.bingo, first_move_horizontal=not args.first_any_direction)
    result = analyse(position.board, lex, position.rack, rules, keep=args.top)
    tops = [format_move(m, args.notation) for m in result.tops]
    if args.json:
        print(json.dumps({"moves": result.moves, "top_score": result.top_score, "top_moves": tops}))
        return 0
    print(f"{result.moves} moves; top score {result.top_score if result.top_score is not None else '-'}")
    for i, move in enumerate(result.ranked or result.tops, start=1):
        print(f"{i:4d}. {format_move(move, args.notation):<24} {move.score:4d}")
    return 0


def _cmd_play(args: argparse.Namespace) -> int:
    from solver.game import GameConfig, simulate
    from solver.report import game_sheet

    config = GameConfig(
        board=args.board,
        language=args.tiles,
        lexicon=args.lexicon or ("french" if args.tiles == "french" else "enable"),
        seed=args.seed,
        smooth=not args.nosmooth,
        y_counts_as=args.y_counts_as,
    )
    record = simulate(config, lexicon=_lexicon(config.lexicon))
    if args.out:
        # Written before anything is printed, so a bad path fails before the sheet scrolls by.
        Path(args.out).write_text(json.dumps(record.to_dict(), ensure_ascii=False, indent=1), "utf-8")
    if args.json:
        print(json.dumps(record.to_dict(), ensure_ascii=False))
    else:
        print(game_sheet(record, notation=args.notation))
    return 0


def _cmd_lexicon(args: argparse.Namespace) -> int:
    if args.action == "build":
        lex = lexmod.load(args.path, use_cache=not args.no_cache, max_length=args.max_length)
        if lex.report is not None:
            print(lex.report.summary())
        print(
            f"compiled {lex.word_count} words into {lex.gaddag.node_count} nodes; cache: {lexmod.cache_dir()}"
        )
        return 0
    lex = _lexicon(args.path)
    missing = 0
    for word in args.words:
        ok = word in lex
        missing += not ok
        print(f"{word.upper()}\t{'valid' if ok else 'NOT in the lexicon'}")
    return 1 if missing else 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m solver", description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)

    def game_options(p: argparse.ArgumentParser) -> None:
        p.add_argument("--tiles", choices=("english", "french"), default="english")
        p.add_argument("--board", choices=LAYOUT_NAMES, default="standard")
        p.add_argument("--nosmooth", action="store_true", help="21x21 only: two standard sets")
        p.add_argument("--notation", choices=STYLES, default="gcg")
        p.add_argument("--json", action="store_true")

    p_an = sub.add_parser("analyse", help="all moves and the tops of a CGP position")
    p_an.add_argument("--lexicon", required=True, help="word list file, or enable / french")
    p_an.add_argument("--cgp", required=True, help='"BOARD RACK" (CGP board field, ? = blank)')
    p_an.add_argument("--top", type=int, default=0, help="also list the N best moves")
    p_an.add_argument("--bingo", type=int, default=50, help="bonus for playing the whole rack")
    p_an.add_argument("--first-any-direction", action="store_true", help="allow a vertical first move")
    game_options(p_an)
    p_an.set_defaults(func=_cmd_analyse)

    p_play = sub.add_parser("play", help="simulate a duplicate game from a seed")
    p_play.add_argument("--seed", type=int, default=1)
    p_play.add_argument("--lexicon", help="word list file, or enable / french (default by language)")
    p_play.add_argument("--out", help="also write the JSON game record to this file")
    p_play.add_argument(
        "--y-counts-as",
        choices=("both", "vowel", "consonant"),
        default="both",
        help="how Y counts for the vowel/consonant minimums (default both)",
    )
    game_options(p_play)
    p_play.set_defaults(func=_cmd_play)

    p_lex = sub.add_parser("lexicon", help="compile or query a word list")
    lex_sub = p_lex.add_subparsers(dest="action", required=True)
    p_build = lex_sub.add_parser("build", help="compile a word list and report what was kept")
    p_build.add_argument("path")
    p_build.add_argument("--no-cache", action="store_true")
    p_build.add_argument("--max-length", type=int, default=lexmod.MAX_LENGTH)
    p_check = lex_sub.add_parser("check", help="say whether words are in a lexicon")
    p_check.add_argument("path", help="word list file, or enable / french")
    p_check.add_argument("words", nargs="+")
    p_lex.set_defaults(func=_cmd_lexicon)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        code: int = args.func(args)
        return code
    except (InvalidMoveError, IllegalMoveError, IllegalRackError, lexmod.LexiconError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"error: {exc.strerror or exc}: {exc.filename or ''}".rstrip(": "), file=sys.stderr)
        return 2


if __name__ == "__main__":
    raise SystemExit(main())
