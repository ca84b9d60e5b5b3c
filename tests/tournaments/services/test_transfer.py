"""Game files (tournaments.services.transfer): a game exported as a JSON record and
imported into a new event replays with the same racks and moves, and the same slips give
the same standings; a restored game keeps its players, slips and corrections; a master
game is played round by round from its record."""

from __future__ import annotations

import csv
import datetime as dt
import io
import json

import pytest

from solver import lexicon as lexmod
from solver.formats.record import GameConfig, GameRecord
from solver.game import simulate
from tests.tournaments.helpers import draw_round as _drawn
from tests.tournaments.helpers import play_out as _play_out
from tests.tournaments.helpers import simulated_event as _simulated_event
from tournaments import exports
from tournaments.core import ApplicationError
from tournaments.models import Event, Game, HistoryEntry, Lexicon, Player, Round, Ruling, Slip
from tournaments.services import transfer
from tournaments.services.corrections import ruling_override
from tournaments.services.events import event_create, event_update
from tournaments.services.games import game_end, game_start, round_draw
from tournaments.services.players import player_add
from tournaments.services.rounds import round_close, round_open, round_place, top_choose
from tournaments.services.slips import slip_submit

pytestmark = pytest.mark.django_db


def _csv_rows(data: bytes) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(data.decode("utf-8-sig")), delimiter=";"))


def _solver_record(enable_lexicon: Lexicon, seed: int = 3) -> GameRecord:
    return simulate(GameConfig(lexicon="enable", seed=seed), lexicon=lexmod.load_bundled("enable"))


def _import(record: GameRecord | bytes, restore: bool = False, **settings) -> Event:
    parsed = transfer.read_game_file(record) if isinstance(record, bytes) else transfer.GameFile(record)
    if not restore:  # a restored game keeps the file's notation
        settings.setdefault("notation", "gcg")
    return transfer.event_import(
        name="Master",
        starts_on=dt.date(2026, 11, 21),
        game_file=parsed,
        restore=restore,
        **settings,
    )


def _record_part(data: bytes) -> dict:
    """The solver's record in a game file, without the event's players and slips."""
    return GameRecord.from_dict(json.loads(data)).to_dict()


# ------------------------------------------------------------------ the round trip


def test_export_import_replays_the_racks_and_moves_and_the_same_slips_give_the_same_standings() -> None:
    original = _simulated_event(players=6)
    game_a = original.games.get()
    record_bytes = exports.record_json(game_a)
    slips = [s for s in _csv_rows(exports.slips_csv(original, language="en")) if s["current"] == "1"]
    assert slips, "the simulated players handed in slips"

    copy = _import(record_bytes)
    for player in original.players.order_by("table"):
        player_add(
            event=copy, name=player.name, table=player.table, category=player.category, club=player.club
        )
    by_table = {p.table: p for p in copy.players.all()}
    game_b = game_start(event=copy)
    assert game_b.master is not None and game_b.seed == game_a.seed
    rounds_a = {r.number: r for r in game_a.rounds.all()}

    round = _drawn(game_b)
    while True:
        a = rounds_a[round.number]
        assert (round.reliquat, round.new_tiles, round.rejected) == (a.reliquat, a.new_tiles, a.rejected)
        if a.state != Round.State.PLACED:
            break  # the original game ended on this rack (no move)
        assert round.chosen == a.chosen and round.chosen_score == a.chosen_score
        round_open(round=round)
        for slip in (s for s in slips if int(s["round"]) == round.number):
            slip_submit(
                round=round,
                player=by_table[int(slip["table"])],
                coordinates=slip["coordinates"],
                word=slip["word"],
                announced_score=int(slip["announced"]) if slip["announced"] else None,
                source=slip["source"],
            )
        round_close(round=round)
        round.refresh_from_db()
        assert round.state == Round.State.ADJUDICATED
        nxt = round_place(round=round)
        if nxt is None:
            break
        round = Round.objects.get(pk=nxt.pk)
    if game_a.end_reason == "no_move":
        assert not round.tops
        game_end(game=game_b, reason="no_move")
    game_b.refresh_from_db()
    assert (game_b.state, game_b.end_reason) == (Game.State.ENDED, game_a.end_reason)

    assert _record_part(exports.record_json(game_b)) == _record_part(record_bytes)
    assert exports.game_gcg(game_b) == exports.game_gcg(game_a)
    assert exports.standings_csv(copy, 1) == exports.standings_csv(original, 1)
    assert exports.standings_csv(copy) == exports.standings_csv(original)
    credited_a = [(s["round"], s["table"], s["credited"], s["ruling"]) for s in slips]
    credited_b = [
        (s["round"], s["table"], s["credited"], s["ruling"])
        for s in _csv_rows(exports.slips_csv(copy, language="en"))
        if s["current"] == "1"
    ]
    assert credited_b == credited_a


def test_a_restored_game_has_the_same_players_slips_corrections_rulings_and_standings() -> None:
    original = _simulated_event(players=5, seed=7)
    game_a = original.games.get()
    # An arbitrator's correction, made after the placement: the file carries its final values.
    ruling = Ruling.objects.filter(round__game=game_a, round__number=2).order_by("player__table").first()
    ruling_override(ruling=ruling, by=None, reason="slip misread", credited=ruling.credited + 3, warnings=1)
    Player.objects.filter(pk=ruling.player_id).update(licence="FR-123")
    data = exports.record_json(game_a)
    body = json.loads(data)
    assert len(body["players"]) == 5 and body["players"][0]["virtual_level"] is not None
    assert body["corrections"] == [
        {
            "round": 2,
            "table": ruling.player.table,
            "kind": "override",
            "reason": "slip misread",
            "credited": ruling.credited + 3,
            "warnings": 1,
            "penalty": ruling.penalty,
        }
    ]
    assert len(body["slips"]) == Slip.objects.filter(round__game=game_a, current=True).count()

    # An exported record hands out no table; a backup's keeps the table cards handed out,
    # for the spare laptop's event (a hall of 2,000 cannot print and hand them out again).
    assert not any("seat_code" in p for p in body["players"])
    backup = exports.record_json(game_a, seats=True)
    kept = _import(backup, restore=True)
    assert [p.seat_code for p in kept.players.order_by("table")] == [
        p.seat_code for p in original.players.order_by("table")
    ]
    copy = _import(data, restore=True)
    game_b = copy.games.get()
    assert (game_b.state, game_b.end_reason) == (game_a.state, game_a.end_reason)
    assert exports.record_json(game_b) == data
    assert exports.standings_csv(copy) == exports.standings_csv(original)
    fields = ("round", "table", "word", "credited", "ruling", "warnings", "penalty", "current", "late")
    rows_a = [tuple(r[f] for f in fields) for r in _csv_rows(exports.slips_csv(original, language="en"))]
    rows_b = [tuple(r[f] for f in fields) for r in _csv_rows(exports.slips_csv(copy, language="en"))]
    assert rows_b == [r for r in rows_a if r[fields.index("current")] == "1"]
    restored = Ruling.objects.get(round__game=game_b, round__number=2, player__table=ruling.player.table)
    assert (restored.overridden, restored.override_reason) == (True, "slip misread")
    assert HistoryEntry.objects.filter(event=copy, action="restore_game").count() == 1


def test_a_game_saved_in_progress_is_restored_and_goes_on(event: Event) -> None:
    alice = player_add(event=event, name="Alice", club="Vichy")
    game = game_start(event=event)
    first = _drawn(game)
    round_open(round=first)
    coordinates, word = first.tops[0].split()
    slip_submit(round=first, player=alice, coordinates=coordinates, word=word, announced_score=None)
    round_close(round=first)
    round_place(round=Round.objects.get(pk=first.pk))  # and draws round 2
    copy = _import(exports.record_json(game), restore=True)
    restored = copy.games.get()
    assert restored.state == Game.State.PLAYING
    ruling = Ruling.objects.get(round__game=restored)
    assert (ruling.credited, ruling.warnings) == (first.top_score, 1)  # no announced score: a warning
    second = _drawn(restored)
    assert second.rack == game.rounds.get(number=2).rack


def test_a_restore_needs_players_and_a_consistent_file(enable_lexicon: Lexicon) -> None:
    record = _solver_record(enable_lexicon)
    with pytest.raises(ApplicationError, match="has no players: import it as a master game"):
        _import(record, restore=True)
    base = record.to_dict()
    player = {"table": 1, "name": "Alice"}
    slip = {"round": 1, "table": 1, "coordinates": "8H", "word": "X", "announced": None, "source": "phone"}
    bad = [
        ({"players": [player, player]}, "a table appears twice"),
        ({"players": [{"table": "1", "name": "A"}]}, "table must be int"),
        ({"players": [{"name": "A"}]}, "table is missing"),
        ({"players": "Alice"}, "must be a list of objects"),
        ({"players": [player], "slips": [{**slip, "table": 2}]}, "no player at table 2"),
        ({"players": [player], "slips": [{**slip, "round": 99}]}, "the record has no round 99"),
        ({"players": [player], "slips": [slip, slip]}, "twice for the same table and round"),
        ({"players": [player], "slips": [{**slip, "source": "pigeon"}]}, "unknown source"),
        ({"players": [player], "slips": [{**slip, "late": 1}]}, "late must be bool"),
        (
            {
                "players": [player],
                "corrections": [{"round": 1, "table": 1, "kind": "override", "reason": "x"}],
            },
            "an override needs the credited score",
        ),
        (
            {"players": [player], "corrections": [{"round": 1, "table": 1, "kind": "gift", "reason": "x"}]},
            "unknown kind",
        ),
    ]
    for extra, message in bad:
        with pytest.raises(ApplicationError, match=message):
            transfer.read_game_file(json.dumps({**base, **extra}).encode())
    assert not Event.objects.exists()


def test_a_game_file_carries_how_its_slips_were_written_and_ruled() -> None:
    original = _simulated_event(players=2, seed=5)
    Event.objects.filter(pk=original.pk).update(mode="nostrict", solo_bonus=7, round_seconds=200)
    data = exports.record_json(Event.objects.get(pk=original.pk).games.get())
    assert json.loads(data)["settings"]["solo_bonus"] == 7
    with pytest.raises(ApplicationError, match=r"keeps the settings .* ruled with: mode"):
        _import(data, restore=True, mode="tournament")
    restored = _import(data, restore=True, round_seconds=90)
    assert (restored.mode, restored.solo_bonus, restored.notation, restored.round_seconds) == (
        "nostrict",
        7,
        "gcg",
        90,
    )
    master = _import(data, mode="tournament")  # a master game: the file's settings are defaults
    assert (master.mode, master.solo_bonus, master.round_seconds) == ("tournament", 7, 200)
    bad = {**json.loads(data), "settings": {"board": "large"}}
    with pytest.raises(ApplicationError, match="unknown settings: board"):
        transfer.read_game_file(json.dumps(bad))


# ------------------------------------------------------------------ a record from elsewhere


def test_a_record_written_by_the_solver_is_played_round_by_round(enable_lexicon: Lexicon) -> None:
    record = _solver_record(enable_lexicon)
    event = _import(record, mode="tournament", round_seconds=120)
    assert (event.board, event.language, event.lexicon.pk, event.round_seconds) == (
        "standard",
        "english",
        enable_lexicon.pk,
        120,
    )
    entry = HistoryEntry.objects.get(event=event, action="import_master")
    assert entry.new["rounds"] == len(record.rounds) and entry.new["top_total"] == record.top_total
    player_add(event=event, name="Alice")
    game = game_start(event=event)
    for planned in record.rounds[:3]:
        round = _drawn(game)
        assert (round.reliquat, round.new_tiles) == (planned.reliquat, planned.new)
        # The solver here finds the same tops as the record's solver, and the recorded
        # move is the one placed.
        assert (round.move_count, round.top_score, tuple(round.tops)) == (
            planned.moves,
            planned.top_score,
            planned.tops,
        )
        assert (round.chosen, round.chosen_score) == (planned.played, planned.score)
        round_open(round=round)
        round_close(round=round)
        round.refresh_from_db()
        assert round_place(round=round, draw_next=False) is None


def test_a_master_round_refuses_a_typed_rack_and_another_move(enable_lexicon: Lexicon) -> None:
    record = _solver_record(enable_lexicon)
    event = _import(record)
    player_add(event=event, name="Alice")
    game = game_start(event=event)
    with pytest.raises(ApplicationError, match="takes its rack from the record"):
        round_draw(game=game, typed=record.rounds[0].rack)
    assert not game.rounds.exists()
    round = _drawn(game)
    round_open(round=round)
    round_close(round=round)
    round.refresh_from_db()
    others = [t for t in round.tops if t != record.rounds[0].played]
    if others:  # another top (the other direction or place) is refused too
        with pytest.raises(ApplicationError, match="places the recorded move"):
            top_choose(round=round, move_text=others[0])
    round.refresh_from_db()
    assert round.chosen == record.rounds[0].played
    top_choose(round=round, move_text=record.rounds[0].played)  # the recorded one is fine


def test_after_the_records_rounds_the_game_goes_on_with_its_seed(enable_lexicon: Lexicon) -> None:
    full = _solver_record(enable_lexicon)
    short = GameRecord(full.config, full.rounds[:2], end="stopped")
    event = _import(short)
    player_add(event=event, name="Alice")
    game = game_start(event=event)
    for _ in range(3):
        round = _drawn(game)
        round_open(round=round)
        round_close(round=round)
        round.refresh_from_db()
        round_place(round=round, draw_next=False)
    third = game.rounds.get(number=3)
    # The seed's own third rack, as in the full game, once the second top is placed.
    assert (third.reliquat, third.new_tiles) == (full.rounds[2].reliquat, full.rounds[2].new)
    assert third.chosen == third.tops[0]  # no recorded move: the usual choice among the tops


def test_a_typed_rack_of_the_record_is_taken_from_the_bag_as_typed(enable_lexicon: Lexicon) -> None:
    """A round drawn by hand in the original event is a manual round of the record."""
    event = event_create(
        name="Hand drawn", starts_on=dt.date(2026, 11, 21), lexicon=enable_lexicon, language="english"
    )
    player_add(event=event, name="Alice")
    game = game_start(event=event)
    round = round_draw(game=game, typed="AEINRST")
    assert round is not None and round.manual
    round_open(round=round)
    round_close(round=round)
    round.refresh_from_db()
    round_place(round=round, draw_next=False)
    round.refresh_from_db()
    copy = _import(exports.record_json(game))
    player_add(event=copy, name="Bob")
    replayed = _drawn(game_start(event=copy))
    assert (replayed.manual, replayed.rack, replayed.chosen) == (True, "AEINRST", round.chosen)


def test_the_second_game_of_a_master_event_is_an_ordinary_game(enable_lexicon: Lexicon) -> None:
    event = _import(_solver_record(enable_lexicon))
    player_add(event=event, name="Alice")
    first = game_start(event=event)
    game_end(game=first, reason="stopped")
    second = game_start(event=event)
    assert second.master is None and second.seed == event.random_seed * 1000 + 2


def test_game_start_reads_the_settings_under_its_lock_not_the_callers_copy(enable_lexicon: Lexicon) -> None:
    event = _import(_solver_record(enable_lexicon, seed=6))
    stale = Event.objects.get(pk=event.pk)
    event_update(event=event, bingo_bonus=40)  # committed after the caller read the event
    with pytest.raises(ApplicationError, match=r"bingo_bonus \(50 / 40\)"):
        game_start(event=stale)


def test_the_master_move_is_scored_on_this_board_not_copied_from_the_file(enable_lexicon: Lexicon) -> None:
    record = _solver_record(enable_lexicon)
    data = record.to_dict()
    data["rounds"][0]["score"] += 5  # a file that lies about the score does not replay
    data["top_total"] += 5
    with pytest.raises(ApplicationError, match="does not replay: round 1"):
        _import(json.dumps(data).encode())
    event = _import(record)
    player_add(event=event, name="Alice")
    round = _drawn(game_start(event=event))
    assert round.chosen_score == record.rounds[0].score == round.top_score


def test_a_game_ended_with_no_move_on_a_typed_rack_round_trips(enable_lexicon: Lexicon) -> None:
    no_minimums = {"early_vowels": 0, "early_consonants": 0, "late_vowels": 0, "late_consonants": 0}
    event = event_create(
        name="Typed",
        starts_on=dt.date(2026, 11, 21),
        lexicon=enable_lexicon,
        language="english",
        **no_minimums,
    )
    player_add(event=event, name="Alice")
    game = game_start(event=event)
    first = round_draw(game=game, typed="PFFTQZJ")
    assert first is not None
    _play_out(first)
    last = round_draw(game=game, typed="QZJXKVV")
    assert last is not None
    with pytest.raises(ApplicationError, match="the draw rule does not end the game"):
        game_end(game=game, reason="draw_rule")
    game = game_end(game=game, reason="no_move")
    data = exports.record_json(game)
    assert json.loads(data)["final"] == {"reliquat": "JQZ", "new": "XKVV", "rejected": [], "manual": True}
    restored = _import(data, restore=True)
    assert exports.record_json(restored.games.get()) == data
    master = _import(data)
    player_add(event=master, name="Bob")
    replay_game = game_start(event=master)
    _play_out(_drawn(replay_game))
    final = _drawn(replay_game)  # the recorded rack that had no move, typed as it was
    assert (final.manual, final.rack, final.tops) == (True, "JQZXKVV", [])


# ------------------------------------------------------------------ refusals


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"\xff\xfe not text", "not UTF-8"),
        (b"{ no json", "not JSON"),
        (b'{"format": "other"}', "cannot be read: not an Arbiter game record"),
        (b'{"format": "arbiter-game/1", "config": {}, "rounds": "x"}', "list of rounds"),
    ],
)
def test_a_file_that_is_not_a_game_record_is_refused(data: bytes, message: str) -> None:
    with pytest.raises(ApplicationError, match=message):
        transfer.read_game_file(data)


def test_a_record_that_does_not_replay_is_refused_naming_the_round(enable_lexicon: Lexicon) -> None:
    data = _solver_record(enable_lexicon).to_dict()
    data["rounds"][2]["score"] += 1
    data["top_total"] += 1
    with pytest.raises(ApplicationError, match=r"does not replay: round 3: .* scores"):
        _import(json.dumps(data).encode())
    data = _solver_record(enable_lexicon).to_dict()
    data["rounds"][1]["new"] = "ZZZZZZZ"
    with pytest.raises(ApplicationError, match="does not replay: round 2: the seed draws"):
        _import(json.dumps(data).encode())
    assert not Event.objects.exists()


def test_a_record_of_an_unknown_word_list_or_with_its_settings_given_is_refused(
    enable_lexicon: Lexicon,
) -> None:
    record = _solver_record(enable_lexicon)
    other = GameRecord(
        GameConfig(**{**record.config.to_dict(), "lexicon": "ods", "lexicon_checksum": "ab" * 32}),
        record.rounds,
    )
    with pytest.raises(ApplicationError, match=r"word list ods .* import that list first"):
        _import(other)
    with pytest.raises(ApplicationError, match="come from the game record: board"):
        _import(record, board="large")
    with pytest.raises(ApplicationError, match="no round"):
        _import(GameRecord(record.config, []))
    assert not Event.objects.exists()


def test_a_record_without_checksum_finds_the_bundled_list(enable_lexicon: Lexicon) -> None:
    record = _solver_record(enable_lexicon)
    data = record.to_dict()
    data["config"]["lexicon_checksum"] = ""
    event = _import(json.dumps(data).encode())
    assert event.lexicon.pk == enable_lexicon.pk
    # The stored record is the replayed one: the checksum is filled in.
    assert event.masters[0]["config"]["lexicon_checksum"] == enable_lexicon.checksum


def test_settings_changed_after_the_import_stop_the_master_game(enable_lexicon: Lexicon) -> None:
    event = _import(_solver_record(enable_lexicon))
    event_update(event=event, bingo_bonus=40)
    with pytest.raises(ApplicationError, match=r"other settings \(record / event\): bingo_bonus \(50 / 40\)"):
        game_start(event=Event.objects.get(pk=event.pk))
    assert not Game.objects.filter(event=event).exists()


def test_odd_files_are_refused_with_a_reason(enable_lexicon: Lexicon, monkeypatch) -> None:
    for data in (b"[" * 100_000, b'{"seed": 1' + b"1" * 5000 + b"}"):
        with pytest.raises(ApplicationError, match="not JSON"):
            transfer.read_game_file(data)
    huge = simulate(GameConfig(lexicon="enable", seed=2**64), lexicon=lexmod.load_bundled("enable"))
    with pytest.raises(ApplicationError, match="seed is out of range"):
        _import(json.dumps(huge.to_dict()).encode())
    monkeypatch.setattr(transfer, "MAX_FILE_BYTES", 100)
    with pytest.raises(ApplicationError, match="too large"):
        transfer.read_game_file(
            exports_bytes := json.dumps(_solver_record(enable_lexicon).to_dict()).encode()
        )
    assert len(exports_bytes) > 100 and not Event.objects.exists()
