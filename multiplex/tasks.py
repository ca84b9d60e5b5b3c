"""The multiplex's task: a centre's sync with its hub, sent after the commit of what it
owes (a close, a placement's results, the draw centre's publications) and by the watchdog
while the centre plays or owes something (multiplex/apps.py)."""

from __future__ import annotations

from celery import shared_task

from multiplex.services.centre import hub_sync
from tournaments.models import Event


# Its name is the one the messages already queued may carry (docs/decisions.md): a worker
# upgraded with messages waiting still finds the task.
@shared_task(acks_late=True, name="tournaments.tasks.hub_sync_task")
def hub_sync_task(event_id: int, full: bool = True) -> None:
    """A centre of a multiplex talks to its hub: sends what it owes, fetches what is
    published. Unreachable, it keeps everything for the next try (the watchdog's, full;
    a close's or a placement's is not: services.centre.results_queue)."""
    event = Event.objects.filter(pk=event_id).first()
    if event is not None:
        hub_sync(event=event, full=full)
