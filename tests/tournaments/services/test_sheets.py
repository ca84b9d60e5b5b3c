"""Printed sheets asked for and printed by the task (tournaments.services.sheets); the
console's side is in tests/rooms/test_console.py, the layouts in tests/scoring."""

from __future__ import annotations

import pytest

from tests.helpers import pdf_text
from tests.tournaments.helpers import simulated_event
from tournaments.core import ApplicationError
from tournaments.models import Event, PrintedSheet
from tournaments.services.events import event_create
from tournaments.services.players import player_add
from tournaments.services.sheets import sheet_print, sheet_request

pytestmark = pytest.mark.django_db


def test_a_sheet_asked_for_is_printed_by_the_task() -> None:
    event = simulated_event(players=3)
    sheet = sheet_request(event=event, kind="standings", game=1, language="en")
    sheet.refresh_from_db()
    assert sheet.state == PrintedSheet.State.READY and sheet.printed_at is not None
    assert "Standings, game 1" in pdf_text(bytes(sheet.pdf))[0]
    printed_at = sheet.printed_at
    assert sheet_print(sheet_id=sheet.pk).printed_at == printed_at  # printed once


def test_a_sheet_that_cannot_be_printed_is_kept_with_the_reason(event: Event) -> None:
    sheet = sheet_request(event=event, kind="rounds", game=9, language="xx")
    sheet.refresh_from_db()
    assert (sheet.state, sheet.language, bytes(sheet.pdf)) == (PrintedSheet.State.FAILED, "fr", b"")
    assert "no game 9" in sheet.error


def test_a_sheet_request_refuses_an_unknown_kind_and_a_stranger(event: Event, enable_lexicon) -> None:
    with pytest.raises(ApplicationError, match="unknown sheet 'wall'"):
        sheet_request(event=event, kind="wall")
    other = event_create(name="Other", starts_on=event.starts_on, lexicon=enable_lexicon)
    stranger = player_add(event=other, name="Stranger")
    with pytest.raises(ApplicationError, match="not in this event"):
        sheet_request(event=event, kind="player", player=stranger)
    assert not PrintedSheet.objects.exists()
