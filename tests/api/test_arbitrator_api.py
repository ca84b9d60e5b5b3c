"""The arbitrator console through the API: players, games, draws, rounds, rulings, history.

Seed 7, game 1: round 1 is BFOIPOR with one top, 8H PROOF for 28; round 2 is BI+GOEOE
with two tops for 19, 9D BOOGIE and 7K BOGIE. A whole game is 22 rounds.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from typing import Any

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient
from rest_framework.throttling import ScopedRateThrottle

from scoring import adjudication as adj
from tests.api.helpers import assert_error, event_url, top_slip
from tests.tournaments.helpers import open_round_with_a_shift
from tournaments.models import Event, Game, HistoryEntry, Player, Round, Ruling, Slip
from tournaments.services.corrections import round_average
from tournaments.services.events import event_create
from tournaments.services.games import game_start, round_draw
from tournaments.services.players import player_add
from tournaments.services.rounds import round_close, round_open, round_place
from tournaments.services.slips import slip_submit

pytestmark = pytest.mark.django_db


def _close(round: Round) -> Round:
    round_close(round=round)
    round.refresh_from_db()
    assert round.state == Round.State.ADJUDICATED
    return round


# ------------------------------------------------------------------ players


def test_the_arbitrator_lists_the_players_with_their_licence(
    event: Event, players: list[Player], arbitrator_client: APIClient
) -> None:
    player_add(event=event, name="Bot", table=9, virtual_level=4)
    response = arbitrator_client.get(event_url(event, "players/"))
    assert response.status_code == 200
    assert [(p["table"], p["name"], p["category"], p["virtual_level"]) for p in response.json()] == [
        (1, "Player 1", "A", None),
        (2, "Player 2", "A", None),
        (3, "Player 3", "B", None),
        (9, "Bot", "", 4),
    ]
    assert set(response.json()[0]) == {
        "id",
        "name",
        "club",
        "licence",
        "category",
        "table",
        "virtual_level",
        "withdrawn_at",
        "paper_only",
        "seat_code",
    }


def test_a_player_is_corrected_withdrawn_and_removed_through_the_api(
    event: Event, players: list[Player], arbitrator_client: APIClient
) -> None:
    url = event_url(event, f"players/{players[0].pk}/")
    response = arbitrator_client.patch(url, {"name": "Anne Martin"}, format="json")
    assert response.status_code == 200, response.content
    assert (response.json()["name"], response.json()["table"]) == ("Anne Martin", players[0].table)
    assert_error(
        arbitrator_client.patch(url, {"table": players[1].table}, format="json"), 400, "application_error"
    )
    assert_error(arbitrator_client.patch(url, {"table": 0}, format="json"), 400, "invalid")
    withdraw = event_url(event, f"players/{players[0].pk}/withdraw/")
    assert_error(arbitrator_client.post(withdraw, {}, format="json"), 400, "invalid")
    response = arbitrator_client.post(withdraw, {"withdrawn": True}, format="json")
    assert response.status_code == 200 and response.json()["withdrawn_at"], response.content
    assert arbitrator_client.delete(url).status_code == 204
    assert not Player.objects.filter(pk=players[0].pk).exists()
    assert_error(arbitrator_client.get(url), 404, "not_found")


def test_the_arbitrator_adds_a_player_at_the_next_table(
    event: Event, players: list[Player], arbitrator_client: APIClient
) -> None:
    payload = {"name": " Anne ", "club": "Lyon", "licence": "F123", "category": "V"}
    response = arbitrator_client.post(event_url(event, "players/"), payload, format="json")
    assert response.status_code == 201, response.content
    body = response.json()
    player = Player.objects.get(pk=body["id"])
    assert body == {
        "id": player.pk,
        "name": "Anne",
        "club": "Lyon",
        "licence": "F123",
        "category": "V",
        "table": 4,
        "virtual_level": None,
        "withdrawn_at": None,
        "paper_only": False,
        "seat_code": player.seat_code,
    }
    assert player.event == event


def test_a_taken_table_is_refused(event: Event, players: list[Player], arbitrator_client: APIClient) -> None:
    response = arbitrator_client.post(
        event_url(event, "players/"), {"name": "Anne", "table": 2}, format="json"
    )
    error = assert_error(response, 400, "application_error")
    assert error["message"] == "table 2 already has a player"
    assert Player.objects.filter(event=event).count() == 3
    error = assert_error(
        arbitrator_client.post(event_url(event, "players/"), {"table": 0}, format="json"), 400, "invalid"
    )
    assert set(error["detail"]) == {"name", "table"}


def test_players_are_imported_from_csv(event: Event, players: list[Player], arbitrator_client) -> None:
    text = "Name;Club;Table;Category\nAnne;Lyon;10;V\nBruno;;;\n"
    response = arbitrator_client.post(event_url(event, "players/import/"), {"csv": text}, format="json")
    assert response.status_code == 201, response.content
    assert [(p["name"], p["club"], p["table"], p["category"]) for p in response.json()] == [
        ("Anne", "Lyon", 10, "V"),
        ("Bruno", "", 11, ""),
    ]
    assert Player.objects.filter(event=event).count() == 5


def test_a_bad_csv_line_refuses_the_whole_file(event: Event, players, arbitrator_client) -> None:
    text = "name,table\nAnne,20\nBruno,x\n"
    response = arbitrator_client.post(event_url(event, "players/import/"), {"csv": text}, format="json")
    error = assert_error(response, 400, "application_error")
    assert error["message"] == "line 3: table 'x' is not a number"
    assert Player.objects.filter(event=event).count() == 3
    assert_error(
        arbitrator_client.post(event_url(event, "players/import/"), {}, format="json"), 400, "invalid"
    )


# ------------------------------------------------------------------ games


def test_the_arbitrator_starts_a_game(event: Event, arbitrator, arbitrator_client: APIClient) -> None:
    response = arbitrator_client.post(event_url(event, "games/"))
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["number"] == 1 and body["state"] == "playing" and body["end_reason"] == ""
    assert body["ended_at"] is None
    entry = HistoryEntry.objects.get(entity="game", action="start")
    assert entry.actor == arbitrator and entry.actor_label == "arbitre"
    error = assert_error(arbitrator_client.post(event_url(event, "games/")), 400, "application_error")
    assert error["message"] == "a game of this event is still being played: end it first"
    assert Game.objects.filter(event=event).count() == 1


def test_the_arbitrator_ends_the_game_and_starts_the_next(
    event: Event, drawn: Round, arbitrator_client: APIClient
) -> None:
    end = event_url(event, "games/current/end/")
    error = assert_error(arbitrator_client.post(end, {"reason": "tired"}, format="json"), 400, "invalid")
    assert set(error["detail"]) == {"reason"}
    response = arbitrator_client.post(end, {"reason": "stopped"}, format="json")
    assert response.status_code == 200, response.content
    assert response.json()["number"] == 1 and response.json()["state"] == "ended"
    assert response.json()["end_reason"] == "stopped" and response.json()["ended_at"]
    nxt = arbitrator_client.post(event_url(event, "games/"))
    assert nxt.status_code == 201 and nxt.json()["number"] == 2


def test_an_open_round_must_be_closed_before_the_end(
    event: Event, open_round: Round, arbitrator_client: APIClient
) -> None:
    response = arbitrator_client.post(
        event_url(event, "games/current/end/"), {"reason": "stopped"}, format="json"
    )
    error = assert_error(response, 400, "application_error")
    assert error["message"].startswith("round 1 is still ")
    assert Game.objects.get().state == Game.State.PLAYING


def test_no_game_to_end_or_draw_is_not_found(event: Event, arbitrator_client: APIClient) -> None:
    for tail, payload in (("games/current/end/", {"reason": "stopped"}), ("rounds/draw/", {})):
        error = assert_error(
            arbitrator_client.post(event_url(event, tail), payload, format="json"), 404, "not_found"
        )
        assert error["message"] == "no game has been started in this event yet"


# ------------------------------------------------------------------ draws


def test_a_random_draw_returns_the_round_with_its_tops(event: Event, game: Game, arbitrator_client) -> None:
    response = arbitrator_client.post(event_url(event, "rounds/draw/"), {}, format="json")
    assert response.status_code == 201, response.content
    body = response.json()
    assert (body["game"], body["number"], body["state"]) == (1, 1, "drawn")
    assert (body["rack"], body["reliquat"], body["new_tiles"]) == ("BFOIPOR", "", "BFOIPOR")
    assert body["rejected"] == [] and body["manual"] is False
    assert body["tops"] == ["8H PROOF"] and body["top_score"] == 28 and body["move_count"] == 110
    error = assert_error(arbitrator_client.post(event_url(event, "rounds/draw/")), 400, "application_error")
    assert error["message"] == "round 1 is not placed yet"


def test_a_typed_rack_is_drawn_with_its_rejections(event: Event, game: Game, arbitrator_client) -> None:
    payload = {"typed": "AEIRSTN", "rejected": ["BCDFGHJ"]}
    response = arbitrator_client.post(event_url(event, "rounds/draw/"), payload, format="json")
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["rack"] == "AEIRSTN" and body["manual"] is True and body["rejected"] == ["BCDFGHJ"]
    assert body["top_score"] == 66
    entry = HistoryEntry.objects.get(entity="round", action="draw")
    assert entry.new["manual"] is True and entry.new["rejected"] == ["BCDFGHJ"]


@pytest.mark.parametrize(
    ("typed", "reason"),
    [
        ("QQAEIOU", "there is no second Q in the bag"),
        ("BCDFGHJ", "the rack needs at least 2 vowels in round 1 (it has 0)"),
        ("AEIRST", "the rack must hold 7 tiles, not 6"),
    ],
)
def test_a_refused_typed_rack_says_why(event: Event, game: Game, arbitrator_client, typed, reason) -> None:
    response = arbitrator_client.post(event_url(event, "rounds/draw/"), {"typed": typed}, format="json")
    assert assert_error(response, 400, "application_error")["message"] == reason
    assert not Round.objects.exists()


def test_rejected_racks_come_with_a_typed_rack(event: Event, game: Game, arbitrator_client) -> None:
    response = arbitrator_client.post(
        event_url(event, "rounds/draw/"), {"rejected": ["BCDFGHJ"]}, format="json"
    )
    assert set(assert_error(response, 400, "invalid")["detail"]) == {"rejected"}
    assert not Round.objects.exists()


def test_a_whole_game_through_the_api_ends_with_the_draw_rule(
    event: Event, game: Game, arbitrator_client: APIClient
) -> None:
    rounds = 0
    response = arbitrator_client.post(event_url(event, "rounds/draw/"))
    while response.status_code == 201:
        rounds += 1
        assert arbitrator_client.post(event_url(event, "rounds/current/open/")).status_code == 200
        assert arbitrator_client.post(event_url(event, "rounds/current/close/")).status_code == 200
        placed = arbitrator_client.post(event_url(event, "rounds/current/place/"), {"draw_next": False})
        assert placed.status_code == 200 and placed.json()["next"] is None, placed.content
        response = arbitrator_client.post(event_url(event, "rounds/draw/"))
    assert response.status_code == 200, response.content
    assert rounds == 22
    body = response.json()
    assert body["game_over"] is True
    assert body["game"]["number"] == 1 and body["game"]["state"] == "ended"
    assert body["game"]["end_reason"] == "draw_rule"


# ------------------------------------------------------------------ open, paper slips, watch


def test_the_arbitrator_opens_the_round_for_the_seconds_given(
    event: Event, drawn: Round, arbitrator_client
) -> None:
    response = arbitrator_client.post(
        event_url(event, "rounds/current/open/"), {"seconds": 60}, format="json"
    )
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["state"] == "open" and body["rack"] == "BFOIPOR"
    opened, deadline = (dt.datetime.fromisoformat(body[k]) for k in ("opened_at", "deadline"))
    assert deadline - opened == dt.timedelta(seconds=60)
    error = assert_error(
        arbitrator_client.post(event_url(event, "rounds/current/open/")), 400, "application_error"
    )
    assert "cannot be opened" in error["message"]


def test_the_event_time_is_the_default_and_seconds_are_validated(
    event: Event, drawn: Round, arbitrator_client
) -> None:
    url = event_url(event, "rounds/current/open/")
    assert set(assert_error(arbitrator_client.post(url, {"seconds": 0}), 400, "invalid")["detail"]) == {
        "seconds"
    }
    body = arbitrator_client.post(url).json()
    opened, deadline = (dt.datetime.fromisoformat(body[k]) for k in ("opened_at", "deadline"))
    assert deadline - opened == dt.timedelta(seconds=180)


def test_the_arbitrator_types_a_paper_slip_for_a_table(
    event: Event, open_round: Round, players, arbitrator, arbitrator_client
) -> None:
    payload = {"table": 2, "coordinates": "8H", "word": "PROOF", "announced_score": 28}
    response = arbitrator_client.post(event_url(event, "rounds/current/slips/"), payload, format="json")
    assert response.status_code == 201, response.content
    slip = Slip.objects.get(pk=response.json()["id"])
    assert slip.player == players[1] and slip.source == Slip.Source.PAPER and slip.entered_by == arbitrator
    assert (slip.coordinates, slip.word, slip.announced_score, slip.late) == ("8H", "PROOF", 28, False)
    entry = HistoryEntry.objects.get(entity="slip", object_id=slip.pk)
    assert entry.action == "submit" and entry.actor_label == "arbitre" and entry.new["source"] == "paper"


def test_a_paper_slip_for_an_empty_table_is_refused(
    event: Event, open_round: Round, arbitrator_client
) -> None:
    payload = {"table": 99, "coordinates": "8H", "word": "PROOF"}
    error = assert_error(
        arbitrator_client.post(event_url(event, "rounds/current/slips/"), payload, format="json"),
        400,
        "invalid",
    )
    assert error["detail"] == {"table": ["no player at table 99"]}
    assert not Slip.objects.exists()


def test_paper_slips_are_not_throttled(
    event: Event, open_round: Round, arbitrator_client, monkeypatch
) -> None:
    monkeypatch.setitem(ScopedRateThrottle.THROTTLE_RATES, "slips", "1/min")
    for table in (1, 2, 3):
        payload = {"table": table, "coordinates": "8H", "word": "PROOF", "announced_score": 28}
        response = arbitrator_client.post(event_url(event, "rounds/current/slips/"), payload, format="json")
        assert response.status_code == 201
    assert Slip.objects.filter(source=Slip.Source.PAPER).count() == 3


def test_the_watch_shows_who_has_handed_in(
    event: Event, open_round: Round, players, p1: APIClient, arbitrator_client
) -> None:
    slips = event_url(event, "rounds/current/slips/")
    p1.post(slips, top_slip(open_round), format="json")
    arbitrator_client.post(slips, {"table": 2, "coordinates": "8H", "word": "FOB"}, format="json")
    response = arbitrator_client.get(event_url(event, "rounds/current/watch/"))
    assert response.status_code == 200
    body = response.json()
    assert (body["received"], body["expected"], body["missing_tables"]) == (2, 3, [3])
    assert [(s["player"]["table"], s["source"], s["entered_by"]) for s in body["slips"]] == [
        (2, "paper", "arbitre"),
        (1, "phone", None),
    ]


# ------------------------------------------------------------------ review and rulings


@pytest.fixture
def ruled(event: Event, open_round: Round, players: list[Player]) -> Round:
    """Table 1 found the top, table 2 a lower move with a wrong score, table 3 nothing."""
    slip_submit(round=open_round, player=players[0], coordinates="8H", word="PROOF", announced_score=28)
    slip_submit(round=open_round, player=players[1], coordinates="8H", word="FOB", announced_score=15)
    return _close(open_round)


def test_the_review_groups_the_rulings_by_move(
    event: Event, ruled: Round, players, arbitrator_client
) -> None:
    response = arbitrator_client.get(event_url(event, "rounds/current/review/"))
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["round"]["number"] == 1 and body["round"]["tops"] == ["8H PROOF"]
    assert [
        (g["shown"], g["score"], g["is_top"], [r["player"]["table"] for r in g["rulings"]])
        for g in body["groups"]
    ] == [
        ("8H PROOF", 28, True, [1]),
        ("8H FOB", 16, False, [2]),
    ]
    second = body["groups"][1]["rulings"][0]
    assert (second["credited"], second["warnings"], second["reason"]) == (16, 1, "ok")
    assert second["slip"]["announced_score"] == 15
    assert [r["player"]["table"] for r in body["missing"]] == [3]
    assert body["missing"][0]["slip"] is None and body["missing"][0]["credited"] == 0
    assert [r["player"]["table"] for r in body["found_top"]] == [1]
    assert body["invalid"] == body["late"] == body["overridden"] == body["solos"] == []
    assert len(body["rulings"]) == 3


def test_the_review_waits_for_the_adjudication(event: Event, open_round: Round, arbitrator_client) -> None:
    error = assert_error(
        arbitrator_client.get(event_url(event, "rounds/current/review/")), 400, "application_error"
    )
    assert error["message"] == "round 1 is not adjudicated yet"
    assert error["detail"] == {"reason": "not_adjudicated", "state": "open"}
    french = arbitrator_client.get(event_url(event, "rounds/current/review/"), HTTP_ACCEPT_LANGUAGE="fr")
    assert assert_error(french, 400, "application_error")["message"] == "le coup 1 n’est pas encore jugé"


def test_a_closed_round_whose_rulings_were_lost_is_ruled_again(
    event: Event, ruled: Round, players, arbitrator, arbitrator_client
) -> None:
    # As a worker that died with the round: closed, its rulings never written.
    Ruling.objects.filter(round=ruled).delete()
    Round.objects.filter(pk=ruled.pk).update(state=Round.State.CLOSED)
    response = arbitrator_client.post(event_url(event, "rounds/current/rule-again/"))
    assert response.status_code == 200, response.content
    body = response.json()
    assert (body["game"], body["number"], body["state"], body["tops"]) == (1, 1, "adjudicated", ["8H PROOF"])
    credited = dict(Ruling.objects.filter(round=ruled).values_list("player__table", "credited"))
    assert credited == {1: 28, 2: 16, 3: 0}
    entry = HistoryEntry.objects.get(entity="round", object_id=ruled.pk, action="rule_again")
    assert entry.actor == arbitrator and entry.old == {"state": "closed"}


def test_only_a_closed_round_is_ruled_again(
    event: Event, open_round: Round, arbitrator_client, p1: APIClient
) -> None:
    url = event_url(event, "rounds/current/rule-again/")
    error = assert_error(arbitrator_client.post(url), 400, "application_error")
    assert error["message"] == "round 1 is open: only a closed round is ruled"
    assert_error(p1.post(url), 403, "permission_denied")
    open_round.refresh_from_db()
    assert open_round.state == Round.State.OPEN
    assert not HistoryEntry.objects.filter(action="rule_again").exists()


def test_the_arbitrator_reads_the_ruling_of_a_table(
    event: Event, ruled: Round, players, arbitrator_client
) -> None:
    url = event_url(event, "rounds/current/ruling/")
    body = arbitrator_client.get(url + "?table=2").json()
    assert (body["game"], body["round"], body["player"]["id"]) == (1, 1, players[1].pk)
    assert (body["move"], body["move_score"], body["credited"], body["warnings"]) == ("8H FOB", 16, 16, 1)
    assert set(assert_error(arbitrator_client.get(url), 400, "invalid")["detail"]) == {"table"}
    assert_error(arbitrator_client.get(url + "?table=99"), 404, "not_found")


def test_the_arbitrator_overrides_a_ruling_with_a_reason(
    event: Event, ruled: Round, players, arbitrator, arbitrator_client
) -> None:
    ruling = Ruling.objects.get(round=ruled, player=players[2])
    url = event_url(event, f"rulings/{ruling.pk}/override/")
    error = assert_error(arbitrator_client.post(url, {"credited": 28}, format="json"), 400, "invalid")
    assert set(error["detail"]) == {"reason"}
    payload = {"credited": 28, "warnings": 0, "penalty": 0, "reason": "slip found under the table"}
    response = arbitrator_client.post(url, payload, format="json")
    assert response.status_code == 200, response.content
    body = response.json()
    assert (body["credited"], body["overridden"], body["reason"]) == (28, True, adj.Reason.OVERRIDDEN)
    assert body["override_reason"] == "slip found under the table" and body["ruled_by"] == "arbitre"
    entry = HistoryEntry.objects.get(entity="ruling", object_id=ruling.pk, action="override")
    assert entry.old["credited"] == 0 and entry.new["credited"] == 28 and entry.actor == arbitrator


def test_a_ruling_of_another_event_is_not_found(
    event: Event, ruled: Round, enable_lexicon, arbitrator_client
) -> None:
    other = event_create(name="Other", starts_on=event.starts_on, lexicon=enable_lexicon, random_seed=7)
    stranger = player_add(event=other, name="Stranger")
    round = round_open(round=round_draw(game=game_start(event=other)))
    round_close(round=round)
    foreign = Ruling.objects.get(player=stranger)
    payload = {"credited": 50, "reason": "wrong event"}
    response = arbitrator_client.post(
        event_url(event, f"rulings/{foreign.pk}/override/"), payload, format="json"
    )
    assert_error(response, 404, "not_found")
    assert Ruling.objects.get(pk=foreign.pk).credited == 0


def test_the_arbitrator_accepts_a_shifted_reference(
    event: Event, game: Game, players, arbitrator, arbitrator_client
) -> None:
    round, (coordinates, word, top) = open_round_with_a_shift(game)
    slip_submit(
        round=round, player=players[0], coordinates=coordinates, word=word, announced_score=round.top_score
    )
    ruling = Ruling.objects.get(round=_close(round), player=players[0])
    assert ruling.credited == 0 and ruling.shift_candidate == top
    url = event_url(event, f"rulings/{ruling.pk}/accept-shift/")
    response = arbitrator_client.post(url, {"reason": "one square off"}, format="json")
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["reason"] == adj.Reason.SHIFT_ACCEPTED and body["is_top"] is True
    assert (
        body["credited"] == round.top_score - event.shift_penalty and body["penalty"] == event.shift_penalty
    )
    entry = HistoryEntry.objects.get(entity="ruling", object_id=ruling.pk, action="accept_shift")
    assert entry.reason == "one square off" and entry.actor == arbitrator


def test_a_ruling_without_a_shift_cannot_accept_one(
    event: Event, ruled: Round, players, arbitrator_client
) -> None:
    ruling = Ruling.objects.get(round=ruled, player=players[1])
    response = arbitrator_client.post(
        event_url(event, f"rulings/{ruling.pk}/accept-shift/"), {}, format="json"
    )
    assert (
        assert_error(response, 400, "application_error")["message"]
        == "this slip has no nearby placement to accept"
    )


def test_a_stale_shift_is_a_refusal_not_a_server_error(
    event: Event, ruled: Round, players, arbitrator_client, monkeypatch
) -> None:
    ruling = Ruling.objects.get(round=ruled, player=players[1])
    Ruling.objects.filter(pk=ruling.pk).update(shift_candidate="8G FOB")

    def stale(*args: object, **kwargs: object) -> None:
        raise ValueError("8G FOB is not the shifted placement of this slip on this board")

    # The re-adjudication finds a fresh candidate only for a real shift: force the check.
    real = adj.adjudicate_slips

    def with_candidate(*args: Any, **kwargs: Any) -> adj.Verdict:
        return dataclasses.replace(real(*args, **kwargs), shift_candidate="8G FOB")

    monkeypatch.setattr(adj, "accept_shift", stale)
    monkeypatch.setattr(adj, "adjudicate_slips", with_candidate)
    response = arbitrator_client.post(
        event_url(event, f"rulings/{ruling.pk}/accept-shift/"), {}, format="json"
    )
    error = assert_error(response, 400, "application_error")
    # The placement offered, named in the event's notation (GCG here).
    assert error["message"] == "the shifted placement no longer fits: 8G FOB"
    assert error["detail"] == {"reason": "stale_shift"}
    ruling.refresh_from_db()
    assert ruling.reason == adj.Reason.OK and ruling.credited == 16


# ------------------------------------------------------------------ top and placement


def test_the_arbitrator_chooses_one_of_equal_tops(event: Event, drawn: Round, arbitrator_client) -> None:
    round_open(round=drawn)
    _close(drawn)
    round_place(round=drawn)
    second = _close(round_open(round=Round.objects.get(game=drawn.game, number=2)))
    assert second.tops == ["9D BOOGIE", "7K BOGIE"]
    response = arbitrator_client.post(
        event_url(event, "rounds/current/top/"), {"move": "7K BOGIE"}, format="json"
    )
    assert response.status_code == 200, response.content
    body = response.json()
    assert (
        body["warning"] == ""
        and body["round"]["chosen"] == "7K BOGIE"
        and body["round"]["chosen_score"] == 19
    )


def test_a_lower_move_needs_a_confirmation(event: Event, open_round: Round, arbitrator_client) -> None:
    _close(open_round)
    url = event_url(event, "rounds/current/top/")
    error = assert_error(
        arbitrator_client.post(url, {"move": "8H FOB"}, format="json"), 400, "application_error"
    )
    assert error["detail"] == {"warning": "8H FOB scores 16, the top is 28"}
    assert Round.objects.get(pk=open_round.pk).chosen == ""
    response = arbitrator_client.post(url, {"move": "8H FOB", "confirm_lower": True}, format="json")
    assert response.status_code == 200
    assert response.json()["warning"] == "8H FOB scores 16, the top is 28"
    assert (response.json()["round"]["chosen"], response.json()["round"]["chosen_score"]) == ("8H FOB", 16)
    placed = arbitrator_client.post(
        event_url(event, "rounds/current/place/"), {"draw_next": False}, format="json"
    )
    assert placed.json()["placed"]["chosen"] == "8H FOB" and placed.json()["placed"]["state"] == "placed"


def test_an_illegal_top_is_refused(event: Event, open_round: Round, arbitrator_client) -> None:
    _close(open_round)
    response = arbitrator_client.post(
        event_url(event, "rounds/current/top/"), {"move": "8H BRIO"}, format="json"
    )
    assert_error(response, 400, "application_error")
    assert Round.objects.get(pk=open_round.pk).chosen == ""


def test_placing_draws_the_next_rack(event: Event, open_round: Round, arbitrator_client) -> None:
    _close(open_round)
    response = arbitrator_client.post(event_url(event, "rounds/current/place/"), {}, format="json")
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["placed"]["number"] == 1 and body["placed"]["state"] == "placed"
    assert (body["placed"]["chosen"], body["placed"]["chosen_score"]) == ("8H PROOF", 28)
    assert body["next"]["number"] == 2 and body["next"]["state"] == "drawn"
    assert (body["next"]["reliquat"], body["next"]["new_tiles"]) == ("BI", "GOEOE")
    assert body["next"]["tops"] == ["9D BOOGIE", "7K BOGIE"] and body["game_over"] is False


def test_placing_with_a_typed_rack_places_nothing_when_the_rack_is_refused(
    event: Event, open_round: Round, arbitrator_client
) -> None:
    _close(open_round)
    url = event_url(event, "rounds/current/place/")
    refused = arbitrator_client.post(url, {"typed": "ZZZZZZZ"}, format="json")
    error = assert_error(refused, 400, "application_error")
    assert "reliquat" in error["message"]  # the reason
    assert Round.objects.get(pk=open_round.pk).state == Round.State.ADJUDICATED  # not placed
    assert Round.objects.filter(game=open_round.game).count() == 1
    # The rack as drawn from the bag (the reliquat BI, then five of the bag's tiles): placed.
    response = arbitrator_client.post(url, {"typed": "BIGOEOE"}, format="json")
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["placed"]["state"] == "placed" and (body["next"]["reliquat"], body["next"]["new_tiles"]) == (
        "BI",
        "GOEOE",
    )


def test_placing_without_the_next_draw(event: Event, open_round: Round, arbitrator_client) -> None:
    _close(open_round)
    response = arbitrator_client.post(
        event_url(event, "rounds/current/place/"), {"draw_next": False}, format="json"
    )
    assert response.json()["next"] is None and response.json()["game_over"] is False
    assert Round.objects.filter(game=open_round.game).count() == 1


def test_an_open_round_cannot_be_placed(event: Event, open_round: Round, arbitrator_client) -> None:
    error = assert_error(
        arbitrator_client.post(event_url(event, "rounds/current/place/")), 400, "application_error"
    )
    assert error["message"].endswith("adjudicate it first")
    assert Round.objects.get(pk=open_round.pk).state == Round.State.OPEN


# ------------------------------------------------------------------ history and live


def test_the_history_is_newest_first_and_paginated(
    event: Event, game: Game, arbitrator_client: APIClient
) -> None:
    arbitrator_client.post(event_url(event, "rounds/draw/"))
    arbitrator_client.post(event_url(event, "rounds/current/open/"), {"seconds": 90}, format="json")
    response = arbitrator_client.get(event_url(event, "history/?limit=2"))
    assert response.status_code == 200
    body = response.json()
    assert body["count"] == 6 and body["next"] and body["previous"] is None  # 3 players, start, draw, open
    assert [(e["entity"], e["action"], e["actor_label"]) for e in body["results"]] == [
        ("round", "open", "arbitre"),
        ("round", "draw", "arbitre"),
    ]
    first = body["results"][0]
    assert set(first) == {"id", "entity", "object_id", "action", "actor_label", "at", "old", "new", "reason"}
    assert first["old"] is None and first["new"]["deadline"]
    rest = arbitrator_client.get(event_url(event, "history/?limit=2&offset=2")).json()
    assert [(e["entity"], e["action"], e["actor_label"]) for e in rest["results"]] == [
        ("game", "start", "system"),
        ("player", "add", "system"),
    ]


def test_the_arbitrator_live_versions_move_with_every_slip(
    event: Event, open_round: Round, p1: APIClient, arbitrator_client: APIClient
) -> None:
    before = arbitrator_client.get(event_url(event, "live/")).json()
    assert set(before) == {"public", "full", "deadline", "state", "now"}
    assert before["state"] == "open" and dt.datetime.fromisoformat(before["deadline"]) == open_round.deadline
    p1.post(event_url(event, "rounds/current/slips/"), top_slip(open_round), format="json")
    after = arbitrator_client.get(event_url(event, "live/")).json()
    assert after["public"] == before["public"] and after["full"] != before["full"]


def test_the_arbitrator_is_the_events_creator_or_staff(event: Event, open_round: Round) -> None:
    staff = APIClient()
    staff.force_authenticate(User.objects.create_user("boss", is_staff=True))
    assert staff.get(event_url(event, "rounds/current/watch/")).status_code == 200
    inactive = APIClient()
    inactive.force_authenticate(User.objects.create_user("gone", is_staff=True, is_active=False))
    assert_error(inactive.get(event_url(event, "rounds/current/watch/")), 403, "permission_denied")


# ------------------------------------------------------------------ exports


def test_the_exports_are_the_consoles_files(
    event: Event, open_round: Round, players: list[Player], arbitrator_client: APIClient
) -> None:
    import json

    from tests.api.helpers import place
    from tournaments import exports

    slip_submit(round=open_round, player=players[0], **top_slip(open_round))
    place(open_round)
    game = open_round.game
    record = arbitrator_client.get(event_url(event, "exports/record/"))
    assert record.status_code == 200 and record["Content-Type"] == "application/json"
    assert json.loads(record.content) == json.loads(exports.record_json(game))
    assert json.loads(record.content)["rounds"][0]["played"] == "8H PROOF"
    gcg = arbitrator_client.get(event_url(event, "exports/gcg/"), {"game": 1})
    assert gcg["Content-Type"] == "text/plain; charset=utf-8"
    assert ">Top: BFOIPOR 8H PROOF +28 28" in gcg.content.decode()
    standings = arbitrator_client.get(event_url(event, "exports/standings/"), {"game": 1})
    assert standings["Content-Type"] == "text/csv; charset=utf-8"
    assert standings.content == exports.standings_csv(event, 1)
    slips = arbitrator_client.get(event_url(event, "exports/slips/"))
    assert slips.content == exports.slips_csv(event)
    assert_error(arbitrator_client.get(event_url(event, "exports/secrets/")), 404, "not_found")
    assert_error(arbitrator_client.get(event_url(event, "exports/record/"), {"game": 5}), 404, "not_found")
    assert_error(arbitrator_client.get(event_url(event, "exports/record/"), {"game": "x"}), 400, "invalid")


def test_the_arbitrator_credits_the_average_instead_of_a_repeated_zero(
    event: Event, game: Game, players, arbitrator, arbitrator_client
) -> None:
    round = round_open(round=round_draw(game=game))
    coordinates, word = round.tops[0].split()
    slip_submit(round=round, player=players[0], coordinates=coordinates, word=word[::-1], announced_score=1)
    slip_submit(
        round=round, player=players[1], coordinates=coordinates, word=word, announced_score=round.top_score
    )
    ruling = Ruling.objects.get(round=_close(round), player=players[0])
    average = round_average(ruling)
    response = arbitrator_client.post(event_url(event, f"rulings/{ruling.pk}/average/"), {}, format="json")
    assert response.status_code == 200, response.content
    assert (response.json()["reason"], response.json()["credited"]) == (adj.Reason.AVERAGE, average)
    entry = HistoryEntry.objects.get(entity="ruling", object_id=ruling.pk, action="average")
    assert entry.actor == arbitrator
    other = Ruling.objects.get(round=round, player=players[2])  # no slip: no average
    response = arbitrator_client.post(event_url(event, f"rulings/{other.pk}/average/"), {}, format="json")
    assert response.status_code == 400, response.content
    assert Ruling.objects.get(pk=other.pk).reason == adj.Reason.MISSING


def test_a_closed_round_is_reopened_through_the_api(
    event: Event, open_round: Round, arbitrator_client
) -> None:
    _close(open_round)
    url = event_url(event, "rounds/current/reopen/")
    assert_error(arbitrator_client.post(url, {"seconds": 0}, format="json"), 400, "invalid")
    response = arbitrator_client.post(url, {"seconds": 30}, format="json")
    assert response.status_code == 200, response.content
    assert response.json()["state"] == "open"
    assert_error(arbitrator_client.post(url, {}, format="json"), 400, "application_error")  # open now


def test_the_clock_is_paused_resumed_and_given_time_through_the_api(
    event: Event, open_round: Round, arbitrator_client
) -> None:
    pause = event_url(event, "rounds/current/pause/")
    response = arbitrator_client.post(pause)
    assert response.status_code == 200, response.content
    assert response.json()["paused_at"] is not None and response.json()["state"] == "open"
    assert_error(arbitrator_client.post(pause), 400, "application_error")  # paused already
    add = event_url(event, "rounds/current/add-time/")
    assert_error(arbitrator_client.post(add, {}, format="json"), 400, "invalid")
    assert_error(arbitrator_client.post(add, {"seconds": 0}, format="json"), 400, "invalid")
    before = Round.objects.get(pk=open_round.pk).deadline
    response = arbitrator_client.post(add, {"seconds": 45}, format="json")
    assert response.status_code == 200, response.content
    assert Round.objects.get(pk=open_round.pk).deadline - before == dt.timedelta(seconds=45)
    response = arbitrator_client.post(event_url(event, "rounds/current/resume/"))
    assert response.status_code == 200, response.content
    assert response.json()["paused_at"] is None
    assert [e.action for e in HistoryEntry.objects.filter(entity="round", object_id=open_round.pk)][-3:] == [
        "pause",
        "add_time",
        "resume",
    ]


def test_the_last_placement_is_undone_through_the_api(
    event: Event, open_round: Round, arbitrator_client
) -> None:
    _close(open_round)
    arbitrator_client.post(event_url(event, "rounds/current/place/"), {}, format="json")
    url = event_url(event, "rounds/undo-placement/")
    response = arbitrator_client.post(url)
    assert response.status_code == 200, response.content
    assert response.json()["number"] == 1 and response.json()["state"] == "adjudicated"
    assert Round.objects.filter(game=open_round.game).count() == 1
    error = assert_error(arbitrator_client.post(url), 400, "application_error")
    assert "no move" in error["message"]


def test_the_arbitrator_lists_confirms_and_refuses_waiting_phones_and_renews_a_seat_code(
    event: Event, players: list[Player], arbitrator_client: APIClient
) -> None:
    event.seating = Event.Seating.CONFIRM
    event.save()
    asked = [
        APIClient(REMOTE_ADDR=f"10.0.0.{n}")
        .post(event_url(event, "join/"), {"code": event.code, "table": 1}, format="json")
        .json()
        for n in (2, 3)
    ]
    waiting = arbitrator_client.get(event_url(event, "joins/")).json()
    assert [(w["table"], w["number"]) for w in waiting] == [(1, a["number"]) for a in asked]
    first, second = (w["id"] for w in waiting)
    assert arbitrator_client.post(event_url(event, f"joins/{second}/refuse/")).status_code == 204
    assert arbitrator_client.post(event_url(event, f"joins/{first}/confirm/")).status_code == 204
    assert arbitrator_client.get(event_url(event, "joins/")).json() == []
    # A confirmed phone is no longer a request: 404, as for another event's.
    assert_error(arbitrator_client.post(event_url(event, f"joins/{first}/refuse/")), 404, "not_found")
    phone = APIClient()
    phone.credentials(HTTP_AUTHORIZATION=f"Player {asked[0]['token']}")
    assert phone.get(event_url(event)).status_code == 200
    old = players[0].seat_code
    renewed = arbitrator_client.post(event_url(event, f"players/{players[0].pk}/seat-code/")).json()
    assert renewed["seat_code"] != old
    assert_error(phone.get(event_url(event)), 401, "authentication_failed")
    # A player's phone may not do any of it.
    assert phone.get(event_url(event, "joins/")).status_code in (401, 403)
