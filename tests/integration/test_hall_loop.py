"""A phone's plain slip recorded on the event loop (arbiter/hall.py), on PostgreSQL, through
the whole ASGI application as uvicorn calls it: answered as Django's path answers it, the
same rows written, and everything else left to Django's path with its body. Needs
``DATABASE_URL`` (skipped locally without it, failed in CI).
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import psycopg
import pytest
from django.core.exceptions import SynchronousOnlyOperation
from django.utils import timezone

from arbiter import hall
from tests.plumbing.test_middleware import asgi_request
from tests.tournaments.services.test_phone_slips import _entry, _row, token
from tournaments.models import HistoryEntry, Player, Round, Slip
from tournaments.services import phone_slips
from tournaments.services.phone_slips import PhoneSlip
from tournaments.services.slips import slip_submit

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

#: Headers that differ between two answers for reasons of their own.
OWN = {b"date", b"content-length"}


@pytest.fixture
def on_the_loop(monkeypatch) -> list[Any]:
    """What the loop's path decided for each slip it saw (a receipt, or None: Django's)."""
    seen: list[Any] = []
    recorded = phone_slips.Batches.record

    async def spy(self: phone_slips.Batches, slip: Any) -> Any:
        seen.append(await recorded(self, slip))
        return seen[-1]

    monkeypatch.setattr(phone_slips.Batches, "record", spy)
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
    ("where", "failure"),
    [
        ("the batch's statement", psycopg.OperationalError("the server closed the connection")),
        ("the slip's reading", SynchronousOnlyOperation("a query of Django's on the loop")),  # a defect
    ],
)
def test_a_failure_on_the_loop_leaves_the_slip_to_djangos_path(
    open_round, monkeypatch, where: str, failure: Exception
) -> None:
    round, (anne, _b, _c) = open_round
    tried: list[Any] = []

    async def failing_batch(plans: Any, db: Any) -> Any:
        tried.extend(plan.slip.client_id for plan in plans)
        raise failure

    async def failing_record(self: Any, slip: Any) -> Any:
        tried.append(slip.client_id)
        raise failure

    if where == "the batch's statement":
        monkeypatch.setattr(phone_slips, "awrite_batch", failing_batch)
    else:
        monkeypatch.setattr(phone_slips.Batches, "record", failing_record)
    status, _h, body = _post(round, token(anne), client_id="after-failure")
    assert tried == ["after-failure"] and status == 201 and body["created"]
    assert Slip.objects.get(pk=body["id"]).client_id == "after-failure"
    assert Player.objects.get(pk=anne.pk).slips.count() == 1


def _phone_slip(round: Round, key: str, client_id: str) -> PhoneSlip:
    coordinates, word = round.tops[0].split(" ", 1)
    return PhoneSlip(
        key=key, event_id=round.game.event_id, coordinates=coordinates, word=word,
        announced_score=round.top_score, client_id=client_id, for_round=None,
        received=timezone.now(), sent_at=None,
    )  # fmt: skip


def _record(first: PhoneSlip | None, together: list[PhoneSlip], sizes: list[int]) -> list[Any]:
    """``first`` recorded alone (the round then known to the process), then ``together``
    at once, on the loop's batches; the size of each batch written in ``sizes``."""
    written = phone_slips.awrite_batch

    async def counted(plans: Any, db: Any) -> Any:
        sizes.append(len(plans))
        return await written(plans, db)

    async def run() -> list[Any]:
        try:
            batches = await hall._batches()
            if first is not None:
                assert await batches.record(first) is not None
            return list(await asyncio.gather(*(batches.record(slip) for slip in together)))
        finally:
            await hall.close_pools()

    phone_slips.awrite_batch = counted  # type: ignore[assignment]
    try:
        return asyncio.run(run())
    finally:
        phone_slips.awrite_batch = written  # type: ignore[assignment]


def test_slips_that_arrive_together_are_written_in_one_batch_as_the_full_path_writes_them(
    open_round,
) -> None:
    round, (anne, bruno, chloe) = open_round
    sizes: list[int] = []
    keys = [token(p) for p in (anne, bruno, chloe)]
    together = [_phone_slip(round, key, f"batch-{n}") for n, key in enumerate(keys[1:])]
    results = _record(_phone_slip(round, keys[0], "first"), together, sizes)
    assert sizes == [1, 2]  # the first alone, the two others in one statement
    full = _slip_of_the_full_path(round, anne)
    for result, player in zip(results, (bruno, chloe), strict=True):
        assert result is not None and result.created
        stored = Slip.objects.get(pk=result.slip.pk)
        assert (stored.player_id, stored.client_id) == (player.pk, result.slip.client_id)
        assert _row(stored) == _row(full) and _entry(stored) == _entry(full)


def _slip_of_the_full_path(round: Round, player: Player) -> Slip:
    """A slip of the full path, for comparison (a new one for ``player``, replacing theirs)."""
    coordinates, word = round.tops[0].split(" ", 1)
    return slip_submit(
        event=round.game.event, player=player, coordinates=coordinates, word=word,
        announced_score=round.top_score, client_id="full",
    ).slip  # fmt: skip


def test_in_a_batch_only_the_plain_slips_are_written_the_others_are_left_to_djangos_path(open_round) -> None:
    round, (anne, bruno, chloe) = open_round
    anne_key, bruno_key, chloe_key = token(anne), token(bruno), token(chloe)
    sizes: list[int] = []
    together = [
        _phone_slip(round, anne_key, "kept"),  # sent again: a retry
        _phone_slip(round, bruno_key, "bruno"),
        _phone_slip(round, token(bruno), "bruno-other-phone"),  # the same player, another token
        _phone_slip(round, "nobody", "x"),
        _phone_slip(round, chloe_key, "chloe"),
        _phone_slip(round, chloe_key, "chloe-again"),  # the same token: the next batch
    ]
    results = _record(_phone_slip(round, anne_key, "kept"), together, sizes)
    written = [r is not None for r in results]
    # Bruno's two phones: the first in the batch's order (its tokens') is written.
    assert written[1] != written[2] and [written[n] for n in (0, 3, 4, 5)] == [False, False, True, False]
    bruno_slip = "bruno" if written[1] else "bruno-other-phone"
    # The slips not written were tried once more on a reading of the round (it may have
    # changed since the process read it), alone or together.
    assert sizes[:3] == [1, 5, 1] and sum(sizes) == 1 + 6 + 4
    stored = Slip.objects.filter(round=round).order_by("player__table", "pk")
    assert [(s.player_id, s.client_id) for s in stored] == [
        (anne.pk, "kept"), (bruno.pk, bruno_slip), (chloe.pk, "chloe")
    ]  # fmt: skip
    assert HistoryEntry.objects.filter(entity="slip").count() == 3


def test_a_batch_waits_for_a_players_slip_being_recorded_and_that_slip_steps_aside(open_round) -> None:
    from tests.integration.test_slip_locks import BLOCKED, Worker, holding

    round, (anne, bruno, _c) = open_round
    anne_key, bruno_key = token(anne), token(bruno)
    sizes: list[int] = []
    together = [_phone_slip(round, anne_key, "loop"), _phone_slip(round, bruno_key, "loop")]
    with holding(round, anne):
        batch = Worker(lambda: _record(None, together, sizes))
        batch.start()
        batch.join(BLOCKED)
        assert batch.is_alive(), "the batch did not wait for the player's slip in progress"
    anne_result, bruno_result = batch.finished()
    assert anne_result is None and bruno_result is not None  # hers goes to Django's path
    assert Slip.objects.get(round=round, player=anne).client_id == ""  # the one held
    assert Slip.objects.get(round=round, player=bruno).client_id == "loop"
