"""A phone's plain slip recorded on the event loop (arbiter/hall.py), on PostgreSQL, through
the whole ASGI application as uvicorn calls it: answered as Django's path answers it, the
same rows written, and everything else left to Django's path with its body. Needs
``DATABASE_URL`` (skipped locally without it, failed in CI).
"""

from __future__ import annotations

import json
from typing import Any

import psycopg
import pytest
from django.core.exceptions import SynchronousOnlyOperation

from arbiter import hall
from tests.arbiter.test_middleware import asgi_request
from tests.tournaments.services.test_phone_slips import _entry, _row, token
from tournaments.models import Player, Round, Slip

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

#: Headers that differ between two answers for reasons of their own.
OWN = {b"date", b"content-length"}


@pytest.fixture
def on_the_loop(monkeypatch) -> list[Any]:
    """What the loop's path decided for each slip it saw (a receipt, or None: Django's)."""
    seen: list[Any] = []
    recorded = hall.aphone_slip

    async def spy(slip: Any, db: Any) -> Any:
        seen.append(await recorded(slip, db))
        return seen[-1]

    monkeypatch.setattr(hall, "aphone_slip", spy)
    return seen


def _post(
    round: Round, key: str, language: bytes = b"fr", **body: Any
) -> tuple[int, dict[bytes, bytes], Any]:
    coordinates, word = round.tops[0].split(" ", 1)
    fields = {"coordinates": coordinates, "word": word, "announced_score": round.top_score, **body}
    sent = json.dumps(fields).encode()
    status, headers, content = asgi_request(
        f"/api/events/{round.game.event_id}/rounds/current/slips/",
        [
            (b"authorization", f"Player {key}".encode()),
            (b"content-type", b"application/json"),
            (b"content-length", str(len(sent)).encode()),
            (b"accept-language", language),
        ],
        method="POST",
        body=sent,
    )
    return status, headers, json.loads(content)


def test_a_plain_slip_is_recorded_on_the_loop_and_answered_as_djangos_path_answers(
    open_round, on_the_loop, monkeypatch
) -> None:
    round, (anne, bruno, _c) = open_round
    loop_status, loop_headers, loop_body = _post(round, token(anne), client_id="loop")
    assert [r is not None for r in on_the_loop] == [True]
    monkeypatch.setattr(hall, "takes", lambda scope: False)  # Django's path: its own quick path
    django_status, django_headers, django_body = _post(round, token(bruno), client_id="django")
    assert len(on_the_loop) == 1

    assert loop_status == django_status == 201
    assert {k: v for k, v in loop_headers.items() if k not in OWN} == {
        k: v for k, v in django_headers.items() if k not in OWN
    }
    assert loop_headers[b"content-language"] == b"fr"
    mine = {k: v for k, v in loop_body.items() if k not in ("id", "received_at")}
    assert mine == {k: v for k, v in django_body.items() if k not in ("id", "received_at")}
    assert mine == {"late": False, "late_reason": None, "current": True, "created": True, "invalid_words": []}
    loop_slip, django_slip = Slip.objects.get(pk=loop_body["id"]), Slip.objects.get(pk=django_body["id"])
    assert (loop_slip.player_id, loop_slip.client_id) == (anne.pk, "loop")
    assert _row(loop_slip) == _row(django_slip) and _entry(loop_slip) == _entry(django_slip)
    # The receipt says the time stored, as Django's serializer writes it.
    assert loop_body["received_at"][:19] == loop_slip.received_at.astimezone().isoformat()[:19]


def test_what_is_not_the_plain_case_goes_to_djangos_path_with_its_body(open_round, on_the_loop) -> None:
    round, (anne, _b, _c) = open_round
    key = token(anne)
    assert _post(round, key, client_id="first")[0] == 201
    # The player's second slip replaces the first: slip_submit's to decide and record.
    status, _h, body = _post(round, key, client_id="second", word=round.tops[0].split(" ", 1)[1])
    assert status == 201 and body["created"] and body["current"], body
    assert [r is not None for r in on_the_loop] == [True, False]
    slips = Slip.objects.filter(round=round, player=anne).order_by("pk")
    assert [(s.client_id, s.current) for s in slips] == [("first", False), ("second", True)]
    # The same slip again (a phone's retry): the first receipt's slip, nothing new.
    status, _h, again = _post(round, key, client_id="second")
    assert status == 200 and again["id"] == body["id"] and not again["created"]
    # A token nobody holds: Django's path refuses it, in the phone's language.
    status, _h, refused = _post(round, "nobody", client_id="x", language=b"en")
    assert status == 401 and refused["error"]["message"]
    assert Slip.objects.filter(round=round).count() == 2


@pytest.mark.parametrize(
    "failure",
    [
        psycopg.OperationalError("the server closed the connection"),
        SynchronousOnlyOperation("a query of Django's on the loop"),  # a defect, logged
    ],
)
def test_a_failure_on_the_loop_leaves_the_slip_to_djangos_path(open_round, monkeypatch, failure) -> None:
    round, (anne, _b, _c) = open_round
    tried: list[Any] = []

    async def failing(slip: Any, db: Any) -> Any:
        tried.append(slip.client_id)
        raise failure

    monkeypatch.setattr(hall, "aphone_slip", failing)
    status, _h, body = _post(round, token(anne), client_id="after-failure")
    assert tried == ["after-failure"] and status == 201 and body["created"]
    assert Slip.objects.get(pk=body["id"]).client_id == "after-failure"
    assert Player.objects.get(pk=anne.pk).slips.count() == 1
