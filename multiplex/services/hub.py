"""The hub of a multiplex (docs/rules.md#multiplex): one game played in many centres.

The hub's event holds the settings and the word list. Its rounds come from the draw
centre as it plays (live mode) or from the event's master games (prepared mode, served
from the agreed start): :mod:`multiplex.services.serving`. The centres send their rulings
back: :mod:`multiplex.services.results`. Here the hub is set up, its centres added with
their keys, and what a centre sent is recorded.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import re
import secrets
from typing import Any

from cryptography.fernet import Fernet
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from multiplex.link import link_event
from multiplex.models import Centre, HubGame, HubRound, Multiplex
from solver.formats.record import GameRecord
from tournaments.core import ApplicationError, User
from tournaments.models import Event
from tournaments.services.history import history_record

#: A slips digest: the SHA-256 of the centre's slips of the round, in hexadecimal.
DIGEST = re.compile(r"[0-9a-f]{64}")


class NotServed(ApplicationError):
    """A round this centre may not see (yet): the hub says nothing more about it."""


def key_hash(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


# ------------------------------------------------------------------ setting up


def multiplex_create(
    *,
    event: Event,
    mode: str = Multiplex.Mode.LIVE,
    starts_at: dt.datetime | None = None,
    max_delay_minutes: int = 90,
    by: User = None,
) -> Multiplex:
    """Make ``event`` the hub of a multiplex. Prepared mode serves the event's master games
    from ``starts_at``; live mode the rounds its draw centre publishes."""
    if mode not in Multiplex.Mode.values:
        raise ApplicationError(_("unknown multiplex mode %(mode)s") % {"mode": mode})
    if mode == Multiplex.Mode.PREPARED:
        if not event.masters:
            raise ApplicationError(
                _("a prepared multiplex needs the event's master games: import them first")
            )
        if starts_at is None:
            raise ApplicationError(_("a prepared multiplex needs its agreed start"))
    given = event
    with transaction.atomic():
        event = Event.objects.select_for_update().get(pk=event.pk)
        if Multiplex.objects.filter(event=event).exists():
            raise ApplicationError(_("this event is already a multiplex"))
        multiplex = Multiplex.objects.create(
            event=event,
            mode=mode,
            starts_at=starts_at if mode == Multiplex.Mode.PREPARED else None,
            max_delay_minutes=max_delay_minutes,
        )
        link_event(event)
        given.linked_by = event.linked_by
        if mode == Multiplex.Mode.PREPARED:
            assert starts_at is not None
            _prepare(multiplex, starts_at)
        history_record(
            event=event,
            entity="multiplex",
            object_id=multiplex.pk,
            action="create",
            by=by,
            new={"mode": mode, "starts_at": starts_at.isoformat() if starts_at else None,
                 "max_delay_minutes": max_delay_minutes},
        )  # fmt: skip
        return multiplex


def new_seal_key() -> str:
    """A game's Fernet key, never starting with "-": typed after ``--key`` on a command
    line, it would be taken for an option (docs/decisions.md)."""
    while (key := Fernet.generate_key().decode()).startswith("-"):
        pass
    return key


def _prepare(multiplex: Multiplex, starts_at: dt.datetime) -> None:
    """The master games' rounds, as the centres will be served them from the start."""
    for number, data in enumerate(multiplex.event.masters, start=1):
        record = GameRecord.from_dict(data)
        HubGame.objects.create(
            multiplex=multiplex,
            number=number,
            started_at=starts_at,
            end=record.end,
            final=record.final.to_dict() if record.final else None,
            ended_at=starts_at if record.end else None,
            seal_key=new_seal_key(),
        )
        HubRound.objects.bulk_create(
            HubRound(
                multiplex=multiplex,
                game=number,
                number=r.round,
                reliquat=r.reliquat,
                new_tiles=r.new,
                rejected=list(r.rejected),
                manual=r.manual,
                drawn_at=starts_at,
                played=r.played,
                score=r.score,
                moves=r.moves,
                top_score=r.top_score,
                tops=list(r.tops),
                board=r.board,
                placed_at=starts_at,
            )
            for r in record.rounds
        )


def centre_add(
    *, multiplex: Multiplex, name: str, draws: bool = False, by: User = None
) -> tuple[Centre, str]:
    """Add a centre; returns it and its key, shown this once (only its hash is kept)."""
    name = name.strip()
    if not name:
        raise ApplicationError(_("a centre needs a name"))
    if draws and multiplex.mode != Multiplex.Mode.LIVE:
        raise ApplicationError(_("only a live multiplex has a draw centre"))
    key = _new_key()
    try:
        with transaction.atomic():
            centre = Centre.objects.create(
                multiplex=multiplex, name=name, draws=draws, key_hash=key_hash(key)
            )
    except IntegrityError as exc:
        if draws and multiplex.centres.filter(draws=True).exists():
            raise ApplicationError(_("this multiplex already has its draw centre")) from exc
        raise ApplicationError(
            _("a centre of this multiplex is already named %(name)s") % {"name": name}
        ) from exc
    history_record(
        event=multiplex.event,
        entity="centre",
        object_id=centre.pk,
        action="add",
        by=by,
        new={"name": name, "draws": draws},
    )
    return centre, key


def _new_key() -> str:
    # Never a leading "-": typed after --key, the command line would read it as an option.
    return "k" + secrets.token_urlsafe(32)


def centre_for_key(key: str) -> Centre | None:
    """The centre this key is of (its hash is looked up: the key itself is not kept)."""
    if not key or len(key) > 200:
        return None
    return Centre.objects.select_related("multiplex__event__lexicon").filter(key_hash=key_hash(key)).first()


def centre_record(
    multiplex: Multiplex, entity: str, pk: int, action: str, centre: Centre, old: Any, new: Any
) -> None:
    """The hub's history entry of what a centre sent: the centres are not users of the
    hub, the entry names the centre."""
    history_record(
        event=multiplex.event,
        entity=entity,
        object_id=pk,
        action=action,
        by=None,
        old=old,
        new=new,
        reason=_("sent by centre %(name)s") % {"name": centre.name},
    )
