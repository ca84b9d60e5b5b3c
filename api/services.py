"""The writes of the API app (the event flow's writes stay in :mod:`tournaments.services`)."""

from __future__ import annotations

import hmac

from django.db import transaction
from django.utils.translation import gettext as _

from api.models import PlayerToken
from tournaments import services
from tournaments.models import Event, Player, Ruling
from tournaments.services import ApplicationError, User


def player_token_issue(*, event: Event, code: str, table: int, held: str = "") -> PlayerToken:
    """The token of the player at ``table``, given the event's join code. One message for
    a wrong code and a wrong table: the answer must not tell which tables exist.

    A table joins on one phone only: whoever knows the code (it is on the projector) could
    otherwise join as someone else and replace their slip. A second join is refused until
    the arbitrator releases the table (:func:`player_release`); ``held``, the token this
    browser already has for the table, lets the same phone join again."""
    refused = ApplicationError(_("wrong join code or table"), {"reason": "join_refused"})
    if not hmac.compare_digest(code.strip().upper().encode(), event.code.upper().encode()):
        raise refused
    player = event.players.filter(table=table, virtual_level__isnull=True).first()
    if player is None:
        raise refused
    with transaction.atomic():
        # The player row is the lock: two phones joining at once, one gets the table.
        Player.objects.select_for_update().get(pk=player.pk)
        tokens = PlayerToken.objects.filter(player=player)
        if held:
            mine = tokens.filter(key=held).first()
            if mine is not None:
                return mine
        if tokens.exists():
            raise ApplicationError(
                _("table %(table)s has already joined on another phone: ask the arbitrator to release it")
                % {"table": table},
                {"reason": "already_joined"},
            )
        token = PlayerToken.objects.create(player=player)
        services.history_record(
            event=event, entity="player", object_id=player.pk, action="join", by=None, new={"table": table}
        )
        return token


def player_release(*, player: Player, by: User) -> int:
    """Release a table: its phone's token stops working and the table may join again (a
    phone lost, changed, or a wrong table taken). Returns the tokens revoked."""
    with transaction.atomic():
        Player.objects.select_for_update().get(pk=player.pk)
        revoked, _kinds = PlayerToken.objects.filter(player=player).delete()
        services.history_record(
            event=player.event,
            entity="player",
            object_id=player.pk,
            action="release",
            by=by,
            old={"tokens": revoked},
            new={"tokens": 0},
        )
        return revoked


def ruling_accept_shift(*, ruling: Ruling, by: User, reason: str | None = None) -> Ruling:
    """:func:`tournaments.services.ruling_accept_shift` with its default reason when the
    request gives none (a stale placement is the service's refusal, ``stale_shift``)."""
    extra = {} if reason is None else {"reason": reason}
    return services.ruling_accept_shift(ruling=ruling, by=by, **extra)
