"""What a centre of a multiplex owes its hub, kept until the hub acknowledges it
(:class:`~multiplex.models.HubOutbox`); sent by :func:`multiplex.services.centre.hub_sync`.

Below ``rounds`` (a close queues its slips' digest) and above nothing but the models."""

from __future__ import annotations

import hashlib
import json
from typing import Any

from django.utils import timezone

from multiplex.models import HubLink, HubOutbox


def payload_digest(payload: Any) -> str:
    return hashlib.sha256(json.dumps(payload, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def outbox_put(*, link: HubLink, kind: str, game: int, number: int, payload: Any) -> bool:
    """Queue ``payload`` unless the same was queued already: a different one replaces it
    (sent or not: the hub records the change). True when something is to be sent."""
    digest = payload_digest(payload)
    item = (
        HubOutbox.objects.select_for_update().filter(link=link, kind=kind, game=game, number=number).first()
    )
    if item is None:
        HubOutbox.objects.create(
            link=link, kind=kind, game=game, number=number, payload=payload, digest=digest,
            queued_at=timezone.now(),
        )  # fmt: skip
        return True
    if item.digest == digest:
        return False
    item.payload, item.digest, item.queued_at = payload, digest, timezone.now()
    item.sent_at, item.attempts, item.last_error = None, 0, ""
    item.save(update_fields=["payload", "digest", "queued_at", "sent_at", "attempts", "last_error"])
    return True
