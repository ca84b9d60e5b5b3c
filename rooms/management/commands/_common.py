"""What the arbitrator's terminal commands share.

Every command finds its event with ``--event ID_OR_CODE`` and the current game and round
by itself, records its writes under ``--user USERNAME`` (the history's "who"), and turns
every refusal into a :class:`CommandError` with the service's own message: a user error
never ends in a traceback, and a refused action changes nothing (the services are
transactional).

Commands that enqueue Celery tasks (draw -> solve, close -> adjudicate) run those tasks in
their own process by default, as ``simulate_event`` does, so that an arbitrator with one
laptop and no worker gets the tops and the rulings at once; ``--worker`` leaves them to
running workers and waits for them a while. In this process a task's failure is not
swallowed: the command ends with a CommandError naming the work and the reason (see
:func:`tasks_in_process`).
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

from celery import current_app as celery_app
from django.contrib.auth import get_user_model
from django.contrib.auth.models import User as AuthUser
from django.core.management.base import BaseCommand, CommandError, CommandParser, no_translations

from solver.boards import layout
from solver.formats.record import END_REASONS
from tournaments import display
from tournaments.core import ApplicationError
from tournaments.linked import linker
from tournaments.models import Event, Game, Player, Round, Slip
from tournaments.selectors import events, games, players
from tournaments.state import StateError
from tournaments.tasks import round_adjudicate_task, round_solve_task


@contextmanager
def refusals() -> Iterator[None]:
    """Map the refusals of the services to CommandError (message only, no traceback)."""
    try:
        yield
    except ApplicationError as exc:
        raise CommandError(exc.message) from exc
    except StateError as exc:
        # Not the arbitrator's typing: the stored rounds no longer replay. Say so plainly.
        raise CommandError(f"the stored game does not replay ({exc}): the data was changed by hand") from exc


#: What each task does, for the message when it fails in this process.
TASK_WORK = {
    round_solve_task.run.__code__: "computing the tops",
    round_adjudicate_task.run.__code__: "ruling the slips",
}


def failed_task(exc: BaseException) -> tuple[str, str] | None:
    """What the task that raised ``exc`` was doing, and on which round, if ``exc`` came
    out of one of the tasks (its function is in the traceback); else None."""
    found = None
    tb = exc.__traceback__
    while tb is not None:
        work = TASK_WORK.get(tb.tb_frame.f_code)
        if work is not None:
            found = (work, tb.tb_frame.f_locals.get("round_id"))
        tb = tb.tb_next
    if found is None:
        return None
    work, round_id = found
    round = games.round_with_game(round_id) if round_id else None
    where = "the round" if round is None else f"round {round.number} of game {round.game.number}"
    return work, where


@contextmanager
def tasks_in_process() -> Iterator[None]:
    """Run the Celery tasks sent inside the block in this process, at once.

    Eager tasks swallow their errors unless ``task_eager_propagates`` is on: a failed
    adjudication would leave the round CLOSED while the command says the workers are on it.
    With it on, the task's exception reaches the caller (here through the service's
    on_commit); it is turned into a CommandError naming the work, the round and the
    reason. The app's settings are put back afterwards."""
    conf = celery_app.conf
    previous = (conf.task_always_eager, conf.task_eager_propagates)
    conf.task_always_eager = True
    conf.task_eager_propagates = True
    try:
        yield
    except Exception as exc:
        failed = failed_task(exc)
        if failed is None:
            raise
        work, where = failed
        reason = exc.message if isinstance(exc, ApplicationError) else str(exc) or repr(exc)
        raise CommandError(
            f"{work} of {where} failed: {type(exc).__name__}: {reason}"
            " (the round is kept as it is; once the cause is fixed,"
            " serve sends the task again when it starts)"
        ) from exc
    finally:
        conf.task_always_eager, conf.task_eager_propagates = previous


def prepare_database(err: Any) -> None:
    """The database ready for a command run before anything else on a fresh checkout (the
    guides' commands work in any order). The embedded default (SQLite) is migrated on its
    first use, as ``serve`` would; another database (PostgreSQL, shared by several machines)
    is migrated by whoever runs ``migrate``: a one-line error says so. ``err``: where the
    note goes (stderr: a command's stdout may be JSON)."""
    from django.core.management import call_command
    from django.db import connection
    from django.db.migrations.executor import MigrationExecutor

    executor = MigrationExecutor(connection)
    if not executor.migration_plan(executor.loader.graph.leaf_nodes()):
        return
    if connection.vendor != "sqlite":
        raise CommandError(
            "The database is not ready for this version of Arbiter: run `python manage.py migrate` first."
        )
    err.write(f"Preparing the database {connection.settings_dict['NAME']} (first use)...")
    call_command("migrate", interactive=False, verbosity=0)


class ArbiterCommand(BaseCommand):
    """Base of the event commands: ``--event``, ``--user`` and, when the command triggers
    Celery tasks, ``--worker``/``--wait``. Subclasses implement :meth:`run`."""

    #: Does the command act on one event (``--event`` required)?
    event_option = True
    #: Does the command enqueue Celery tasks (solve, adjudicate)?
    enqueues_tasks = False

    options: dict[str, Any]
    #: The arbitrator of ``--user``; None records the writes as "system".
    user: AuthUser | None

    def add_arguments(self, parser: CommandParser) -> None:
        if self.event_option:
            parser.add_argument("--event", required=True, metavar="ID_OR_CODE", help="event id or join code")
        parser.add_argument(
            "--user", metavar="USERNAME", help="the arbitrator, recorded in the history (default: system)"
        )
        if self.enqueues_tasks:
            parser.add_argument(
                "--worker",
                action="store_true",
                help="leave the tasks to running Celery workers (default: run them in this process)",
            )
            parser.add_argument(
                "--wait",
                type=int,
                default=60,
                metavar="SECONDS",
                help="with --worker: how long to wait for the workers' result (default 60)",
            )
        self.add_command_arguments(parser)

    def add_command_arguments(self, parser: CommandParser) -> None:
        """The command's own arguments."""

    # The commands speak English: the services' refusals and the states they print must
    # not come out in the site's default language inside English sentences.
    @no_translations
    def handle(self, *args: Any, **options: Any) -> None:
        self.options = options
        prepare_database(self.stderr)
        try:
            with ExitStack() as stack:
                stack.enter_context(refusals())
                if self.enqueues_tasks and not options["worker"]:
                    stack.enter_context(tasks_in_process())
                self.user = find_user(options.get("user"))
                self.run(*args, **options)
        except BrokenPipeError:
            # `event_status | head`: the reader left. Stop quietly, as Python's docs advise:
            # point stdout at devnull so that the flush at exit does not fail again.
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())

    def run(self, *args: Any, **options: Any) -> None:
        raise NotImplementedError

    def event(self) -> Event:
        return find_event(self.options["event"])

    def say(self, text: str = "") -> None:
        self.stdout.write(text)

    def report_draw(self, round: Round | None, game: Game, event: Event) -> None:
        """A new round with its tops once solved, or the end of the game by the draw rule."""
        if round is None:
            game.refresh_from_db()
            self.say(f"Game {game.number} has ended: {END_REASONS.get(game.end_reason, game.end_reason)}")
            return
        self.wait_for(round, lambda r: r.solved_at is not None)
        for line in draw_lines(round, event):
            self.say(line)

    def wait_for(self, round: Round, ready: Callable[[Round], bool]) -> bool:
        """Refresh ``round`` until ``ready``; with eager tasks it already is, or never will be."""
        deadline = time.monotonic() + (self.options.get("wait") or 0)
        while True:
            round.refresh_from_db()
            if ready(round):
                return True
            if not self.options.get("worker") or time.monotonic() > deadline:
                return False
            time.sleep(0.1)


# --------------------------------------------------------------------------- look-ups


def decimal_number(text: str) -> int | None:
    """``text`` as a whole number if it is written with decimal digits only, else None.

    ``str.isdigit`` is not enough: ``"²".isdigit()`` is True and ``int("²")`` fails. A
    number too long for ``int`` (over 4300 digits) is None too."""
    if not text.isdecimal():
        return None
    try:
        return int(text)
    except ValueError:
        return None


def write_file(path: str, data: bytes) -> Path:
    """Write an output file, or say why it cannot be written (no traceback)."""
    out = Path(path)
    try:
        out.write_bytes(data)
    except OSError as exc:
        raise CommandError(f"cannot write {out}: {exc.strerror}") from exc
    return out


def find_event(text: str) -> Event:
    text = (text or "").strip()
    event = events.event_by_id_or_code(decimal_number(text), text)
    if event is None:
        raise CommandError(f"no event with id or join code {text!r} (event_status lists the events)")
    return event


def find_user(username: str | None) -> AuthUser | None:
    if not username:
        return None
    user = get_user_model().objects.filter(username=username).first()
    if not isinstance(user, AuthUser):
        raise CommandError(f"no user named {username!r}: create one with createsuperuser")
    return user


def playing_game(event: Event) -> Game:
    game = games.playing_game(event)
    if game is None:
        raise CommandError(f"no game is being played in {event.name}: start one with round_draw --new-game")
    return game


def latest_game(event: Event, number: int | None = None) -> Game:
    """Game ``number``, else the game being played, else the last one (for a review after
    the end)."""
    if number is not None:
        game = games.event_game(event, number)
        if game is None:
            raise CommandError(f"{event.name} has no game {number}")
        return game
    game = games.current_game(event)
    if game is None:
        raise CommandError(f"no game has been started in {event.name}: start one with round_draw --new-game")
    return game


def current_round(game: Game) -> Round:
    """The round not yet placed: there is at most one (the services draw after placing)."""
    round = games.unplaced_round(game)
    if round is None:
        raise CommandError(f"no round is drawn in game {game.number}: draw one with round_draw")
    return round


def player_at(event: Event, table: int) -> Player:
    player = players.player_at_table(event, table)
    if player is None:
        raise CommandError(f"no player at table {table}")
    return player


# --------------------------------------------------------------------------- display

#: Equal tops listed on one line; an empty board often has dozens (top_choose lists all).
TOPS_SHOWN = 6


def board_size(event: Event) -> int:
    return layout(event.board).size


def shown_move(gcg: str, event: Event) -> str:
    """A stored move (GCG) in the event's notation; the stored text if it cannot be read."""
    return display.shown_move(gcg, event.board, event.notation)


def rack_text(round: Round) -> str:
    """The rack as reliquat+new tiles, as the game sheet prints it."""
    return display.rack_text(round.reliquat, round.new_tiles)


def tops_text(round: Round, event: Event) -> str:
    if round.solved_at is None:
        return "tops: being computed"
    if not round.tops:
        return f"no legal move ({round.move_count or 0} moves): end the game with game_end --reason no_move"
    shown = ", ".join(shown_move(t, event) for t in round.tops[:TOPS_SHOWN])
    if len(round.tops) > TOPS_SHOWN:
        shown += f", and {len(round.tops) - TOPS_SHOWN} more (top_choose lists them all)"
    equal = f", {len(round.tops)} equal tops" if len(round.tops) > 1 else ""
    return f"top {round.top_score} ({round.move_count} moves{equal}): {shown}"


def draw_lines(round: Round, event: Event) -> list[str]:
    lines = [f"Game {round.game.number}, round {round.number}: rack {rack_text(round)}"]
    # A served rack is stored as typed (it is not drawn from this event's seed).
    if linker(event).follows(event):
        lines[0] += " (served by the hub)"
    elif round.manual:
        lines[0] += " (typed)"
    lines.extend(f"  rejected: {rejected}" for rejected in round.rejected)
    lines.append(f"  {tops_text(round, event)}")
    return lines


def plural(count: int, word: str) -> str:
    """``1 player``, ``2 players``: the words these commands count all take an s."""
    return f"{count} {word}{'' if count == 1 else 's'}"


def tables_text(tables: list[int]) -> str:
    return ", ".join(str(t) for t in tables) if tables else "none"


def slip_text(slip: Slip | None) -> str:
    """A slip as written: ``H4 WORD 34``, ``h8,a,word 34``, or ``-`` (blank)."""
    if slip is None:
        return "no slip"
    if not slip.coordinates and not slip.word:
        return "-"
    sep = "," if "," in slip.coordinates else " "
    score = "" if slip.announced_score is None else f" {slip.announced_score}"
    return f"{slip.coordinates}{sep}{slip.word}{score}"
