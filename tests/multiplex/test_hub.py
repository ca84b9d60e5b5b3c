"""The hub of a multiplex (multiplex.services.hub): sealed draws, the draw
centre's publications checked, late centres, and the centres' results: idempotent,
checked, corrected with a record, merged into one ranking."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.db import transaction
from django.db.models import F
from django.utils import timezone

from multiplex.models import CentrePlayer, CentreRuling, HubRound, Multiplex, Serving
from multiplex.selectors import multiplex_standings
from multiplex.services.hub import NotServed, centre_add, centre_for_key, multiplex_create
from multiplex.services.results import (
    centre_player_remove,
    centre_player_restore,
    receive_results,
    roster_receive,
)
from multiplex.services.serving import publish_draw, publish_top, round_closed, serve_round
from solver.game import Game as SolverGame
from tests.tournaments.helpers import simulated_event
from tournaments.core import ApplicationError
from tournaments.models import Event, HistoryEntry, Round, Ruling, Slip
from tournaments.services.corrections import _recredit as recredit
from tournaments.services.events import event_create
from tournaments.standings import event_standings
from tournaments.state import event_config, solver_lexicon

DIGEST = "ab" * 32
T0 = dt.datetime(2026, 11, 25, 14, 0, tzinfo=dt.UTC)


def _minutes(m: float) -> dt.datetime:
    return T0 + dt.timedelta(minutes=m)


@pytest.fixture
def hub(event: Event) -> Multiplex:
    return multiplex_create(event=event, max_delay_minutes=30)


@pytest.fixture
def centres(hub: Multiplex) -> dict[str, Any]:
    drawer, _ = centre_add(multiplex=hub, name="Binche", draws=True)
    a, key_a = centre_add(multiplex=hub, name="Dakar")
    b, _ = centre_add(multiplex=hub, name="Rabat")
    return {"draw": drawer, "a": a, "b": b, "key_a": key_a}


def _play_rounds(hub: Multiplex, drawer: Any, count: int, *, at: float = 0) -> list[Any]:
    """The draw centre plays ``count`` rounds of game 1 (seed 5), publishing each rack and top."""
    event = hub.event
    game = SolverGame(event_config(event, 5), solver_lexicon(event.lexicon))
    played = []
    for i in range(count):
        drawn = game.draw()
        assert drawn is not None
        reliquat, new, rejected = drawn.texts()
        publish_draw(centre=drawer, game=1, number=i + 1, rack=reliquat + new, rejected=rejected,
                              now=_minutes(at + 3 * i))  # fmt: skip
        record = game.play(drawn, game.analyse(list(drawn.rack)))
        publish_top(centre=drawer, game=1, number=i + 1, played=record.played, score=record.score,
                             now=_minutes(at + 3 * i + 2))  # fmt: skip
        played.append(record)
    return played


def test_a_centre_is_known_by_its_key_only(centres: dict[str, Any]) -> None:
    assert centre_for_key(centres["key_a"]) == centres["a"]
    assert centre_for_key(centres["key_a"] + "x") is None
    assert centre_for_key("") is None
    assert centres["a"].key_hash != centres["key_a"]  # the key itself is not kept


def test_a_round_not_drawn_yet_is_served_to_nobody(hub: Multiplex, centres: dict[str, Any]) -> None:
    with pytest.raises(NotServed):
        serve_round(centre=centres["a"], game=1, number=1, now=_minutes(1))
    _play_rounds(hub, centres["draw"], 1)
    served = serve_round(centre=centres["a"], game=1, number=1, now=_minutes(5))
    assert served.round.number == 1
    with pytest.raises(NotServed):  # round 2 not drawn by the draw centre
        serve_round(centre=centres["a"], game=1, number=2, now=_minutes(6))


def test_the_rack_is_sealed_until_drawn_and_the_top_until_the_close(
    hub: Multiplex, centres: dict[str, Any]
) -> None:
    records = _play_rounds(hub, centres["draw"], 2)
    a = centres["a"]
    # Rounds in order: round 2 is not served before round 1.
    with pytest.raises(NotServed):
        serve_round(centre=a, game=1, number=2, now=_minutes(10))
    served = serve_round(centre=a, game=1, number=1, now=_minutes(10))
    assert not served.with_top and served.serving.top_at is None
    closed = round_closed(centre=a, game=1, number=1, slips_digest=DIGEST, now=_minutes(13))
    assert closed.with_top and closed.round.played == records[0].played
    assert closed.serving.closed_at == _minutes(13) and closed.serving.top_at == _minutes(13)
    # Fetched ahead (a centre about to lose its connection): given, and on the record
    # as taken before the close.
    ahead = serve_round(centre=a, game=1, number=2, with_top=True, now=_minutes(14))
    assert ahead.with_top and ahead.serving.top_at == _minutes(14) and ahead.serving.closed_at is None


def test_a_prepared_game_is_sealed_until_the_agreed_start(event: Event) -> None:
    game = SolverGame(event_config(event, 3), solver_lexicon(event.lexicon))
    for _ in range(3):
        drawn = game.draw()
        assert drawn is not None
        game.play(drawn, game.analyse(list(drawn.rack)))
    event.masters = [game.finish("stopped").to_dict()]
    event.save()
    with pytest.raises(ApplicationError):
        multiplex_create(event=event, mode=Multiplex.Mode.PREPARED)  # no start
    hub = multiplex_create(event=event, mode=Multiplex.Mode.PREPARED, starts_at=_minutes(60))
    centre, _ = centre_add(multiplex=hub, name="Cotonou")
    with pytest.raises(NotServed):
        serve_round(centre=centre, game=1, number=1, now=_minutes(59))
    served = serve_round(centre=centre, game=1, number=1, now=_minutes(61))
    assert served.round.reliquat + served.round.new_tiles == game.record.rounds[0].rack
    with pytest.raises(ApplicationError):
        centre_add(multiplex=hub, name="Alger", draws=True)


def test_a_late_centre_starts_within_the_maximum_delay(hub: Multiplex, centres: dict[str, Any]) -> None:
    _play_rounds(hub, centres["draw"], 1)
    assert serve_round(centre=centres["a"], game=1, number=1, now=_minutes(29)).round.number == 1
    with pytest.raises(ApplicationError, match="at most 30 minutes late"):
        serve_round(centre=centres["b"], game=1, number=1, now=_minutes(31))


def test_the_draw_centre_publications_are_checked(hub: Multiplex, centres: dict[str, Any]) -> None:
    drawer, a = centres["draw"], centres["a"]
    with pytest.raises(ApplicationError, match="draw centre"):
        publish_draw(centre=a, game=1, number=1, rack="AEINRST")
    with pytest.raises(ApplicationError):  # not in the bag (one Z, one Q in English)
        publish_draw(centre=drawer, game=1, number=1, rack="ZZQQAEI")
    with pytest.raises(ApplicationError, match="round 1"):
        publish_draw(centre=drawer, game=1, number=2, rack="AEINRST")
    first = publish_draw(centre=drawer, game=1, number=1, rack="AEINRST", now=_minutes(0))
    again = publish_draw(centre=drawer, game=1, number=1, rack="AEINRST", now=_minutes(1))
    assert again.pk == first.pk and again.drawn_at == _minutes(0)
    # Served to the draw centre itself only (its own publication's answer): a rack typed
    # again by its arbitrator still replaces it.
    serve_round(centre=drawer, game=1, number=1, now=_minutes(1))
    retyped = publish_draw(centre=drawer, game=1, number=1, rack="AEINRSU", now=_minutes(1))
    assert retyped.new_tiles == "AEINRSU"
    publish_draw(centre=drawer, game=1, number=1, rack="AEINRST", now=_minutes(1))
    serve_round(centre=a, game=1, number=1, now=_minutes(2))
    with pytest.raises(ApplicationError, match="cannot change"):
        publish_draw(centre=drawer, game=1, number=1, rack="AEINRSU")
    with pytest.raises(ApplicationError, match="scores"):
        publish_top(centre=drawer, game=1, number=1, played="8D RETINAS", score=1)
    with pytest.raises(ApplicationError):
        publish_top(centre=drawer, game=1, number=1, played="8D SATIRNE", score=59)
    placed = publish_top(centre=drawer, game=1, number=1, played="8D RETINAS", score=66)
    assert (placed.played, placed.score, placed.top_score) == ("8D RETINAS", 66, 66)
    assert placed.moves and "8D RETINAS" in placed.tops
    with pytest.raises(ApplicationError, match="cannot change"):
        publish_top(centre=drawer, game=1, number=1, played="8H RETINAS", score=66)


def _results(records: list[Any], number: int, rulings: list[dict[str, Any]]) -> dict[str, Any]:
    return {"game": 1, "number": number, "rulings": rulings, "taking_part": len(rulings)}


def _roster(centre: Any, tables: int, at: float = 0) -> None:
    players = [_player(t, f"Player {t}") for t in range(1, tables + 1)]
    roster_receive(centre=centre, players=players, now=_minutes(at))


def _closed(centre: Any, number: int, at: float) -> None:
    """The centre was served round ``number`` and closed it: its results may come."""
    serve_round(centre=centre, game=1, number=number, now=_minutes(at))
    round_closed(centre=centre, game=1, number=number, slips_digest=DIGEST, now=_minutes(at + 1))


def _player(table: int, name: str, club: str = "", licence: str = "", category: str = "") -> dict[str, Any]:
    return {"table": table, "name": name, "club": club, "licence": licence, "category": category}


def _ruling(table: int, score: int, *, top: int, solo: bool = False, **more: Any) -> dict[str, Any]:
    credited = score + (10 if solo else 0)
    sent = {"table": table, "reason": "ok", "move": "8D X", "move_score": score, "credited": credited,
            "penalty": 0, "warnings": 0, "solo": solo, "is_top": score == top, "letterpoints": score // 2,
            "overridden": False}  # fmt: skip
    return {**sent, **more}


def test_results_are_idempotent_checked_and_corrected_on_the_record(
    hub: Multiplex, centres: dict[str, Any]
) -> None:
    records = _play_rounds(hub, centres["draw"], 2)
    a, b = centres["a"], centres["b"]
    top = records[0].top_score
    send = [_ruling(1, top, top=top), _ruling(2, top - 10, top=top)]
    # Never served: refused (a forged upload, or a centre that did not play it).
    with pytest.raises(ApplicationError, match="never served"):
        receive_results(centre=a, **_results(records, 1, send))
    _roster(a, 2)
    _closed(a, 1, at=10)
    first = receive_results(centre=a, **_results(records, 1, send))
    assert (first.received, first.changed) == (2, 2)
    again = receive_results(centre=a, **_results(records, 1, send))
    assert (again.received, again.changed) == (2, 0)  # the same results twice change nothing
    # A move above the top cannot be: refused, nothing kept of it.
    with pytest.raises(ApplicationError, match="more than its top"):
        receive_results(centre=a, **_results(records, 1, [_ruling(1, top + 1, top=top)]))
    with pytest.raises(ApplicationError, match="unknown ruling"):
        receive_results(centre=a, **_results(records, 1, [{**_ruling(1, 3, top=top), "reason": "won"}]))
    # A correction after the round: replaces the ruling, and the change is recorded.
    corrected = [
        _ruling(1, top, top=top),
        {**_ruling(2, top - 10, top=top), "credited": top - 15, "penalty": 5},
    ]
    receipt = receive_results(centre=a, **_results(records, 1, corrected))
    assert receipt.changed == 1
    entry = HistoryEntry.objects.filter(entity="centre_ruling", action="correct").get()
    assert entry.old["credited"] == top - 10 and entry.new["credited"] == top - 15
    assert "Dakar" in entry.reason
    # Centre B sends the same tables: its own players, not A's.
    _roster(b, 1)
    _closed(b, 1, at=11)
    receive_results(centre=b, **_results(records, 1, [_ruling(1, 5, top=top)]))
    rows, where = multiplex_standings(hub)
    assert [(where[r.player.id], r.player.table, r.total) for r in rows] == [
        ("Dakar", 1, top),
        ("Dakar", 2, top - 15),
        ("Rabat", 1, 5),
    ]
    assert rows[0].diff == top - (records[0].top_score + records[1].top_score)


def test_the_merged_ranking_is_the_ranking_of_one_event(db: None) -> None:
    """One simulated game of 18 virtual players, played again as a multiplex: its draws
    and tops published by a draw centre, its players split between two halls of 9, each
    crediting the solos of its own hall (none: a solo needs 16 players). The merged
    ranking is the single event's, its solos included."""
    single = simulated_event(players=18, seed=3)
    game = single.games.get()
    rounds = list(game.rounds.filter(state=Round.State.PLACED).order_by("number"))
    # Its best virtual players all find every top: in every other round, all but one of
    # them are made to find a point less, and the event's own rules credit the round
    # again (the solo goes to the one left on the top of 18).
    for round in rounds[::2]:
        finders = list(Ruling.objects.filter(round=round, is_top=True).order_by("player__table"))
        for ruling in finders[1:]:
            lower = {"move_score": F("move_score") - 1, "credited": F("credited") - 1}
            Ruling.objects.filter(pk=ruling.pk).update(**lower)
        with transaction.atomic():
            recredit(round, by=None, reason="test", corrected=0)
    hub_event = event_create(name="Hub", starts_on=single.starts_on, lexicon=single.lexicon,
                                      language=single.language, notation="gcg")  # fmt: skip
    hub = multiplex_create(event=hub_event)
    drawer, _ = centre_add(multiplex=hub, name="Draw", draws=True)
    halls = {hall: centre_add(multiplex=hub, name=hall)[0] for hall in ("North", "South")}
    now = timezone.now()
    for round in rounds:
        publish_draw(centre=drawer, game=1, number=round.number, rack=round.rack,
                              rejected=tuple(round.rejected), now=now)  # fmt: skip
        publish_top(centre=drawer, game=1, number=round.number, played=round.chosen,
                             score=round.chosen_score or 0, now=now)  # fmt: skip
    assert HubRound.objects.filter(multiplex=hub).count() == len(rounds)
    from scoring.adjudication import counts_for_top, solo_winner
    from tournaments.judging import adjudication_settings

    settings = adjudication_settings(single)
    for hall, centre in halls.items():
        roster_receive(
            centre=centre,
            players=[
                _player(p.table, p.name, p.club, p.licence, p.category)
                for p in single.players.all()
                if (p.table <= 9) == (hall == "North")
            ],
        )
    for round in rounds:
        rulings = list(Ruling.objects.filter(round=round).select_related("player"))
        for hall, centre in halls.items():
            mine = [r for r in rulings if (r.player.table <= 9) == (hall == "North")]
            slips = Slip.objects.filter(
                round__game=game, round__number__lte=round.number, player__in=[r.player for r in mine]
            )
            taking_part = slips.values("player").distinct().count()
            bonus = settings.solo_bonus
            base = {r.player.table: r.credited - (bonus if r.solo else 0) for r in mine}
            scores = {r.player.table: r.move_score for r in mine if counts_for_top(r.reason, r.move_score)}
            local = solo_winner(
                scores, top_score=round.top_score or 0, players_in_game=taking_part, settings=settings
            )
            serve_round(centre=centre, game=1, number=round.number, now=now)
            round_closed(centre=centre, game=1, number=round.number, slips_digest=DIGEST, now=now)
            receive_results(
                centre=centre,
                game=1,
                number=round.number,
                taking_part=taking_part,
                rulings=[
                    _ruling(
                        r.player.table,
                        r.move_score,
                        top=round.top_score or 0,
                        reason=r.reason,
                        move=r.move,
                        credited=base[r.player.table] + (bonus if local == r.player.table else 0),
                        penalty=r.penalty,
                        warnings=r.warnings,
                        solo=local == r.player.table,
                        is_top=r.is_top,
                        letterpoints=r.letterpoints,
                        overridden=r.overridden,
                    )
                    for r in mine
                ],
            )
    merged, _where = multiplex_standings(hub)
    one = event_standings(single)

    def shown(rows: list[Any]) -> list[tuple[Any, ...]]:
        return [(r.rank, r.player.name, r.total, r.tops, r.solos, r.warnings, r.penalties, r.diff, r.percent,
                 r.letterpoints, r.ratio, r.rounds) for r in rows]  # fmt: skip

    assert shown(merged) == shown(one)
    assert sum(r.solos for r in one) > 0, "the example should have solos to merge"


def test_a_draw_sent_again_after_its_top_is_acknowledged(hub: Multiplex, centres: dict[str, Any]) -> None:
    drawer = centres["draw"]
    publish_draw(centre=drawer, game=1, number=1, rack="AEINRST", now=_minutes(0))
    placed = publish_top(centre=drawer, game=1, number=1, played="8D RETINAS", score=66)
    # The draw centre's first answer was lost: it sends the draw again, then the top.
    assert publish_draw(centre=drawer, game=1, number=1, rack="TSRNIEA").pk == placed.pk
    with pytest.raises(ApplicationError, match="cannot change"):
        publish_draw(centre=drawer, game=1, number=1, rack="AEINRSU")


@pytest.mark.parametrize("bad", [{}, {"table": "1"}, {"table": 0}, {"table": True}, "1"])
def test_results_without_a_table_are_refused_and_keep_what_was_sent(
    hub: Multiplex, centres: dict[str, Any], bad: Any
) -> None:
    records = _play_rounds(hub, centres["draw"], 1)
    a, top = centres["a"], records[0].top_score
    _roster(a, 1)
    _closed(a, 1, at=10)
    receive_results(centre=a, **_results(records, 1, [_ruling(1, top, top=top)]))
    sent = _results(records, 1, [_ruling(1, 3, top=top)])
    with pytest.raises(ApplicationError, match="needs its table"):
        roster_receive(centre=a, players=[bad])
    with pytest.raises(ApplicationError, match="needs its table"):
        receive_results(centre=a, **{**sent, "rulings": [bad]})
    rows, _where = multiplex_standings(hub)
    assert [(r.player.table, r.total) for r in rows] == [(1, top)]


def test_a_centre_key_can_be_typed_after_an_option(hub: Multiplex) -> None:
    keys = [centre_add(multiplex=hub, name=f"Centre {i}")[1] for i in range(40)]
    assert all(not k.startswith("-") and len(k) >= 43 for k in keys) and len(set(keys)) == 40


def _ranking(hub: Multiplex) -> list[tuple[str, int, str, int]]:
    rows, where = multiplex_standings(hub)
    return [(where[r.player.id], r.player.table, r.player.name, r.total) for r in rows]


def test_results_may_name_only_the_players_of_the_centres_roster(
    hub: Multiplex, centres: dict[str, Any]
) -> None:
    """The security probe's upload: a centre of 4 players sends the rulings of 12 tables,
    naming its players otherwise. Refused whole, nothing kept; no upload renames anyone."""
    records = _play_rounds(hub, centres["draw"], 1)
    a, top = centres["a"], records[0].top_score
    _closed(a, 1, at=10)
    four = [_ruling(t, top - t, top=top) for t in range(1, 5)]
    with pytest.raises(ApplicationError, match="has sent no roster yet"):
        receive_results(centre=a, **_results(records, 1, four))
    _roster(a, 4)
    receive_results(centre=a, **_results(records, 1, four))
    before = _ranking(hub)
    assert [(table, name) for _c, table, name, _t in before] == [(t, f"Player {t}") for t in range(1, 5)]
    twelve = [_ruling(t, top, top=top) for t in range(1, 13)]
    with pytest.raises(ApplicationError) as refused:
        receive_results(centre=a, **_results(records, 1, twelve))
    assert refused.value.message == (
        "tables not on this centre's roster: 5, 6, 7, 8, 9, 10, 11, 12. Nothing of these results was taken."
    )
    assert _ranking(hub) == before and CentreRuling.objects.count() == 4
    # A table taken off the roster takes no more results, and leaves the ranking.
    roster_receive(centre=a, players=[_player(t, f"Player {t}") for t in (1, 2, 3)])
    with pytest.raises(ApplicationError, match=r"roster: 4\."):
        receive_results(centre=a, **_results(records, 1, four))
    assert _ranking(hub) == before[:3]


def test_a_centre_counts_no_more_players_taking_part_than_its_roster(
    hub: Multiplex, centres: dict[str, Any]
) -> None:
    """Found by the probe of issue 30: a centre that said 2,147,483,647 players took part
    reached the solo's minimum alone and gave its own player a solo."""
    records = _play_rounds(hub, centres["draw"], 1)
    a, top = centres["a"], records[0].top_score
    _roster(a, 2)
    _closed(a, 1, at=10)
    inflated = {**_results(records, 1, [_ruling(1, top, top=top)]), "taking_part": 2_147_483_647}
    with pytest.raises(ApplicationError, match="more than the 2 of this centre's roster"):
        receive_results(centre=a, **inflated)
    assert not CentreRuling.objects.exists()
    receive_results(centre=a, **{**inflated, "taking_part": 2})
    assert not CentreRuling.objects.get().merged_solo  # 2 players: below the solo's minimum


def test_results_of_a_round_the_centre_has_not_closed_are_refused(
    hub: Multiplex, centres: dict[str, Any]
) -> None:
    records = _play_rounds(hub, centres["draw"], 2)
    a, top = centres["a"], records[1].top_score
    _roster(a, 2)
    _closed(a, 1, at=10)
    receive_results(centre=a, **_results(records, 1, [_ruling(1, 3, top=records[0].top_score)]))
    before = _ranking(hub)
    # Round 2 fetched ahead with its top, never closed: its results are not bound yet.
    serve_round(centre=a, game=1, number=2, with_top=True, now=_minutes(12))
    with pytest.raises(ApplicationError) as refused:
        receive_results(centre=a, **_results(records, 2, [_ruling(1, top, top=top)]))
    assert refused.value.message == (
        "round 2 of game 1 is not closed at this centre: its results are taken after its close"
    )
    assert _ranking(hub) == before and not Serving.objects.filter(results_at__isnull=False, round__number=2)
    round_closed(centre=a, game=1, number=2, slips_digest=DIGEST, now=_minutes(14))
    assert receive_results(centre=a, **_results(records, 2, [_ruling(1, top, top=top)])).changed == 1


def test_a_roster_is_kept_and_each_change_recorded_with_the_centre(
    hub: Multiplex, centres: dict[str, Any]
) -> None:
    a = centres["a"]
    first = roster_receive(
        centre=a, players=[_player(1, "Ana"), _player(2, "Bea", club="Dakar"), _player(3, "Cy")],
        now=_minutes(1),
    )  # fmt: skip
    assert (first.players, first.added, first.changed, first.left) == (3, 3, 0, 0)
    a.refresh_from_db()
    assert a.roster_at == _minutes(1)
    same = roster_receive(
        centre=a, players=[_player(1, "Ana"), _player(2, "Bea", club="Dakar"), _player(3, "Cy")]
    )
    assert (same.added, same.changed, same.left) == (0, 0, 0)
    # Bea corrected, Cy taken off (no ruling points at Cy: gone, so that rosters with ever
    # other tables cannot pile players up on the hub), Dee added.
    later = roster_receive(
        centre=a, players=[_player(1, "Ana"), _player(2, "Béa", club="Dakar"), _player(4, "Dee")],
        now=_minutes(2),
    )  # fmt: skip
    assert (later.added, later.changed, later.left) == (1, 1, 1)
    assert not CentrePlayer.objects.filter(centre=a, table=3).exists()
    everyone = [_player(1, "Ana"), _player(2, "Béa", club="Dakar"), _player(3, "Cy"), _player(4, "Dee")]
    back = roster_receive(centre=a, players=everyone)
    assert (back.added, back.changed, back.left) == (1, 0, 0)
    assert CentrePlayer.objects.get(centre=a, table=3).left_at is None
    entries = HistoryEntry.objects.filter(entity="centre_player").order_by("pk")
    assert [(e.action, e.new.get("name", e.new.get("left_at"))) for e in entries] == [
        ("add", "Ana"), ("add", "Bea"), ("add", "Cy"), ("change", "Béa"), ("add", "Dee"),
        ("leave", _minutes(2).isoformat()), ("add", "Cy"),
    ]  # fmt: skip
    change = entries.get(action="change")
    assert change.old["name"] == "Bea" and change.new["name"] == "Béa"
    assert {e.reason for e in entries} == {"sent by centre Dakar"} and {e.actor for e in entries} == {None}
    with pytest.raises(ApplicationError, match="table 2 is listed twice"):
        roster_receive(centre=a, players=[_player(2, "Béa"), _player(2, "Bo")])
    with pytest.raises(ApplicationError, match="table 5 needs a name"):
        roster_receive(centre=a, players=[_player(5, " ")])
    assert CentrePlayer.objects.filter(centre=a, left_at__isnull=True).count() == 4  # refused whole


def test_the_hub_arbitrator_removes_a_player_from_the_ranking_and_its_solos(
    hub: Multiplex, centres: dict[str, Any], arbitrator: Any
) -> None:
    Event.objects.filter(pk=hub.event_id).update(solo_min_players=2)
    hub.event.refresh_from_db()
    records = _play_rounds(hub, centres["draw"], 1)
    a, b, top = centres["a"], centres["b"], records[0].top_score
    _roster(a, 2)
    _roster(b, 1)
    for centre, at in ((a, 10), (b, 11)):
        _closed(centre, 1, at=at)
    receive_results(centre=a, **_results(records, 1, [_ruling(1, top, top=top), _ruling(2, 3, top=top)]))
    receive_results(centre=b, **_results(records, 1, [_ruling(1, top, top=top)]))
    both = _ranking(hub)
    assert both == [("Dakar", 1, "Player 1", top), ("Rabat", 1, "Player 1", top), ("Dakar", 2, "Player 2", 3)]
    rabat_1 = CentrePlayer.objects.get(centre=b, table=1)
    with pytest.raises(ApplicationError, match="say why"):
        centre_player_remove(player=rabat_1, reason=" ", by=arbitrator)
    centre_player_remove(player=rabat_1, reason="not a player of Rabat", by=arbitrator)
    # Out of the ranking: Dakar's table 1 is now alone on the top, its solo given.
    assert _ranking(hub) == [("Dakar", 1, "Player 1", top + 10), ("Dakar", 2, "Player 2", 3)]
    rows, _where = multiplex_standings(hub)
    assert rows[0].solos == 1
    # Rabat's results still name them: taken and kept, out of the ranking.
    receive_results(centre=b, **_results(records, 1, [_ruling(1, top - 1, top=top)]))
    assert len(_ranking(hub)) == 2
    receive_results(centre=b, **_results(records, 1, [_ruling(1, top, top=top)]))
    centre_player_restore(player=rabat_1, by=arbitrator)
    assert _ranking(hub) == both
    entries = HistoryEntry.objects.filter(entity="centre_player", object_id=rabat_1.pk).exclude(action="add")
    assert [(e.action, e.reason, e.actor) for e in entries.order_by("pk")] == [
        ("remove", "not a player of Rabat", arbitrator), ("restore", "", arbitrator)]  # fmt: skip
