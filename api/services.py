"""The writes of the API app (the event flow's writes stay in :mod:`tournaments.services`)."""

from __future__ import annotations

import hmac

from django.db import transaction

from api.models import PlayerToken
from tournaments import services
from tournaments.models import Event, Ruling
from tournaments.services import ApplicationError, User


def player_token_issue(*, event: Event, code: str, table: int) -> PlayerToken:
    """A new token for the player at ``table``, given the event's join code. One message
    for a wrong code and a wrong table: the answer must not tell which tables exist."""
    refused = ApplicationError("wrong join code or table", {"reason": "join_refused"})
    if not hmac.compare_digest(code.strip().upper().encode(), event.code.upper().encode()):
        raise refused
    player = event.players.filter(table=table, virtual_level__isnull=True).first()
    if player is None:
        raise refused
    with transaction.atomic():
        return PlayerToken.objects.create(player=player)


def ruling_accept_shift(*, ruling: Ruling, by: User, reason: str | None = None) -> Ruling:
    """:func:`tournaments.services.ruling_accept_shift` with its default reason when the
    request gives none (a stale placement is the service's refusal, ``stale_shift``)."""
    extra = {} if reason is None else {"reason": reason}
    return services.ruling_accept_shift(ruling=ruling, by=by, **extra)
