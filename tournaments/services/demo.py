"""The demo event of the home page: above the event, player and game services it calls,
so that none of them needs the others."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from tournaments.core import User
from tournaments.models import Event
from tournaments.services.events import event_create
from tournaments.services.games import game_start, round_draw
from tournaments.services.lexicons import lexicon_bundled
from tournaments.services.players import player_add

DEMO_PLAYERS = ("Anne", "Bruno", "Chloé", "David")


def event_demo(*, by: User) -> Event:
    """A ready-to-play event for a first look: French tiles and list, FISF notation, four
    players at tables 1-4, the first game started and its first rack drawn."""
    with transaction.atomic():
        event = event_create(
            name="Démo",
            starts_on=timezone.localdate(),
            lexicon=lexicon_bundled(name="french"),
            created_by=by,
            language=Event.Language.FRENCH,
            notation=Event.Notation.FISF,
        )
        for name in DEMO_PLAYERS:
            player_add(event=event, name=name)
        game = game_start(event=event, by=by)
        round_draw(game=game, by=by)
    return event
