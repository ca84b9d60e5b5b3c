"""``python manage.py multiplex_play --event X [--players 12] [--seed 1] [--until-round N] [--json]``

A centre of a multiplex played by virtual players (docs/rules.md#computer-players): a
rehearsal of the links before the real event, and the centres of the multiplex's
integration test and benchmark. The event must have joined its hub (``multiplex_join``).
The draw centre draws its racks and publishes them with its tops; another centre plays
the hub's racks and places the hub's moves, syncing and waiting while the hub has not
published them. Every round is played as an arbitrator would: drawn, opened, the slips
handed in, closed, ruled, placed; the tasks run in this process, the syncs too.

``--until-round N`` stops once round N is placed (run the command again to go on: the
game is kept in the database); without it the game is played to its end. A lost
connection is waited for ``--patience`` seconds at most, the rounds already fetched
played meanwhile.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from typing import Any

from django.core.management.base import CommandError, CommandParser

from multiplex.link import hub_copy, hub_link, link_state
from multiplex.models import HubLink
from multiplex.services.centre import hub_sync
from rooms.management.commands._common import ArbiterCommand
from rooms.management.commands._virtual import category_of, hand_in_slips, level_of
from solver.players import VirtualPlayer
from tournaments.core import ApplicationError
from tournaments.models import Event, Game, Player, Round
from tournaments.selectors.games import current_game, last_round, placed_count
from tournaments.selectors.players import virtual_players
from tournaments.services.games import game_end, game_start, round_draw
from tournaments.services.players import player_add
from tournaments.services.rounds import round_close, round_open, round_place

#: Between two syncs while the hub has not published what the centre needs (seconds).
POLL = 0.25


class Command(ArbiterCommand):
    help = "Play a centre of a multiplex with virtual players (a rehearsal of the links)."
    enqueues_tasks = True

    def add_command_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--players", type=int, default=0, metavar="N",
                            help="add N virtual players when the event has no virtual player")  # fmt: skip
        parser.add_argument("--levels", type=_levels, metavar="L,L,...",
                            help="the levels (1-6) of the players added, table by table"
                            " (default: mixed, 6,5,4,3,5,2,4,1 repeated)")  # fmt: skip
        parser.add_argument("--seed", type=int, default=1, help="the virtual players' seed (default 1)")
        parser.add_argument("--until-round", type=int, metavar="N", help="stop once round N is placed")
        parser.add_argument("--patience", type=float, default=600, metavar="SECONDS",
                            help="how long to wait for the hub at most (default 600)")  # fmt: skip
        parser.add_argument("--json", action="store_true", help="print the result as one JSON object")

    def run(self, *args: Any, **opts: Any) -> None:
        if self.options["worker"]:
            raise CommandError("multiplex_play runs its tasks in its own process: no --worker")
        event = self.event()
        link = hub_link(event)
        if link is None:
            raise CommandError(f"{event.name} is not a centre of a multiplex: run multiplex_join first")
        players = self._players(event, link, opts["players"], opts["levels"])
        game = current_game(event)
        if game is None:
            game = game_start(event=event, by=self.user)
        deadline = time.monotonic() + opts["patience"]
        until = opts["until_round"]
        while game.state == Game.State.PLAYING and not (until and placed_count(game) >= until):
            if self._step(game, players, opts["seed"]):
                deadline = time.monotonic() + opts["patience"]
            else:
                if time.monotonic() > deadline:
                    link.refresh_from_db()
                    raise CommandError(
                        f"waited {opts['patience']:.0f} s for the hub ({link.last_error or 'nothing new'}):"
                        " everything is kept, run the command again"
                    )
                report = hub_sync(event=event, full=False)
                if not report.fetched:
                    time.sleep(POLL)
            game.refresh_from_db()
        self._report(event, link, game, opts["json"])

    def _players(self, event: Event, link: HubLink, count: int, levels: list[int] | None) -> list[Player]:
        players = list(virtual_players(event))
        if players or count < 1:
            return players
        chosen = [
            levels[(table - 1) % len(levels)] if levels else level_of(table) for table in range(1, count + 1)
        ]
        return [
            player_add(
                event=event,
                name=f"{link.centre_name} {table}",
                virtual_level=level,
                category=category_of(level),
                by=self.user,
            )
            for table, level in enumerate(chosen, start=1)
        ]

    def _step(self, game: Game, players: list[Player], seed: int) -> bool:
        """One step of the round in play; False when it waits for the hub."""
        round = last_round(game)
        if round is None or round.state == Round.State.PLACED:
            try:
                round_draw(game=game, by=self.user)
            except ApplicationError:
                if hub_copy(game, (round.number if round else 0) + 1) is not None:
                    raise  # the hub's rack was there: a real refusal
                return False
            return True
        if round.solved_at is None:
            raise CommandError(f"round {round.number} is not solved: run serve's watchdog or round_draw")
        if round.state == Round.State.DRAWN:
            if not round.tops:
                game_end(game=game, reason="no_move", by=self.user)
                return True
            round = round_open(round=round, by=self.user)
            # One mind per player and round, from the seed: a run stopped and started again
            # hands in the same slips.
            base = seed * 1_000_000 + game.number * 1_000 + round.number
            hand_in_slips(
                round,
                players,
                lambda p: VirtualPlayer(p.virtual_level or 6, seed=base * 1_000 + p.table),
                random.Random(base),
            )
            round_close(round=round, by=self.user)
            return True
        if round.state == Round.State.ADJUDICATED:
            copy = hub_copy(game, round.number)
            if copy is not None and copy.game_end and not copy.top:
                game_end(game=game, reason=copy.game_end, by=self.user)
                return True
            try:
                round_place(round=round, by=self.user)
            except ApplicationError:
                if copy is not None and copy.top:
                    raise  # the hub's move was there: a real refusal
                return False
            return True
        raise CommandError(f"round {round.number} is {round.get_state_display()}: finish it in the console")

    def _report(self, event: Event, link: HubLink, game: Game, as_json: bool) -> None:
        hub_sync(event=event)
        link.refresh_from_db()
        result = {
            "event_id": event.pk,
            "centre": link.centre_name,
            "game": game.number,
            "placed": placed_count(game),
            "ended": game.end_reason,
            "waiting": _waiting(event),
            "last_error": link.last_error,
        }
        if as_json:
            self.say(json.dumps(result, ensure_ascii=False))
            return
        state = f"ended ({game.end_reason})" if game.end_reason else "in play"
        self.say(f"{link.centre_name}: game {game.number} {state}, {result['placed']} round(s) placed")
        self.say(f"  waiting to be sent: {result['waiting']}")
        if link.last_error:
            self.say(f"  last error: {link.last_error}")


def _levels(text: str) -> list[int]:
    try:
        levels = [int(part) for part in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(f"not levels separated by commas: {text!r}") from None
    if not all(1 <= level <= 6 for level in levels):
        raise argparse.ArgumentTypeError(f"a level is 1 to 6: {text!r}")
    return levels


def _waiting(event: Event) -> int:
    state = link_state(event)
    return state.waiting if state is not None else 0
