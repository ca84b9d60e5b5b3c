"""A centre of a multiplex (multiplex.services.centre) against a hub in the same
database, over the hub's REST API through Django's test client: joining, the draw
centre's publications, racks and tops taken from the hub, the close's digest, results
sent after each placement and again after a correction, and a lost connection."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.utils import timezone

from multiplex.models import (
    CentrePlayer,
    CentreRuling,
    HubCopy,
    HubGame,
    HubLink,
    HubOutbox,
    HubRound,
    Multiplex,
    Serving,
)
from multiplex.selectors import multiplex_standings
from multiplex.services import centre as centre_service
from multiplex.services.centre import HubRefused
from multiplex.services.hub import centre_add
from tests.multiplex.helpers import ClientHub, centre_event, move_text, play
from tournaments.core import ApplicationError
from tournaments.models import Event, Game, HistoryEntry, Player, Round, Slip
from tournaments.services.corrections import ruling_override
from tournaments.services.events import event_update
from tournaments.services.games import game_end, game_start, round_draw
from tournaments.services.players import player_add, player_remove, player_update, player_withdraw
from tournaments.services.rounds import (
    analysis_for,
    round_close,
    round_open,
    round_place,
    round_unplace,
    top_choose,
)
from tournaments.services.slips import slip_submit
from tournaments.standings import event_standings
from tournaments.state import game_record


def test_a_centre_joins_only_with_the_hubs_settings(hub_event: Event) -> None:
    _, key = centre_add(multiplex=hub_event.multiplex, name="Dakar")
    other = centre_event(hub_event, "Dakar", 3)
    other = event_update(event=other, solo_bonus=5)
    with pytest.raises(ApplicationError, match=r"solo_bonus \(10 / 5\)"):
        centre_service.hub_join(event=other, url="http://hub.test", key=key, hub=ClientHub(key))
    with pytest.raises(HubRefused, match="Invalid centre key"):
        centre_service.hub_join(event=other, url="http://hub.test", key="nope", hub=ClientHub("nope"))
    with pytest.raises(ApplicationError, match="http"):
        centre_service.hub_join(event=other, url="hub.test", key=key, hub=ClientHub(key))
    fine = centre_event(hub_event, "Dakar 2", 3)
    link = centre_service.hub_join(event=fine, url="http://hub.test", key=key, hub=ClientHub(key))
    assert (link.centre_name, link.draws) == ("Dakar", False)


def test_a_centre_plays_the_hubs_racks_and_tops_and_sends_its_results(network: dict[str, Any]) -> None:
    events = network["events"]
    binche, dakar = events["Binche"], events["Dakar"]
    drawing = game_start(event=binche)
    following = game_start(event=dakar)
    # Nothing published: Dakar cannot draw.
    with pytest.raises(ApplicationError, match="has not published round 1"):
        round_draw(game=following)
    with pytest.raises(ApplicationError, match="takes its racks from the hub"):
        round_draw(game=following, typed="AEINRST")
    draw = round_draw(game=drawing)  # published to the hub on commit
    assert draw is not None
    centre_service.hub_sync(event=dakar)
    copy = HubCopy.objects.get(link__event=dakar, game=1, number=1)
    assert copy.top is None and copy.reliquat + copy.new_tiles == draw.reliquat + draw.new_tiles
    mine = round_draw(game=following)
    assert mine is not None and mine.rack == draw.rack
    # Dakar plays as fast as Binche: closed before the hub has the top.
    mine = play(mine, 2)
    with pytest.raises(ApplicationError, match="has not sent the move placed on round 1"):
        round_place(round=mine)
    assert HubOutbox.objects.get(link__event=dakar, kind="close").sent_at is not None
    serving = Serving.objects.get(centre__name="Dakar", round__number=1)
    assert serving.closed_at is not None and len(serving.slips_digest) == 64 and serving.top_at is None
    # Binche places its choice among the tops; Dakar takes it at its next sync.
    theirs = play(Round.objects.get(pk=draw.pk), 1)
    top_choose(round=theirs, move_text=theirs.tops[-1])
    round_place(round=Round.objects.get(pk=theirs.pk), draw_next=False)
    centre_service.hub_sync(event=dakar)
    mine.refresh_from_db()
    assert mine.chosen == theirs.tops[-1]
    other = next(m for m in analysis_for(mine).ranked if " ".join(move_text(m)) != mine.chosen)
    with pytest.raises(ApplicationError, match="places the hub's move"):
        top_choose(round=mine, move_text=" ".join(move_text(other)), confirm_lower=True)
    nothing_next = round_place(round=Round.objects.get(pk=mine.pk))
    assert nothing_next is None  # round 2 not drawn by Binche yet: drawn once it is
    # The results went up with the placement's sync: the hub has Dakar's three rulings.
    kept = CentreRuling.objects.filter(serving__centre__name="Dakar")
    assert kept.count() == 3
    ours = {r.player.table: r.credited for r in mine.rulings.select_related("player")}
    assert {r.player.table: r.credited for r in kept.select_related("player")} == ours


def test_a_centre_fetches_ahead_and_plays_through_a_lost_connection(network: dict[str, Any]) -> None:
    events, hubs = network["events"], network["hubs"]
    binche, rabat = events["Binche"], events["Rabat"]
    drawing = game_start(event=binche)
    round = round_draw(game=drawing)
    for _ in range(4):  # Binche plays 4 rounds, publishing as it goes
        assert round is not None
        played = play(round, 1)
        round = round_place(round=played)
    centre_service.hub_sync(event=rabat)
    assert HubCopy.objects.filter(link__event=rabat, top__isnull=False).count() == 4
    hubs["Rabat"].online = False  # the hall's connection drops
    game = game_start(event=rabat)
    mine = round_draw(game=game)
    for number in range(1, 5):
        assert mine is not None and mine.number == number
        mine = round_place(round=play(mine, 3))
    assert mine is not None and mine.number == 5  # Binche had drawn round 5 before the cut
    link = rabat.hub_link
    link.refresh_from_db()
    assert "cannot be reached" in link.last_error
    waiting = HubOutbox.objects.filter(link__event=rabat, sent_at__isnull=True)
    assert waiting.filter(kind="close").count() == 4 and waiting.filter(kind="results").count() == 4
    assert not CentreRuling.objects.filter(serving__centre__name="Rabat").exists()
    # Back online: everything goes in order, and the hub's ranking has Rabat's rounds.
    hubs["Rabat"].online = True
    report = centre_service.hub_sync(event=rabat)
    assert report.reached and report.sent == 8 and report.refused == []
    assert CentreRuling.objects.filter(serving__centre__name="Rabat").count() == 12
    assert centre_service.hub_sync(event=rabat).sent == 0  # nothing owed any more


def test_a_correction_after_the_placement_is_sent_again_and_recorded(
    network: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    events = network["events"]
    binche, dakar = events["Binche"], events["Dakar"]
    drawing = game_start(event=binche)
    draw = round_draw(game=drawing)
    assert draw is not None
    round_place(round=play(draw, 1), draw_next=False)
    centre_service.hub_sync(event=dakar)
    game = game_start(event=dakar)
    mine = round_draw(game=game)
    assert mine is not None
    round_place(round=play(mine, 2), draw_next=False)
    ruling = mine.rulings.select_related("player").order_by("player__table").first()
    assert ruling is not None
    built: list[int] = []
    payload = centre_service.results_payload

    def counted(round: Round) -> dict[str, Any]:
        built.append(round.number)
        return payload(round)

    monkeypatch.setattr(centre_service, "results_payload", counted)
    assert centre_service.hub_sync(event=dakar, full=False).sent == 0 and built == []  # nothing changed
    ruling_override(ruling=ruling, by=None, credited=0, reason="slip unreadable, seen again")
    # A sync after a close or a placement rebuilds only the rounds with a ruling saved since.
    assert centre_service.hub_sync(event=dakar, full=False).sent == 1 and built == [1]
    kept = CentreRuling.objects.get(serving__centre__name="Dakar", player__table=ruling.player.table)
    assert kept.credited == 0
    corrections = HistoryEntry.objects.filter(entity="centre_ruling", action="correct")
    entry = corrections.filter(event=hub_event_of(dakar)).get()
    assert entry.reason == "sent by centre Dakar"


def hub_event_of(centre: Event) -> Event:
    from multiplex.models import Multiplex

    return Multiplex.objects.get(centres__name=centre.hub_link.centre_name).event


def test_the_merged_ranking_is_the_ranking_of_one_event(network: dict[str, Any], hub_event: Event) -> None:
    """The draw centre and two centres play 6 rounds; the same slips played in one event
    (the draw centre's game as its master game, the nine players at one hall) rank the
    same: every row's rank, name, total, tops, solos, warnings, penalties and difference."""
    events = network["events"]
    drawing = game_start(event=events["Binche"])
    round = round_draw(game=drawing)
    for _ in range(6):
        assert round is not None
        round = round_place(round=play(round, 1))
    for name, seed in (("Dakar", 7), ("Rabat", 8)):
        centre_service.hub_sync(event=events[name])
        game = game_start(event=events[name])
        mine = round_draw(game=game)
        for _ in range(6):
            assert mine is not None
            mine = round_place(round=play(mine, seed))
    for event in events.values():
        centre_service.hub_sync(event=event)
    merged, centres = multiplex_standings(hub_event.multiplex)

    one = centre_event(hub_event, "One hall", 1)
    Event.objects.filter(pk=one.pk).update(masters=[game_record(drawing).to_dict()])
    one.refresh_from_db()
    who = {}
    for event in events.values():
        for p in Player.objects.filter(event=event).order_by("table"):
            who[p.pk] = player_add(event=one, name=p.name)
    game = game_start(event=one)
    for number in range(1, 7):
        round = round_draw(game=game)
        assert round is not None
        round = round_open(round=round)
        centres_events = list(events.values())
        slips = Slip.objects.filter(round__game__event__in=centres_events, round__number=number, current=True)
        for slip in slips:
            slip_submit(
                round=round,
                player=who[slip.player_id],
                coordinates=slip.coordinates,
                word=slip.word,
                announced_score=slip.announced_score,
                source="virtual",
            )
        round_close(round=round)
        round_place(round=Round.objects.get(pk=round.pk), draw_next=False)

    def shown(rows: list[Any]) -> list[tuple[Any, ...]]:
        fields = ("rank", "total", "tops", "solos", "warnings", "penalties", "diff")
        return [(r.player.name, *(getattr(r, f) for f in fields)) for r in rows]

    assert len(merged) == 9 and shown(merged) == shown(event_standings(one))
    assert {centres[r.player.id] for r in merged} == set(events)


def test_the_watchdog_syncs_every_centre_again_and_again(network: dict[str, Any]) -> None:
    from tournaments.services import watchdog

    events = network["events"]
    assert {("sync", e.pk) for e in events.values()} <= watchdog.pending()
    before = network["hubs"]["Dakar"].requests
    watchdog.send("sync", events["Dakar"].pk)  # the task, run in the process
    assert network["hubs"]["Dakar"].requests > before


def test_a_placement_that_draws_the_next_rack_reads_the_link_once_and_syncs_once(
    network: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from multiplex.linker import on_round_placed
    from tournaments import queue

    binche = network["events"]["Binche"]
    draw = round_draw(game=game_start(event=binche))
    assert draw is not None
    played = play(draw, 1)
    syncs: list[int] = []
    send = queue.send

    def counted(task: Any, *args: Any, **kwargs: Any) -> bool:
        if task.name == "tournaments.tasks.hub_sync_task":
            syncs.append(args[0])
            return True
        return send(task, *args, **kwargs)

    monkeypatch.setattr(queue, "send", counted)
    # One transaction: round 1's top and round 2's rack are published, then one sync sends both.
    drawn = round_place(round=played)
    assert drawn is not None and syncs == [binche.pk]
    owed = HubOutbox.objects.filter(link__event=binche, sent_at__isnull=True)
    assert sorted(owed.values_list("kind", "number")) == [("draw", 2), ("top", 1)]
    syncs.clear()
    with CaptureQueriesContext(connection) as queries:
        on_round_placed(sender=Round, round=Round.objects.get(pk=played.pk))
    assert sum(HubLink._meta.db_table in q["sql"] for q in queries.captured_queries) == 1
    assert syncs == [binche.pk]


def test_the_draw_centre_cannot_undo_a_published_placement(network: dict[str, Any]) -> None:
    binche = network["events"]["Binche"]
    game = game_start(event=binche)
    draw = round_draw(game=game)
    assert draw is not None
    round_place(round=play(draw, 1), draw_next=False)
    with pytest.raises(ApplicationError, match="cannot undo a placement"):
        round_unplace(game=game)


def test_a_game_stopped_with_a_rack_drawn_ends_on_every_centre(network: dict[str, Any]) -> None:
    events = network["events"]
    binche, dakar = events["Binche"], events["Dakar"]
    drawing = game_start(event=binche)
    draw = round_draw(game=drawing)
    assert draw is not None
    pending = round_place(round=play(draw, 1))  # round 2 drawn and published
    assert pending is not None
    game_end(game=drawing, reason="stopped")
    assert HubOutbox.objects.get(link__event=binche, kind="end").sent_at is not None
    centre_service.hub_sync(event=dakar)
    game = game_start(event=dakar)
    mine = round_draw(game=game)
    assert mine is not None
    mine = round_place(round=play(mine, 2))
    assert mine is not None and mine.number == 2
    with pytest.raises(ApplicationError, match="ended on round 2 \\(stopped\\): end the game"):
        round_place(round=play(mine, 2))
    game_end(game=game, reason="stopped")
    assert Game.objects.get(pk=game.pk).state == Game.State.ENDED


def test_a_refused_fetch_is_said_and_the_centres_settings_are_frozen(
    network: dict[str, Any], hub_event: Event
) -> None:
    dakar = network["events"]["Dakar"]
    with pytest.raises(ApplicationError, match="plays a multiplex"):
        event_update(event=dakar, solo_bonus=5)
    with pytest.raises(ApplicationError, match="plays a multiplex"):
        event_update(event=hub_event, bingo_bonus=40)
    binche = network["events"]["Binche"]
    round_draw(game=game_start(event=binche))
    Multiplex.objects.filter(pk=hub_event.multiplex.pk).update(max_delay_minutes=0)
    HubRound.objects.update(drawn_at=timezone.now() - dt.timedelta(minutes=5))
    HubGame.objects.update(started_at=timezone.now() - dt.timedelta(minutes=5))
    report = centre_service.hub_sync(event=dakar)  # too late for game 1: refused, not raised
    assert report.reached and "at most 0 minutes late" in report.refused[0]
    link = HubLink.objects.get(event=dakar)
    assert "at most 0 minutes late" in link.last_error and link.sync_until is None


def test_a_centre_too_late_for_a_game_skips_it_and_plays_the_next(
    network: dict[str, Any], hub_event: Event
) -> None:
    """Its game 1 ended without a round, the centre's game 2 is the hub's game 2."""
    binche, rabat = network["events"]["Binche"], network["events"]["Rabat"]
    drawing = game_start(event=binche)
    first = round_draw(game=drawing)
    assert first is not None
    round_place(round=play(first, 1))
    HubGame.objects.update(started_at=timezone.now() - dt.timedelta(minutes=91))
    assert "at most 90 minutes late" in centre_service.hub_sync(event=rabat).refused[0]
    skipped = game_start(event=rabat)
    with pytest.raises(ApplicationError, match="has not published round 1 yet"):
        round_draw(game=skipped)
    game_end(game=skipped, reason="stopped")

    game_end(game=drawing, reason="stopped")  # round 2 drawn: the hub's game 1 ends on it
    second = round_draw(game=game_start(event=binche))
    assert second is not None and second.game.number == 2
    round_place(round=play(second, 1), draw_next=False)
    report = centre_service.hub_sync(event=rabat)
    assert report.refused == [] and report.fetched == 1
    assert not HubLink.objects.get(event=rabat).last_error  # the refusal is over
    mine = round_draw(game=game_start(event=rabat))
    assert mine is not None and (mine.game.number, mine.number, mine.rack) == (2, 1, second.rack)
    round_place(round=play(mine, 3), draw_next=False)
    centre_service.hub_sync(event=rabat)
    assert CentreRuling.objects.filter(player__centre__name="Rabat", serving__round__game=2).count() == 3
    assert not CentreRuling.objects.filter(player__centre__name="Rabat", serving__round__game=1).exists()


def test_one_sync_at_a_time(network: dict[str, Any]) -> None:
    dakar = network["events"]["Dakar"]
    HubLink.objects.filter(event=dakar).update(sync_until=timezone.now() + dt.timedelta(minutes=1))
    before = network["hubs"]["Dakar"].requests
    report = centre_service.hub_sync(event=dakar)
    assert not report.reached and "another sync" in report.error
    assert network["hubs"]["Dakar"].requests == before


def test_a_centre_sends_its_roster_at_its_join_and_again_when_its_players_change(hub_event: Event) -> None:
    _, key = centre_add(multiplex=hub_event.multiplex, name="Dakar")
    dakar = centre_event(hub_event, "Dakar", 3)
    ana = player_add(event=dakar, name="Ana", club="ASC Jaraaf")
    bea = player_add(event=dakar, name="Bea")
    cy = player_add(event=dakar, name="Cy")
    hub = ClientHub(key)
    centre_service.hub_join(event=dakar, url="http://hub.test", key=key, hub=hub)

    def roster() -> list[tuple[int, str, str, bool]]:
        players = CentrePlayer.objects.filter(centre__name="Dakar").order_by("table")
        return [(p.table, p.name, p.club, p.left_at is None) for p in players]

    assert roster() == [(1, "Ana", "ASC Jaraaf", True), (2, "Bea", "", True), (3, "Cy", "", True)]
    assert HubOutbox.objects.get(link__event=dakar, kind="roster").sent_at is not None
    requests = hub.requests
    assert centre_service.hub_sync(event=dakar, hub=hub).sent == 0  # nothing changed: nothing sent
    # Corrected, removed, withdrawn (stays: their rounds so far rank), added: sent at the next sync.
    player_update(player=bea, name="Béa", table=bea.table, by=None)
    player_remove(player=cy, by=None)
    player_withdraw(player=ana, by=None)
    player_add(event=dakar, name="Dee", table=4)
    report = centre_service.hub_sync(event=dakar, hub=hub)
    assert report.sent == 1 and report.refused == [] and hub.requests > requests
    # Cy, removed before any ruling, is gone from the hub too (nothing pointed at them).
    assert roster() == [(1, "Ana", "ASC Jaraaf", True), (2, "Béa", "", True), (4, "Dee", "", True)]
    actions = HistoryEntry.objects.filter(event=hub_event, entity="centre_player").values_list(
        "action", flat=True
    )
    assert sorted(actions) == ["add", "add", "add", "add", "change", "leave"]
    assert hub_event.multiplex.centres.get(name="Dakar").roster_at is not None


def test_the_results_name_tables_only_and_go_after_the_roster(network: dict[str, Any]) -> None:
    """Dakar adds a fourth player while its link is down: the results naming them, queued
    before the roster, are taken since the roster is sent first."""
    events, hubs = network["events"], network["hubs"]
    binche, dakar = events["Binche"], events["Dakar"]
    drawing = game_start(event=binche)
    draw = round_draw(game=drawing)
    assert draw is not None
    round_place(round=play(draw, 1), draw_next=False)
    centre_service.hub_sync(event=dakar)
    hubs["Dakar"].online = False
    player_add(event=dakar, name="Dakar 4", virtual_level=6)
    game = game_start(event=dakar)
    mine = round_draw(game=game)
    assert mine is not None
    mine = play(mine, 2)
    round_place(round=mine, draw_next=False)
    payload = centre_service.results_payload(mine)
    assert set(payload) == {"rulings", "taking_part"} and len(payload["rulings"]) == 4
    # Queued before the roster (a sync without the roster's check): the roster still goes first.
    link = HubLink.objects.get(event=dakar)
    centre_service.results_queue(link)
    HubOutbox.objects.filter(link=link, kind="roster").update(queued_at=timezone.now())
    centre_service.roster_queue(link)
    hubs["Dakar"].online = True
    report = centre_service.hub_sync(event=dakar)
    assert report.refused == [], report.refused
    kept = CentreRuling.objects.filter(serving__centre__name="Dakar").select_related("player")
    assert sorted((r.player.table, r.player.name) for r in kept) == [(t, f"Dakar {t}") for t in range(1, 5)]
