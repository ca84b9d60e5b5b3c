"""The history (tournaments.services.history, HistoryEntry): never changed, never deleted."""

from __future__ import annotations

import pytest

from tournaments.models import Event, Game, HistoryEntry
from tournaments.services.games import game_start, round_draw

pytestmark = pytest.mark.django_db


def test_history_entries_cannot_be_changed_or_deleted(game: Game) -> None:
    round_draw(game=game)
    entry = HistoryEntry.objects.filter(action="draw").first()
    assert entry is not None
    entry.reason = "edited"
    with pytest.raises(ValueError, match="never changed"):
        entry.save()
    with pytest.raises(ValueError, match="never deleted"):
        entry.delete()


def test_the_history_cannot_be_deleted_in_bulk_nor_with_its_event(event: Event) -> None:
    from django.db.models import ProtectedError

    game = game_start(event=event)
    assert HistoryEntry.objects.filter(event=event).exists()
    with pytest.raises(ValueError, match="never deleted"):
        HistoryEntry.objects.filter(event=event).delete()
    with pytest.raises(ValueError, match="never changed"):
        HistoryEntry.objects.filter(event=event).update(reason="x")
    with pytest.raises(ProtectedError):
        event.delete()
    assert game.pk
