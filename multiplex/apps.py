from __future__ import annotations

from django.apps import AppConfig


class MultiplexConfig(AppConfig):
    """One game played live in many halls, one ranking (docs/rules.md#multiplex): built on
    the domain, which knows nothing of it. Here it plugs in: the questions the domain asks
    a linked event, the announcements it listens to, the syncs the watchdog sends."""

    name = "multiplex"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from django.db.models import Q

        from multiplex import linker
        from multiplex.link import NAME
        from multiplex.models import HubLink
        from multiplex.tasks import hub_sync_task
        from tournaments import signals
        from tournaments.linked import register
        from tournaments.models import Game
        from tournaments.services import watchdog

        register(NAME, linker.MultiplexLinker())
        signals.round_drawn.connect(linker.on_round_drawn, dispatch_uid="multiplex.drawn")
        signals.round_closed.connect(linker.on_round_closed, dispatch_uid="multiplex.closed")
        signals.round_placed.connect(linker.on_round_placed, dispatch_uid="multiplex.placed")
        signals.game_ended.connect(linker.on_game_ended, dispatch_uid="multiplex.ended")

        def centres_to_sync() -> list[int]:
            # A centre before or during a game has something to ask its hub (the next
            # rounds), or owes it what an unreachable hub did not get: synced again and again.
            return list(
                HubLink.objects.filter(
                    Q(event__games__isnull=True)
                    | Q(event__games__state=Game.State.PLAYING)
                    | Q(outbox__sent_at__isnull=True)
                )
                .values_list("event_id", flat=True)
                .distinct()
            )

        watchdog.watch("sync", centres_to_sync, hub_sync_task)
