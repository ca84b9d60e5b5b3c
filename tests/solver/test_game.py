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
from solver.game import EndReason, GameConfig, config_rules, replay, simulate
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
