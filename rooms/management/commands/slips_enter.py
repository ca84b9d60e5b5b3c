"""``python manage.py slips_enter --event X [--file SLIPS.txt] [--user USERNAME]``

Typing the paper slips of the open round, one a line::

    12 H4 WORD 34        table, coordinates, word, announced score (optional)
    12 h8,a,word 34      the scramble form, whatever the event's notation
    12 WORD 34           the word alone (first round, a word prolonging one of the board)
    12 CAT WORD 34       raccord letters instead of coordinates
    12 -                 the player handed in a blank slip

Each line is echoed at once with the player's name, the move as understood in the event's
notation and what it scores on the current board ("34 ok", "announced 30: warning, 34
credited", "0: AXQ is not in the lexicon", "0: ...; shifted reference? 8E WORD fits"),
then stored as a paper slip entered by ``--user``. A table typed again says what the new
slip is (docs/rules.md#slips): ``12 fix H4 WORD 34`` corrects a typing mistake (it
replaces the first), ``12 second H4 WORD 34`` is a second slip the player handed in (the
FISF voids the round); without either word the line is refused, unless the event lets
the last slip count (``several_slips_void`` off). A line that cannot be read is refused
with a message and nothing is stored for it; the next lines go on.

Lines come from ``--file``, or from standard input: with a prompt on a terminal (``?``
lists the tables still missing, ``quit`` or Ctrl-D ends), plain lines from a pipe. When
lines were refused in a file or a pipe, the command ends with an error status once the
other lines are stored, so that a script notices.

Paper slips are collected by the deadline and typed afterwards: while the round is open,
a slip typed after the deadline is recorded as received at the deadline (the history
keeps the real time of typing). Once the round is closed, slips can no longer be typed
here: correct the ruling with ``rulings --override``.
"""

from __future__ import annotations

import io
import re
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from django.core.management.base import CommandError, CommandParser

from rooms.management.commands._common import (
    ArbiterCommand,
    current_round,
    decimal_number,
    playing_game,
    plural,
    rack_text,
    slip_text,
    tables_text,
)
from tournaments.core import ApplicationError
from tournaments.judging import Preview, SlipJudge
from tournaments.models import Event, Player, Round
from tournaments.selectors.players import players_by_table
from tournaments.selectors.slips import current_slip, current_slip_count, still_current, tables_without_slip
from tournaments.services.slips import SECOND_CORRECTION, SECOND_SLIP, paper_slip_submit

USAGE = (
    "TABLE [fix|second] COORDINATES WORD [SCORE] (12 H4 WORD 34, 12 h8,a,word 34),"
    " or TABLE - for a blank slip"
)
#: A table typed again says what the new slip is (docs/rules.md#slips).
_SECOND = {"fix": SECOND_CORRECTION, "second": SECOND_SLIP}
_NUMBER = re.compile(r"-?[0-9]+")
#: The highest announced score a slip may carry; more is a typing slip, refused with the line.
MAX_ANNOUNCED = 9999
_QUIT = {"quit", "q", "exit", "."}
_MISSING = {"?", "missing"}


class SlipLineError(ValueError):
    """A line that cannot be read as a slip."""


@dataclass(frozen=True)
class SlipLine:
    table: int
    coordinates: str
    word: str
    announced: int | None
    #: For a table typed again: SECOND_CORRECTION ("fix") or SECOND_SLIP ("second").
    second: str | None = None

    @property
    def blank(self) -> bool:
        return not self.coordinates and not self.word

    @property
    def written(self) -> str:
        if self.blank:
            return "-"
        sep = "," if "," in self.coordinates else " "
        return f"{self.coordinates}{sep}{self.word}"


def parse_slip_line(text: str) -> SlipLine:
    """Read ``12 H4 WORD 34``, ``12 h8,a,word 34`` or ``12 -``; raises SlipLineError.

    Only the shape of the line is checked here: coordinates or a word the player wrote
    wrong are stored as written and ruled (0, or a shifted reference), like any slip.
    """
    tokens = text.split()
    if not tokens:
        raise SlipLineError(f"empty line: {USAGE}")
    table_text, rest = tokens[0], tokens[1:]
    number = decimal_number(table_text)
    if number is None:
        raise SlipLineError(f"{table_text!r} is not a table number: {USAGE}")
    table = number
    second = _SECOND.get(rest[0].lower()) if rest else None
    if second is not None:
        rest = rest[1:]
    if not rest:
        raise SlipLineError(f"table {table}: the move is missing: {USAGE}")
    if rest == ["-"]:
        return SlipLine(table, "", "", None, second)
    announced = None
    if len(rest) > 1 and _NUMBER.fullmatch(rest[-1]):
        written, rest = rest[-1], rest[:-1]
        if written.startswith("-"):
            raise SlipLineError(f"table {table}: the announced score cannot be negative")
        # Checked on the digits: int() refuses more than 4300 of them with a ValueError.
        if len(written.lstrip("0")) > len(str(MAX_ANNOUNCED)) or int(written) > MAX_ANNOUNCED:
            raise SlipLineError(
                f"table {table}: the announced score {written} is not a score (0 to {MAX_ANNOUNCED})"
            )
        announced = int(written)
    move = " ".join(rest)
    if "," in move:
        # The scramble form carries its own direction; spaces around the commas are noise.
        coordinates, _, word = "".join(rest).rpartition(",")
        if coordinates.count(",") != 1 or not word:
            raise SlipLineError(f"table {table}: cannot read {move!r}: the scramble form is h8,a,word")
        return SlipLine(table, coordinates, word, announced, second)
    if len(rest) == 1 and re.fullmatch(r"[A-Za-z-]+", rest[0], re.ASCII):
        # The word alone: no reference is needed on the first round or for a word that
        # prolongs a word of the board (docs/rules.md#raccord).
        return SlipLine(table, "", rest[0], announced, second)
    if len(rest) == 1:
        raise SlipLineError(
            f"table {table}: {move!r} is not coordinates and a word (e.g. {table} H4 WORD 34)"
        )
    if len(rest) > 2:
        raise SlipLineError(f"table {table}: unexpected text in {move!r} (e.g. {table} H4 WORD 34)")
    return SlipLine(table, rest[0], rest[1], announced, second)


class Command(ArbiterCommand):
    help = "Type the paper slips of the open round: '12 H4 WORD 34', '12 h8,a,word 34', '12 -'."
    # call_command(..., stdin=io.StringIO(...)) feeds the lines in tests and scripts.
    stealth_options = ("stdin",)

    event_row: Event
    round: Round
    judge: SlipJudge
    players: dict[int, Player]
    stored: int
    replaced: int

    def add_command_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--file", metavar="PATH", help="read the slips from a file instead of stdin")

    def run(self, *args: Any, **opts: Any) -> None:
        event = self.event()
        game = playing_game(event)
        round = current_round(game)
        if round.state == Round.State.DRAWN:
            raise CommandError(f"round {round.number} is not open yet: open it with round_open")
        if round.state != Round.State.OPEN:
            raise CommandError(
                f"round {round.number} is {round.get_state_display()}: slips can no longer be typed"
                " (one would be late and score 0); correct a ruling with rulings --override"
            )
        self.event_row, self.round = event, round
        # The game replayed once for the whole session; messages name squares in the
        # event's notation.
        self.judge = SlipJudge(round)
        self.players = players_by_table(event)
        self.stored = self.replaced = 0
        refused: list[int] = []

        if opts["file"]:
            try:
                text = Path(opts["file"]).read_text(encoding="utf-8-sig")
            except (OSError, UnicodeDecodeError) as exc:
                raise CommandError(f"cannot read {opts['file']}: {exc}") from exc
            stream: IO[str] = io.StringIO(text)
        else:
            stream = opts.get("stdin") or sys.stdin
        interactive = not opts["file"] and stream.isatty()
        self.say(
            f"Game {game.number}, round {round.number}: rack {rack_text(round)}."
            f" {plural(len(self.players), 'player')}, {plural(self._received(), 'slip')} received."
        )
        if interactive:
            self.say(f"Type {USAGE}; ? lists the missing tables, quit or Ctrl-D ends.")
        try:
            for number, text in self._lines(stream, interactive):
                command = text.strip().lower()
                if not command or command.startswith("#"):
                    continue
                if command in _QUIT:
                    break
                if command in _MISSING:
                    self.say(f"missing tables: {tables_text(tables_without_slip(round))}")
                    continue
                try:
                    self._enter(text)
                except (SlipLineError, ApplicationError) as exc:
                    refused.append(number)
                    message = exc.message if isinstance(exc, ApplicationError) else str(exc)
                    self.stderr.write(f"line {number}: {message} (nothing stored)")
        except KeyboardInterrupt:  # Ctrl-C at the prompt: what was typed so far is stored
            self.say("")
        self.say(
            f"{plural(self.stored, 'slip')} stored ({self.replaced} replacing an earlier slip);"
            f" {self._received()} of {len(self.players)} tables have a slip;"
            f" missing: {tables_text(tables_without_slip(round))}"
        )
        if refused and not interactive:
            lines = ", ".join(str(n) for n in refused)
            raise CommandError(
                f"{plural(len(refused), 'line')} refused (line {lines}): nothing stored for them,"
                " the other lines are stored"
            )

    def _received(self) -> int:
        return current_slip_count(self.round)

    def _lines(self, stream: IO[str], interactive: bool) -> Iterator[tuple[int, str]]:
        number = 0
        while True:
            number += 1
            prompt = f"slip [{self._received()}/{len(self.players)}]> "
            if interactive and stream is sys.stdin:
                try:
                    # input() on the real terminal gives line editing and history.
                    text = input(prompt)
                except EOFError:
                    self.say("")
                    return
            else:
                if interactive:
                    self.stdout.write(prompt, ending="")
                    self.stdout.flush()
                text = stream.readline()
                if not text:
                    return
            yield number, text

    def _enter(self, text: str) -> None:
        line = parse_slip_line(text)
        player = self.players.get(line.table)
        if player is None:
            raise SlipLineError(f"no player at table {line.table}")
        preview = self.judge.preview(line.coordinates, line.word, line.announced, player=player)
        previous = current_slip(self.round, player)
        result = paper_slip_submit(
            round=self.round,
            player=player,
            coordinates=line.coordinates,
            word=line.word,
            announced_score=line.announced,
            by=self.user,
            second=line.second,
        )
        self.stored += 1
        shown = preview.move or line.written
        echo = f"{player.table:>4}  {player.name[:24]:<24}  {shown:<20}  {self._outcome(preview, player)}"
        if result.slip.late:
            echo += "  LATE: the round was closed meanwhile, the slip is kept and scores 0"
        if previous is not None:
            written = slip_text(previous)
            written = "a blank slip" if written == "-" else written
            if result.slip.current and not still_current(previous):
                self.replaced += 1
                echo += f"  (replaces {written})"
            elif not result.slip.late:
                echo += f"  (a second slip handed in, besides {written}: the round scores 0 for this table)"
        self.say(echo)

    def _outcome(self, preview: Preview, player: Player) -> str:
        """What the slip scores, as the arbitrator reads it back to check the paper."""
        if preview.ok:
            # Without the note of the move's own score: the echo shows the move already.
            notes = [note.text() for note in preview.notes if note.code != "scores"]
            text = f"{', '.join(notes)}, {preview.credited} credited" if notes else f"{preview.credited} ok"
            if preview.warning_penalty:
                text += (
                    f" (warning {preview.game_warnings} of the game: {preview.warning_penalty}-point penalty)"
                )
            return text
        detail = preview.detail
        if preview.shift_candidate:
            detail = "; ".join(note.text() for note in preview.notes if note.code != "shift_offered")
            return (
                f"0: {detail}; shifted reference? {preview.shift_candidate} fits"
                f" (accept after the close: rulings --accept-shift {player.table} --reason ...)"
            )
        return f"0: {detail}"
