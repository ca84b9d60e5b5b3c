"""Bad input found by the security audit (issue 12): every refusal is a 4xx in the API's
one error format, never a 500 or an HTML page.

Deep JSON is refused before Python's recursion is reached, numbers before the database
(OverflowError on SQLite, DataError on PostgreSQL); a body too large is a 413; no URL, a
server error: JSON under /api/, HTML pages elsewhere."""

from __future__ import annotations

import json
import logging
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.core.exceptions import RequestDataTooBig, SuspiciousOperation
from django.test import Client, RequestFactory
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from api.parsers import MAX_DEPTH, MAX_INTEGER, BodyRefused, nesting_depth, parse_json
from api.serializers.base import MAX_NUMBER
from api.serializers.events import MAX_PAGE_SIZE, PAGE_SIZE
from api.views import events as event_views
from arbiter.urls import handler400, handler404, handler500
from tests.api.helpers import assert_error, event_url, top_slip
from tournaments.core import MAX_ANNOUNCED, MAX_WARNINGS
from tournaments.models import Event, HistoryEntry, Player, Round, Ruling
from tournaments.services.rounds import round_close
from tournaments.services.slips import slip_submit

pytestmark = pytest.mark.django_db

#: A thousand levels: Python's json decoder recursed into a RecursionError (a 500).
DEEP_ARRAY = "[" * 1000 + "]" * 1000
DEEP_OBJECT = '{"a":' * 1000 + "1" + "}" * 1000


def _post_json(client: Client, url: str, text: str, **headers: Any) -> Any:
    return client.post(url, text, content_type="application/json", **headers)


def _refused(response: Any, reason: str, status: int = 400) -> dict[str, Any]:
    error = assert_error(response, status, "parse_error")
    assert error["detail"] == {"reason": reason}, error
    return error


@pytest.fixture
def ruled(open_round: Round, players: list[Player]) -> Round:
    slip_submit(round=open_round, player=players[0], **top_slip(open_round))
    round_close(round=open_round)
    open_round.refresh_from_db()
    assert open_round.state == Round.State.ADJUDICATED
    return open_round


# ------------------------------------------------------------------ deep JSON


@pytest.mark.parametrize("body", [DEEP_ARRAY, DEEP_OBJECT], ids=["array", "object"])
def test_deep_json_is_refused_anonymously_before_any_recursion(event: Event, body: str) -> None:
    anonymous = Client()
    for url in ("/api/auth/token/", event_url(event, "join/")):
        error = _refused(_post_json(anonymous, url, body), "too_deep")
        assert str(MAX_DEPTH) in error["message"]


@pytest.mark.parametrize("body", [DEEP_ARRAY, DEEP_OBJECT], ids=["array", "object"])
def test_deep_json_is_refused_on_the_arbitrators_and_the_players_endpoints(
    event: Event, open_round: Round, arbitrator_client: APIClient, p1: APIClient, body: str
) -> None:
    for client, tail in (
        (arbitrator_client, "players/"),
        (arbitrator_client, "rounds/current/open/"),
        (p1, "rounds/current/slips/"),
        (arbitrator_client, "rounds/current/preview/"),
    ):
        _refused(_post_json(client, event_url(event, tail), body), "too_deep")


def test_the_depth_is_counted_without_recursion_and_outside_strings() -> None:
    # Far past the recursion limit: a recursive count would raise here.
    assert nesting_depth("[" * 100_000 + "]" * 100_000) == 100_000
    assert nesting_depth('{"a": [1, {"b": []}], "c": {}}') == 4
    assert nesting_depth('["[[[[{{{{", "\\"]]]]"]') == 1
    assert nesting_depth("12") == 0


def test_json_up_to_the_depth_limit_is_read() -> None:
    deepest = "[" * MAX_DEPTH + "]" * MAX_DEPTH
    assert nesting_depth(deepest) == MAX_DEPTH
    assert json.dumps(parse_json(deepest)) == deepest.replace("][", "], [")
    with pytest.raises(BodyRefused) as refused:
        parse_json("[" + deepest + "]")
    assert refused.value.reason == "too_deep"


# ------------------------------------------------------------------ numbers in the body


@pytest.mark.parametrize(
    ("number", "reason"),
    [
        ("NaN", "not_a_number"),
        ("Infinity", "not_a_number"),
        ("-Infinity", "not_a_number"),
        ("1e400", "too_large"),
        ("-1e400", "too_large"),
        (str(MAX_INTEGER + 1), "too_large"),
        (str(-MAX_INTEGER - 1), "too_large"),
        ("1" * 5000, "too_large"),  # past Python's 4,300 digits, too
    ],
)
def test_a_number_no_column_holds_is_refused_by_the_parser(event: Event, number: str, reason: str) -> None:
    body = f'{{"code": "ABCDEF", "table": {number}}}'
    _refused(_post_json(Client(), event_url(event, "join/"), body), reason)


def test_the_widest_column_s_numbers_pass_the_parser() -> None:
    assert parse_json(f"[{MAX_INTEGER}, {-MAX_INTEGER}, 1.5e300]") == [MAX_INTEGER, -MAX_INTEGER, 1.5e300]


def test_a_lone_surrogate_is_refused_as_no_database_can_store_it(
    event: Event, arbitrator_client: APIClient
) -> None:
    response = _post_json(arbitrator_client, event_url(event, "players/"), '{"name": "Ann\\ud800"}')
    _refused(response, "not_unicode")
    assert not event.players.filter(name__startswith="Ann").exists()
    # A pair is one character, and a backslash before "u" is no escape.
    assert parse_json('["\\ud83d\\ude00", "\\\\ud800"]') == ["\U0001f600", "\\ud800"]


def test_a_body_that_is_not_json_says_so_in_the_error_format(event: Event) -> None:
    _refused(_post_json(Client(), event_url(event, "join/"), '{"code": '), "not_json")
    _refused(
        Client().post(event_url(event, "join/"), b'{"code": "\xff"}', content_type="application/json"),
        "not_text",
    )


# ------------------------------------------------------------------ numbers each endpoint reads

#: Numbers the parser lets through (they fit 64 bits) that a column or the domain refuses.
TOO_BIG = [MAX_NUMBER + 1, MAX_INTEGER]


@pytest.mark.parametrize("number", TOO_BIG)
def test_a_table_beyond_the_column_is_refused_when_joining(event: Event, players, number: int) -> None:
    response = Client().post(
        event_url(event, "join/"), {"code": event.code, "table": number}, content_type="application/json"
    )
    assert set(assert_error(response, 400, "invalid")["detail"]) == {"table"}


@pytest.mark.parametrize("number", TOO_BIG)
def test_a_player_s_table_beyond_the_column_is_refused(
    event: Event, arbitrator_client: APIClient, number: int
) -> None:
    response = arbitrator_client.post(event_url(event, "players/"), {"name": "Ann", "table": number}, "json")
    assert set(assert_error(response, 400, "invalid")["detail"]) == {"table"}
    assert not event.players.exists()


@pytest.mark.parametrize(
    ("fields", "bad"),
    [
        ({"table": MAX_NUMBER + 1}, "table"),
        ({"table": 0}, "table"),
        ({"table": 1, "announced_score": MAX_ANNOUNCED + 1}, "announced_score"),
        ({"table": 1, "announced_score": -1}, "announced_score"),
        ({"table": 1, "game": 1, "round": MAX_NUMBER + 1}, "round"),
        ({"table": 1, "game": MAX_INTEGER, "round": 1}, "game"),
    ],
)
def test_a_paper_slip_s_numbers_are_bounded(
    event: Event, open_round: Round, arbitrator_client: APIClient, fields: dict[str, int], bad: str
) -> None:
    coordinates, word = open_round.tops[0].split()
    body = {"coordinates": coordinates, "word": word, **fields}
    response = arbitrator_client.post(event_url(event, "rounds/current/slips/"), body, "json")
    assert set(assert_error(response, 400, "invalid")["detail"]) == {bad}
    assert not open_round.slips.exists()


@pytest.mark.parametrize(
    ("fields", "bad"),
    [
        ({"game": MAX_NUMBER + 1, "round": 1}, "game"),
        ({"game": 1, "round": MAX_INTEGER}, "round"),
        ({"announced_score": MAX_INTEGER}, "announced_score"),
    ],
)
def test_a_phone_slip_s_numbers_are_bounded(
    event: Event, open_round: Round, p1: APIClient, fields: dict[str, int], bad: str
) -> None:
    coordinates, word = open_round.tops[0].split()
    body = {"coordinates": coordinates, "word": word, **fields}
    response = p1.post(event_url(event, "rounds/current/slips/"), body, "json")
    assert set(assert_error(response, 400, "invalid")["detail"]) == {bad}
    assert not open_round.slips.exists()


def test_try_move_s_announced_score_is_bounded(event: Event, open_round: Round, arbitrator_client) -> None:
    body = {"coordinates": "8H", "word": "PROOF", "announced_score": MAX_ANNOUNCED + 1}
    response = arbitrator_client.post(event_url(event, "rounds/current/preview/"), body, "json")
    assert set(assert_error(response, 400, "invalid")["detail"]) == {"announced_score"}


@pytest.mark.parametrize("seconds", [0, 24 * 3600 + 1, MAX_INTEGER])
def test_the_round_s_seconds_are_bounded(
    event: Event, drawn: Round, arbitrator_client: APIClient, seconds: int
) -> None:
    response = arbitrator_client.post(event_url(event, "rounds/current/open/"), {"seconds": seconds}, "json")
    assert set(assert_error(response, 400, "invalid")["detail"]) == {"seconds"}
    drawn.refresh_from_db()
    assert drawn.state == Round.State.DRAWN


@pytest.mark.parametrize(
    "figures",
    [
        {"credited": MAX_INTEGER},
        {"credited": MAX_ANNOUNCED + 1},
        {"credited": -MAX_ANNOUNCED - 1},
        {"credited": 2**31},  # fits SQLite's 64 bits, not PostgreSQL's integer
        {"credited": 10, "penalty": MAX_INTEGER},
        {"credited": 10, "penalty": MAX_ANNOUNCED + 1},
        {"credited": 10, "penalty": -1},
        {"credited": 10, "warnings": 2**15},  # a smallint on PostgreSQL
        {"credited": 10, "warnings": MAX_WARNINGS + 1},
        {"credited": 10, "warnings": -1},
    ],
)
def test_an_override_s_numbers_are_bounded(
    event: Event, ruled: Round, players, arbitrator_client: APIClient, figures: dict[str, int]
) -> None:
    ruling = Ruling.objects.get(round=ruled, player=players[1])
    body = {**figures, "reason": "typo"}
    response = arbitrator_client.post(event_url(event, f"rulings/{ruling.pk}/override/"), body, "json")
    bad = {name for name, value in figures.items() if name != "credited" or value != 10}
    assert set(assert_error(response, 400, "invalid")["detail"]) == bad
    assert not Ruling.objects.get(pk=ruling.pk).overridden


def test_the_audit_s_override_of_10_to_the_30_is_refused_as_json_and_as_a_form(
    event: Event, ruled: Round, players, arbitrator_client: APIClient
) -> None:
    ruling = Ruling.objects.get(round=ruled, player=players[1])
    url = event_url(event, f"rulings/{ruling.pk}/override/")
    _refused(_post_json(arbitrator_client, url, f'{{"credited": {10**30}, "reason": "typo"}}'), "too_large")
    # A form's numbers are text: the parser lets them through, the serializer refuses them.
    response = arbitrator_client.post(url, {"credited": str(10**30), "reason": "typo"})
    assert set(assert_error(response, 400, "invalid")["detail"]) == {"credited"}
    assert not Ruling.objects.get(pk=ruling.pk).overridden


def test_an_override_within_the_bounds_is_kept(
    event: Event, ruled: Round, players, arbitrator_client: APIClient
) -> None:
    ruling = Ruling.objects.get(round=ruled, player=players[1])
    body = {"credited": -5, "penalty": 5, "warnings": MAX_WARNINGS, "reason": "five warnings"}
    response = arbitrator_client.post(event_url(event, f"rulings/{ruling.pk}/override/"), body, "json")
    assert response.status_code == 200, response.content
    assert response.json()["warnings"] == MAX_WARNINGS
    body = {"credited": MAX_ANNOUNCED, "penalty": 0, "reason": "the best move ever"}
    response = arbitrator_client.post(event_url(event, f"rulings/{ruling.pk}/override/"), body, "json")
    assert response.status_code == 200, response.content
    assert response.json()["credited"] >= MAX_ANNOUNCED  # the solo bonus on top


@pytest.mark.parametrize("number", TOO_BIG)
def test_the_query_s_numbers_are_bounded(
    event: Event, ruled: Round, arbitrator_client: APIClient, number: int
) -> None:
    for tail, name in (
        (f"standings/?game={number}", "game"),
        (f"exports/standings/?game={number}", "game"),
        (f"rounds/current/ruling/?table={number}", "table"),
    ):
        response = arbitrator_client.get(event_url(event, tail))
        assert set(assert_error(response, 400, "invalid")["detail"]) == {name}, tail


# ------------------------------------------------------------------ the history's pages


def test_the_history_is_a_page_without_a_limit_too(event: Event, game, arbitrator_client) -> None:
    response = arbitrator_client.get(event_url(event, "history/"))
    assert response.status_code == 200
    body = response.json()
    assert set(body) == {"count", "next", "previous", "results"}
    assert body["count"] == len(body["results"]) == 4  # 3 players, the start
    assert body["next"] is body["previous"] is None


def test_the_history_s_pages_are_bounded(event: Event, game, arbitrator_client) -> None:
    HistoryEntry.objects.bulk_create(
        [HistoryEntry(event=event, entity="player", object_id=1, action="add") for _ in range(1200)]
    )
    body = arbitrator_client.get(event_url(event, "history/")).json()
    assert body["count"] == 1204 and len(body["results"]) == PAGE_SIZE
    body = arbitrator_client.get(event_url(event, f"history/?limit={MAX_PAGE_SIZE}")).json()
    assert len(body["results"]) == MAX_PAGE_SIZE
    body = arbitrator_client.get(event_url(event, f"history/?limit=10&offset={MAX_NUMBER}")).json()
    assert body["results"] == [] and body["next"] is None
    for query, bad in (
        (f"limit={MAX_PAGE_SIZE + 1}", "limit"),
        (f"limit={10**30}", "limit"),
        ("limit=0", "limit"),
        ("limit=ten", "limit"),
        ("offset=-1", "offset"),
        (f"offset={10**30}", "offset"),
    ):
        response = arbitrator_client.get(event_url(event, f"history/?{query}"))
        assert set(assert_error(response, 400, "invalid")["detail"]) == {bad}, query


# ------------------------------------------------------------------ bodies too large


def test_a_body_too_large_is_a_413_in_the_error_format(event: Event, arbitrator_client) -> None:
    size = settings.DATA_UPLOAD_MAX_MEMORY_SIZE + 1
    big = json.dumps({"code": "x" * size, "table": 1})
    for response in (
        _post_json(Client(), event_url(event, "join/"), big),
        _post_json(arbitrator_client, event_url(event, "players/"), big),
        Client().post("/api/auth/token/", {"username": "x" * size, "password": "x"}),
    ):
        error = assert_error(response, 413, "request_too_large")
        assert error["detail"] == {"limit": settings.DATA_UPLOAD_MAX_MEMORY_SIZE}


def test_a_body_too_large_outside_the_api_keeps_django_s_page() -> None:
    size = settings.DATA_UPLOAD_MAX_MEMORY_SIZE + 1
    response = Client().post("/accounts/login/", {"username": "x" * size, "password": "x"})
    assert response.status_code == 400 and response["Content-Type"].startswith("text/html")


def test_django_s_400_is_the_error_format_under_the_api_only() -> None:
    factory = RequestFactory()
    too_big = handler400(factory.post("/api/nowhere/"), RequestDataTooBig("too big"))
    assert too_big.status_code == 413
    assert json.loads(too_big.content)["error"]["code"] == "request_too_large"
    suspicious = handler400(factory.get("/api/events/"), SuspiciousOperation("odd"))
    assert suspicious.status_code == 400
    assert json.loads(suspicious.content)["error"]["code"] == "bad_request"
    page = handler400(factory.get("/console/"), SuspiciousOperation("odd"))
    assert page.status_code == 400 and page["Content-Type"].startswith("text/html")


# ------------------------------------------------------------------ 404 and 500


@pytest.mark.parametrize("path", ["/api/events/abc/", "/api/events/1/nothing/", "/api/nowhere/"])
def test_an_address_of_the_api_that_matches_no_url_is_a_json_404(event: Event, path: str) -> None:
    response = Client().get(path)
    assert_error(response, 404, "not_found")
    assert response["Content-Type"] == "application/json"


def test_an_address_outside_the_api_keeps_django_s_404_page(event: Event) -> None:
    response = Client().get("/console/abc/")
    assert response.status_code == 404 and response["Content-Type"].startswith("text/html")
    assert handler404(RequestFactory().get("/j/x/y/z/"), Exception()).status_code == 404


def test_a_server_error_answers_a_reference_and_nothing_of_its_cause(
    event: Event, game, arbitrator_client: APIClient, monkeypatch, caplog
) -> None:
    secret = "postgresql://arbiter:hunter2@db:5432/arbiter"

    def broken(event: Event) -> None:
        raise RuntimeError(f"could not connect to {secret}")

    monkeypatch.setattr(event_views, "live_versions", broken)
    arbitrator_client.raise_request_exception = False
    with caplog.at_level(logging.ERROR):
        response = arbitrator_client.get(event_url(event, "live/"))
    error = assert_error(response, 500, "server_error")
    reference = error["detail"]["reference"]
    assert set(error["detail"]) == {"reference"} and reference in error["message"]
    assert "hunter2" not in response.content.decode() and "RuntimeError" not in response.content.decode()
    # The organiser finds the cause in the log under that reference.
    logged = [r for r in caplog.records if reference in r.getMessage()]
    assert logged and logged[0].exc_info and secret in str(logged[0].exc_info[1])


def test_a_server_error_outside_the_api_is_an_html_page() -> None:
    page = handler500(RequestFactory().get("/console/"))
    assert page.status_code == 500 and page["Content-Type"].startswith("text/html")


# ------------------------------------------------------------------ the token login


def test_the_token_login_refuses_in_the_error_format(arbitrator: User) -> None:
    response = Client().post("/api/auth/token/", {"username": "arbitre", "password": "wrong"})
    assert_error(response, 400, "invalid")


def test_a_stale_token_in_the_header_does_not_refuse_a_login(arbitrator: User) -> None:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION="Token 0123456789abcdef0123456789abcdef01234567")
    response = client.post("/api/auth/token/", {"username": "arbitre", "password": "x"}, "json")
    assert response.status_code == 200, response.content
    assert response.json() == {"token": Token.objects.get(user=arbitrator).key}
