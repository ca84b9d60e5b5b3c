"""``python manage.py simulate_event --players 24 --games 2 --seed 7 [--json]``

A whole event played by virtual players of mixed levels (docs/rules.md#computer-players)
through the real services and Celery tasks; the event stays in the database for a look
afterwards.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import json
import random
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser, no_translations

from rooms.management.commands._common import prepare_database, tasks_in_process
from rooms.management.commands._virtual import category_of, hand_in_slips, level_of
from scoring.standings import to_dict
from solver.boards import LAYOUT_NAMES
from solver.players import VirtualPlayer
from tournaments.core import ApplicationError
from tournaments.models import Event, Game, Player, Round
from tournaments.services.events import event_create
from tournaments.services.games import game_end, game_start, round_draw
from tournaments.services.lexicons import lexicon_bundled
from tournaments.services.players import player_add
from tournaments.services.rounds import round_close, round_open, round_place
from tournaments.standings import event_standings, game_standings, top_total


class Command(BaseCommand):
    help = "Simulate a whole event with virtual players through the real services and tasks."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--players", type=int, default=24)
        parser.add_argument("--games", type=int, default=2)
        parser.add_argument("--seed", type=int, default=7)
        parser.add_argument("--language", choices=("french", "english"), default="english")
        parser.add_argument("--board", choices=LAYOUT_NAMES, default=LAYOUT_NAMES[0])
        parser.add_argument("--lexicon", choices=("enable", "french"), help="default: by language")
        parser.add_argument("--json", action="store_true", help="print the result as one JSON object")
        parser.add_argument(
            "--worker",
            action="store_true",
            help="leave the tasks to running Celery workers (default: run them in this process)",
        )

    @no_translations  # English output, like the other commands
    def handle(self, *args: Any, **opts: Any) -> None:
        prepare_database(self.stderr)
        if opts["players"] < 1 or opts["games"] < 1:
            raise CommandError("at least one player and one game")
        # In this process, a failed task ends the command with its reason (not a round
        # left unsolved or unruled, reported as "no Celery worker did the work").
        with contextlib.nullcontext() if opts["worker"] else tasks_in_process():
            self._simulate(opts)

    def _simulate(self, opts: dict[str, Any]) -> None:
        lexicon = lexicon_bundled(
            name=opts["lexicon"] or ("french" if opts["language"] == "french" else "enable")
        )
        try:
            event = event_create(
                name=f"Simulated event (seed {opts['seed']})",
                starts_on=dt.date.today(),
                lexicon=lexicon,
                random_seed=opts["seed"],
                language=opts["language"],
                board=opts["board"],
                notation="gcg",
            )
        except ApplicationError as exc:
            raise CommandError(exc.message) from exc
        rng = random.Random(opts["seed"])
        players = [
            player_add(
                event=event,
                name=f"Virtual {table} (level {level_of(table)})",
                virtual_level=level_of(table),
                category=category_of(level_of(table)),
            )
            for table in range(1, opts["players"] + 1)
        ]
        minds = {
            p.pk: VirtualPlayer(p.virtual_level or 6, seed=opts["seed"] * 10_000 + p.table) for p in players
        }
        games_out = []
        for _ in range(opts["games"]):
            game = game_start(event=event)
            rounds_out = self._play_game(game, players, minds, rng, opts["worker"])
            games_out.append(
                {
                    "number": game.number,
                    "rounds": rounds_out,
                    "top_total": top_total(game),
                    "end": Game.objects.get(pk=game.pk).end_reason,
                }
            )
        rows = event_standings(event)
        result = {
            "event_id": event.pk,
            "games": games_out,
            "standings": [
                {
                    **{k: v for k, v in to_dict(r).items() if k != "player"},
                    "name": r.player.name,
                    "table": r.player.table,
                }
                for r in rows
            ],
        }
        if opts["json"]:
            self.stdout.write(json.dumps(result, ensure_ascii=False))
        else:
            self._print(event, result)

    def _play_game(
        self,
        game: Game,
        players: list[Player],
        minds: dict[int, VirtualPlayer],
        rng: random.Random,
        worker: bool,
    ) -> list[dict[str, Any]]:
        out = []
        next_round = round_draw(game=game)
        while next_round is not None:
            round = self._wait(next_round, lambda r: r.solved_at is not None, worker)
            if not round.tops:
                game_end(game=game, reason="no_move")
                break
            round_open(round=round)
            hand_in_slips(round, players, lambda p: minds[p.pk], rng)
            round_close(round=round)
            round = self._wait(round, lambda r: r.state == Round.State.ADJUDICATED, worker)
            out.append(
                {
                    "round": round.number,
                    "rack": round.rack,
                    "top": round.tops[0],
                    "top_score": round.top_score,
                }
            )
            next_round = round_place(round=round)
        return out

    def _wait(self, round: Round, ready: Any, worker: bool, timeout: float = 120.0) -> Round:
        import time

        deadline = time.monotonic() + timeout
        while True:
            round.refresh_from_db()
            if ready(round):
                return round
            if not worker or time.monotonic() > deadline:
                raise CommandError(f"round {round.number}: no Celery worker did the work in {timeout:.0f} s")
            time.sleep(0.05)

    def _print(self, event: Event, result: dict[str, Any]) -> None:
        self.stdout.write(f"Event {result['event_id']}: {event.name}")
        for g in result["games"]:
            self.stdout.write(f"\nGame {g['number']}: {len(g['rounds'])} rounds, top total {g['top_total']}")
            for r in g["rounds"]:
                self.stdout.write(f"  {r['round']:>3}  {r['rack']:<9} {r['top']:<24} {r['top_score']:>4}")
            for row in game_standings(Game.objects.get(event=event, number=g["number"]))[:3]:
                self.stdout.write(
                    f"      {row.rank:>3}. {row.player.name:<28} {row.total:>5} ({row.percent} %)"
                )
        self.stdout.write("\nStandings")
        for s in result["standings"]:
            self.stdout.write(
                f"  {s['rank']:>3}. {s['name']:<28} {s['total']:>5} {s['diff']:>6} {s['percent']:>7.2f} %"
            )
