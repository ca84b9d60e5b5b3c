"""The multiplex over HTTP (api/multiplex.py): the hub arbitrator sets it up, the centres'
software reads rounds, closes them and sends results with its centre key only."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from solver.game import Game as SolverGame
from tests.api.helpers import assert_error, event_url
from tests.tournaments.services.test_sealed import master  # noqa: F401 (a fixture)
from tournaments.models import Event, HistoryEntry, Serving
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
    twice = dict(body, players=body["players"] * 2)
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
    master: dict[str, Any],  # noqa: F811
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
