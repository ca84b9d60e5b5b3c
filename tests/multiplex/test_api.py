"""The multiplex over HTTP (multiplex/api.py): the hub arbitrator sets it up, the centres'
software reads rounds, closes them and sends results with its centre key only."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from multiplex.models import Serving
from solver.game import Game as SolverGame
from tests.api.helpers import assert_error, event_url
from tournaments.models import Event, HistoryEntry
from tournaments.state import event_config, solver_lexicon

DIGEST = "0f" * 32


def centre_client(key: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Centre {key}")
    return client


@pytest.fixture
def staff(arbitrator: User) -> APIClient:
    client = APIClient()
    client.force_authenticate(arbitrator)
    return client


@pytest.fixture
def hub(event: Event, staff: APIClient) -> dict[str, Any]:
    response = staff.post(event_url(event, "multiplex/"), {"max_delay_minutes": 30}, format="json")
    assert response.status_code == 201, response.content
    keys = {}
    for name, draws in (("Binche", True), ("Dakar", False), ("Rabat", False)):
        body = {"name": name, "draws": draws}
        added = staff.post(event_url(event, "multiplex/centres/"), body, format="json")
        assert added.status_code == 201, added.content
        keys[name] = added.json()["key"]
    return {"draw": centre_client(keys["Binche"]), "a": centre_client(keys["Dakar"]),
            "b": centre_client(keys["Rabat"]), "keys": keys}  # fmt: skip


def _draw_and_place(event: Event, draw: APIClient, rounds: int) -> list[Any]:
    """The draw centre plays ``rounds`` rounds of game 1 and publishes each over HTTP."""
    game = SolverGame(event_config(event, 11), solver_lexicon(event.lexicon))
    records = []
    for number in range(1, rounds + 1):
        drawn = game.draw()
        assert drawn is not None
        reliquat, new, rejected = drawn.texts()
        url = f"/api/hub/games/1/rounds/{number}/"
        body = {"rack": reliquat + new, "rejected": list(rejected)}
        response = draw.post(url + "draw/", body, format="json")
        assert response.status_code == 201, response.content
        assert response.json()["top"] is None
        record = game.play(drawn, game.analyse(list(drawn.rack)))
        response = draw.post(url + "top/", {"played": record.played, "score": record.score}, format="json")
        assert response.status_code == 200, response.content
        assert response.json()["top"]["played"] == record.played
        records.append(record)
    return records


def test_the_arbitrator_sets_up_the_hub_and_sees_each_key_once(
    event: Event, staff: APIClient, hub: dict[str, Any]
) -> None:
    status = staff.get(event_url(event, "multiplex/")).json()
    assert [c["name"] for c in status["centres"]] == ["Binche", "Dakar", "Rabat"]
    assert "Binche" in hub["keys"] and all("key" not in c for c in status["centres"])
    assert_error(staff.post(event_url(event, "multiplex/"), {}, format="json"), 400, "application_error")
    duplicate = staff.post(event_url(event, "multiplex/centres/"), {"name": "Dakar"}, format="json")
    assert "already named Dakar" in assert_error(duplicate, 400, "application_error")["message"]
    # A player or a stranger gets nothing.
    assert_error(APIClient().get(event_url(event, "multiplex/")), 401, "not_authenticated")


def test_a_centre_reads_the_hub_with_its_key_and_nothing_else(
    event: Event, arbitrator: User, staff: APIClient, hub: dict[str, Any]
) -> None:
    info = hub["a"].get("/api/hub/").json()
    assert info["centre"]["name"] == "Dakar" and not info["centre"]["draws"]
    assert info["config"]["lexicon_checksum"] == event.lexicon.checksum and "seed" not in info["config"]
    assert info["adjudication"]["solo_bonus"] == event.solo_bonus
    assert_error(centre_client(hub["keys"]["Dakar"] + "x").get("/api/hub/"), 401, "authentication_failed")
    assert_error(APIClient().get("/api/hub/"), 401, "not_authenticated")
    # The hub arbitrator is not a centre, with a token or a session.
    token = APIClient()
    token.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=arbitrator).key}")
    assert_error(token.get("/api/hub/"), 401, "not_authenticated")
    assert_error(staff.get("/api/hub/"), 403, "permission_denied")
    # A centre key opens nothing of the hub's events.
    assert_error(hub["a"].get(event_url(event, "multiplex/")), 401, "not_authenticated")


def test_a_sealed_round_is_a_404_like_a_round_that_does_not_exist(event: Event, hub: dict[str, Any]) -> None:
    missing = assert_error(hub["a"].get("/api/hub/games/1/rounds/1/"), 404, "not_found")
    records = _draw_and_place(event, hub["draw"], 2)
    sealed = assert_error(hub["a"].get("/api/hub/games/1/rounds/2/"), 404, "not_found")  # round 1 first
    nowhere = assert_error(hub["a"].get("/api/hub/games/1/rounds/99/"), 404, "not_found")
    assert missing == sealed == nowhere
    served = hub["a"].get("/api/hub/games/1/rounds/1/").json()
    assert served["new"] == records[0].new and served["top"] is None and served["closed_at"] is None
    closed = hub["a"].post("/api/hub/games/1/rounds/1/close/", {"slips_digest": DIGEST}, format="json")
    assert closed.status_code == 200 and closed.json()["top"]["played"] == records[0].played
    bad = hub["a"].post("/api/hub/games/1/rounds/1/close/", {"slips_digest": "xyz"}, format="json")
    assert_error(bad, 400, "invalid")
    ahead = hub["a"].get("/api/hub/games/1/rounds/2/?top=1").json()
    assert ahead["top"]["score"] == records[1].score
    serving = Serving.objects.get(centre__name="Dakar", round__number=2)
    assert serving.top_at is not None and serving.closed_at is None  # taken before its close: on record


def test_only_the_draw_centre_publishes(event: Event, hub: dict[str, Any]) -> None:
    refused = hub["a"].post("/api/hub/games/1/rounds/1/draw/", {"rack": "AEIRSTN"}, format="json")
    assert "draw centre" in assert_error(refused, 400, "application_error")["message"]
    bad = hub["draw"].post("/api/hub/games/1/rounds/1/draw/", {"rack": "AEIRSTN?Q"}, format="json")
    assert_error(bad, 400, "application_error")
    end = hub["draw"].post("/api/hub/games/1/end/", {"reason": "because"}, format="json")
    assert_error(end, 400, "invalid")


def _results(table_moves: dict[int, tuple[str, int]], top: int) -> dict[str, Any]:
    return {
        "players": [{"table": t, "name": f"Player {t}"} for t in table_moves],
        "rulings": [
            {
                "table": t,
                "reason": "ok" if score else "missing",
                "move": move,
                "move_score": score,
                "credited": score,
                "is_top": score == top,
            }
            for t, (move, score) in table_moves.items()
        ],
        "taking_part": len(table_moves),
    }


def _roster(tables: int) -> dict[str, Any]:
    return {"players": [{"table": t, "name": f"Player {t}"} for t in range(1, tables + 1)]}


def test_results_are_idempotent_checked_and_merged(
    event: Event, staff: APIClient, hub: dict[str, Any]
) -> None:
    records = _draw_and_place(event, hub["draw"], 1)
    top, played = records[0].score, records[0].played
    url = "/api/hub/games/1/rounds/1/results/"
    # Never served to Rabat: its upload is refused.
    never = hub["b"].post(url, _results({1: (played, top)}, top), format="json")
    assert "never served" in assert_error(never, 400, "application_error")["message"]
    for client in (hub["a"], hub["b"]):
        assert client.put("/api/hub/roster/", _roster(2), format="json").status_code == 200
        client.get("/api/hub/games/1/rounds/1/")
        client.post("/api/hub/games/1/rounds/1/close/", {"slips_digest": DIGEST}, format="json")
    body = _results({1: (played, top), 2: ("", 0)}, top)
    first = hub["a"].post(url, body, format="json")
    assert first.json() == {"received": 2, "changed": 2}
    again = hub["a"].post(url, body, format="json")
    assert again.json() == {"received": 2, "changed": 0}
    # A forged score above the top, a table twice, a missing field: refused, nothing kept changes.
    forged = _results({1: (played, top + 1)}, top)
    assert "more than its top" in assert_error(hub["a"].post(url, forged, format="json"), 400,
                                                "application_error")["message"]  # fmt: skip
    twice = dict(body, rulings=body["rulings"] * 2)
    assert_error(hub["a"].post(url, twice, format="json"), 400, "application_error")
    assert_error(hub["a"].post(url, {"players": []}, format="json"), 400, "invalid")
    # Rabat: table 1 played the top too; the merged ranking holds both centres.
    hub["b"].post(url, _results({1: (played, top)}, top), format="json")
    standings = staff.get(event_url(event, "multiplex/standings/")).json()
    assert standings["top_total"] == top
    assert [(r["centre"], r["player"]["table"], r["total"]) for r in standings["rows"]] == [
        ("Dakar", 1, top), ("Rabat", 1, top), ("Dakar", 2, 0)]  # fmt: skip
    centre_id = staff.get(event_url(event, "multiplex/")).json()["centres"][2]["id"]
    one = staff.get(event_url(event, f"multiplex/standings/?centre={centre_id}")).json()
    assert [r["centre"] for r in one["rows"]] == ["Rabat"]
    assert_error(staff.get(event_url(event, "multiplex/standings/?centre=999999")), 404, "not_found")
    # A correction sent after the round: replaces the ruling, recorded with the centre's name.
    corrected = _results({1: (played, top), 2: (played, top)}, top)
    assert hub["a"].post(url, corrected, format="json").json() == {"received": 2, "changed": 1}
    entry = HistoryEntry.objects.filter(entity="centre_ruling", action="correct").get()
    assert entry.reason == "sent by centre Dakar" and entry.old["move_score"] == 0


def test_the_arbitrator_moves_a_prepared_games_start_over_the_api(
    event: Event,
    staff: APIClient,
    master: dict[str, Any],
) -> None:
    import datetime as dt

    from django.utils import timezone

    Event.objects.filter(pk=event.pk).update(masters=[master])
    start = timezone.now() + dt.timedelta(hours=3)
    body = {"mode": "prepared", "starts_at": start.isoformat()}
    assert staff.post(event_url(event, "multiplex/"), body, format="json").status_code == 201
    later = (start + dt.timedelta(hours=1)).isoformat()
    moved = staff.post(event_url(event, "multiplex/games/1/schedule/"), {"starts_at": later}, format="json")
    assert moved.status_code == 200 and moved.json()["game"] == 1
    assert dt.datetime.fromisoformat(moved.json()["started_at"]) == start + dt.timedelta(hours=1)
    missing = staff.post(event_url(event, "multiplex/games/4/schedule/"), {"starts_at": later}, format="json")
    assert assert_error(missing, 400, "application_error")["message"] == "the multiplex has no game 4"
    assert HistoryEntry.objects.filter(entity="hub_game", action="schedule").count() == 1


def _ranking(staff: APIClient, event: Event) -> list[tuple[str, int, str, int]]:
    rows = staff.get(event_url(event, "multiplex/standings/")).json()["rows"]
    return [(r["centre"], r["player"]["table"], r["player"]["name"], r["total"]) for r in rows]


def test_a_centre_key_writes_only_its_rosters_players_of_rounds_it_closed(
    event: Event, staff: APIClient, hub: dict[str, Any]
) -> None:
    """The security probe: Dakar's key, 4 players on its roster, posts the results of 12
    tables with other names, and results of a round it never closed. Refused, nothing kept."""
    records = _draw_and_place(event, hub["draw"], 2)
    dakar, url = hub["a"], "/api/hub/games/1/rounds/{}/results/"
    dakar.get("/api/hub/games/1/rounds/1/")
    dakar.post("/api/hub/games/1/rounds/1/close/", {"slips_digest": DIGEST}, format="json")
    top, played = records[0].score, records[0].played
    mine = _results(dict.fromkeys(range(1, 5), (played, top)), top)
    refused = assert_error(dakar.post(url.format(1), mine, format="json"), 400, "application_error")
    assert refused["message"].startswith("this centre has sent no roster yet")
    nameless = {"players": [{"table": 1}]}
    assert_error(dakar.put("/api/hub/roster/", nameless, format="json"), 400, "invalid")
    sent = dakar.put("/api/hub/roster/", _roster(4), format="json")
    assert sent.json() == {"players": 4, "added": 4, "changed": 0, "left": 0}
    assert dakar.post(url.format(1), mine, format="json").json() == {"received": 4, "changed": 4}
    before = _ranking(staff, event)
    assert [name for _c, _t, name, _total in before] == [f"Player {t}" for t in range(1, 5)]

    forged = _results(dict.fromkeys(range(1, 13), (played, top)), top)
    forged["players"] = [{"table": t, "name": f"Forged {t}"} for t in range(1, 13)]
    refused = assert_error(dakar.post(url.format(1), forged, format="json"), 400, "application_error")
    assert refused["message"] == (
        "tables not on this centre's roster: 5, 6, 7, 8, 9, 10, 11, 12. Nothing of these results was taken."
    )
    assert _ranking(staff, event) == before
    # Names sent with the results are ignored: the roster names the players.
    renamed = dict(mine, players=[{"table": t, "name": f"Forged {t}"} for t in range(1, 5)])
    assert dakar.post(url.format(1), renamed, format="json").json() == {"received": 4, "changed": 0}
    assert _ranking(staff, event) == before

    dakar.get("/api/hub/games/1/rounds/2/?top=1")  # fetched ahead, never closed
    early = _results({1: (records[1].played, records[1].score)}, records[1].score)
    refused = assert_error(dakar.post(url.format(2), early, format="json"), 400, "application_error")
    assert refused["message"] == (
        "round 2 of game 1 is not closed at this centre: its results are taken after its close"
    )
    assert _ranking(staff, event) == before


def test_the_hub_arbitrator_removes_a_centres_player_and_puts_them_back(
    event: Event, staff: APIClient, hub: dict[str, Any], arbitrator: User
) -> None:
    records = _draw_and_place(event, hub["draw"], 1)
    top, played = records[0].score, records[0].played
    for client in (hub["a"], hub["b"]):
        client.put("/api/hub/roster/", _roster(2), format="json")
        client.get("/api/hub/games/1/rounds/1/")
        client.post("/api/hub/games/1/rounds/1/close/", {"slips_digest": DIGEST}, format="json")
        client.post("/api/hub/games/1/rounds/1/results/", _results({1: (played, top), 2: ("", 0)}, top),
                    format="json")  # fmt: skip
    before = _ranking(staff, event)
    assert len(before) == 4
    players = staff.get(event_url(event, "multiplex/players/")).json()
    assert [(p["centre"], p["table"], p["removed_at"]) for p in players] == [
        ("Dakar", 1, None), ("Dakar", 2, None), ("Rabat", 1, None), ("Rabat", 2, None)]  # fmt: skip
    rabat_1 = players[2]["id"]
    remove = event_url(event, f"multiplex/players/{rabat_1}/remove/")
    no_reason = assert_error(staff.post(remove, {"removed": True}, format="json"), 400, "application_error")
    assert no_reason["message"] == "say why the player is removed from the merged ranking"
    removed = staff.post(remove, {"removed": True, "reason": "not at the hall"}, format="json")
    assert removed.status_code == 200 and removed.json()["removed_reason"] == "not at the hall"
    assert [(c, t) for c, t, _n, _total in _ranking(staff, event)] == [
        ("Dakar", 1),
        ("Dakar", 2),
        ("Rabat", 2),
    ]
    back = staff.post(remove, {"removed": False}, format="json")
    assert back.status_code == 200 and back.json()["removed_at"] is None
    assert _ranking(staff, event) == before
    entries = HistoryEntry.objects.filter(entity="centre_player", object_id=rabat_1).exclude(action="add")
    assert [(e.action, e.actor) for e in entries.order_by("pk")] == [
        ("remove", arbitrator),
        ("restore", arbitrator),
    ]
    # Only the hub's arbitrator, and only the hub's players.
    assert_error(
        hub["b"].post(remove, {"removed": True, "reason": "x"}, format="json"), 401, "not_authenticated"
    )
    missing = event_url(event, "multiplex/players/999999/remove/")
    assert_error(staff.post(missing, {"removed": True, "reason": "x"}, format="json"), 404, "not_found")
