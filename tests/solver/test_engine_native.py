"""The engine at native speed (issue 15): cross-sets kept on the board and redone only for
the lines a move touched, one kernel call per generation with the moves recorded in C and
made objects only when read, the automaton built in C identical to the Python reference,
the cache file mapped and checked, and a damaged cache that never makes the kernel read
past a buffer (fuzzed in a child process, so that a crash fails the test instead of
killing the run)."""

from __future__ import annotations

import json
import random
import subprocess
import sys
import textwrap
from array import array
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver import gaddag, lexicon, movegen, recorders
from solver.boards import Board
from solver.formats.record import GameConfig
from solver.game import Game
from solver.lexicon import Lexicon
from solver.tiles import rack_codes
from tests.conftest import corpus_board, corpus_rows

NATIVE = "c" in movegen.kernels_available()
needs_kernel = pytest.mark.skipif(not NATIVE, reason="compiled kernel not built here")
ROOT = Path(__file__).resolve().parents[2]


def _fresh(board: Board, graph: gaddag.Gaddag, kernel: str) -> movegen.CrossSets:
    copy = Board(board.layout, board.tiles, list(board.squares))
    return movegen.cross_sets(copy, graph, kernel)


def _same(a: movegen.CrossSets, b: movegen.CrossSets) -> bool:
    return (a.cross_a, a.xs_a, a.cross_d, a.xs_d) == (b.cross_a, b.xs_a, b.cross_d, b.xs_d)


@pytest.mark.parametrize("kernel", movegen.kernels_available())
def test_cross_sets_kept_through_a_game_equal_fresh_ones(enable: Lexicon, kernel: str) -> None:
    """A game places one move at a time: the cross-sets kept on its board are redone for
    the lines touched only, and equal at every round those computed from scratch."""
    game = Game(GameConfig(seed=11, lexicon="ENABLE"), enable)
    rounds = 0
    while rounds < 12:
        drawn = game.draw()
        if drawn is None:
            break
        analysis = game.analyse(list(drawn.rack))
        kept = movegen.cross_sets(game.board, enable.gaddag, kernel)
        assert _same(kept, _fresh(game.board, enable.gaddag, kernel)), rounds
        if analysis.chosen is None:
            break
        before = bytes(kept.snap)
        game.play(drawn, analysis)
        redone = kept.update(game.board.squares, game.board.size, kernel)
        touched = sum(1 for x, y in zip(before, kept.snap, strict=True) if x != y)
        # One line one way, one per new tile the other way (fewer when tiles share a line).
        assert 2 <= redone <= touched + 1 < game.board.size * 2
        rounds += 1
    assert rounds >= 8


@needs_kernel
def test_both_kernels_compute_the_same_cross_sets(enable: Lexicon) -> None:
    for row in corpus_rows("enable-15.jsonl")[::40]:
        board = corpus_board(row)
        assert _same(_fresh(board, enable.gaddag, "c"), _fresh(board, enable.gaddag, "python"))


def test_a_board_changed_by_hand_or_copied_keeps_right_cross_sets(enable: Lexicon) -> None:
    row = corpus_rows("enable-15.jsonl")[30]
    board = corpus_board(row)
    rack = rack_codes(row["rack"])
    assert movegen.generate(board, enable, rack, recorders.CountOnly()) == row["moves"]
    copy = board.copy()
    assert copy.cross is not board.cross  # a copy's sets are its own
    # A square written directly (not through Board.play) is seen by the snapshot.
    empty = board.squares.index(0)
    copy.squares[empty] = rack_codes("Q")[0]
    for kernel in movegen.kernels_available():
        assert _same(movegen.cross_sets(copy, enable.gaddag, kernel), _fresh(copy, enable.gaddag, kernel))
    assert movegen.generate(board, enable, rack, recorders.CountOnly()) == row["moves"]


@needs_kernel
def test_the_kernel_refuses_a_bad_square_code(enable: Lexicon) -> None:
    board = Board.empty()
    board.squares[3] = 27  # no such letter
    with pytest.raises(ValueError, match="bad tile code 27"):
        movegen.Generator(board, enable, kernel="c").generate(rack_codes("AB"), recorders.CountOnly())


@needs_kernel
def test_every_recorder_gets_the_same_from_both_kernels(enable: Lexicon, frlp: Lexicon) -> None:
    rows = (
        corpus_rows("enable-15.jsonl")[::60]
        + [r for r in corpus_rows("bigboards.jsonl") if "?" in r["rack"]][:2]
    )

    class Sink(recorders.Recorder):  # not a recorder the kernel knows: fed move by move
        def __init__(self) -> None:
            self.seen: list[tuple[int, bool, int, int, list[int], int]] = []
            self.threshold = 20

        def add(self, score: int, across: bool, line: int, start: int, word: list[int], placed: int) -> None:
            self.seen.append((score, across, line, start, word, placed))

    for row in rows:
        board = corpus_board(row)
        lex = enable if row["lexicon"] == "ENABLE" else frlp
        rack = rack_codes(row["rack"])
        out = {}
        for kernel in movegen.KERNELS:
            gen = movegen.Generator(board, lex, kernel=kernel)
            top, top7, top1, sink = recorders.TopMoves(), recorders.TopN(7), recorders.TopN(1), Sink()
            counts = [gen.generate(rack, r) for r in (top, top7, top1, sink, recorders.CountOnly())]
            # The tops and the moves offered one by one come in the walk's order, which
            # differs with a blank (test_movegen); the best n are ranked the same.
            out[kernel] = (
                counts,
                top.best,
                sorted((m, m.score) for m in top.moves),
                [(m, m.score) for m in top7.moves],
                [(m, m.score) for m in top1.moves],
                sorted(sink.seen),
            )
        assert out["c"] == out["python"], row["rack"]
        assert len(set(out["c"][0])) == 1 and out["c"][0][0] == row["moves"]


@needs_kernel
def test_all_moves_are_made_objects_only_when_read(enable: Lexicon) -> None:
    row = max(corpus_rows("enable-15.jsonl")[:200], key=lambda r: r["moves"])
    board = corpus_board(row)
    every = recorders.AllMoves()
    count = movegen.Generator(board, enable, kernel="c").generate(rack_codes(row["rack"]), every)
    moves = every.moves
    assert isinstance(moves, recorders.MoveList) and len(moves) == count == row["moves"]
    reference = recorders.AllMoves()
    movegen.Generator(board, enable, kernel="python").generate(rack_codes(row["rack"]), reference)
    listed = list(moves)
    # the same moves and scores; the order is the walk's (this rack has a blank)
    assert sorted((m, m.score) for m in listed) == sorted((m, m.score) for m in reference.moves)
    assert moves == listed and moves[-1] == listed[-1] and moves[5:9] == listed[5:9]
    assert [m.score for m in listed] == [moves[k].score for k in range(count)]
    with pytest.raises(IndexError):
        moves[count]


words_strategy = st.sets(st.text(alphabet="ABCDEZ", min_size=2, max_size=7), min_size=1, max_size=60)


@needs_kernel
@settings(max_examples=60, deadline=None)
@given(words=words_strategy)
def test_the_compiled_build_gives_the_reference_arrays(words: set[str]) -> None:
    assert gaddag.build(sorted(words)).to_bytes() == gaddag.build_py(words).to_bytes()


@needs_kernel
def test_the_compiled_build_of_a_real_list_is_the_reference(enable: Lexicon) -> None:
    sample = random.Random(3).sample(sorted(_words("enable.txt.gz")), 4000)
    assert gaddag.build(sample).to_bytes() == gaddag.build_py(sample).to_bytes()


@needs_kernel
def test_the_compiled_build_refuses_what_is_not_a_word() -> None:
    from solver import _kernel

    for data, message in ((b"AB\nA1\n", "not a letter"), (b"AB\nA", "a word of 1 letters"), (b"", "no word")):
        with pytest.raises(ValueError, match=message):
            _kernel.build(data)


def _words(name: str) -> list[str]:
    path = ROOT / "tests" / "data" / "corpus" / name
    words, _ = lexicon.normalize(lexicon.decode_lines(path.read_bytes(), path))
    return words


def _cached_list(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, words: list[str]) -> Path:
    """A word list in its own cache folder, compiled once: the next load reads the cache."""
    monkeypatch.setenv("ARBITER_CACHE_DIR", str(tmp_path / "cache"))
    source = tmp_path / "words.txt"
    source.write_text("\n".join(words) + "\n", "utf-8")
    lexicon.load(source)
    return source


def test_a_loaded_cache_is_a_view_of_its_file_checked_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    source = _cached_list(tmp_path, monkeypatch, ["maison", "porte", "ete"])
    loaded = lexicon.load(source)
    assert isinstance(loaded.gaddag.mask, memoryview)  # no copy of the arrays
    assert (
        loaded.gaddag.check
        == loaded.gaddag.checksum()
        == gaddag.fast64([loaded.gaddag.mask, loaded.gaddag.accepts, loaded.gaddag.base, loaded.gaddag.kids])
    )
    if NATIVE:
        assert loaded.gaddag.native is not None  # checked on load, kept for the generator
    # The source is not read again while its size and time are unchanged.
    stamps = list((tmp_path / "cache" / "lexicons" / "stamps").glob("*.json"))
    assert len(stamps) == 1 and json.loads(stamps[0].read_text())["size"] == source.stat().st_size
    source.write_text("maison\nporte\nfenetre\n", "utf-8")
    assert "FENETRE" in lexicon.load(source)


def test_the_checksum_of_the_kernel_is_the_reference() -> None:
    graph = gaddag.build_py(["MAISON", "MAISONS", "PORTE", "ETE", "LIVE", "ZEBRE"])
    arrays = [graph.mask, graph.accepts, graph.base, graph.kids]
    if NATIVE:
        from solver import _kernel

        assert _kernel.checksum(*arrays) == gaddag.fast64(arrays)
    odd = [array("I", [7, 1, 2, 3, 4]), array("I"), array("I", [9]), array("I", [1, 2])]
    if NATIVE:
        assert _kernel.checksum(*odd) == gaddag.fast64(odd)


FUZZ = textwrap.dedent(
    """
    import json, random, sys
    from array import array
    from solver import _kernel, gaddag, movegen, recorders
    from solver.boards import Board
    from solver.move import Move
    from solver.tiles import rack_codes

    words = json.loads(sys.argv[1])
    blob = bytearray(gaddag.build(words).to_bytes())
    header = gaddag._HEADER.size
    rng = random.Random(int(sys.argv[2]))
    board = Board.empty()
    board.play(Move(7, 5, True, "MAISON"))
    boards = [Board.empty(), board]
    refused = walked = 0
    for trial in range(int(sys.argv[3])):
        data = bytearray(blob)
        for _ in range(rng.randint(1, 3)):
            pos = rng.randrange(header, len(data))
            data[pos] = rng.randrange(256) if rng.random() < 0.5 else data[pos] ^ (1 << rng.randrange(3))
        # Past the checksum (as a damage that kept it would be): the structure check alone.
        g = gaddag.Gaddag.from_bytes(bytes(data), check=False)
        try:
            g.native = _kernel.Graph(g.mask, g.accepts, g.base, g.kids)
        except ValueError:
            refused += 1
            continue
        walked += 1
        for b in boards:
            for rack in ("AEIMNOS", "?AEIMNO", "??ERSTU"):
                for kernel in ("c", "python"):
                    try:
                        gen = movegen.Generator(b.copy(), g, kernel=kernel)
                        gen.generate(rack_codes(rack), recorders.AllMoves())
                    except (IndexError, RecursionError):
                        if kernel == "c":
                            raise
    print(json.dumps({"refused": refused, "walked": walked}))
    """
)


@needs_kernel
def test_damaged_automata_are_refused_or_walked_without_reading_past_a_buffer() -> None:
    words = ["MAISON", "MAISONS", "MAIS", "AIME", "AIMES", "SEMA", "NOMS", "MOINS", "EMOI", "TERRE", "STER"]
    run = subprocess.run(
        [sys.executable, "-c", FUZZ, json.dumps(words), "7", "1000"],
        check=False, capture_output=True, text=True, timeout=600, cwd=ROOT,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr[-3000:]
    figures = json.loads(run.stdout.strip().splitlines()[-1])
    assert figures["refused"] > 100 and figures["walked"] > 100, figures


@pytest.mark.parametrize("seed", range(3))
def test_a_damaged_cache_file_is_never_trusted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, seed: int
) -> None:
    words = ["maison", "maisons", "porte", "portes", "ete", "zebre"]
    source = _cached_list(tmp_path, monkeypatch, words)
    (cached,) = (tmp_path / "cache" / "lexicons").glob("*.gdg")
    good = cached.read_bytes()
    rng = random.Random(seed)
    for _ in range(40):
        data = bytearray(good)
        if rng.random() < 0.2:
            data = data[: rng.randrange(len(data))]
        else:
            for _ in range(rng.randint(1, 4)):
                data[rng.randrange(len(data))] = rng.randrange(256)
        cached.write_bytes(bytes(data))
        lex = lexicon.load(source)
        assert all(w.upper() in lex for w in words) and "PORT" not in lex and lex.word_count == len(words)


def test_a_board_pickles_and_deep_copies_without_its_cache(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import copy
    import pickle

    lex = lexicon.load(_cached_list(tmp_path, monkeypatch, ["maison", "porte"]))  # from the mapped cache
    board = Board.empty("standard", "french")
    movegen.generate(board, lex, rack_codes("MAISONS"), recorders.CountOnly())
    assert board.cross is not None
    for other in (pickle.loads(pickle.dumps(board)), copy.deepcopy(board)):
        assert other == board and other.cross is None
        assert movegen.generate(other, lex, rack_codes("MAISONS"), recorders.CountOnly()) == movegen.generate(
            board, lex, rack_codes("MAISONS"), recorders.CountOnly()
        )


@needs_kernel
def test_top_n_asking_for_more_than_there_are_gets_every_move_best_first(enable: Lexicon) -> None:
    row = corpus_rows("enable-15.jsonl")[40]
    board = corpus_board(row)
    many = recorders.TopN(10**12)  # the kernel's heap grows with the moves, not with n
    count = movegen.Generator(board, enable, kernel="c").generate(rack_codes(row["rack"]), many)
    every = recorders.AllMoves()
    movegen.Generator(board, enable, kernel="python").generate(rack_codes(row["rack"]), every)
    assert count == len(many.moves) == row["moves"]
    assert [m.score for m in many.moves] == sorted((m.score for m in every.moves), reverse=True)
    assert set(many.moves) == set(every.moves)


@needs_kernel
def test_racks_with_two_blanks_agree_with_the_reference_walker(enable: Lexicon, frlp: Lexicon) -> None:
    """The corpus has one 15x15 rack with two blanks; the benchmark makes more from the
    racks with one (bench.solver.derived), and the reference walker pins a few here."""
    from bench.solver import derived

    rows = derived(corpus_rows("enable-15.jsonl") + corpus_rows("french-15.jsonl"))
    assert len(rows) > 40
    for row in rows[::15]:
        board = corpus_board(row)
        lex = enable if row["lexicon"] == "ENABLE" else frlp
        rack = rack_codes(row["rack"])
        got = {}
        for kernel in movegen.KERNELS:
            gen = movegen.Generator(board, lex, kernel=kernel)
            top, best, every = recorders.TopMoves(), recorders.BestMoves(), recorders.AllMoves()
            count = gen.generate(rack, top)
            gen.generate(rack, best)
            assert gen.generate(rack, every) == count
            got[kernel] = (
                count,
                top.best,
                sorted(top.moves),
                sorted(best.moves),
                sorted((m, m.score) for m in every.moves),
            )
        assert got["c"] == got["python"], row["rack"]
        assert got["c"][2] == got["c"][3]  # best first finds every top
