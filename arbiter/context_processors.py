from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest


def live(request: HttpRequest) -> dict[str, object]:
    """How often a page without a live stream polls for changes (milliseconds)."""
    return {"poll_ms": settings.ARBITER_POLL_MS}
