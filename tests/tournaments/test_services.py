"""The event flow's services, one behaviour per test, on the embedded database."""

from __future__ import annotations

import datetime as dt

import pytest
from django.contrib.auth import get_user_model
from django.db.models import Sum
from django.utils import timezone

from tournaments import services
from tournaments.models import Event, Game, HistoryEntry, Lexicon, Player, Round, Ruling, Slip
from tournaments.services import ApplicationError
from tournaments.standings import event_standings, game_standings, top_total

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def arbitrator():
    return get_user_model().objects.create_user("arbitre", password="x")


@pytest.fixture
def players(event: Event) -> list[Player]:
    return [services.player_add(event=event, name=f"Player {i}") for i in range(1, 5)]


@pytest.fixture
def game(event: Event, players: list[Player]) -> Game:
    return services.game_start(event=event)


def _open_round(game: Game) -> Round:
    round = services.round_draw(game=game)
    assert round is not None
    return services.round_open(round=round)


# ------------------------------------------------------------------ events and players


def test_event_create_stores_the_defaults_of_the_rules(enable_lexicon: Lexicon) -> None:
    event = services.event_create(name="E", starts_on=dt.date(2026, 1, 1), lexicon=enable_lexicon)
    assert (event.bingo_bonus, event.free_warnings, event.warning_penalty, event.solo_bonus) == (50, 3, 5, 10)
    assert (event.solo_min_players, event.early_rounds, event.mode, event.notation) == (
        16,
        15,
        "tournament",
        "fisf",
    )
    assert len(event.code) == 6


def test_event_create_refuses_unknown_or_impossible_settings(enable_lexicon: Lexicon) -> None:
    with pytest.raises(ApplicationError, match="unknown event settings: colour"):
        services.event_create(name="E", starts_on=dt.date(2026, 1, 1), lexicon=enable_lexicon, colour="red")
    with pytest.raises(ApplicationError, match="nosmooth"):
        services.event_create(name="E", starts_on=dt.date(2026, 1, 1), lexicon=enable_lexicon, smooth=False)
    with pytest.raises(ApplicationError, match="minimums"):
        services.event_create(
            name="E",
            starts_on=dt.date(2026, 1, 1),
            lexicon=enable_lexicon,
            early_vowels=5,
            early_consonants=5,
        )


def test_players_import_reads_a_csv_with_optional_columns(event: Event) -> None:
    created = services.players_import(
        event=event, csv_text="name;club;category;table\nAnne Martin;Paris;A;4\nBruno Petit;Lyon;B;\n"
    )
    assert [(p.name, p.club, p.category, p.table) for p in created] == [
        ("Anne Martin", "Paris", "A", 4),
        ("Bruno Petit", "Lyon", "B", 5),
    ]


def test_players_import_is_all_or_nothing_and_names_the_bad_line(event: Event) -> None:
    with pytest.raises(ApplicationError, match="line 3: table 1 already has a player"):
        services.players_import(event=event, csv_text="name,table\nAnne,1\nBruno,1\n")
    assert not event.players.exists()
    with pytest.raises(ApplicationError, match="'name' column"):
        services.players_import(event=event, csv_text="nom,club\nAnne,Paris\n")
    with pytest.raises(ApplicationError, match="line 2: table 'x' is not a number"):
        services.players_import(event=event, csv_text="name,table\nAnne,x\n")


def test_only_one_game_is_played_at_a_time(event: Event, players: list[Player]) -> None:
    first = services.game_start(event=event)
    with pytest.raises(ApplicationError, match="still being played"):
        services.game_start(event=event)
    services.game_end(game=first, reason="stopped")
    assert services.game_start(event=event).number == 2


# ------------------------------------------------------------------ draws


def test_random_draws_follow_the_event_seed(event: Event, game: Game, enable_lexicon: Lexicon) -> None:
    twin = services.event_create(
        name="Twin", starts_on=event.starts_on, lexicon=enable_lexicon, random_seed=7, language="english"
    )
    services.player_add(event=twin, name="Solo")
    twin_game = services.game_start(event=twin)
    a = services.round_draw(game=game)
    b = services.round_draw(game=twin_game)
    assert a is not None and b is not None and a.rack == b.rack


def test_a_drawn_round_is_solved_by_the_task(game: Game) -> None:
    round = services.round_draw(game=game)
    assert round is not None
    round.refresh_from_db()
    assert round.solved_at is not None and round.move_count and round.top_score and round.tops


def test_a_typed_rack_is_checked_against_the_bag(game: Game) -> None:
    with pytest.raises(ApplicationError, match=r"^there is no second Z in the bag$"):
        services.round_draw(game=game, typed="ZZAEIRT")
    assert not game.rounds.exists()
    with pytest.raises(ApplicationError, match="at least 2 vowels"):
        services.round_draw(game=game, typed="BCDFGHA")
    round = services.round_draw(game=game, typed="aeirstn")
    assert round is not None and round.manual and round.rack == "AEIRSTN"


def test_the_next_rack_waits_for_the_placement(game: Game) -> None:
    services.round_draw(game=game)
    with pytest.raises(ApplicationError, match="round 1 is not placed yet"):
        services.round_draw(game=game)


# ------------------------------------------------------------------ slips


def test_a_slip_before_the_open_is_refused(game: Game, players: list[Player]) -> None:
    round = services.round_draw(game=game)
    assert round is not None
    with pytest.raises(ApplicationError, match="not open yet"):
        services.slip_submit(round=round, player=players[0], coordinates="8D", word="X", announced_score=1)


def test_the_same_client_id_twice_is_one_slip(game: Game, players: list[Player]) -> None:
    round = _open_round(game)
    first = services.slip_submit(
        round=round, player=players[0], coordinates="8D", word="A", announced_score=1, client_id="abc"
    )
    again = services.slip_submit(
        round=round, player=players[0], coordinates="8D", word="A", announced_score=1, client_id="abc"
    )
    assert first.created and not again.created and again.slip.pk == first.slip.pk
    assert Slip.objects.filter(round=round).count() == 1


def test_the_last_slip_before_the_deadline_counts(game: Game, players: list[Player]) -> None:
    round = _open_round(game)
    p = players[0]
    services.slip_submit(round=round, player=p, coordinates="8D", word="AAA", announced_score=1)
    services.slip_submit(
        round=round,
        player=p,
        coordinates=round.tops[0].split()[0],
        word=round.tops[0].split()[1],
        announced_score=round.top_score,
    )
    assert [s.current for s in Slip.objects.filter(round=round, player=p)] == [False, True]
    services.round_close(round=round)
    ruling = Ruling.objects.get(round=round, player=p)
    assert ruling.credited == round.top_score and ruling.is_top


def test_a_slip_after_the_deadline_is_kept_and_ruled_zero(game: Game, players: list[Player]) -> None:
    round = _open_round(game)
    p = players[0]
    top_coords, top_word = round.tops[0].split()
    services.slip_submit(
        round=round, player=p, coordinates=top_coords, word=top_word, announced_score=round.top_score
    )
    late = services.slip_submit(
        round=round,
        player=p,
        coordinates=top_coords,
        word=top_word,
        announced_score=round.top_score,
        now=round.deadline + dt.timedelta(seconds=1),
    )
    assert late.slip.late and not late.slip.current
    services.round_close(round=round)
    ruling = Ruling.objects.get(round=round, player=p)
    assert ruling.credited == round.top_score  # the slip before the deadline still counts
    assert Slip.objects.filter(round=round, player=p).count() == 2


def test_a_slip_after_the_close_only_is_late_and_zero(game: Game, players: list[Player]) -> None:
    round = _open_round(game)
    services.round_close(round=round)
    top_coords, top_word = round.tops[0].split()
    result = services.slip_submit(
        round=round, player=players[1], coordinates=top_coords, word=top_word, announced_score=round.top_score
    )
    assert result.slip.late
    services.round_adjudicate(round_id=round.pk)
    ruling = Ruling.objects.get(round=round, player=players[1])
    assert ruling.credited == 0 and ruling.reason == "late"


def test_a_player_of_another_event_cannot_submit(game: Game, enable_lexicon: Lexicon) -> None:
    other = services.event_create(name="Other", starts_on=dt.date(2026, 1, 1), lexicon=enable_lexicon)
    stranger = services.player_add(event=other, name="Stranger")
    round = _open_round(game)
    with pytest.raises(ApplicationError, match="not in this event"):
        services.slip_submit(round=round, player=stranger, coordinates="8D", word="A", announced_score=1)


def test_strict_mode_refuses_a_word_not_in_the_lexicon_and_nostrict_flags_it(
    event: Event, game: Game, players: list[Player]
) -> None:
    round = _open_round(game)
    Event.objects.filter(pk=event.pk).update(mode=Event.Mode.STRICT)
    round.refresh_from_db()
    coords = round.tops[0].split()[0]
    bogus = "Q" * len(round.tops[0].split()[1])
    with pytest.raises(ApplicationError):
        services.slip_submit(
            round=round, player=players[0], coordinates=coords, word=bogus, announced_score=0
        )
    assert not Slip.objects.filter(round=round).exists()
    Event.objects.filter(pk=event.pk).update(mode=Event.Mode.NOSTRICT)
    round.refresh_from_db()
    rack = round.rack
    result = services.slip_submit(
        round=round, player=players[0], coordinates="8D", word=rack[:2], announced_score=0
    )
    if result.invalid_words:
        assert rack[:2] in result.invalid_words


# ------------------------------------------------------------------ close, adjudicate, choose, place


def test_close_adjudicates_every_player_missing_slips_included(game: Game, players: list[Player]) -> None:
    round = _open_round(game)
    services.round_close(round=round)
    round.refresh_from_db()
    assert round.state == Round.State.ADJUDICATED
    rulings = Ruling.objects.filter(round=round)
    assert rulings.count() == len(players)
    assert {r.reason for r in rulings} == {"missing"} and {r.credited for r in rulings} == {0}


def test_adjudication_twice_gives_the_same_rulings_and_keeps_overrides(
    game: Game, players: list[Player], arbitrator
) -> None:
    round = _open_round(game)
    top_coords, top_word = round.tops[0].split()
    services.slip_submit(
        round=round, player=players[0], coordinates=top_coords, word=top_word, announced_score=None
    )
    services.round_close(round=round)
    before = list(Ruling.objects.filter(round=round).values_list("player_id", "credited", "warnings"))
    overridden = services.ruling_override(
        ruling=Ruling.objects.get(round=round, player=players[1]),
        by=arbitrator,
        reason="slip found under the table",
        credited=12,
    )
    services.round_adjudicate(round_id=round.pk)
    after = dict(Ruling.objects.filter(round=round).values_list("player_id", "credited"))
    assert after[players[1].pk] == 12
    assert after[players[0].pk] == {p: c for p, c, _ in before}[players[0].pk]
    assert overridden.overridden


def test_a_missing_announced_score_is_a_warning_with_the_real_score(
    game: Game, players: list[Player]
) -> None:
    round = _open_round(game)
    top_coords, top_word = round.tops[0].split()
    services.slip_submit(
        round=round, player=players[0], coordinates=top_coords, word=top_word, announced_score=None
    )
    services.round_close(round=round)
    ruling = Ruling.objects.get(round=round, player=players[0])
    assert ruling.warnings == 1 and ruling.credited == round.top_score


def test_the_override_needs_a_reason_and_is_kept_in_the_history(
    game: Game, players: list[Player], arbitrator
) -> None:
    round = _open_round(game)
    services.round_close(round=round)
    ruling = Ruling.objects.get(round=round, player=players[0])
    with pytest.raises(ApplicationError, match="say why"):
        services.ruling_override(ruling=ruling, by=arbitrator, reason="  ", credited=10)
    services.ruling_override(ruling=ruling, by=arbitrator, reason="paper slip misread", credited=10)
    entry = HistoryEntry.objects.get(entity="ruling", object_id=ruling.pk, action="override")
    assert entry.actor_label == "arbitre" and entry.old["credited"] == 0 and entry.new["credited"] == 10
    assert entry.reason == "paper slip misread"


def test_choosing_a_lower_move_needs_a_confirmation(game: Game, players: list[Player]) -> None:
    round = _open_round(game)
    services.round_close(round=round)
    analysis = services.analysis_for(round)
    lower = next(m for m in analysis.ranked if (m.score or 0) < round.top_score)
    from solver.notation import format_move

    text = format_move(lower, "gcg")
    with pytest.raises(ApplicationError, match="confirm"):
        services.top_choose(round=round, move_text=text)
    choice = services.top_choose(round=round, move_text=text, confirm_lower=True)
    assert choice.warning and choice.round.chosen_score == lower.score
    with pytest.raises(ApplicationError):
        services.top_choose(round=round, move_text="8D QQQQ")


def test_placing_advances_the_board_and_draws_the_next_rack(game: Game, players: list[Player]) -> None:
    round = _open_round(game)
    services.round_close(round=round)
    round.refresh_from_db()
    next_round = services.round_place(round=round)
    round.refresh_from_db()
    assert round.state == Round.State.PLACED and round.chosen == round.tops[0]
    assert next_round is not None and next_round.number == 2
    from tournaments.state import rebuild

    board = rebuild(game).game.board
    assert board.tile_count() == sum(1 for ch in round.chosen.split()[1])


def test_history_entries_cannot_be_changed_or_deleted(game: Game) -> None:
    services.round_draw(game=game)
    entry = HistoryEntry.objects.filter(action="draw").first()
    assert entry is not None
    entry.reason = "edited"
    with pytest.raises(ValueError, match="never changed"):
        entry.save()
    with pytest.raises(ValueError, match="never deleted"):
        entry.delete()


# ------------------------------------------------------------------ a whole simulated event


def test_a_simulated_event_adds_up(capsys) -> None:
    import json

    from django.core.management import call_command

    call_command("simulate_event", "--players", "18", "--games", "2", "--seed", "7", "--json")
    out = json.loads(capsys.readouterr().out)
    event = Event.objects.get(pk=out["event_id"])
    assert len(out["games"]) == 2 and all(g["rounds"] for g in out["games"])
    for g in out["games"]:
        assert g["top_total"] == sum(r["top_score"] for r in g["rounds"])
        game = event.games.get(number=g["number"])
        assert top_total(game) == g["top_total"]
        for row in game_standings(game):
            credited = Ruling.objects.filter(round__game=game, player_id=row.player.id).aggregate(
                s=Sum("credited")
            )
            assert row.total == (credited["s"] or 0)
    rows = event_standings(event)
    assert rows[0].rank == 1 and rows[0].total == out["standings"][0]["total"]
    assert (
        sum(r.total for r in rows)
        == Ruling.objects.filter(round__game__event=event).aggregate(s=Sum("credited"))["s"]
    )
    assert out["standings"][0]["percent"] <= 100.0 + 1e-9 or any(r.solos for r in rows)
    assert timezone.now()


def test_solving_twice_changes_nothing(game: Game) -> None:
    round = services.round_draw(game=game)
    assert round is not None
    first = services.round_solve(round_id=round.pk)
    again = services.round_solve(round_id=round.pk)
    assert (again.solved_at, again.tops, again.move_count) == (first.solved_at, first.tops, first.move_count)


def test_a_re_adjudication_that_changes_a_ruling_is_in_the_history(game: Game, players: list[Player]) -> None:
    round = _open_round(game)
    top_coords, top_word = round.tops[0].split()
    services.slip_submit(
        round=round, player=players[0], coordinates=top_coords, word=top_word, announced_score=round.top_score
    )
    services.round_close(round=round)
    ruling = Ruling.objects.get(round=round, player=players[0])
    assert HistoryEntry.objects.filter(entity="ruling", object_id=ruling.pk, action="rule").count() == 1
    services.round_adjudicate(round_id=round.pk)  # nothing changed: no new entry
    assert not HistoryEntry.objects.filter(entity="ruling", object_id=ruling.pk, action="rerule").exists()
    # A late-found error in the data (announced score corrected in the slip) changes the ruling.
    Slip.objects.filter(pk=ruling.slip_id).update(announced_score=(round.top_score or 0) + 3)
    services.round_adjudicate(round_id=round.pk)
    entry = HistoryEntry.objects.get(entity="ruling", object_id=ruling.pk, action="rerule")
    assert entry.old["warnings"] == 0 and entry.new["warnings"] == 1


def test_an_override_keeps_the_adjudication_detail_beside_its_reason(
    game: Game, players: list[Player], arbitrator
) -> None:
    round = _open_round(game)
    services.slip_submit(round=round, player=players[0], coordinates="H4", word="ZZZ", announced_score=10)
    services.round_close(round=round)
    ruling = Ruling.objects.get(round=round, player=players[0])
    detail = ruling.detail
    assert detail
    ruling = services.ruling_override(
        ruling=ruling, by=arbitrator, reason="word accepted after check", credited=5
    )
    assert ruling.detail == detail and ruling.override_reason == "word accepted after check"


def test_slips_are_judged_with_the_events_notation(event: Event, game: Game) -> None:
    from tournaments.judging import judging_rules
    from tournaments.state import rebuild

    for notation in ("fisf", "gcg"):
        Event.objects.filter(pk=event.pk).update(notation=notation)
        event.refresh_from_db()
        assert judging_rules(rebuild(game), event).notation == notation


@pytest.mark.django_db(transaction=True)
def test_player_fields_longer_than_the_columns_are_refused(event) -> None:
    with pytest.raises(ApplicationError, match="too long"):
        services.player_add(event=event, name="x" * 121)
    with pytest.raises(ApplicationError, match="table number"):
        services.player_add(event=event, name="Anne", table=0)
    assert not event.players.exists()


@pytest.mark.django_db(transaction=True)
def test_a_round_cannot_open_for_no_time(event) -> None:
    services.player_add(event=event, name="Anne")
    game = services.game_start(event=event)
    round = services.round_draw(game=game)
    assert round is not None
    with pytest.raises(ApplicationError, match="at least one second"):
        services.round_open(round=round, seconds=0)
    round.refresh_from_db()
    assert round.state == "drawn"
