"""Slips handed in (tournaments.services.slips): before the open, twice, after the deadline
or the close, from another event, in strict mode."""

from __future__ import annotations

import datetime as dt

import pytest

from tests.tournaments.helpers import draw_and_open as _open_round
from tournaments.core import ApplicationError
from tournaments.models import Event, Game, HistoryEntry, Lexicon, Player, Ruling, Slip
from tournaments.services.events import event_create
from tournaments.services.games import game_start, round_draw
from tournaments.services.players import player_add
from tournaments.services.rounds import round_close, round_open, round_place
from tournaments.services.rulings import RULE_AGAIN_QUIET, round_adjudicate
from tournaments.services.slips import SECOND_CORRECTION, SECOND_SLIP, paper_slip_submit, slip_submit

pytestmark = pytest.mark.django_db


def test_a_slip_before_the_open_is_refused(game: Game, players: list[Player]) -> None:
    round = round_draw(game=game)
    assert round is not None
    with pytest.raises(ApplicationError, match="not open yet"):
        slip_submit(round=round, player=players[0], coordinates="8D", word="X", announced_score=1)


def test_the_same_client_id_twice_is_one_slip(game: Game, players: list[Player]) -> None:
    round = _open_round(game)
    first = slip_submit(
        round=round, player=players[0], coordinates="8D", word="A", announced_score=1, client_id="abc"
    )
    again = slip_submit(
        round=round, player=players[0], coordinates="8D", word="A", announced_score=1, client_id="abc"
    )
    assert first.created and not again.created and again.slip.pk == first.slip.pk
    assert Slip.objects.filter(round=round).count() == 1


def test_the_last_slip_before_the_deadline_counts(game: Game, players: list[Player]) -> None:
    round = _open_round(game)
    p = players[0]
    slip_submit(round=round, player=p, coordinates="8D", word="AAA", announced_score=1)
    slip_submit(
        round=round,
        player=p,
        coordinates=round.tops[0].split()[0],
        word=round.tops[0].split()[1],
        announced_score=round.top_score,
    )
    assert [s.current for s in Slip.objects.filter(round=round, player=p)] == [False, True]
    round_close(round=round)
    ruling = Ruling.objects.get(round=round, player=p)
    assert ruling.credited == round.top_score and ruling.is_top


def test_a_slip_after_the_deadline_is_kept_and_ruled_zero(game: Game, players: list[Player]) -> None:
    round = _open_round(game)
    p = players[0]
    top_coords, top_word = round.tops[0].split()
    slip_submit(round=round, player=p, coordinates=top_coords, word=top_word, announced_score=round.top_score)
    late = slip_submit(
        round=round,
        player=p,
        coordinates=top_coords,
        word=top_word,
        announced_score=round.top_score,
        now=round.deadline + dt.timedelta(seconds=1),
    )
    assert late.slip.late and not late.slip.current
    round_close(round=round)
    ruling = Ruling.objects.get(round=round, player=p)
    assert ruling.credited == round.top_score  # the slip before the deadline still counts
    assert Slip.objects.filter(round=round, player=p).count() == 2


def test_a_slip_after_the_close_only_is_late_and_zero(game: Game, players: list[Player]) -> None:
    round = _open_round(game)
    round_close(round=round)
    top_coords, top_word = round.tops[0].split()
    result = slip_submit(
        round=round, player=players[1], coordinates=top_coords, word=top_word, announced_score=round.top_score
    )
    assert result.slip.late
    round_adjudicate(round_id=round.pk)
    ruling = Ruling.objects.get(round=round, player=players[1])
    assert ruling.credited == 0 and ruling.reason == "late"


def test_a_player_of_another_event_cannot_submit(game: Game, enable_lexicon: Lexicon) -> None:
    other = event_create(name="Other", starts_on=dt.date(2026, 1, 1), lexicon=enable_lexicon)
    stranger = player_add(event=other, name="Stranger")
    round = _open_round(game)
    with pytest.raises(ApplicationError, match="not in this event"):
        slip_submit(round=round, player=stranger, coordinates="8D", word="A", announced_score=1)


def test_strict_mode_refuses_a_word_not_in_the_lexicon_and_nostrict_flags_it(
    event: Event, game: Game, players: list[Player]
) -> None:
    round = _open_round(game)
    Event.objects.filter(pk=event.pk).update(mode=Event.Mode.STRICT)
    round.refresh_from_db()
    coords = round.tops[0].split()[0]
    bogus = "Q" * len(round.tops[0].split()[1])
    with pytest.raises(ApplicationError):
        slip_submit(round=round, player=players[0], coordinates=coords, word=bogus, announced_score=0)
    assert not Slip.objects.filter(round=round).exists()
    Event.objects.filter(pk=event.pk).update(mode=Event.Mode.NOSTRICT)
    round.refresh_from_db()
    rack = round.rack
    result = slip_submit(round=round, player=players[0], coordinates="8D", word=rack[:2], announced_score=0)
    if result.invalid_words:
        assert rack[:2] in result.invalid_words


@pytest.mark.parametrize("score", [-1, 10_000, 2_147_483_648])
def test_an_absurd_announced_score_is_refused(event: Event, score: int) -> None:
    player = player_add(event=event, name="Anne")
    game = game_start(event=event)
    round = round_draw(game=game)
    assert round is not None
    round = round_open(round=round)
    with pytest.raises(ApplicationError, match="between 0 and 9999"):
        slip_submit(round=round, player=player, coordinates="8D", word="AB", announced_score=score)


def test_a_replaced_slip_has_its_history_entry(event: Event) -> None:
    player = player_add(event=event, name="Anne")
    game = game_start(event=event)
    round = round_draw(game=game)
    assert round is not None
    round = round_open(round=round)
    first = slip_submit(round=round, player=player, coordinates="8D", word="AB", announced_score=2).slip
    slip_submit(round=round, player=player, coordinates="8E", word="AB", announced_score=2)
    entry = HistoryEntry.objects.get(entity="slip", object_id=first.pk, action="replaced")
    assert entry.old == {"current": True} and entry.new == {"current": False}


# ------------------------------------------------------------------ several slips (docs/rules.md#slips)


def _paper(round, player, arbitrator, coords: str, word: str, **kwargs):
    return paper_slip_submit(
        round=round,
        player=player,
        coordinates=coords,
        word=word,
        announced_score=None,
        by=arbitrator,
        **kwargs,
    )


def test_a_second_paper_slip_must_say_what_it_is(game: Game, players: list[Player], arbitrator) -> None:
    round = _open_round(game)
    top_coords, top_word = round.tops[0].split()
    _paper(round, players[0], arbitrator, top_coords, top_word)
    with pytest.raises(ApplicationError, match="table 1 already has a slip for this round") as refused:
        _paper(round, players[0], arbitrator, "8D", "AAA")
    assert refused.value.extra == {"reason": "second_slip"}
    assert Slip.objects.filter(round=round).count() == 1  # nothing stored for the refused one


def test_a_corrected_typing_mistake_replaces_the_first(game: Game, players: list[Player], arbitrator) -> None:
    round = _open_round(game)
    top_coords, top_word = round.tops[0].split()
    first = _paper(round, players[0], arbitrator, "8D", "AAA").slip
    _paper(round, players[0], arbitrator, top_coords, top_word, second=SECOND_CORRECTION)
    first.refresh_from_db()
    assert not first.current
    entry = HistoryEntry.objects.get(entity="slip", object_id=first.pk, action="replaced")
    assert entry.reason == "the arbitrator corrected a typing mistake"
    round_close(round=round)
    assert Ruling.objects.get(round=round, player=players[0]).is_top


def test_a_second_slip_handed_in_voids_the_round(game: Game, players: list[Player], arbitrator) -> None:
    round = _open_round(game)
    top_coords, top_word = round.tops[0].split()
    first = _paper(round, players[0], arbitrator, top_coords, top_word).slip
    second = _paper(round, players[0], arbitrator, top_coords, top_word, second=SECOND_SLIP).slip
    first.refresh_from_db()
    assert first.current and second.current  # both kept: two slips handed in
    assert HistoryEntry.objects.filter(entity="slip", object_id=second.pk, action="second_slip").exists()
    round_close(round=round)
    ruling = Ruling.objects.get(round=round, player=players[0])
    assert (ruling.reason, ruling.credited, ruling.is_top) == ("several_slips", 0, False)
    assert ruling.slip_id == second.pk
    assert ruling.notes == [{"code": "several_slips", "params": {"count": 2}}]


def test_the_last_paper_slip_counts_when_several_are_not_void(
    event: Event, players: list[Player], arbitrator
) -> None:
    Event.objects.filter(pk=event.pk).update(several_slips_void=False)
    round = _open_round(game_start(event=event))
    top_coords, top_word = round.tops[0].split()
    _paper(round, players[0], arbitrator, "8D", "AAA")
    _paper(round, players[0], arbitrator, top_coords, top_word)  # no question asked
    round_close(round=round)
    assert Ruling.objects.get(round=round, player=players[0]).is_top


def test_a_phone_may_not_replace_its_slip_when_the_event_says_so(event: Event, players: list[Player]) -> None:
    Event.objects.filter(pk=event.pk).update(phone_replace=False)
    round = _open_round(game_start(event=event))
    slip_submit(round=round, player=players[0], coordinates="8D", word="AAA", announced_score=1)
    with pytest.raises(ApplicationError, match="already handed in") as refused:
        slip_submit(round=round, player=players[0], coordinates="8D", word="BBB", announced_score=1)
    assert refused.value.extra == {"reason": "slip_handed_in"}
    assert [s.word for s in Slip.objects.filter(round=round)] == ["AAA"]


def test_nostrict_refuses_an_illegal_move_and_flags_a_word_not_in_the_list(
    event: Event, players: list[Player]
) -> None:
    Event.objects.filter(pk=event.pk).update(mode=Event.Mode.NOSTRICT)
    round = _open_round(game_start(event=event))
    top_coords, top_word = round.tops[0].split()
    # Letters the rack does not hold: an illegal move is refused at submission.
    assert "?" not in round.rack
    absent = next(ch for ch in "QZXJKWVY" if ch not in round.rack)
    with pytest.raises(ApplicationError) as refused:
        slip_submit(
            round=round, player=players[0], coordinates=top_coords, word=absent * 3, announced_score=1
        )
    assert refused.value.extra["reason"] == "illegal"
    assert not Slip.objects.filter(round=round).exists()
    # A word not in the list is accepted and flagged.
    unlisted = top_word[::-1] if top_word[::-1] != top_word else top_word[1:] + top_word[0]
    result = slip_submit(
        round=round, player=players[0], coordinates=top_coords, word=unlisted, announced_score=1
    )
    assert result.invalid_words == [unlisted.upper()]


def test_a_slip_that_reached_the_server_before_the_close_is_in_time_and_the_round_ruled_again(
    game: Game, players: list[Player]
) -> None:
    # Under load a slip's request can wait behind the arbitrator's close for the round's
    # lock: it reached the server in time, so it is ruled with the others (the hall
    # benchmark saw 162 of 1,000 such slips ruled late).
    round = _open_round(game)
    sent_at = round.deadline - dt.timedelta(seconds=1)
    round_close(round=round, now=round.deadline)
    round.refresh_from_db()
    assert round.state == "adjudicated"
    top_coords, top_word = round.tops[0].split()
    result = slip_submit(
        round=round,
        player=players[1],
        coordinates=top_coords,
        word=top_word,
        announced_score=round.top_score,
        now=sent_at,
    )
    assert not result.slip.late and result.slip.current and result.slip.received_at == sent_at
    ruling = Ruling.objects.get(round=round, player=players[1])
    assert ruling.credited == round.top_score and ruling.reason == "ok"  # ruled again (eager task)
    round.refresh_from_db()
    assert round.state == "adjudicated"


def test_slips_queued_behind_the_close_rule_the_round_once_more_not_once_each(
    game: Game, players: list[Player], monkeypatch, django_capture_on_commit_callbacks
) -> None:
    # The close's ruling is still to come: it takes the round's lock before reading the
    # slips, so it sees these; nothing more is sent. Once ruled, one more slip sends one
    # ruling again (the benchmark saw 38 whole-round rulings at 500 phones, one per slip).
    from tournaments import queue, tasks

    round = _open_round(game)
    sent: list[int] = []
    delays: list[float | None] = []

    def send(task, *args, countdown=None) -> bool:
        sent.append(args[0])
        delays.append(countdown)
        calls.append((task, args))
        return True

    calls: list[tuple[object, tuple[object, ...]]] = []

    monkeypatch.setattr(queue, "send", send)
    sent_at = round.deadline - dt.timedelta(seconds=1)
    with django_capture_on_commit_callbacks(execute=True):
        round_close(round=round, now=round.deadline)
    assert sent == [round.pk]
    top_coords, top_word = round.tops[0].split()
    for player in players[:2]:
        with django_capture_on_commit_callbacks(execute=True):
            slip_submit(
                round=round,
                player=player,
                coordinates=top_coords,
                word=top_word,
                announced_score=round.top_score,
                now=sent_at,
            )
    assert sent == [round.pk]  # the close's ruling will see both
    round_adjudicate(round_id=round.pk)
    assert Ruling.objects.filter(round=round, credited=round.top_score).count() == 2
    with django_capture_on_commit_callbacks(execute=True):
        slip_submit(
            round=round,
            player=players[2],
            coordinates=top_coords,
            word=top_word,
            announced_score=round.top_score,
            now=sent_at,
        )
    round.refresh_from_db()
    assert sent == [round.pk, round.pk] and round.state == "closed"
    assert delays == [None, RULE_AGAIN_QUIET]  # the close's at once
    last = Slip.objects.filter(round=round).latest("pk")
    assert calls[-1] == (tasks.round_rule_when_quiet_task, (round.pk, last.pk, 0.0))


def test_a_slip_that_reached_the_server_after_the_close_or_the_deadline_is_late(
    game: Game, players: list[Player]
) -> None:
    round = _open_round(game)
    closed_at = round.deadline - dt.timedelta(seconds=30)  # closed early: every slip was in
    round_close(round=round, now=closed_at)
    top_coords, top_word = round.tops[0].split()
    after_close = slip_submit(
        round=round,
        player=players[1],
        coordinates=top_coords,
        word=top_word,
        announced_score=round.top_score,
        now=closed_at + dt.timedelta(seconds=1),
    )
    assert after_close.slip.late
    paper = paper_slip_submit(
        round=round,
        player=players[2],
        coordinates=top_coords,
        word=top_word,
        announced_score=round.top_score,
        by=None,
        now=closed_at - dt.timedelta(seconds=1),
    )
    assert paper.slip.late  # typing stops at the close, as before


# ------------------------------------------------------------------ a phone's slip that cannot be read


def _phone_slip(round, player, coordinates: str, word: str, **more):
    return slip_submit(
        round=round, player=player, coordinates=coordinates, word=word, announced_score=None, **more
    )


@pytest.mark.parametrize(
    ("coordinates", "word", "why"),
    [
        ("Z99", "POULE", "column Z"),  # no such square on a 15x15 board
        ("8P", "POULE", "column P"),  # off the board
        ("", "POULE", "coordinates"),  # none at all
        ("8H", "P0ULE", "0"),  # a character no tile carries
        ("8H", "P?ULE", "?"),  # a blank is written as its letter, lower case
    ],
)
def test_a_phone_slip_that_cannot_be_read_is_refused_in_every_mode(
    game: Game, players: list[Player], coordinates: str, word: str, why: str
) -> None:
    first = _open_round(game)
    round_close(round=first)
    round_place(round=first.__class__.objects.get(pk=first.pk), draw_next=False)
    round = round_open(round=round_draw(game=game))  # round 2: the board has a word
    for mode in (Event.Mode.TOURNAMENT, Event.Mode.NOSTRICT):
        Event.objects.filter(pk=game.event_id).update(mode=mode)
        round = round.__class__.objects.select_related("game__event").get(pk=round.pk)
        with pytest.raises(ApplicationError) as refused:
            _phone_slip(round, players[0], coordinates, word, client_id=f"c-{mode}")
        assert refused.value.extra == {"reason": "unreadable"}
        assert why in refused.value.message and "write it again" in refused.value.message
    assert not Slip.objects.filter(round=round).exists()


def test_a_readable_slip_is_taken_whatever_it_is_worth_and_paper_as_written(
    game: Game, players: list[Player], arbitrator
) -> None:
    first = _open_round(game)
    round_close(round=first)
    round_place(round=first.__class__.objects.get(pk=first.pk), draw_next=False)
    round = round_open(round=round_draw(game=game))
    # Wrong, but readable: judged at the close (nothing said about its worth now). Accents
    # are read as the letters (French players write them).
    assert _phone_slip(round, players[0], "8H", "ZZZÉ").created
    assert _phone_slip(round, players[1], "A1", "QUIXOTE").created
    # The arbitrator types a paper slip as the player wrote it: it is ruled unreadable.
    paper = paper_slip_submit(
        round=round, player=players[2], coordinates="Z99", word="POULE", announced_score=None, by=arbitrator
    )
    assert paper.created
    round_close(round=round)
    assert Ruling.objects.get(round=round, player=players[2]).reason == "unreadable"


def test_the_first_slip_of_a_game_needs_no_coordinates_under_the_best_placement_rule(
    game: Game, players: list[Player]
) -> None:
    round = _open_round(game)  # round 1: the word counts at its best placement (FISF 5.4.2.a)
    assert _phone_slip(round, players[0], "", round.tops[0].split()[1]).created
    with pytest.raises(ApplicationError):
        _phone_slip(round, players[1], "", "P0ULE")  # the word itself still has to be read
    Event.objects.filter(pk=game.event_id).update(first_slip_best_placement=False)
    round = round.__class__.objects.select_related("game__event").get(pk=round.pk)
    with pytest.raises(ApplicationError):
        _phone_slip(round, players[2], "", round.tops[0].split()[1])
