"""Asking for a printed sheet and printing it (the task's work)."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from tournaments import queue
from tournaments.core import ApplicationError, User
from tournaments.models import Event, Player, PrintedSheet
from tournaments.printing import KINDS, SheetError, render_sheet
from tournaments.services.history import actor


def sheet_request(
    *,
    event: Event,
    kind: str,
    game: int | None = None,
    player: Player | None = None,
    category: str = "",
    language: str = "fr",
    by: User = None,
    round: int | None = None,
) -> PrintedSheet:
    if kind not in KINDS:
        raise ApplicationError(f"unknown sheet {kind!r}")
    # A player sheet without a player: every player's sheet, in one PDF.
    if player is not None and player.event_id != event.pk:
        raise ApplicationError("this player is not in this event")
    user, _label = actor(by)
    sheet = PrintedSheet.objects.create(
        event=event,
        kind=kind,
        game=game,
        player=player,
        round=round,
        category=category,
        language=language if language in ("fr", "en") else "fr",
        requested_by=user,
    )
    transaction.on_commit(lambda: queue.send(queue.sheet_print_task, sheet.pk))
    return sheet


def sheet_print(*, sheet_id: int) -> PrintedSheet:
    """Render and store the sheet. A sheet that cannot be printed (no such game...) is
    kept as failed with the reason; a second run of a printed sheet does nothing."""
    sheet = PrintedSheet.objects.select_related("event").get(pk=sheet_id)
    if sheet.state == PrintedSheet.State.READY:
        return sheet
    try:
        pdf = render_sheet(
            sheet.kind,
            event=sheet.event,
            game_number=sheet.game,
            category=sheet.category or None,
            player_id=sheet.player_id,
            language=sheet.language,
            round_number=sheet.round,
        )
    except SheetError as exc:
        sheet.state, sheet.error = PrintedSheet.State.FAILED, str(exc)
        sheet.save(update_fields=["state", "error"])
        return sheet
    sheet.pdf, sheet.state, sheet.printed_at = pdf, PrintedSheet.State.READY, timezone.now()
    sheet.save(update_fields=["pdf", "state", "printed_at"])
    return sheet
