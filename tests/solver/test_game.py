"""The game simulator, the JSON game record, its replay, and the GCG export."""

from __future__ import annotations

import copy
import json
from collections import Counter

import pytest

from solver.draw import rack_meets
from solver.formats import gcg
from solver.formats.cgp import parse_board
from solver.formats.record import GameRecord, RecordError
from solver.game import EndReason, Game, GameConfig, config_rules, replay, simulate
from solver.lexicon import Lexicon
from solver.notation import parse_move
from solver.rules import validate
from solver.tiles import rack_codes


@pytest.fixture(scope="module")
def game7(enable: Lexicon) -> GameRecord:
    return simulate(GameConfig(seed=7, lexicon="ENABLE"), lexicon=enable)


def test_a_seeded_game_is_reproducible(enable: Lexicon, game7: GameRecord) -> None:
    again = simulate(GameConfig(seed=7, lexicon="ENABLE"), lexicon=enable)
    assert again.to_dict() == game7.to_dict()


def test_another_seed_gives_another_game(enable: Lexicon, game7: GameRecord) -> None:
    other = simulate(GameConfig(seed=8, lexicon="ENABLE"), lexicon=enable)
    assert other.rounds[0].rack != game7.rounds[0].rack


def test_every_round_plays_a_legal_top_and_the_totals_add_up(enable: Lexicon, game7: GameRecord) -> None:
    tiles, rules, draw_rules = config_rules(game7.config)
    board = parse_board("/".join(["15"] * 15))
    board = type(board)(board.layout, tiles)
    for entry in game7.rounds:
        vowels, consonants = draw_rules.minimums(entry.round)
        assert rack_meets(tiles, rack_codes(entry.rack), vowels, consonants)
        move = parse_move(entry.played, "gcg")
        scored = validate(board, move, rack_codes(entry.rack), enable, rules)
        assert scored.score == entry.score == entry.top_score
        assert entry.played in entry.tops and entry.tops[0] == entry.played
        board.play(scored.move)
        assert "/".join(board.rows()) == "/".join(parse_board(entry.board).rows())
    assert game7.top_total == sum(r.score for r in game7.rounds)
    assert game7.end == EndReason.DRAW_RULE


def test_tiles_are_conserved_over_the_game(game7: GameRecord) -> None:
    tiles, _, _ = config_rules(game7.config)
    final = parse_board(game7.rounds[-1].board)
    on_board = Counter(0 if c & 0x40 else c for c in final.squares if c)
    assert sum(on_board.values()) <= tiles.total
    for code, n in on_board.items():
        assert n <= tiles.counts[code]


def test_the_json_record_round_trips_and_replays_identically(enable: Lexicon, game7: GameRecord) -> None:
    data = json.loads(json.dumps(game7.to_dict()))
    loaded = GameRecord.from_dict(data)
    assert loaded.to_dict() == game7.to_dict()
    assert replay(loaded, lexicon=enable).to_dict() == game7.to_dict()


def test_a_tampered_score_is_refused_on_replay(enable: Lexicon, game7: GameRecord) -> None:
    data = copy.deepcopy(game7.to_dict())
    data["rounds"][3]["score"] += 1
    data["top_total"] += 1
    with pytest.raises(RecordError, match="round 4"):
        replay(GameRecord.from_dict(data), lexicon=enable)


def test_a_rack_not_in_the_bag_is_refused_on_replay(enable: Lexicon, game7: GameRecord) -> None:
    data = copy.deepcopy(game7.to_dict())
    data["rounds"][0]["new"] = "ZZZZZZZ"
    with pytest.raises(RecordError, match="round 1"):
        replay(GameRecord.from_dict(data), lexicon=enable)


def test_a_wrong_top_total_or_format_is_refused(game7: GameRecord) -> None:
    data = copy.deepcopy(game7.to_dict())
    data["top_total"] += 5
    with pytest.raises(RecordError, match="top_total"):
        GameRecord.from_dict(data)
    with pytest.raises(RecordError, match="format"):
        GameRecord.from_dict({"rounds": []})
    broken = copy.deepcopy(game7.to_dict())
    del broken["rounds"][0]["played"]
    with pytest.raises(RecordError, match="round 1"):
        GameRecord.from_dict(broken)


def test_rejected_racks_are_recorded_and_replayed(enable: Lexicon) -> None:
    for seed in range(1, 40):
        record = simulate(GameConfig(seed=seed, lexicon="ENABLE"), lexicon=enable)
        if any(r.rejected for r in record.rounds):
            break
    else:
        pytest.fail("no game among 39 seeds had a rejected rack")
    tiles, _, draw_rules = config_rules(record.config)
    entry = next(r for r in record.rounds if r.rejected)
    vowels, consonants = draw_rules.minimums(entry.round)
    for rack in entry.rejected:
        assert not rack_meets(tiles, rack_codes(rack), vowels, consonants)
    assert entry.reliquat == ""
    assert replay(record, lexicon=enable).to_dict() == record.to_dict()


def test_a_french_game_on_a_big_board_plays_to_the_end(frlp: Lexicon) -> None:
    record = simulate(GameConfig(seed=3, board="large", language="french", lexicon="FRLP"), lexicon=frlp)
    assert len(record.rounds) > 15
    assert all(len(r.rack) <= 8 for r in record.rounds)
    assert replay(record, lexicon=frlp).to_dict() == record.to_dict()


def test_gcg_export_lists_each_round_with_the_cumulative_total(game7: GameRecord) -> None:
    text = gcg.export(game7)
    events = [line for line in text.splitlines() if line.startswith(">Top:")]
    assert len(events) == len(game7.rounds)
    first = game7.rounds[0]
    assert events[0] == f">Top: {first.rack} {first.played} +{first.score} {first.score}"
    assert events[-1].endswith(f" {game7.top_total}")
    assert "#lexicon ENABLE" in text


def _tampered(record: GameRecord, change) -> GameRecord:
    data = copy.deepcopy(record.to_dict())
    change(data)
    data["top_total"] = sum(r["score"] for r in data["rounds"])
    return GameRecord.from_dict(data)


def test_a_record_with_another_seed_does_not_replay(enable: Lexicon, game7: GameRecord) -> None:
    def change(data: dict) -> None:
        data["config"]["seed"] = 12345

    with pytest.raises(RecordError, match="round 1: the seed draws"):
        replay(_tampered(game7, change), lexicon=enable)


def test_an_invented_random_rack_does_not_replay_even_if_playable(enable: Lexicon, game7: GameRecord) -> None:
    first = game7.rounds[0]
    assert first.played == "8D MACHO" and first.new == "FCOAMHA"

    def change(data: dict) -> None:
        data["rounds"][0]["new"] = "SMACHOE"

    with pytest.raises(RecordError, match="round 1: the seed draws"):
        replay(_tampered(game7, change), lexicon=enable, check_tops=False)


def test_an_invented_rejected_rack_does_not_replay(enable: Lexicon, game7: GameRecord) -> None:
    def change(data: dict) -> None:
        data["rounds"][2]["rejected"] = ["BCD"]

    with pytest.raises(RecordError, match="round 3"):
        replay(_tampered(game7, change), lexicon=enable)


def test_a_manual_rack_replays_when_the_bag_and_minimums_allow_it(enable: Lexicon) -> None:
    game = Game(GameConfig(seed=1, lexicon="ENABLE"), enable)
    drawn = game.draw_manual("AEINRST")
    assert drawn.manual
    game.play(drawn, game.analyse(list(drawn.rack)))
    drawn2 = game.draw()
    assert drawn2 is not None
    game.play(drawn2, game.analyse(list(drawn2.rack)))
    record = game.finish(EndReason.STOPPED)
    assert replay(GameRecord.from_dict(record.to_dict()), lexicon=enable).to_dict() == record.to_dict()

    def short(data: dict) -> None:
        data["rounds"][0]["new"] = "MACHO"

    with pytest.raises(RecordError, match="round 1: the rack must hold 7 tiles"):
        replay(_tampered(record, short), lexicon=enable)


def test_the_end_of_the_game_is_checked(enable: Lexicon, game7: GameRecord) -> None:
    def no_move(data: dict) -> None:
        data["end"] = "no_move"

    with pytest.raises(RecordError, match="no legal move"):
        replay(_tampered(game7, no_move), lexicon=enable)

    def unknown(data: dict) -> None:
        data["end"] = "banana"

    with pytest.raises(RecordError, match="unknown end of game"):
        _tampered(game7, unknown)

    def cut(data: dict) -> None:
        del data["rounds"][-1]

    with pytest.raises(RecordError, match="draw rule"):
        replay(_tampered(game7, cut), lexicon=enable)


def test_a_game_ended_by_no_legal_move_replays(enable: Lexicon) -> None:
    tiny = Lexicon.from_words(["AA", "AB"])
    record = simulate(GameConfig(seed=1, lexicon="tiny"), lexicon=tiny)
    assert record.end == EndReason.NO_MOVE
    assert record.final is not None and not record.final.manual  # the seed's rack with no move
    assert replay(record, lexicon=tiny).to_dict() == record.to_dict()
    data = record.to_dict()
    data["final"]["new"] = data["final"]["new"][::-1] + "Q"
    with pytest.raises(RecordError, match="the final rack: the seed draws"):
        replay(GameRecord.from_dict(data), lexicon=tiny)
    data = record.to_dict()
    data["end"] = "stopped"
    with pytest.raises(RecordError, match="only a game that ended with no legal move has a final rack"):
        GameRecord.from_dict(data)


def test_a_typed_rack_with_no_move_is_the_records_final_rack(enable: Lexicon) -> None:
    """A rack typed from a physical draw cannot be redrawn from the seed: the record keeps it."""
    config = GameConfig(
        seed=4, lexicon="ENABLE", early_vowels=0, early_consonants=0, late_vowels=0, late_consonants=0
    )
    game = Game(config, enable)
    first = game.draw_manual("PFFTQZJ")
    game.play(first, game.analyse(list(first.rack)))
    last = game.draw_manual("JQZXKVV")
    assert game.analyse(list(last.rack)).chosen is None
    record = game.finish(EndReason.NO_MOVE, last)
    data = json.loads(json.dumps(record.to_dict()))
    assert data["final"] == {"reliquat": "JQZ", "new": "XKVV", "rejected": [], "manual": True}
    assert replay(GameRecord.from_dict(data), lexicon=enable).to_dict() == data
    del data["final"]  # as before the final rack was recorded: the seed's next rack has moves
    with pytest.raises(RecordError, match="no legal move, but the next rack has one"):
        replay(GameRecord.from_dict(data), lexicon=enable)


def test_replay_with_another_word_list_says_so(frlp: Lexicon, game7: GameRecord) -> None:
    with pytest.raises(RecordError, match="another word list"):
        replay(game7, lexicon=frlp)


def test_replay_without_top_check_keeps_the_recorded_tops(enable: Lexicon, game7: GameRecord) -> None:
    assert replay(game7, lexicon=enable, check_tops=False).to_dict() == game7.to_dict()


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d["rounds"].__setitem__(0, [1, 2]), "round 1: must be an object"),
        (lambda d: d["rounds"].__setitem__(0, None), "round 1: must be an object"),
        (lambda d: d["config"].__setitem__("bingo_bonus", "50"), "bingo_bonus must be int"),
        (lambda d: d["config"].__setitem__("board", ["x"]), "board must be str"),
        (lambda d: d["rounds"][0].__setitem__("rejected", "BCD"), "rejected must be list"),
        (lambda d: d["rounds"][0].__setitem__("manual", "false"), "manual must be bool"),
        (lambda d: d["rounds"][0].__setitem__("round", 1.9), "round must be int"),
        (lambda d: d.__setitem__("top_total", "849"), "top_total says '849'"),
    ],
)
def test_a_badly_typed_record_is_refused_with_the_field(game7: GameRecord, change, message: str) -> None:
    data = copy.deepcopy(game7.to_dict())
    change(data)
    with pytest.raises(RecordError, match=message):
        GameRecord.from_dict(data)


def test_a_bad_setting_in_a_record_is_a_record_error(enable: Lexicon, game7: GameRecord) -> None:
    def change(data: dict) -> None:
        data["config"]["board"] = "huge"

    with pytest.raises(RecordError, match="unknown board"):
        replay(_tampered(game7, change), lexicon=enable)


def test_a_record_without_the_early_fallback_setting_reads_as_played_before_it(game7: GameRecord) -> None:
    data = copy.deepcopy(game7.to_dict())
    assert data["config"]["early_fallback"] is True
    del data["config"]["early_fallback"]
    # Written before the setting existed: played without the fallback, replayed so.
    assert GameRecord.from_dict(data).config.early_fallback is False
    data["config"]["early_fallback"] = 0
    with pytest.raises(RecordError, match="early_fallback must be bool"):
        GameRecord.from_dict(data)


def test_the_early_fallback_reaches_the_draw_rules() -> None:
    assert config_rules(GameConfig())[2].early_fallback is True
    assert config_rules(GameConfig(early_fallback=False))[2].early_fallback is False


def test_with_the_fallback_a_game_goes_on_where_the_early_minimums_end_it(enable: Lexicon) -> None:
    """Every round early (early_rounds 99): the end of the bag is where the setting shows."""
    fisf = simulate(GameConfig(seed=1, lexicon="ENABLE", early_rounds=99), lexicon=enable)
    strict = simulate(
        GameConfig(seed=1, lexicon="ENABLE", early_rounds=99, early_fallback=False), lexicon=enable
    )
    assert fisf.end == strict.end == EndReason.DRAW_RULE
    ended = len(strict.rounds)
    assert len(fisf.rounds) > ended
    assert [r.to_dict() for r in fisf.rounds[:ended]] == [r.to_dict() for r in strict.rounds]
    tiles, _, _ = config_rules(fisf.config)
    # The first round past the strict end holds fewer than 2 vowels or 2 consonants.
    assert not rack_meets(tiles, rack_codes(fisf.rounds[ended].rack), 2, 2)
    assert rack_meets(tiles, rack_codes(fisf.rounds[ended].rack), 1, 1)
    assert replay(strict, lexicon=enable).to_dict() == strict.to_dict()
    data = strict.to_dict()
    data["config"]["early_fallback"] = True
    with pytest.raises(RecordError, match="the record ends by the draw rule, but a rack can still be drawn"):
        replay(GameRecord.from_dict(data), lexicon=enable)
