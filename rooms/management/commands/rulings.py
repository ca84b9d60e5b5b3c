"""``python manage.py rulings --event X [--game N] [--round N] [--players]``
``python manage.py rulings --event X --override TABLE [--credited N] [--warnings N] [--penalty N]
--reason "..."``
``python manage.py rulings --event X --accept-shift TABLE --reason "..."``
``python manage.py rulings --event X --average TABLE --reason "..."``
``python manage.py rulings --event X --publish``

The review of a round's rulings (default: the last round ruled), grouped by move: the
move in the event's notation, its score, how many players and which tables played it,
their warnings, and who found the top; then the invalid slips (with the shifted
references the arbitrator may accept), blank, missing and late slips, the overridden
rulings and the penalties. ``--players`` adds one line a player.

``--override``, ``--accept-shift`` and ``--average`` (the average of the other players
instead of a repeated 0 for the same word not in the list, docs/rules.md#average) correct
one table's ruling; the reason is required and kept in the history with the old and new
values. An override's ``--credited`` is the points before any solo: the round is credited
again, so the tops and the solo follow it. ``--publish`` shows the round's top and rulings
on the phones and the projector once they are reviewed (placing the move does too).
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import CommandError, CommandParser

from rooms.management.commands._common import (
    ArbiterCommand,
    latest_game,
    player_at,
    plural,
    rack_text,
    shown_move,
    slip_text,
    tops_text,
)
from scoring.adjudication import Reason
from tournaments.models import Event, Game, Round, Ruling
from tournaments.selectors.games import RULED, game_round, last_ruled_round
from tournaments.selectors.review import player_ruling, round_review
from tournaments.services.corrections import ruling_accept_shift, ruling_average, ruling_override
from tournaments.services.rounds import round_publish


def _who(ruling: Ruling) -> str:
    return f"{ruling.player.table} {ruling.player.name}"


def _notes(ruling: Ruling) -> str:
    """The ruling's notes without the leading "MOVE scores N" (already on the line)."""
    if ruling.reason == Reason.SHIFT_ACCEPTED:
        return f"shifted reference accepted, {ruling.penalty}-point penalty: {ruling.override_reason}"
    return "; ".join(ruling.detail.split("; ")[1:])


class Command(ArbiterCommand):
    help = "Review a round's rulings grouped by move; correct one with --override or --accept-shift."

    def add_command_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--game", type=int, metavar="N", help="default: the game being played, or the last"
        )
        parser.add_argument("--round", type=int, metavar="N", help="default: the last round ruled")
        parser.add_argument("--players", action="store_true", help="also list every player's ruling")
        action = parser.add_mutually_exclusive_group()
        action.add_argument("--override", type=int, metavar="TABLE", help="change this table's ruling")
        action.add_argument(
            "--accept-shift",
            type=int,
            metavar="TABLE",
            help="accept this table's shifted reference (the nearby placement, minus the shift penalty)",
        )
        action.add_argument(
            "--average",
            type=int,
            metavar="TABLE",
            help="credit this table the average of the other players instead of a repeated 0",
        )
        action.add_argument(
            "--publish",
            action="store_true",
            help="show the players the top and their rulings: the review is done",
        )
        parser.add_argument("--credited", type=int, metavar="N", help="with --override: points credited")
        parser.add_argument("--warnings", type=int, metavar="N", help="with --override: warnings")
        parser.add_argument("--penalty", type=int, metavar="N", help="with --override: penalty points")
        parser.add_argument("--reason", metavar="TEXT", help="why the ruling changes (required, kept)")

    def run(self, *args: Any, **opts: Any) -> None:
        changes = {k: opts[k] for k in ("credited", "warnings", "penalty") if opts[k] is not None}
        acting = any(opts[k] is not None for k in ("override", "accept_shift", "average"))
        if changes and opts["override"] is None:
            raise CommandError("--credited, --warnings and --penalty go with --override TABLE")
        if opts["reason"] is not None and not acting:
            raise CommandError("--reason goes with --override, --accept-shift or --average")
        if acting and not (opts["reason"] or "").strip():
            raise CommandError("say why the ruling changes with --reason: it is kept in the history")
        if opts["override"] is not None and not changes:
            raise CommandError("say what changes: --credited, --warnings or --penalty")
        if any(v < 0 for k, v in changes.items() if k != "credited"):
            raise CommandError("warnings and penalties cannot be negative")
        event = self.event()
        game = latest_game(event, opts["game"])
        round = self._round(game, opts["round"])
        if opts["override"] is not None:
            self._override(event, round, opts["override"], opts["reason"], changes)
        elif opts["accept_shift"] is not None:
            self._accept_shift(event, round, opts["accept_shift"], opts["reason"])
        elif opts["average"] is not None:
            self._average(event, round, opts["average"], opts["reason"])
        elif opts["publish"]:
            round = round_publish(round=round, by=self.user)
            self.say(f"Round {round.number}: the phones and the projector show its top and rulings")
            self.say("")
        self._review(event, round, opts["players"])

    def _round(self, game: Game, number: int | None) -> Round:
        if number is None:
            round = last_ruled_round(game)
            if round is None:
                raise CommandError(
                    f"no round of game {game.number} has been ruled yet: a round is ruled when it closes"
                )
            return round
        round = game_round(game, number)
        if round is None:
            raise CommandError(f"game {game.number} has no round {number}")
        if round.state not in RULED:
            raise CommandError(f"round {number} is {round.get_state_display()}: it is ruled when it closes")
        return round

    def _ruling(self, event: Event, round: Round, table: int) -> Ruling:
        player = player_at(event, table)
        ruling = player_ruling(round, player)
        if ruling is None:  # a player added after the close
            raise CommandError(f"table {table} has no ruling in round {round.number}")
        return ruling

    def _override(self, event: Event, round: Round, table: int, reason: str, changes: dict[str, int]) -> None:
        ruling = self._ruling(event, round, table)
        before = ruling.credited
        ruling = ruling_override(ruling=ruling, by=self.user, reason=reason, **changes)
        self.say(
            f"Table {table} ({ruling.player.name}), round {round.number}:"
            f" credited {before} -> {ruling.credited},"
            f" warnings {ruling.warnings}, penalty {ruling.penalty}; reason kept: {ruling.override_reason}"
        )
        self.say("")

    def _accept_shift(self, event: Event, round: Round, table: int, reason: str) -> None:
        ruling = self._ruling(event, round, table)
        before = ruling.credited
        ruling = ruling_accept_shift(ruling=ruling, by=self.user, reason=reason)
        self.say(
            f"Table {table} ({ruling.player.name}), round {round.number}: shifted reference accepted,"
            f" {shown_move(ruling.move, event)} scores {ruling.move_score};"
            f" credited {before} -> {ruling.credited}"
            f" (penalty {ruling.penalty})"
        )
        self.say("")

    def _average(self, event: Event, round: Round, table: int, reason: str) -> None:
        ruling = self._ruling(event, round, table)
        before = ruling.credited
        ruling = ruling_average(ruling=ruling, by=self.user, reason=reason)
        self.say(
            f"Table {table} ({ruling.player.name}), round {round.number}: the average of the other"
            f" players, credited {before} -> {ruling.credited}; reason kept: {ruling.override_reason}"
        )
        self.say("")

    def _review(self, event: Event, round: Round, per_player: bool) -> None:
        review = round_review(round)
        rulings = review.rulings
        self.say(
            f"Game {round.game.number}, round {round.number} ({round.get_state_display()}):"
            f" rack {rack_text(round)}, {tops_text(round, event)}"
        )
        if round.state == Round.State.PLACED:
            self.say(f"  placed: {shown_move(round.chosen, event)} {round.chosen_score}")
        elif round.chosen:
            self.say(f"  chosen for the board: {shown_move(round.chosen, event)} {round.chosen_score}")
        elif round.tops:
            self.say(
                f"  to be placed: {shown_move(round.tops[0], event)} (automatic choice; top_choose to change)"
            )
        if round.state == Round.State.ADJUDICATED and round.published_at is None:
            self.say(
                "  not shown to the players yet: the phones say it is being checked (--publish shows it)"
            )

        groups = review.groups
        self.say(f"\nMoves played ({plural(sum(len(g.rulings) for g in groups), 'player')}):")
        self.say(f"  {'score':>5}  {'players':>7}  {'move':<22} tables" if groups else "  none")
        for group in groups:
            top = "TOP" if group.is_top else ""
            self.say(
                f"  {group.score:>5}  {len(group.rulings):>7}  {group.shown:<18} {top:<3} "
                + ", ".join(_who(r) for r in group.rulings)
            )
            for r in group.rulings:
                if r.warnings or r.reason == Reason.SHIFT_ACCEPTED:
                    self.say(f"  {'':>5}  {'':>7}  {'':<22} {_who(r)}: {_notes(r)}")

        invalid = review.invalid
        self.say(f"\nInvalid, 0 ({len(invalid)}):" + ("" if invalid else " none"))
        for r in invalid:
            self.say(f"  {_who(r)}: {slip_text(r.slip)}: {r.detail.split('; the word fits at ')[0]}")
            if r.shift_candidate:
                self.say(
                    f"      shifted reference? {shown_move(r.shift_candidate, event)} fits:"
                    f" rulings --event {event.code} --round {round.number} --accept-shift {r.player.table}"
                    ' --reason "..."'
                )
        for label, kind in (
            ("Blank slips", review.blank),
            ("Missing", review.missing),
            ("Late", review.late),
        ):
            who = [_who(r) for r in kind]
            self.say(f"{label} ({len(who)}): {', '.join(who) or 'none'}")

        if review.overridden:
            self.say("\nCorrected by the arbitrator:")
            for r in review.overridden:
                by = f" by {r.ruled_by.get_username()}" if r.ruled_by else ""
                self.say(f"  {_who(r)}: {r.credited} credited{by}: {r.override_reason} (was: {r.detail})")
        solos = [f"{_who(r)} (+{event.solo_bonus})" for r in review.solos]
        penalties = [f"{_who(r)} {r.penalty}" for r in review.penalties]
        self.say(f"Solo: {', '.join(solos) or 'none'}")
        self.say(f"Penalties: {', '.join(penalties) or 'none'}")

        if per_player:
            self.say(
                f"\n{'table':>5}  {'name':<24} {'move':<22} {'score':>5} {'credited':>8}"
                f" {'warn':>4} {'pen':>4}  note"
            )
            for r in rulings:
                flags = " ".join(
                    f for f, on in (("top", r.is_top), ("solo", r.solo), ("corrected", r.overridden)) if on
                )
                move = shown_move(r.move, event) or slip_text(r.slip)
                self.say(
                    f"{r.player.table:>5}  {r.player.name[:24]:<24} {move[:22]:<22} {r.move_score:>5}"
                    f" {r.credited:>8} {r.warnings:>4} {r.penalty:>4}  {r.reason} {flags}".rstrip()
                )
