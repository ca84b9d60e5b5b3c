"""The OpenAPI document: every endpoint in it, tagged, with the one error format."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from drf_spectacular.generators import SchemaGenerator

EVENT_PATHS = {
    "",
    "join/",
    "live/",
    "history/",
    "players/",
    "players/import/",
    "players/{player_id}/",
    "players/{player_id}/withdraw/",
    "players/{player_id}/release/",
    "players/{player_id}/seat-code/",
    "joins/",
    "joins/{token_id}/confirm/",
    "joins/{token_id}/refuse/",
    "games/",
    "games/current/end/",
    "game/",
    "rounds/draw/",
    "rounds/current/",
    "rounds/current/open/",
    "rounds/current/slips/",
    "rounds/current/preview/",
    "rounds/current/watch/",
    "rounds/current/close/",
    "rounds/current/reopen/",
    "rounds/current/pause/",
    "rounds/current/resume/",
    "rounds/current/add-time/",
    "rounds/current/publish/",
    "rounds/undo-placement/",
    "rounds/current/rule-again/",
    "rounds/current/review/",
    "rounds/current/ruling/",
    "rounds/current/top/",
    "rounds/current/place/",
    "multiplex/",
    "multiplex/centres/",
    "multiplex/standings/",
    "multiplex/players/",
    "multiplex/players/{player_id}/remove/",
    "multiplex/games/{game}/schedule/",
    "rulings/{ruling_id}/override/",
    "rulings/{ruling_id}/accept-shift/",
    "rulings/{ruling_id}/average/",
    "standings/",
    "exports/{kind}/",
}


@pytest.fixture(scope="module")
def schema() -> dict[str, Any]:
    generated: dict[str, Any] = SchemaGenerator().get_schema(request=None, public=True)  # type: ignore[no-untyped-call]
    return generated


def test_every_event_endpoint_is_in_the_schema(schema: dict[str, Any]) -> None:
    prefix = "/api/events/{event_id}/"
    assert {p.removeprefix(prefix) for p in schema["paths"] if p.startswith(prefix)} == EVENT_PATHS


def test_every_hub_endpoint_is_in_the_schema(schema: dict[str, Any]) -> None:
    prefix = "/api/hub/"
    round = "games/{game}/rounds/{number}/"
    assert {p.removeprefix(prefix) for p in schema["paths"] if p.startswith(prefix)} == {
        "",
        "roster/",
        "games/{game}/end/",
        "games/{game}/sealed/",
        "games/{game}/key/",
        round,
        *(f"{round}{tail}/" for tail in ("close", "results", "draw", "top")),
    }
    # The centres' endpoints take a centre key and nothing else.
    for operations in (v for k, v in schema["paths"].items() if k.startswith(prefix)):
        for operation in operations.values():
            assert operation["security"] == [{"centreKey": []}]


def test_every_operation_is_tagged_and_documents_the_errors(schema: dict[str, Any]) -> None:
    error = {"$ref": "#/components/schemas/Error"}
    for path, operations in schema["paths"].items():
        if not path.startswith(("/api/events/", "/api/hub/")):
            continue
        for method, operation in operations.items():
            assert operation["tags"] and operation["tags"] != ["api"], (method, path)
            for code in ("400", "401", "403", "404"):
                body = operation["responses"][code]["content"]["application/json"]["schema"]
                assert body == error, (method, path, code)


def test_the_schema_is_generated_without_warnings(tmp_path: Path) -> None:
    # --fail-on-warn raises on any warning, such as an undocumented view or an enum clash.
    call_command("spectacular", "--validate", "--fail-on-warn", "--file", str(tmp_path / "schema.yml"))
    assert (tmp_path / "schema.yml").read_text().startswith("openapi: 3.")


#: The fields that hold a move or a square, by component: each says its notation (the
#: event's, or GCG for a machine field that keeps the stored spelling).
MOVE_FIELDS = {
    "Round": ("tops", "chosen"),
    "GameView": ("tops", "chosen"),
    "PlacedRound": ("move",),
    "Cell": ("name",),
    "Preview": ("move", "shift_candidate", "detail"),
    "Ruling": ("move", "shift_candidate", "detail"),
    "RoundRuling": ("move", "shift_candidate", "detail"),
    "MoveGroup": ("move", "shown"),
    "TopInput": ("move",),
    "HistoryEntry": ("old", "new"),
}


def test_every_move_field_says_its_notation(schema: dict[str, Any]) -> None:
    components = schema["components"]["schemas"]
    for name, fields in MOVE_FIELDS.items():
        for field in fields:
            described = components[name]["properties"][field].get("description", "")
            assert "notation" in described, (name, field, described)


def _resolved(schema: dict[str, Any], body: dict[str, Any]) -> dict[str, Any]:
    if "$ref" in body:
        found: dict[str, Any] = schema["components"]["schemas"][body["$ref"].rsplit("/", 1)[1]]
        return found
    return body


def test_the_token_login_documents_its_answer_and_its_refusal(schema: dict[str, Any]) -> None:
    operation = schema["paths"]["/api/auth/token/"]["post"]
    assert "security" not in operation  # no authentication: the body carries the password
    responses = operation["responses"]
    assert set(responses) == {"200", "400", "429"}  # 429: past the login limit
    error = {"$ref": "#/components/schemas/Error"}
    assert responses["400"]["content"]["application/json"]["schema"] == error
    assert responses["429"]["content"]["application/json"]["schema"] == error
    answer = _resolved(schema, responses["200"]["content"]["application/json"]["schema"])
    assert set(answer["properties"]) == set(answer["required"]) == {"token"}
    for body in operation["requestBody"]["content"].values():
        asked = _resolved(schema, body["schema"])
        assert set(asked["properties"]) == set(asked["required"]) == {"username", "password"}


def test_the_history_is_documented_as_a_page(schema: dict[str, Any]) -> None:
    operation = schema["paths"]["/api/events/{event_id}/history/"]["get"]
    answer = _resolved(schema, operation["responses"]["200"]["content"]["application/json"]["schema"])
    assert set(answer["properties"]) == {"count", "next", "previous", "results"}


def _unbounded_integer(field: dict[str, Any]) -> bool:
    return field.get("type") == "integer" and not {"minimum", "maximum"} <= set(field)


def test_every_number_the_api_reads_is_bounded_in_the_schema(schema: dict[str, Any]) -> None:
    # The bounds the serializers check: a client (and the fuzz run) knows them.
    unbounded = []
    for path, operations in schema["paths"].items():
        for method, operation in operations.items():
            for parameter in operation.get("parameters", []):
                if parameter["in"] == "query" and _unbounded_integer(parameter["schema"]):
                    unbounded.append((method, path, parameter["name"]))
            for body in operation.get("requestBody", {}).get("content", {}).values():
                for name, field in _resolved(schema, body["schema"]).get("properties", {}).items():
                    if not field.get("readOnly") and _unbounded_integer(field):
                        unbounded.append((method, path, name))
    assert unbounded == []
