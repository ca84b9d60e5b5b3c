"""The rulings of a round: the adjudication at the close and a second run
(tournaments.services.rulings), the arbitrator's overrides and accepted shifted references
(tournaments.services.corrections)."""

from __future__ import annotations

import datetime as dt

import pytest

from scoring import adjudication as adj
from tests.tournaments.helpers import draw_and_open as _open_round
from tests.tournaments.helpers import open_round_with_a_shift
from tournaments.core import MAX_CREDITED, MAX_WARNINGS, ApplicationError
from tournaments.models import Event, Game, HistoryEntry, Lexicon, Player, Round, Ruling, Slip
from tournaments.services.corrections import (
    round_average,
    ruling_accept_shift,
    ruling_average,
    ruling_override,
)
from tournaments.services.events import event_create
from tournaments.services.games import game_start, round_draw
from tournaments.services.players import player_add, player_withdraw
from tournaments.services.rounds import round_close, round_open, round_place
from tournaments.services.rulings import RULE_AGAIN_QUIET, round_adjudicate
from tournaments.services.slips import late_reason, slip_submit

pytestmark = pytest.mark.django_db


# ------------------------------------------------------------------ the adjudication of a round


def test_close_adjudicates_every_player_missing_slips_included(game: Game, players: list[Player]) -> None:
    round = _open_round(game)
    round_close(round=round)
    round.refresh_from_db()
    assert round.state == Round.State.ADJUDICATED
    rulings = Ruling.objects.filter(round=round)
    assert rulings.count() == len(players)
    assert {r.reason for r in rulings} == {"missing"} and {r.credited for r in rulings} == {0}


def test_the_same_slips_are_judged_once_and_each_player_gets_the_same_ruling(hall, monkeypatch) -> None:
    # A hall hands in the same few moves: one judgement per distinct set of slips, and
    # the rulings are exactly what judging each player's slips alone gives.
    _event, players, game = hall
    round = _open_round(game)
    top_coords, top_word = round.tops[0].split()
    for player in players[:10]:
        slip_submit(
            round=round, player=player, coordinates=top_coords, word=top_word, announced_score=round.top_score
        )
    for player in players[10:14]:
        slip_submit(round=round, player=player, coordinates=top_coords, word="ZZZZZZZ", announced_score=1)
    calls: list[tuple] = []
    real = adj.adjudicate_slips

    def counted(board, rack, lexicon, rules, settings, slips):
        calls.append(tuple(slips))
        return real(board, rack, lexicon, rules, settings, slips)

    monkeypatch.setattr(adj, "adjudicate_slips", counted)
    round_close(round=round)
    assert len(calls) == 3 and len(set(calls)) == 3  # the top, ZZZZZZZ, and no slip (2 players)
    rulings = {r.player_id: r for r in Ruling.objects.filter(round=round)}
    assert {rulings[p.pk].credited for p in players[:10]} == {round.top_score}
    assert {rulings[p.pk].reason for p in players[10:14]} == {rulings[players[10].pk].reason} != {"ok"}
    assert {rulings[p.pk].reason for p in players[14:]} == {"missing"}


def test_a_missing_announced_score_is_a_warning_with_the_real_score(
    game: Game, players: list[Player]
) -> None:
    round = _open_round(game)
    top_coords, top_word = round.tops[0].split()
    slip_submit(round=round, player=players[0], coordinates=top_coords, word=top_word, announced_score=None)
    round_close(round=round)
    ruling = Ruling.objects.get(round=round, player=players[0])
    assert ruling.warnings == 1 and ruling.credited == round.top_score


def test_adjudication_twice_gives_the_same_rulings_and_keeps_overrides(
    game: Game, players: list[Player], arbitrator
) -> None:
    round = _open_round(game)
    top_coords, top_word = round.tops[0].split()
    slip_submit(round=round, player=players[0], coordinates=top_coords, word=top_word, announced_score=None)
    round_close(round=round)
    before = list(Ruling.objects.filter(round=round).values_list("player_id", "credited", "warnings"))
    overridden = ruling_override(
        ruling=Ruling.objects.get(round=round, player=players[1]),
        by=arbitrator,
        reason="slip found under the table",
        credited=12,
    )
    round_adjudicate(round_id=round.pk)
    after = dict(Ruling.objects.filter(round=round).values_list("player_id", "credited"))
    assert after[players[1].pk] == 12
    assert after[players[0].pk] == {p: c for p, c, _ in before}[players[0].pk]
    assert overridden.overridden


def test_a_re_adjudication_that_changes_a_ruling_is_in_the_history(game: Game, players: list[Player]) -> None:
    round = _open_round(game)
    top_coords, top_word = round.tops[0].split()
    slip_submit(
        round=round, player=players[0], coordinates=top_coords, word=top_word, announced_score=round.top_score
    )
    round_close(round=round)
    ruling = Ruling.objects.get(round=round, player=players[0])
    assert HistoryEntry.objects.filter(entity="ruling", object_id=ruling.pk, action="rule").count() == 1
    round_adjudicate(round_id=round.pk)  # nothing changed: no new entry
    assert not HistoryEntry.objects.filter(entity="ruling", object_id=ruling.pk, action="rerule").exists()
    # A late-found error in the data (announced score corrected in the slip) changes the ruling.
    Slip.objects.filter(pk=ruling.slip_id).update(announced_score=(round.top_score or 0) + 3)
    round_adjudicate(round_id=round.pk)
    entry = HistoryEntry.objects.get(entity="ruling", object_id=ruling.pk, action="rerule")
    assert entry.old["warnings"] == 0 and entry.new["warnings"] == 1


def test_an_adjudication_after_the_placement_changes_nothing(event: Event) -> None:
    player = player_add(event=event, name="Anne")
    game = game_start(event=event)
    round = round_draw(game=game)
    assert round is not None
    round = round_open(round=round)
    top_coords, top_word = round.tops[0].split()
    slip_submit(
        round=round, player=player, coordinates=top_coords, word=top_word, announced_score=round.top_score
    )
    round_close(round=round)
    round_place(round=Round.objects.get(pk=round.pk))
    before = list(Ruling.objects.filter(round=round).values())
    round_adjudicate(round_id=round.pk)  # a redelivered task
    assert list(Ruling.objects.filter(round=round).values()) == before


# ------------------------------------------------------------------ overrides


def test_the_override_needs_a_reason_and_is_kept_in_the_history(
    game: Game, players: list[Player], arbitrator
) -> None:
    round = _open_round(game)
    round_close(round=round)
    ruling = Ruling.objects.get(round=round, player=players[0])
    with pytest.raises(ApplicationError, match="say why"):
        ruling_override(ruling=ruling, by=arbitrator, reason="  ", credited=10)
    ruling_override(ruling=ruling, by=arbitrator, reason="paper slip misread", credited=10)
    entry = HistoryEntry.objects.get(entity="ruling", object_id=ruling.pk, action="override")
    assert entry.actor_label == "arbitre" and entry.old["credited"] == 0 and entry.new["credited"] == 10
    assert entry.reason == "paper slip misread"


def test_an_override_keeps_the_adjudication_detail_beside_its_reason(
    game: Game, players: list[Player], arbitrator
) -> None:
    round = _open_round(game)
    slip_submit(round=round, player=players[0], coordinates="H4", word="ZZZ", announced_score=10)
    round_close(round=round)
    ruling = Ruling.objects.get(round=round, player=players[0])
    detail = ruling.detail
    assert detail
    ruling = ruling_override(ruling=ruling, by=arbitrator, reason="word accepted after check", credited=5)
    assert ruling.detail == detail and ruling.override_reason == "word accepted after check"


def test_an_override_needs_the_credited_score(event: Event, arbitrator) -> None:
    player = player_add(event=event, name="Anne")
    game = game_start(event=event)
    round = round_draw(game=game)
    assert round is not None
    round_close(round=round_open(round=round))
    ruling = Ruling.objects.get(round=round, player=player)
    with pytest.raises(ApplicationError, match="give the credited score"):
        ruling_override(ruling=ruling, by=arbitrator, reason="x", penalty=7)


@pytest.mark.parametrize(
    ("changes", "refusal"),
    [
        ({"credited": 10**30}, "the points credited must be between -9999 and 9999"),
        ({"credited": -(10**30)}, "the points credited must be between -9999 and 9999"),
        ({"credited": MAX_CREDITED + 1}, "the points credited must be between"),
        ({"credited": 10, "warnings": 10**30}, "the warnings must be between 0 and 99"),
        ({"credited": 10, "warnings": MAX_WARNINGS + 1}, "the warnings must be between 0 and 99"),
        ({"credited": 10, "penalty": 10**30}, "the penalty must be between 0 and 9999"),
        ({"credited": 10, "penalty": 2**31}, "the penalty must be between 0 and 9999"),
    ],
)
def test_an_override_beyond_what_a_move_scores_is_refused_before_the_database(
    game: Game, players: list[Player], arbitrator, changes: dict[str, int], refusal: str
) -> None:
    round = _open_round(game)
    round_close(round=round)
    ruling = Ruling.objects.get(round=round, player=players[0])
    before = (ruling.credited, ruling.warnings, ruling.penalty)
    with pytest.raises(ApplicationError, match=refusal):
        ruling_override(ruling=ruling, by=arbitrator, reason="typed too much", **changes)
    ruling.refresh_from_db()
    assert (ruling.credited, ruling.warnings, ruling.penalty) == before and not ruling.overridden
    assert not HistoryEntry.objects.filter(entity="ruling", action="override").exists()


def test_an_override_at_the_bounds_is_stored(game: Game, players: list[Player], arbitrator) -> None:
    round = _open_round(game)
    round_close(round=round)
    ruling = Ruling.objects.get(round=round, player=players[0])
    ruling = ruling_override(
        ruling=ruling,
        by=arbitrator,
        reason="bounds",
        credited=-MAX_CREDITED,
        warnings=MAX_WARNINGS,
        penalty=MAX_CREDITED,
    )
    assert (ruling.warnings, ruling.penalty) == (MAX_WARNINGS, MAX_CREDITED)
    assert ruling.credited == -MAX_CREDITED, ruling.credited


# ------------------------------------------------------------------ shifted references


def test_an_accepted_shift_counts_as_a_top_and_takes_the_solo_away(hall, arbitrator) -> None:
    event, players, game = hall
    round, (coords, word, top) = open_round_with_a_shift(game)
    top_coords, top_word = top.split()
    slip_submit(
        round=round, player=players[0], coordinates=top_coords, word=top_word, announced_score=round.top_score
    )
    slip_submit(
        round=round, player=players[1], coordinates=coords, word=word, announced_score=round.top_score
    )
    for player in players[2:]:  # all 16 take part: a blank slip is handed in
        slip_submit(round=round, player=player, coordinates="", word="", announced_score=None)
    round_close(round=round)
    first, second = (Ruling.objects.get(round=round, player=p) for p in players[:2])
    assert first.solo and first.credited == round.top_score + event.solo_bonus
    assert second.credited == 0 and second.shift_candidate == top

    accepted = ruling_accept_shift(ruling=second, by=arbitrator, reason="reference one square off")
    first.refresh_from_db()
    assert accepted.is_top and accepted.move == top and accepted.reason == adj.Reason.SHIFT_ACCEPTED
    assert accepted.credited == round.top_score - event.shift_penalty
    assert accepted.penalty == event.shift_penalty
    assert not first.solo and first.credited == round.top_score
    entry = HistoryEntry.objects.get(entity="ruling", object_id=accepted.pk, action="accept_shift")
    assert (
        entry.old["credited"] == 0 and entry.new["move"] == top and entry.reason == "reference one square off"
    )

    round_adjudicate(round_id=round.pk)  # a re-run keeps the accepted shift
    assert Ruling.objects.get(pk=accepted.pk).credited == accepted.credited


# ------------------------------------------------------------------ corrections move the tops and the solo


@pytest.fixture
def duo(enable_lexicon: Lexicon) -> tuple[Event, list[Player], Game]:
    """Two players, a solo from two players on: Anne and Bruno both find the top."""
    event = event_create(
        name="Duo",
        starts_on=dt.date(2026, 11, 21),
        lexicon=enable_lexicon,
        language="english",
        notation="gcg",
        random_seed=7,
        solo_min_players=2,
    )
    players = [player_add(event=event, name=name) for name in ("Anne", "Bruno")]
    return event, players, game_start(event=event)


def _both_on_the_top(game: Game, players: list[Player]) -> Round:
    round = _open_round(game)
    coords, word = round.tops[0].split()
    for player in players:
        slip_submit(
            round=round, player=player, coordinates=coords, word=word, announced_score=round.top_score
        )
    round_close(round=round)
    round.refresh_from_db()
    return round


def test_an_override_to_zero_gives_the_other_top_finder_the_solo(duo, arbitrator) -> None:
    event, (anne, bruno), game = duo
    round = _both_on_the_top(game, [anne, bruno])
    rulings = {r.player_id: r for r in Ruling.objects.filter(round=round)}
    assert all(r.is_top and not r.solo for r in rulings.values())

    ruling_override(ruling=rulings[anne.pk], by=arbitrator, reason="copied the top", credited=0)

    a, b = Ruling.objects.get(pk=rulings[anne.pk].pk), Ruling.objects.get(pk=rulings[bruno.pk].pk)
    assert (a.credited, a.is_top, a.solo, a.reason) == (0, False, False, adj.Reason.OVERRIDDEN)
    assert (b.credited, b.is_top, b.solo) == (round.top_score + event.solo_bonus, True, True)
    entry = HistoryEntry.objects.get(entity="ruling", object_id=b.pk, action="recredit")
    assert (entry.old["solo"], entry.new["solo"], entry.reason) == (False, True, "copied the top")
    # A new adjudication keeps the correction and its consequences.
    round_adjudicate(round_id=round.pk)
    assert Ruling.objects.get(pk=b.pk).solo and Ruling.objects.get(pk=a.pk).credited == 0


def test_an_override_to_the_top_score_makes_a_top(duo, arbitrator) -> None:
    _event, (anne, bruno), game = duo
    round = _open_round(game)
    coords, word = round.tops[0].split()
    slip_submit(round=round, player=anne, coordinates=coords, word=word, announced_score=round.top_score)
    slip_submit(round=round, player=bruno, coordinates="", word="", announced_score=None)
    round_close(round=round)
    anne_ruling = Ruling.objects.get(round=round, player=anne)
    assert anne_ruling.solo
    bruno_ruling = Ruling.objects.get(round=round, player=bruno)
    ruling_override(ruling=bruno_ruling, by=arbitrator, reason="slip misread", credited=round.top_score or 0)
    bruno_ruling.refresh_from_db()
    anne_ruling.refresh_from_db()
    assert bruno_ruling.is_top and not bruno_ruling.solo and bruno_ruling.credited == round.top_score
    assert not anne_ruling.solo and anne_ruling.credited == round.top_score
    # The move as ruled scores the points set (the empty slip scored none), stored and told.
    entry = HistoryEntry.objects.get(entity="ruling", object_id=bruno_ruling.pk, action="override")
    assert bruno_ruling.move_score == entry.new["move_score"] == round.top_score
    assert entry.old["move_score"] == 0


def test_a_correction_after_the_placement_moves_the_solo_too(duo, arbitrator) -> None:
    _event, (anne, bruno), game = duo
    round = _both_on_the_top(game, [anne, bruno])
    round_place(round=Round.objects.get(pk=round.pk), draw_next=False)
    anne_ruling = Ruling.objects.get(round=round, player=anne)
    ruling_override(ruling=anne_ruling, by=arbitrator, reason="contested", credited=0)
    assert Ruling.objects.get(round=round, player=bruno).solo


def test_the_solo_counts_the_players_of_the_game_whoever_hands_in(hall, arbitrator) -> None:
    # FISF 3.5 counts the players of the game (issue 29, item 20): 16 registered when it
    # began, 2 hand in a slip in round 1: Anne's top alone is a solo, and stays one.
    _event, players, game = hall
    round = _open_round(game)
    coords, word = round.tops[0].split()
    slip_submit(
        round=round, player=players[0], coordinates=coords, word=word, announced_score=round.top_score
    )
    slip_submit(round=round, player=players[1], coordinates="", word="", announced_score=None)
    round_close(round=round)
    assert Ruling.objects.get(round=round, player=players[0]).solo
    # A player withdrawn after the game began was a player of it: the count stays 16.
    player_withdraw(player=players[-1], by=arbitrator)
    round_adjudicate(round_id=round.pk)
    assert Ruling.objects.get(round=round, player=players[0]).solo


def test_the_solo_counts_the_players_taking_part(hall, arbitrator) -> None:
    # 16 registered, 2 hand in slips: no solo when only those who handed in count; with
    # every registered player counted, Anne's top alone is a solo.
    event, players, game = hall
    Event.objects.filter(pk=event.pk).update(solo_players=Event.SoloPlayers.TAKING_PART)
    round = _open_round(game)
    coords, word = round.tops[0].split()
    slip_submit(
        round=round, player=players[0], coordinates=coords, word=word, announced_score=round.top_score
    )
    slip_submit(round=round, player=players[1], coordinates="", word="", announced_score=None)
    round_close(round=round)
    assert not Ruling.objects.get(round=round, player=players[0]).solo
    Event.objects.filter(pk=event.pk).update(solo_players=Event.SoloPlayers.REGISTERED)
    round_adjudicate(round_id=round.pk)
    assert Ruling.objects.get(round=round, player=players[0]).solo


def test_a_player_withdrawn_before_the_round_is_not_counted_for_the_solo(hall, arbitrator) -> None:
    """With every registered player counted: 16 registered, one withdrawn before the round
    opened, 15 in it: below the 16 a solo needs."""
    event, players, game = hall
    Event.objects.filter(pk=event.pk).update(solo_players=Event.SoloPlayers.REGISTERED)
    player_withdraw(player=players[-1], by=arbitrator)
    round = _open_round(game)
    coords, word = round.tops[0].split()
    slip_submit(
        round=round, player=players[0], coordinates=coords, word=word, announced_score=round.top_score
    )
    round_close(round=round)
    assert Ruling.objects.get(round=round, player=players[0]).is_top
    assert not Ruling.objects.get(round=round, player=players[0]).solo
    # Withdrawn after the round opened, a player was in it: counted, the solo stands.
    last = Player.objects.get(pk=players[-1].pk)
    player_withdraw(player=last, by=arbitrator, withdrawn=False)
    later = Round.objects.get(pk=round.pk).opened_at + dt.timedelta(seconds=1)
    player_withdraw(player=last, by=arbitrator, now=later)
    round_adjudicate(round_id=round.pk)
    assert Ruling.objects.get(round=round, player=players[0]).solo


# ------------------------------------------------------------------ the average instead of a repeated 0


def test_the_average_of_the_others_replaces_a_repeated_zero(duo, arbitrator) -> None:
    event, (anne, bruno), game = duo
    cy = player_add(event=event, name="Cy")
    round = _open_round(game)
    coords, word = round.tops[0].split()
    unlisted = word[::-1]
    slip_submit(round=round, player=anne, coordinates=coords, word=unlisted, announced_score=1)
    slip_submit(round=round, player=bruno, coordinates=coords, word=word, announced_score=round.top_score)
    round_close(round=round)
    anne_ruling = Ruling.objects.get(round=round, player=anne)
    assert anne_ruling.reason == adj.Reason.NOT_IN_LEXICON
    own = anne_ruling.notes[0]["params"]["score"]
    # Bruno's top (his solo left out) and Cy's missing slip: (top + 0) // 2, at most Anne's own.
    expected = min((round.top_score or 0) // 2, own)
    assert round_average(anne_ruling) == expected

    averaged = ruling_average(ruling=anne_ruling, by=arbitrator)
    assert (averaged.reason, averaged.credited, averaged.is_top, averaged.solo) == (
        adj.Reason.AVERAGE,
        expected,
        False,
        False,
    )
    assert HistoryEntry.objects.filter(entity="ruling", object_id=averaged.pk, action="average").exists()
    assert Ruling.objects.get(round=round, player=bruno).solo  # still the one best move
    round_adjudicate(round_id=round.pk)  # kept by a new adjudication
    assert Ruling.objects.get(pk=averaged.pk).credited == expected
    assert Ruling.objects.get(round=round, player=cy).credited == 0


def test_no_average_for_a_placement_or_rack_error(duo, arbitrator) -> None:
    _event, (anne, _bruno), game = duo
    round = _open_round(game)
    slip_submit(round=round, player=anne, coordinates="1A", word="QQQQ", announced_score=1)
    round_close(round=round)
    with pytest.raises(ApplicationError, match="only a 0 for a word not in the list"):
        ruling_average(ruling=Ruling.objects.get(round=round, player=anne), by=arbitrator)


def test_an_accepted_shift_is_the_on_time_slips_even_with_a_late_one_beside_it(hall, arbitrator) -> None:
    _event, players, game = hall
    round, (coords, word, top) = open_round_with_a_shift(game)
    slip_submit(
        round=round, player=players[0], coordinates=coords, word=word, announced_score=round.top_score
    )
    late = (round.deadline or dt.datetime.now(dt.UTC)) + dt.timedelta(seconds=5)
    slip_submit(round=round, player=players[0], coordinates="A1", word="QQ", announced_score=1, now=late)
    round_close(round=round)
    ruling = Ruling.objects.get(round=round, player=players[0])
    assert ruling.shift_candidate == top
    accepted = ruling_accept_shift(ruling=ruling, by=arbitrator)
    assert accepted.reason == adj.Reason.SHIFT_ACCEPTED and accepted.move == top


# ------------------------------------------------------------------ ruled again once the queued slips stop


def test_a_round_reopened_to_ruling_waits_until_the_queued_slips_stop_coming(
    game: Game, players: list[Player], monkeypatch
) -> None:
    from tournaments import queue
    from tournaments.services import rulings

    round = _open_round(game)
    round_close(round=round, now=round.deadline)
    sent_at = round.deadline - dt.timedelta(seconds=1)
    top_coords, top_word = round.tops[0].split()
    asked: list[tuple[object, ...]] = []
    monkeypatch.setattr(
        queue, "send", lambda task, *args, countdown=None: asked.append((*args, countdown)) or True
    )

    def queued(player: Player) -> Slip:
        return slip_submit(
            round=round, player=player, coordinates=top_coords, word=top_word,
            announced_score=round.top_score, now=sent_at,
        ).slip  # fmt: skip

    first = queued(players[0])  # reopens the round to ruling: state closed
    assert Round.objects.get(pk=round.pk).state == Round.State.CLOSED
    second = queued(players[1])  # still coming
    assert not rulings.round_adjudicate_when_quiet(round_id=round.pk, newest=first.pk)
    assert asked[-1] == (round.pk, second.pk, RULE_AGAIN_QUIET, RULE_AGAIN_QUIET)  # asked again later
    assert Ruling.objects.get(round=round, player=players[1]).reason == "missing"  # not ruled yet
    # Nothing new for a while: ruled, with both.
    assert rulings.round_adjudicate_when_quiet(round_id=round.pk, newest=second.pk, waited=RULE_AGAIN_QUIET)
    assert Round.objects.get(pk=round.pk).state == Round.State.ADJUDICATED
    credited = Ruling.objects.filter(round=round, player__in=players[:2]).values_list("credited", flat=True)
    assert list(credited) == [round.top_score] * 2
    # A task that finds the round ruled (by another, with every slip stored then) does nothing.
    assert not rulings.round_adjudicate_when_quiet(round_id=round.pk, newest=first.pk)


def test_a_round_whose_slips_keep_coming_is_ruled_after_the_longest_wait(
    game: Game, players: list[Player], monkeypatch
) -> None:
    from tournaments import queue
    from tournaments.services import rulings

    round = _open_round(game)
    round_close(round=round, now=round.deadline)
    top_coords, top_word = round.tops[0].split()
    monkeypatch.setattr(queue, "send", lambda task, *args, countdown=None: True)
    slip = slip_submit(
        round=round, player=players[0], coordinates=top_coords, word=top_word,
        announced_score=round.top_score, now=round.deadline - dt.timedelta(seconds=1),
    ).slip  # fmt: skip
    assert Round.objects.get(pk=round.pk).state == Round.State.CLOSED
    newer_than_seen = slip.pk - 1
    assert rulings.round_adjudicate_when_quiet(
        round_id=round.pk, newest=newer_than_seen, waited=rulings.RULE_AGAIN_MAX_WAIT
    )
    assert Ruling.objects.get(round=round, player=players[0]).credited == round.top_score


# ------------------------------------------------------------------ why a late slip is late


def test_a_late_slip_says_whether_time_was_up_or_the_round_closed(game: Game, players: list[Player]) -> None:
    round = _open_round(game)
    top_coords, top_word = round.tops[0].split()

    def slip(player: Player, at: dt.datetime, sent: dt.datetime | None = None) -> Slip:
        return slip_submit(
            round=round, player=player, coordinates=top_coords, word=top_word, announced_score=None, now=at,
            sent_at=sent,
        ).slip  # fmt: skip

    closed_at = round.deadline - dt.timedelta(seconds=20)
    in_time = slip(players[2], closed_at - dt.timedelta(seconds=1))
    assert late_reason(in_time) is None
    round_close(round=round, now=closed_at)  # closed before time was up
    after_close = slip(players[0], closed_at + dt.timedelta(seconds=5))
    after_time = slip(players[1], round.deadline + dt.timedelta(seconds=1))
    # A phone's slip counts when it was sent: sent before time was up, received after it.
    sent_in_time = slip(
        players[3], round.deadline + dt.timedelta(seconds=1), round.deadline - dt.timedelta(seconds=1)
    )
    assert sent_in_time.late and late_reason(sent_in_time) == "closed"
    assert late_reason(after_close) == "closed" and late_reason(after_time) == "time_up"
    round_adjudicate(round_id=round.pk)
    notes = {r.player_id: r.notes for r in Ruling.objects.filter(round=round, reason="late")}
    assert notes[players[0].pk] == notes[players[3].pk] == [{"code": "late_slip", "params": {}}]
    assert notes[players[1].pk] == [{"code": "time_up", "params": {}}]
