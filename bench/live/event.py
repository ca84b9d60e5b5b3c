"""The event the phones follow, made and changed through the product's services in the
bench's own process."""

from __future__ import annotations

import datetime as dt
import time
from dataclasses import dataclass


@dataclass
class Fixture:
    event_id: int
    arbitrator_id: int
    cookies: list[str]  # "sessionid=..." of each phone's browser


def prepare(players: int) -> Fixture:
    """An arbitrator, an event on the bundled ENABLE list, its players, a started game
    with a drawn round, and one browser session per player holding the join (what the
    join page stores)."""
    from importlib import import_module

    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.core.management import call_command

    from rooms.views.common import SESSION_PLAYERS
    from tournaments.services.events import event_create
    from tournaments.services.games import game_start, round_draw
    from tournaments.services.lexicons import lexicon_bundled
    from tournaments.services.players import player_add, player_token_issue

    call_command("migrate", interactive=False, verbosity=0)
    arbitrator = get_user_model().objects.create_user(username="bench-arbitrator", password="bench")
    event = event_create(
        name="Live updates bench",
        starts_on=dt.date.today(),
        lexicon=lexicon_bundled(name="enable"),
        created_by=arbitrator,
        language="english",
    )
    game = game_start(event=event, by=arbitrator)
    round_draw(game=game, by=arbitrator)
    store = import_module(settings.SESSION_ENGINE).SessionStore
    cookies: list[str] = []
    for number in range(1, players + 1):
        player = player_add(event=event, name=f"Phone {number}", table=number)
        token = player_token_issue(event=event, code=event.code, seat=player.seat_code)
        session = store()
        session[SESSION_PLAYERS] = {str(event.pk): {"player": player.pk, "token": token.key}}
        session.create()
        cookies.append(f"{settings.SESSION_COOKIE_NAME}={session.session_key}")
    return Fixture(event_id=event.pk, arbitrator_id=arbitrator.pk, cookies=cookies)


def public_version(event_id: int) -> str:
    from tournaments.models import Event
    from tournaments.selectors.live import live_versions

    return live_versions(Event.objects.get(pk=event_id)).public


def change_state(fixture: Fixture) -> tuple[float, float, str]:
    """Open the drawn round, else change the time per round: (called, committed, label)."""
    from django.contrib.auth import get_user_model
    from django.db import transaction

    from tournaments.models import Event, Round
    from tournaments.selectors.games import current_round
    from tournaments.services.events import event_update
    from tournaments.services.rounds import round_open

    event = Event.objects.get(pk=fixture.event_id)
    by = get_user_model().objects.get(pk=fixture.arbitrator_id)
    round = current_round(event)
    committed: list[float] = []
    called = time.perf_counter()
    # The service's own atomic block becomes a savepoint: the commit that phones can see
    # is this one, and on_commit stamps the moment right after it.
    with transaction.atomic():
        transaction.on_commit(lambda: committed.append(time.perf_counter()))
        if round is not None and round.state == Round.State.DRAWN:
            round_open(round=round, by=by)
            label = "round opened"
        else:
            # Always another value than the stored one, or nothing would change.
            seconds = 181 if event.round_seconds != 181 else 182
            event_update(event=event, by=by, round_seconds=seconds)
            label = "time per round changed"
    return called, committed[0], label
