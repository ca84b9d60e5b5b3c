"""The REST API: every endpoint, every permission rule, one error format."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from drf_spectacular.generators import SchemaGenerator
from drf_spectacular.validation import validate_schema
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient
from rest_framework.throttling import ScopedRateThrottle

from tests.api.helpers import assert_error, event_url, place, player_client, top_slip
from tournaments.models import Event, Game, Player, PlayerToken, Round, Slip
from tournaments.services.events import event_create
from tournaments.services.players import player_add, player_join_confirm
from tournaments.services.rounds import round_close, round_open, round_publish

pytestmark = pytest.mark.django_db


# ------------------------------------------------------------------ join


def test_join_issues_a_player_token_for_the_seat_code(event: Event, players: list[Player]) -> None:
    response = APIClient().post(
        event_url(event, "join/"), {"code": event.code.lower(), "seat": players[1].seat_code}, format="json"
    )
    assert response.status_code == 201
    body = response.json()
    assert body["player"] == {
        "id": players[1].pk,
        "name": "Player 2",
        "club": "",
        "category": "A",
        "table": 2,
    }
    assert body["confirmed"] is True and len(body["number"]) == 4
    token = PlayerToken.objects.get(key=body["token"])
    assert token.player == players[1] and len(token.key) == 40
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Player {body['token']}")
    assert client.get(event_url(event)).status_code == 200


def test_join_by_table_needs_the_seat_code_or_the_arbitrators_confirmation(
    event: Event, players: list[Player]
) -> None:
    error = assert_error(
        APIClient().post(event_url(event, "join/"), {"code": event.code, "table": 2}, format="json"),
        400,
        "application_error",
    )
    assert error["detail"] == {"reason": "seat_code_needed"}
    assert not PlayerToken.objects.exists()
    event.seating = Event.Seating.CONFIRM
    event.save()
    response = APIClient().post(event_url(event, "join/"), {"code": event.code, "table": 2}, format="json")
    assert response.status_code == 202 and response.json()["confirmed"] is False
    phone = APIClient()
    phone.credentials(HTTP_AUTHORIZATION=f"Player {response.json()['token']}")
    waiting = assert_error(phone.get(event_url(event)), 401, "authentication_failed")
    assert "confirmation" in waiting["message"]
    player_join_confirm(token=PlayerToken.objects.get(), by=None)
    assert phone.get(event_url(event)).status_code == 200


@pytest.mark.parametrize(
    "payload", [{"code": "WRONG1", "seat": "SEAT"}, {"seat": "XXXXXX"}, {"seat": "AAAAAAA"}]
)
def test_join_with_a_wrong_code_or_seat_is_refused_alike(
    event: Event, players: list[Player], payload
) -> None:
    payload = {"code": event.code, **payload}
    if payload["seat"] == "SEAT":
        payload["seat"] = players[0].seat_code
    error = assert_error(
        APIClient().post(event_url(event, "join/"), payload, format="json"), 400, "application_error"
    )
    assert error["message"] == "wrong join code, table or seat code"
    assert not PlayerToken.objects.exists()


def test_a_virtual_player_cannot_be_joined(event: Event) -> None:
    bot = player_add(event=event, name="Bot", table=5, virtual_level=3)
    response = APIClient().post(
        event_url(event, "join/"), {"code": event.code, "seat": bot.seat_code}, format="json"
    )
    assert_error(response, 400, "application_error")


def test_join_validates_its_input_and_the_event(event: Event) -> None:
    error = assert_error(
        APIClient().post(event_url(event, "join/"), {"table": "x"}, format="json"), 400, "invalid"
    )
    assert set(error["detail"]) == {"code", "table"}
    error = assert_error(
        APIClient().post(event_url(event, "join/"), {"code": event.code}, format="json"), 400, "invalid"
    )
    assert error["detail"]
    assert_error(
        APIClient().post("/api/events/999999/join/", {"code": "A", "seat": "AAAAAA"}, format="json"),
        404,
        "not_found",
    )


def test_join_is_throttled_per_address(event: Event, players: list[Player], monkeypatch) -> None:
    monkeypatch.setitem(ScopedRateThrottle.THROTTLE_RATES, "join", "3/min")
    client = APIClient()
    for _ in range(3):
        client.post(event_url(event, "join/"), {"code": "NOPE", "seat": "AAAAAA"}, format="json")
    error = assert_error(
        client.post(event_url(event, "join/"), {"code": event.code, "seat": "AAAAAA"}, format="json"),
        429,
        "throttled",
    )
    assert error["detail"]["wait"] > 0


# ------------------------------------------------------------------ authentication


def test_anonymous_callers_are_refused(event: Event, open_round: Round) -> None:
    client = APIClient()
    for url in ("", "rounds/current/", "rounds/current/slips/", "standings/"):
        response = client.get(event_url(event, url))
        assert_error(response, 401, "not_authenticated")
        assert response["WWW-Authenticate"] == "Player"
    assert_error(client.get("/api/events/"), 401, "not_authenticated")
    assert_error(client.post(event_url(event, "rounds/current/close/")), 401, "not_authenticated")


def test_a_bad_token_is_refused(event: Event) -> None:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION="Player nope")
    assert_error(client.get(event_url(event)), 401, "authentication_failed")
    client.credentials(HTTP_AUTHORIZATION="Player")
    assert_error(client.get(event_url(event)), 401, "authentication_failed")


def test_a_token_of_another_event_is_refused(event: Event, enable_lexicon, open_round: Round) -> None:
    other = event_create(name="Other", starts_on=event.starts_on, lexicon=enable_lexicon)
    stranger = player_client(player_add(event=other, name="Stranger"))
    for url in ("", "rounds/current/", "rounds/current/slips/", "standings/"):
        assert_error(stranger.get(event_url(event, url)), 403, "permission_denied")
    payload = {"coordinates": "8D", "word": "AA", "announced_score": 2}
    assert_error(
        stranger.post(event_url(event, "rounds/current/slips/"), payload, format="json"),
        403,
        "permission_denied",
    )
    assert not Slip.objects.exists()


def test_a_user_who_is_not_the_arbitrator_is_refused(event: Event, open_round: Round) -> None:
    client = APIClient()
    client.force_authenticate(get_user_model().objects.create_user("someone", password="x"))
    assert client.get("/api/events/").json() == []
    assert_error(client.get(event_url(event, "rounds/current/")), 403, "permission_denied")
    assert_error(client.post(event_url(event, "rounds/current/close/")), 403, "permission_denied")


def test_the_arbitrator_token_is_obtained_with_the_password(arbitrator) -> None:
    response = APIClient().post("/api/auth/token/", {"username": "arbitre", "password": "x"}, format="json")
    assert response.status_code == 200 and response.json()["token"] == Token.objects.get(user=arbitrator).key
    bad = APIClient().post("/api/auth/token/", {"username": "arbitre", "password": "y"}, format="json")
    assert_error(bad, 400, "invalid")


# ------------------------------------------------------------------ events


def test_events_list_is_the_callers(
    event: Event, arbitrator_client: APIClient, p1: APIClient, enable_lexicon
) -> None:
    event_create(name="Someone else's", starts_on=event.starts_on, lexicon=enable_lexicon)
    assert [e["id"] for e in arbitrator_client.get("/api/events/").json()] == [event.pk]
    assert [e["id"] for e in p1.get("/api/events/").json()] == [event.pk]
    staff = APIClient()
    staff.force_authenticate(get_user_model().objects.create_user("boss", is_staff=True))
    assert len(staff.get("/api/events/").json()) == 2


def test_event_detail_has_no_secrets(event: Event, arbitrator_client: APIClient, p1: APIClient) -> None:
    for client in (arbitrator_client, p1):
        body = client.get(event_url(event)).json()
        assert body["id"] == event.pk and body["name"] == "Club evening" and body["mode"] == "tournament"
        assert "code" not in body and "random_seed" not in body
    assert_error(arbitrator_client.get("/api/events/999999/"), 404, "not_found")


# ------------------------------------------------------------------ the current round


def test_no_round_yet_is_not_found(event: Event, arbitrator_client: APIClient) -> None:
    assert_error(arbitrator_client.get(event_url(event, "rounds/current/")), 404, "not_found")


def test_the_arbitrator_sees_the_tops_of_an_open_round(
    event: Event, open_round: Round, arbitrator_client
) -> None:
    body = arbitrator_client.get(event_url(event, "rounds/current/")).json()
    assert body["state"] == "open" and body["number"] == 1 and body["game"] == 1
    assert body["rack"] == open_round.rack and body["deadline"]
    assert body["tops"] == open_round.tops and body["top_score"] == open_round.top_score
    assert (open_round.top_score or 0) > 0


def test_a_player_never_sees_the_top_before_adjudication(event: Event, drawn: Round, p1: APIClient) -> None:
    body = p1.get(event_url(event, "rounds/current/")).json()
    assert body["state"] == "drawn" and body["rack"] is None
    assert body["tops"] is None and body["top_score"] is None and body["move_count"] is None
    round_open(round=drawn)
    body = p1.get(event_url(event, "rounds/current/")).json()
    assert body["rack"] == drawn.rack and body["tops"] is None and body["top_score"] is None
    round_close(round=drawn)
    drawn.refresh_from_db()
    assert drawn.state == Round.State.ADJUDICATED
    body = p1.get(event_url(event, "rounds/current/")).json()
    assert body["tops"] is None and body["published_at"] is None  # ruled, under review
    round_publish(round=drawn)
    body = p1.get(event_url(event, "rounds/current/")).json()
    assert body["tops"] == drawn.tops and body["top_score"] == drawn.top_score


# ------------------------------------------------------------------ slips


def test_a_player_submits_a_slip_for_themselves(
    event: Event, open_round: Round, players, p1: APIClient
) -> None:
    response = p1.post(event_url(event, "rounds/current/slips/"), top_slip(open_round), format="json")
    assert response.status_code == 201, response.content
    receipt = response.json()
    assert receipt["late"] is False and receipt["current"] is True and receipt["created"] is True
    assert receipt["invalid_words"] == [] and receipt["received_at"]
    slip = Slip.objects.get(pk=receipt["id"])
    assert slip.player == players[0] and slip.source == Slip.Source.PHONE


def test_no_one_can_submit_for_another_player(
    event: Event, open_round: Round, players, p1: APIClient
) -> None:
    payload = top_slip(open_round, player=players[1].pk, player_id=players[1].pk, table=2)
    response = p1.post(event_url(event, "rounds/current/slips/"), payload, format="json")
    assert response.status_code == 201
    assert Slip.objects.get().player == players[0]


def test_the_arbitrator_cannot_submit_as_a_player(
    event: Event, open_round: Round, players, arbitrator_client
) -> None:
    # The arbitrator types paper slips: by table, never through the player field.
    payload = top_slip(open_round, player=players[0].pk)
    error = assert_error(
        arbitrator_client.post(event_url(event, "rounds/current/slips/"), payload, format="json"),
        400,
        "invalid",
    )
    assert set(error["detail"]) == {"table"}
    assert not Slip.objects.exists()


def test_the_same_client_id_is_one_slip(event: Event, open_round: Round, p1: APIClient) -> None:
    payload = top_slip(open_round, client_id="phone-1-round-1")
    first = p1.post(event_url(event, "rounds/current/slips/"), payload, format="json")
    again = p1.post(event_url(event, "rounds/current/slips/"), payload, format="json")
    assert first.status_code == 201 and again.status_code == 200
    assert again.json()["id"] == first.json()["id"] and again.json()["created"] is False
    assert Slip.objects.count() == 1


def test_a_slip_before_the_round_opens_is_an_application_error(
    event: Event, drawn: Round, p1: APIClient
) -> None:
    response = p1.post(
        event_url(event, "rounds/current/slips/"), {"coordinates": "8D", "word": "AA"}, format="json"
    )
    error = assert_error(response, 400, "application_error")
    assert error["message"] == "round 1 is not open yet" and error["detail"] == {}


def test_strict_mode_refusal_carries_its_detail(event: Event, open_round: Round, p1: APIClient) -> None:
    Event.objects.filter(pk=event.pk).update(mode=Event.Mode.STRICT)
    coordinates, word = open_round.tops[0].split()
    payload = {"coordinates": coordinates, "word": word[::-1], "announced_score": 0}
    error = assert_error(
        p1.post(event_url(event, "rounds/current/slips/"), payload, format="json"), 400, "application_error"
    )
    assert error["detail"]["invalid_words"] == [word[::-1]] and error["detail"]["reason"]
    assert not Slip.objects.exists()


def test_nostrict_mode_returns_the_invalid_words(event: Event, open_round: Round, p1: APIClient) -> None:
    Event.objects.filter(pk=event.pk).update(mode=Event.Mode.NOSTRICT)
    coordinates, word = open_round.tops[0].split()  # seed 7: 8H PROOF; FOORP is no word
    payload = {"coordinates": coordinates, "word": word[::-1], "announced_score": 0}
    response = p1.post(event_url(event, "rounds/current/slips/"), payload, format="json")
    assert response.status_code == 201, response.content
    assert response.json()["invalid_words"] == [word[::-1]]


def test_a_slip_is_validated(event: Event, open_round: Round, p1: APIClient) -> None:
    payload = {"coordinates": "8D", "announced_score": -1, "client_id": "x" * 65}
    error = assert_error(
        p1.post(event_url(event, "rounds/current/slips/"), payload, format="json"), 400, "invalid"
    )
    assert set(error["detail"]) == {"word", "announced_score", "client_id"}
    assert_error(
        p1.post(event_url(event, "rounds/current/slips/"), "{not json", content_type="application/json"),
        400,
        "parse_error",
    )


def test_slips_are_throttled_per_token(
    event: Event, open_round: Round, p1: APIClient, p2: APIClient, monkeypatch
) -> None:
    monkeypatch.setitem(ScopedRateThrottle.THROTTLE_RATES, "slips", "2/min")
    url = event_url(event, "rounds/current/slips/")
    # A player's first slip of the round takes the quick path (api.views.slips.round_slips),
    # which counts nothing: it can be taken once a round. What comes after is counted.
    for _ in range(3):
        assert p1.post(url, {"coordinates": "8D", "word": "AA"}, format="json").status_code == 201
    assert_error(p1.post(url, {"coordinates": "8D", "word": "AA"}, format="json"), 429, "throttled")
    assert p1.get(url).status_code == 200  # reading is not throttled
    assert p2.post(url, {"coordinates": "8D", "word": "AA"}, format="json").status_code == 201


def test_a_player_sees_only_their_own_slips(
    event: Event, open_round: Round, players, p1, p2, arbitrator_client
) -> None:
    url = event_url(event, "rounds/current/slips/")
    p1.post(url, {"coordinates": "8D", "word": "AA", "announced_score": 2}, format="json")
    p2.post(url, {"coordinates": "8H", "word": "BB", "announced_score": 3}, format="json")
    mine = p1.get(url).json()
    assert [(s["player"]["id"], s["word"]) for s in mine] == [(players[0].pk, "AA")]
    everyone = arbitrator_client.get(url).json()
    assert sorted(s["player"]["id"] for s in everyone) == [players[0].pk, players[1].pk]


# ------------------------------------------------------------------ close


def test_only_the_arbitrator_closes_the_round(event: Event, open_round: Round, p1, arbitrator_client) -> None:
    assert_error(p1.post(event_url(event, "rounds/current/close/")), 403, "permission_denied")
    response = arbitrator_client.post(event_url(event, "rounds/current/close/"))
    assert response.status_code == 200
    assert response.json()["state"] == "adjudicated" and response.json()["tops"] == open_round.tops
    error = assert_error(
        arbitrator_client.post(event_url(event, "rounds/current/close/")), 400, "application_error"
    )
    assert "cannot be closed" in error["message"]


def test_a_slip_after_the_close_is_late(event: Event, open_round: Round, p1) -> None:
    round_close(round=open_round)
    receipt = p1.post(event_url(event, "rounds/current/slips/"), top_slip(open_round), format="json").json()
    assert receipt["late"] is True and receipt["current"] is False


# ------------------------------------------------------------------ standings


def test_standings_are_the_arbitrators_until_a_round_is_placed(
    event: Event, open_round: Round, players, p1, arbitrator_client
) -> None:
    url = event_url(event, "standings/")
    p1.post(event_url(event, "rounds/current/slips/"), top_slip(open_round), format="json")
    assert arbitrator_client.get(url).status_code == 200
    assert_error(p1.get(url), 403, "permission_denied")
    assert_error(p1.get(url + "?game=1"), 403, "permission_denied")
    place(open_round)
    body = p1.get(url + "?game=1").json()
    assert body["game"] == 1 and body["category"] is None
    first = body["rows"][0]
    assert first["player"]["id"] == players[0].pk and first["total"] == open_round.top_score
    assert first["rank"] == 1 and first["percent"] == 100.0
    whole = p1.get(url).json()
    assert whole["game"] is None and len(whole["rows"]) == 3
    only_b = p1.get(url + "?category=B").json()
    assert [r["player"]["id"] for r in only_b["rows"]] == [players[2].pk]


def test_standings_query_is_validated(event: Event, game: Game, arbitrator_client) -> None:
    assert_error(arbitrator_client.get(event_url(event, "standings/?game=zero")), 400, "invalid")
    assert_error(arbitrator_client.get(event_url(event, "standings/?game=7")), 404, "not_found")


# ------------------------------------------------------------------ schema and docs


def test_the_schema_is_valid_openapi() -> None:
    schema = SchemaGenerator().get_schema(request=None, public=True)  # type: ignore[no-untyped-call]
    validate_schema(schema)  # type: ignore[no-untyped-call]
    response = APIClient().get("/api/schema/?format=json")
    assert response.status_code == 200
    body = response.json()
    assert body["openapi"].startswith("3.")
    for path in (
        "/api/events/",
        "/api/events/{event_id}/",
        "/api/events/{event_id}/join/",
        "/api/events/{event_id}/rounds/current/",
        "/api/events/{event_id}/rounds/current/slips/",
        "/api/events/{event_id}/rounds/current/close/",
        "/api/events/{event_id}/standings/",
    ):
        assert path in body["paths"]
    assert "playerToken" in body["components"]["securitySchemes"]


def test_the_docs_load_nothing_from_the_internet() -> None:
    response = APIClient().get("/api/docs/")
    assert response.status_code == 200
    html = response.content.decode()
    assert "swagger-ui" in html and "cdn" not in html.lower() and "https://" not in html
