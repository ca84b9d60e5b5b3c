"""Every write of the event flow: keyword-only, typed, transactional.

Races between players and the arbitrator are settled on the Round row: ``slip_submit``
and ``round_close`` both lock it (``select_for_update``) before reading its state, so a
slip is either in before the close or marked late after it, never lost or half-counted.
On SQLite, where ``select_for_update`` is a no-op, the IMMEDIATE transactions of the
settings serialize the writers instead.

Every change to a slip, a ruling or a draw is kept in :class:`HistoryEntry`.
"""

from __future__ import annotations

import csv
import dataclasses
import datetime as dt
import gzip
import hashlib
import io
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth.models import AnonymousUser
from django.contrib.auth.models import User as AuthUser
from django.core.exceptions import ValidationError
from django.db import models, transaction
from django.db.models import Max, Sum
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring import adjudication as adj
from solver import lexicon as lexmod
from solver.analysis import analyse, order_tops
from solver.draw import RackDraw, game_over_by_draw
from solver.errors import IllegalMoveError, IllegalRackError, InvalidMoveError
from solver.formats.record import FinalDraw, GameConfig, GameRecord, RoundRecord
from solver.game import Game as SolverGame
from solver.game import config_rules
from solver.notation import format_move, parse_move
from solver.rules import Rules, validate
from solver.tiles import rack_codes
from tournaments import tasks
from tournaments.models import Event, Game, HistoryEntry, Lexicon, Player, Round, Ruling, Slip
from tournaments.state import (
    Position,
    compile_imported,
    game_config,
    master_final,
    master_round,
    rebuild,
)

User = AuthUser | AnonymousUser | None


class ApplicationError(Exception):
    """A refused action, with a message for the person who asked and optional detail."""

    def __init__(self, message: str, extra: dict[str, Any] | None = None):
        super().__init__(message)
        self.message = message
        self.extra = extra or {}


def _actor(by: User) -> tuple[AuthUser | None, str]:
    if not isinstance(by, AuthUser):
        return None, "system"
    return by, by.get_username()


def history_record(
    *,
    event: Event,
    entity: str,
    object_id: int,
    action: str,
    by: User,
    old: Any = None,
    new: Any = None,
    reason: str = "",
) -> HistoryEntry:
    user, label = _actor(by)
    return HistoryEntry.objects.create(
        event=event,
        entity=entity,
        object_id=object_id,
        action=action,
        actor=user,
        actor_label=label,
        old=old,
        new=new,
        reason=reason,
    )


# --------------------------------------------------------------------------- lexicons


def lexicon_bundled(*, name: str) -> Lexicon:
    """The Lexicon row of a list shipped with the solver (``enable``, ``french``)."""
    existing = Lexicon.objects.filter(bundled=name).first()
    if existing:
        return existing
    compiled = lexmod.load_bundled(name)
    language = lexmod.BUNDLED[name][1]
    return Lexicon.objects.create(
        name=name,
        language=language,
        bundled=name,
        word_count=compiled.word_count,
        checksum=compiled.checksum,
        report=compiled.report.to_dict() if compiled.report else {},
    )


def lexicon_pack(data: bytes) -> bytes:
    """The stored form of an imported list: gzipped with mtime 0, so that the same list
    always gives the same bytes, hence the same checksum."""
    return data if data[:2] == b"\x1f\x8b" else gzip.compress(data, mtime=0)


def lexicon_import(*, name: str, language: str, data: bytes, source_name: str = "") -> Lexicon:
    """Import a user's word list: compiled once (which checks it), kept gzipped in the
    database; the row is created only for a list that compiles."""
    if Lexicon.objects.filter(name=name).exists():
        raise ApplicationError(_("a lexicon named %(name)s already exists") % {"name": repr(name)})
    packed = lexicon_pack(data)
    label = source_name or name
    try:
        compiled = compile_imported(hashlib.sha256(packed).hexdigest(), packed, label)
    except lexmod.LexiconError as exc:
        if exc.report is not None:
            raise ApplicationError(
                _("%(name)s: no usable word") % {"name": label}, {"report": exc.report.to_dict()}
            ) from exc
        raise ApplicationError(str(exc)) from exc
    return Lexicon.objects.create(
        name=name,
        language=language,
        content=packed,
        source_name=source_name,
        word_count=compiled.word_count,
        checksum=compiled.checksum,
        report=compiled.report.to_dict() if compiled.report else {},
    )


# --------------------------------------------------------------------------- events and players


#: Every setting of an event besides its name, first day and word list, in the order the
#: console's form shows them.
EVENT_SETTINGS = (
    "ends_on",
    "language",
    "board",
    "smooth",
    "notation",
    "mode",
    "round_seconds",
    "random_seed",
    "bingo_bonus",
    "first_move_horizontal",
    "y_counts_as",
    "early_rounds",
    "early_vowels",
    "early_consonants",
    "late_vowels",
    "late_consonants",
    "score_policy",
    "free_warnings",
    "warning_penalty",
    "shift_penalty",
    "solo_bonus",
    "solo_min_players",
    "unmarked_blank_warning",
    "tie_break",
)


def event_create(
    *, name: str, starts_on: dt.date, lexicon: Lexicon, created_by: User = None, **settings: Any
) -> Event:
    unknown = set(settings) - set(EVENT_SETTINGS)
    if unknown:
        raise ApplicationError(_("unknown event settings: %(names)s") % {"names": ", ".join(sorted(unknown))})
    user, _label = _actor(created_by)
    event = Event(name=name, starts_on=starts_on, lexicon=lexicon, created_by=user, **settings)
    try:
        event.full_clean()
        # The solver's own checks of the settings (minimums that fit the rack, ...).
        config_rules(game_config(Game(event=event, number=1)))
    except (ValidationError, ValueError) as exc:
        raise ApplicationError(_("the event cannot be created: %(error)s") % {"error": exc}) from exc
    event.save()
    return event


#: Settings that may change after the first game started: they do not change the draws,
#: the board or the scores already stored (the others would stop the games replaying).
LIVE_SETTINGS = {"round_seconds", "ends_on"}


def event_update(*, event: Event, by: User = None, **changes: Any) -> Event:
    """Change an event's name or settings. Once a game has started only the time per
    round and the last day may change. Each change is kept in the history."""
    unknown = set(changes) - set(EVENT_SETTINGS) - {"name", "starts_on", "lexicon"}
    if unknown:
        raise ApplicationError(_("unknown event settings: %(names)s") % {"names": ", ".join(sorted(unknown))})
    with transaction.atomic():
        # Locked with game_start: a game cannot start between this check and the save.
        event = Event.objects.select_for_update().get(pk=event.pk)
        changed = {k: v for k, v in changes.items() if getattr(event, k) != v}
        if not changed:
            return event
        if event.games.exists() and set(changed) - LIVE_SETTINGS:
            frozen = ", ".join(sorted(set(changed) - LIVE_SETTINGS))
            raise ApplicationError(
                _("a game has started: these settings can no longer change (%(names)s)") % {"names": frozen},
                {"frozen": frozen},
            )
        old = {k: _plain(getattr(event, k)) for k in changed}
        for key, value in changed.items():
            setattr(event, key, value)
        try:
            event.full_clean()
            config_rules(game_config(Game(event=event, number=1)))
        except (ValidationError, ValueError) as exc:
            raise ApplicationError(_("the event cannot be changed: %(error)s") % {"error": exc}) from exc
        event.save()
        history_record(
            event=event,
            entity="event",
            object_id=event.pk,
            action="settings",
            by=by,
            old=old,
            new={k: _plain(v) for k, v in changed.items()},
        )
        return event


def _plain(value: Any) -> Any:
    """A setting as JSON for the history."""
    if isinstance(value, dt.date):
        return value.isoformat()
    if isinstance(value, Lexicon):
        return value.name
    return value


def player_add(
    *,
    event: Event,
    name: str,
    club: str = "",
    licence: str = "",
    category: str = "",
    table: int | None = None,
    virtual_level: int | None = None,
    by: User = None,
) -> Player:
    name = name.strip()
    if not name:
        raise ApplicationError(_("a player needs a name"))
    if virtual_level is not None and not 1 <= virtual_level <= 6:
        raise ApplicationError(_("a virtual player's level is 1 to 6"))
    values = {"name": name, "club": club.strip(), "licence": licence.strip(), "category": category.strip()}
    for key, value in values.items():
        # PostgreSQL refuses a longer text with an error; SQLite would keep it silently.
        field = Player._meta.get_field(key)
        assert isinstance(field, models.CharField)
        if field.max_length is not None and len(value) > field.max_length:
            raise ApplicationError(
                _("%(field)s is too long (%(length)s characters, %(limit)s at most)")
                % {"field": field.verbose_name, "length": len(value), "limit": field.max_length}
            )
    if table is not None and not 1 <= table <= 2_147_483_647:
        raise ApplicationError(_("a table number is 1 or more"))
    with transaction.atomic():
        if table is None:
            table = (event.players.aggregate(m=Max("table"))["m"] or 0) + 1
        if event.players.filter(table=table).exists():
            raise ApplicationError(_("table %(table)s already has a player") % {"table": table})
        player = Player.objects.create(event=event, table=table, virtual_level=virtual_level, **values)
        history_record(
            event=event,
            entity="player",
            object_id=player.pk,
            action="add",
            by=by,
            new={"table": table, "name": player.name, "virtual": virtual_level},
        )
        return player


def players_import(*, event: Event, csv_text: str, by: User = None) -> list[Player]:
    """Import players from CSV with a header row: ``name`` required; ``club``,
    ``licence``, ``category``, ``table`` optional (comma or semicolon separated).
    All or nothing: one bad line refuses the whole file, naming the line."""
    sample = csv_text[:2048]
    try:
        dialect = csv.Sniffer().sniff(sample, delimiters=",;\t")
    except csv.Error:
        dialect = csv.excel
    reader = csv.DictReader(io.StringIO(csv_text), dialect=dialect)
    fields = [f.strip().lower() for f in (reader.fieldnames or [])]
    if "name" not in fields:
        raise ApplicationError(_("the CSV needs a header row with a 'name' column"))
    reader.fieldnames = fields
    created = []
    with transaction.atomic():
        for number, row in enumerate(reader, start=2):
            table_text = (row.get("table") or "").strip()
            try:
                table = int(table_text) if table_text else None
            except ValueError:
                raise ApplicationError(
                    _("line %(line)s: table %(table)s is not a number")
                    % {"line": number, "table": repr(table_text)}
                ) from None
            try:
                created.append(
                    player_add(
                        event=event,
                        name=row.get("name") or "",
                        club=row.get("club") or "",
                        licence=row.get("licence") or "",
                        category=row.get("category") or "",
                        table=table,
                        by=by,
                    )
                )
            except ApplicationError as exc:
                raise ApplicationError(
                    _("line %(line)s: %(error)s") % {"line": number, "error": exc.message}
                ) from exc
    return created


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


# --------------------------------------------------------------------------- games and draws


#: The settings a game record carries: an imported event takes them from the record.
RECORD_SETTINGS = tuple(f.name for f in dataclasses.fields(GameConfig) if f.name in EVENT_SETTINGS)


def game_start(*, event: Event, by: User = None) -> Game:
    with transaction.atomic():
        # One game number at a time; and the settings and master games read under the
        # lock, not from the caller's copy (a settings change may have just committed).
        event = Event.objects.select_for_update().select_related("lexicon").get(pk=event.pk)
        if event.games.filter(state=Game.State.PLAYING).exists():
            raise ApplicationError(_("a game of this event is still being played: end it first"))
        number = (event.games.aggregate(m=Max("number"))["m"] or 0) + 1
        game = Game(event=event, number=number)
        new: dict[str, Any] = {"number": number}
        if number <= len(event.masters):
            record = GameRecord.from_dict(event.masters[number - 1])
            game.master = event.masters[number - 1]
            game.seed_value = record.config.seed
            _check_master_settings(game, record)
            new["master"] = {"rounds": len(record.rounds), "seed": record.config.seed}
        game.save()
        history_record(event=event, entity="game", object_id=game.pk, action="start", by=by, new=new)
        return game


def _check_master_settings(game: Game, record: GameRecord) -> None:
    """A master game replays only with the settings it was played with: the event's may
    have been changed since the import."""
    ours = game_config(game)
    theirs = record.config
    differ = [
        f"{name} ({getattr(theirs, name)!r} / {getattr(ours, name)!r})"
        for name in RECORD_SETTINGS
        if getattr(theirs, name) != getattr(ours, name)
    ]
    if theirs.lexicon_checksum and theirs.lexicon_checksum != ours.lexicon_checksum:
        differ.append(f"lexicon ({theirs.lexicon} / {game.event.lexicon.name})")
    if differ:
        raise ApplicationError(
            _("game %(number)s replays a master game played with other settings (record / event): %(list)s")
            % {"number": game.number, "list": ", ".join(differ)}
        )


def round_draw(
    *, game: Game, by: User = None, typed: str | None = None, rejected: tuple[str, ...] = ()
) -> Round | None:
    """Draw the next rack, at random or as typed from a physical draw (full rack,
    reliquat included). Returns None when the draw rule ends the game (the game is then
    ended). Raises ApplicationError with the reason when a typed rack is refused."""
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game.pk)
        if game.state != Game.State.PLAYING:
            raise ApplicationError(_("the game has ended"))
        position = rebuild(game)
        if position.current is not None:
            raise ApplicationError(
                _("round %(number)s is not placed yet") % {"number": position.current.number}
            )
        solver_game = position.game
        number = solver_game.round_number
        planned = master_round(game, number) or master_final(game, number)
        drawn: RackDraw | None
        if planned is not None:
            if typed is not None:
                raise ApplicationError(
                    _("round %(number)s of a master game takes its rack from the record: draw without typing")
                    % {"number": number}
                )
            drawn = _master_draw(solver_game, planned, number)
        elif typed is None:
            drawn = solver_game.draw()
            if drawn is None:
                game_end(game=game, reason="draw_rule", by=by)
                return None
        else:
            try:
                drawn = solver_game.draw_manual(typed, rejected)
            except IllegalRackError as exc:
                raise ApplicationError(str(exc)) from exc
        reliquat, new, rejected = drawn.texts()
        round = Round.objects.create(
            game=game,
            number=drawn.round,
            reliquat=reliquat,
            new_tiles=new,
            rejected=list(rejected),
            manual=drawn.manual,
        )
        history_record(
            event=game.event,
            entity="round",
            object_id=round.pk,
            action="draw",
            by=by,
            new={
                "round": round.number,
                "reliquat": round.reliquat,
                "new": round.new_tiles,
                "rejected": round.rejected,
                "manual": round.manual,
            },
        )
        transaction.on_commit(lambda: tasks.round_solve_task.delay(round.pk))
        return round


def _master_draw(solver_game: SolverGame, planned: RoundRecord | FinalDraw, number: int) -> RackDraw:
    """The rack of a master game's round, redrawn from its seed (or taken from the bag as
    typed): it must come out as recorded, racks put back included."""
    drawn: RackDraw | None
    try:
        if planned.manual:
            drawn = solver_game.draw_manual(planned.rack, planned.rejected)
        else:
            drawn = solver_game.draw()
    except IllegalRackError as exc:
        raise ApplicationError(str(exc)) from exc
    if drawn is None or drawn.texts() != (planned.reliquat, planned.new, planned.rejected):
        raise ApplicationError(
            _("round %(number)s does not come out of the bag as the master game's record says")
            % {"number": number}
        )
    return drawn


def round_open(
    *, round: Round, by: User = None, seconds: int | None = None, now: dt.datetime | None = None
) -> Round:
    with transaction.atomic():
        round = Round.objects.select_for_update().get(pk=round.pk)
        _check_playing(round.game)
        if round.state != Round.State.DRAWN:
            raise ApplicationError(
                _("round %(number)s is %(state)s, it cannot be opened")
                % {"number": round.number, "state": round.get_state_display()}
            )
        now = now or timezone.now()
        length = seconds if seconds is not None else round.game.event.round_seconds
        if length < 1:
            raise ApplicationError(_("a round lasts at least one second"))
        round.state = Round.State.OPEN
        round.opened_at = now
        round.deadline = now + dt.timedelta(seconds=length)
        round.save(update_fields=["state", "opened_at", "deadline"])
        history_record(
            event=round.game.event,
            entity="round",
            object_id=round.pk,
            action="open",
            by=by,
            new={"deadline": round.deadline.isoformat()},
        )
        return round


#: No move scores more on any board; a bigger number is a typing error, not a score.
MAX_ANNOUNCED = 9999


def _check_playing(game: Game) -> None:
    if game.state != Game.State.PLAYING:
        raise ApplicationError(_("game %(number)s has ended") % {"number": game.number})


@dataclass
class SubmitResult:
    slip: Slip
    #: nostrict mode: the words of the slip that are not in the lexicon.
    invalid_words: list[str] = field(default_factory=list)
    created: bool = True


def _training_check(round: Round, coordinates: str, word: str) -> list[str]:
    """Strict and nostrict modes check the words at submission (tournament mode never)."""
    event = round.game.event
    position = rebuild(round.game)
    settings = adjudication_settings(event)
    verdict = adj.adjudicate_slip(
        position.game.board,
        rack_codes(round.rack),
        position.game.lexicon,
        _judging_rules(position, event),
        settings,
        adj.SlipInput(coordinates, word, None),
    )
    if event.mode == Event.Mode.STRICT and verdict.reason != adj.Reason.OK:
        raise ApplicationError(
            verdict.detail, {"reason": verdict.reason, "invalid_words": list(verdict.invalid_words)}
        )
    return list(verdict.invalid_words)


def check_round(round: Round, expected: tuple[int, int] | None) -> None:
    """Refuse an action meant for another round (game number, round number): a slip kept
    by a phone while offline, a paper slip or a click on a page that is a round behind
    must not land on the round that has replaced it."""
    if expected is not None and expected != (round.game.number, round.number):
        game, number = expected
        raise ApplicationError(
            _("this was for round %(number)s of game %(game)s, which is no longer the current round")
            % {"number": number, "game": game},
            {"reason": "wrong_round"},
        )


def slip_submit(
    *,
    round: Round,
    player: Player,
    coordinates: str,
    word: str,
    announced_score: int | None,
    source: str = Slip.Source.PHONE,
    entered_by: User = None,
    client_id: str = "",
    now: dt.datetime | None = None,
    for_round: tuple[int, int] | None = None,
) -> SubmitResult:
    """Record a slip. The same ``client_id`` twice returns the first slip (a retry). The
    last slip before the deadline counts; one after it is kept, marked late, ruled 0."""
    if player.event_id != round.game.event_id:
        raise ApplicationError(_("this player is not in this event"))
    coordinates, word = coordinates.strip(), word.strip()
    if announced_score is not None and not 0 <= announced_score <= MAX_ANNOUNCED:
        raise ApplicationError(
            _("the announced score must be between 0 and %(max)s") % {"max": MAX_ANNOUNCED}
        )
    invalid: list[str] = []
    with transaction.atomic():
        # Locked so that a close cannot slip between reading the state and saving the slip;
        # the round only (of=self): its game and event come along, unlocked, to save queries.
        locked = Round.objects.select_for_update(of=("self",)).select_related("game__event").get(pk=round.pk)
        if client_id:
            # Any round: the answer to a slip of the round before may have been lost, and
            # the phone sends it again after the next round has opened.
            previous = Slip.objects.filter(player=player, client_id=client_id).first()
            if previous is not None:
                return SubmitResult(previous, created=False)
        _check_playing(locked.game)
        check_round(locked, for_round)
        if locked.state == Round.State.DRAWN:
            raise ApplicationError(_("round %(number)s is not open yet") % {"number": locked.number})
        if locked.state == Round.State.PLACED:
            raise ApplicationError(_("round %(number)s is over") % {"number": locked.number})
        now = now or timezone.now()
        late = locked.state != Round.State.OPEN or (locked.deadline is not None and now > locked.deadline)
        if not late and locked.game.event.mode != Event.Mode.TOURNAMENT:
            invalid = _training_check(locked, coordinates, word)
        user, _label = _actor(entered_by)
        if not late:
            for replaced in Slip.objects.filter(round=locked, player=player, current=True):
                replaced.current = False
                replaced.save(update_fields=["current"])
                history_record(
                    event=locked.game.event,
                    entity="slip",
                    object_id=replaced.pk,
                    action="replaced",
                    by=entered_by,
                    old={"current": True},
                    new={"current": False},
                    reason="a later slip of the same player arrived before the deadline",
                )
        slip = Slip.objects.create(
            round=locked,
            player=player,
            coordinates=coordinates,
            word=word,
            announced_score=announced_score,
            received_at=now,
            source=source,
            entered_by=user,
            client_id=client_id,
            late=late,
            current=not late,
        )
        history_record(
            event=locked.game.event,
            entity="slip",
            object_id=slip.pk,
            action="late" if late else "submit",
            by=entered_by,
            new={
                "player": player.pk,
                "round": locked.number,
                "coordinates": coordinates,
                "word": word,
                "announced": announced_score,
                "source": source,
            },
        )
        return SubmitResult(slip, invalid)


def paper_slip_submit(
    *,
    round: Round,
    player: Player,
    coordinates: str,
    word: str,
    announced_score: int | None,
    by: User,
    client_id: str = "",
    now: dt.datetime | None = None,
    for_round: tuple[int, int] | None = None,
) -> SubmitResult:
    """A paper slip typed by an arbitrator. Paper is collected by the deadline and typed
    afterwards, so one typed after the deadline while the round is still open is recorded
    as received at the deadline (the history keeps the real time of typing)."""
    now = now or timezone.now()
    deadline = Round.objects.filter(pk=round.pk).values_list("deadline", flat=True).first()
    if deadline is not None and now > deadline:
        now = deadline
    return slip_submit(
        round=round,
        player=player,
        coordinates=coordinates,
        word=word,
        announced_score=announced_score,
        source=Slip.Source.PAPER,
        entered_by=by,
        client_id=client_id,
        now=now,
        for_round=for_round,
    )


def round_close(*, round: Round, by: User = None, now: dt.datetime | None = None) -> Round:
    with transaction.atomic():
        # Same lock as slip_submit: slips committed before this point are in, later ones late.
        round = Round.objects.select_for_update().get(pk=round.pk)
        _check_playing(round.game)
        if round.state != Round.State.OPEN:
            raise ApplicationError(
                _("round %(number)s is %(state)s, it cannot be closed")
                % {"number": round.number, "state": round.get_state_display()}
            )
        round.state = Round.State.CLOSED
        round.closed_at = now or timezone.now()
        round.save(update_fields=["state", "closed_at"])
        history_record(event=round.game.event, entity="round", object_id=round.pk, action="close", by=by)
        transaction.on_commit(lambda: tasks.round_adjudicate_task.delay(round.pk))
        return round


# --------------------------------------------------------------------------- solving and adjudication


def round_solve(*, round_id: int) -> Round:
    """Count the moves and find the tops of a drawn round. Idempotent."""
    round = Round.objects.select_related("game__event__lexicon").get(pk=round_id)
    if round.solved_at is not None:
        return round
    position = rebuild(round.game)
    if position.current is None or position.current.pk != round.pk:
        raise ApplicationError(
            _("round %(number)s is not the game's current round") % {"number": round.number}
        )
    result = position.game.analyse(rack_codes(round.rack))
    with transaction.atomic():
        locked = Round.objects.select_for_update().get(pk=round_id)
        if locked.solved_at is None:
            locked.move_count = result.moves
            locked.top_score = result.top_score or 0
            locked.tops = [format_move(m, "gcg") for m in result.tops]
            locked.solved_at = timezone.now()
            fields = ["move_count", "top_score", "tops", "solved_at"]
            planned = master_round(round.game, round.number)
            if planned is not None:
                # A master game places its recorded move, whatever the tops found here;
                # scored on this board with this event's rules, not copied from the file.
                game = position.game
                move = parse_move(planned.played, "gcg", game.board.size)
                scored = validate(game.board, move, rack_codes(round.rack), game.lexicon, game.rules)
                locked.chosen, locked.chosen_score = format_move(scored.move, "gcg"), scored.score
                fields += ["chosen", "chosen_score"]
            locked.save(update_fields=fields)
        return locked


def _judging_rules(position: Position, event: Event) -> Rules:
    """The game's rules naming squares in the event's notation, for messages to people."""
    return dataclasses.replace(position.game.rules, notation=event.notation)


def adjudication_settings(event: Event) -> adj.AdjudicationSettings:
    return adj.AdjudicationSettings(
        score_policy=event.score_policy,
        free_warnings=event.free_warnings,
        warning_penalty=event.warning_penalty,
        shift_penalty=event.shift_penalty,
        solo_bonus=event.solo_bonus,
        solo_min_players=event.solo_min_players,
        unmarked_blank_warning=event.unmarked_blank_warning,
        notation=event.notation,
    )


def _prior_warnings(round: Round) -> dict[int, int]:
    rows = (
        Ruling.objects.filter(round__game=round.game, round__number__lt=round.number)
        .values("player_id")
        .annotate(w=Sum("warnings"))
    )
    return {r["player_id"]: r["w"] or 0 for r in rows}


def round_adjudicate(*, round_id: int) -> Round:
    """Rule every player's slip of a closed round (missing slips too). Idempotent: a
    second run rewrites the same rulings, keeps the arbitrator's overrides and accepted
    shifted references, and does nothing once the round is placed."""
    round = Round.objects.get(pk=round_id)
    if round.state == Round.State.PLACED:
        return round  # a redelivered task after the placement: the rulings are final
    if round.state not in (Round.State.CLOSED, Round.State.ADJUDICATED):
        raise ApplicationError(_("round %(number)s is not closed") % {"number": round.number})
    if round.solved_at is None:
        round_solve(round_id=round_id)
    with transaction.atomic():
        # Under the Round lock, which round_place and the corrections also take, the state
        # read here is the state the rulings are written against.
        locked = Round.objects.select_for_update().get(pk=round_id)
        if locked.state == Round.State.PLACED:
            return locked
        if locked.state not in (Round.State.CLOSED, Round.State.ADJUDICATED):
            raise ApplicationError(_("round %(number)s is not closed") % {"number": locked.number})
        _rule_round(locked)
        if locked.state == Round.State.CLOSED:
            locked.state = Round.State.ADJUDICATED
            locked.save(update_fields=["state"])
        return locked


def _rule_round(locked: Round) -> None:
    """(Re)write the rulings of a round the caller holds locked.

    Overridden rulings are kept as the arbitrator set them; accepted shifted references
    are applied again; tops, solos and the penalties beyond the free warnings are
    computed over the whole round, so a correction of one slip updates the others."""
    event = locked.game.event
    position = rebuild(locked.game)
    if position.current is None or position.current.pk != locked.pk:
        raise ApplicationError(
            _("round %(number)s is not the game's current round") % {"number": locked.number}
        )
    board, rules, lexicon = position.game.board, _judging_rules(position, event), position.game.lexicon
    rack = rack_codes(locked.rack)
    settings = adjudication_settings(event)
    players = list(event.players.all())
    existing = {r.player_id: r for r in Ruling.objects.select_for_update().filter(round=locked)}
    kept = {pid for pid, r in existing.items() if r.overridden}
    shifted = {
        pid for pid, r in existing.items() if r.reason == adj.Reason.SHIFT_ACCEPTED and not r.overridden
    }
    slips = {s.player_id: s for s in locked.slips.filter(current=True)}
    late = {s.player_id: s for s in locked.slips.filter(late=True)}
    verdicts: dict[int, adj.Verdict] = {}
    used: dict[int, Slip | None] = {}
    now = timezone.now()
    created: list[Ruling] = []
    updated: list[Ruling] = []
    changes: list[tuple[Ruling, dict[str, Any] | None]] = []
    for player in players:
        slip = slips.get(player.pk) or late.get(player.pk)
        used[player.pk] = slip
        slip_input = (
            None
            if slip is None
            else adj.SlipInput(slip.coordinates, slip.word, slip.announced_score, late=slip.late)
        )
        verdict = adj.adjudicate_slip(board, rack, lexicon, rules, settings, slip_input)
        if player.pk in shifted and slip_input is not None and verdict.shift_candidate:
            verdict = adj.accept_shift(board, rack, lexicon, rules, settings, slip_input, verdict)
        verdicts[player.pk] = verdict
    credits = adj.credit_round(
        verdicts,
        top_score=locked.top_score or 0,
        prior_warnings=_prior_warnings(locked),
        players_in_game=len(players),
        settings=settings,
    )
    for player in players:
        if player.pk in kept:
            continue
        v, c = verdicts[player.pk], credits[player.pk]
        values = {
            "slip": used[player.pk],
            "move": v.move,
            "move_score": v.move_score,
            "credited": c.credited,
            "warnings": c.warnings,
            "penalty": c.penalty,
            "solo": c.solo,
            "is_top": c.is_top,
            "letterpoints": v.letterpoints,
            "reason": v.reason,
            "detail": v.detail,
            "invalid_words": list(v.invalid_words),
            "shift_candidate": v.shift_candidate,
        }
        assert values.keys() == set(RULING_FIELDS)  # bulk_update below writes those
        previous = existing.get(player.pk)
        if previous is None:
            created.append(Ruling(round=locked, player=player, ruled_at=now, **values))
            continue
        if _same_ruling(previous, values):
            continue  # a second run that changes nothing leaves no trace
        old = _ruling_snapshot(previous)
        for key, value in values.items():
            setattr(previous, key, value)
        previous.ruled_at = now
        updated.append(previous)
        if _ruling_snapshot(previous) != old:
            changes.append((previous, old))
    # In bulk: a round of 300 players was 600 queries one ruling at a time (a second and
    # more at each close); the round lock held by the caller keeps it one writer.
    Ruling.objects.bulk_create(created)  # sets the primary keys (PostgreSQL, SQLite >= 3.35)
    if updated:
        Ruling.objects.bulk_update(updated, [*RULING_FIELDS, "ruled_at"])
    user, label = _actor(None)
    HistoryEntry.objects.bulk_create(
        [
            HistoryEntry(
                event=event,
                entity="ruling",
                object_id=ruling.pk,
                action="rerule" if old is not None else "rule",
                actor=user,
                actor_label=label,
                old=old,
                new=_ruling_snapshot(ruling),
            )
            for ruling, old in [*((r, None) for r in created), *changes]
        ]
    )


#: What the adjudication writes on a ruling (besides its round and player).
RULING_FIELDS = (
    "slip",
    "move",
    "move_score",
    "credited",
    "warnings",
    "penalty",
    "solo",
    "is_top",
    "letterpoints",
    "reason",
    "detail",
    "invalid_words",
    "shift_candidate",
)


def _same_ruling(ruling: Ruling, values: dict[str, Any]) -> bool:
    # The slip by its key: reading ruling.slip would cost a query per player.
    slip = values["slip"]
    if ruling.slip_id != (slip.pk if slip is not None else None):
        return False
    return all(getattr(ruling, key) == value for key, value in values.items() if key != "slip")


def _ruling_snapshot(ruling: Ruling) -> dict[str, Any]:
    return {
        "credited": ruling.credited,
        "move": ruling.move,
        "move_score": ruling.move_score,
        "warnings": ruling.warnings,
        "penalty": ruling.penalty,
        "solo": ruling.solo,
        "is_top": ruling.is_top,
        "letterpoints": ruling.letterpoints,
        "reason": ruling.reason,
    }


def _lock_ruling(ruling: Ruling) -> tuple[Round, Ruling]:
    """Lock the round, then the ruling: the order round_adjudicate uses, so a correction
    and a re-adjudication never interleave (and never deadlock)."""
    round = Round.objects.select_for_update().get(pk=ruling.round_id)
    return round, Ruling.objects.select_for_update().get(pk=ruling.pk)


def ruling_override(
    *,
    ruling: Ruling,
    by: User,
    reason: str,
    credited: int | None = None,
    warnings: int | None = None,
    penalty: int | None = None,
) -> Ruling:
    """The arbitrator's correction of a ruling; the reason is required and kept. The
    credited score is always given, so that the total matches what was decided."""
    if not reason.strip():
        raise ApplicationError(_("say why the ruling is changed: the reason is kept in the history"))
    if credited is None:
        raise ApplicationError(_("give the credited score (with the warnings or penalty if they change)"))
    if (warnings is not None and warnings < 0) or (penalty is not None and penalty < 0):
        raise ApplicationError(_("warnings and penalties cannot be negative"))
    with transaction.atomic():
        _round, ruling = _lock_ruling(ruling)
        old = _ruling_snapshot(ruling)
        ruling.credited = credited
        if warnings is not None:
            ruling.warnings = warnings
        if penalty is not None:
            ruling.penalty = penalty
        ruling.overridden = True
        ruling.reason = adj.Reason.OVERRIDDEN
        ruling.override_reason = reason.strip()
        user, _label = _actor(by)
        ruling.ruled_by = user
        ruling.save()
        history_record(
            event=ruling.round.game.event,
            entity="ruling",
            object_id=ruling.pk,
            action="override",
            by=by,
            old=old,
            new=_ruling_snapshot(ruling),
            reason=reason.strip(),
        )
        return ruling


def ruling_accept_shift(*, ruling: Ruling, by: User, reason: str = "shifted reference accepted") -> Ruling:
    """Accept a shifted reference: the nearby placement scores, less the shift penalty;
    the whole round is ruled again so that tops, solos and warning penalties follow."""
    if not reason.strip():
        raise ApplicationError(_("say why the shifted reference is accepted"))
    with transaction.atomic():
        round, ruling = _lock_ruling(ruling)
        if round.state != Round.State.ADJUDICATED:
            raise ApplicationError(
                _("a shifted reference is accepted after the adjudication, before the placement")
            )
        if not ruling.shift_candidate:
            raise ApplicationError(_("this slip has no nearby placement to accept"))
        old = _ruling_snapshot(ruling)
        user, _label = _actor(by)
        Ruling.objects.filter(pk=ruling.pk).update(
            reason=adj.Reason.SHIFT_ACCEPTED, overridden=False, override_reason=reason.strip(), ruled_by=user
        )
        try:
            _rule_round(round)
        except ValueError as exc:
            # The board or the slip changed since the ruling offered it: the whole
            # transaction (the update above included) is undone.
            raise ApplicationError(
                _("the shifted placement no longer fits: %(error)s") % {"error": exc},
                {"reason": "stale_shift"},
            ) from exc
        ruling.refresh_from_db()
        history_record(
            event=round.game.event,
            entity="ruling",
            object_id=ruling.pk,
            action="accept_shift",
            by=by,
            old=old,
            new=_ruling_snapshot(ruling),
            reason=reason.strip(),
        )
        return ruling


@dataclass
class TopChoice:
    round: Round
    #: Set when the arbitrator picked a move scoring less than the top.
    warning: str = ""


def top_choose(*, round: Round, move_text: str, by: User = None, confirm_lower: bool = False) -> TopChoice:
    """Choose the move placed for everyone. A lower move than the top needs
    ``confirm_lower``: the result carries a warning either way."""
    with transaction.atomic():
        round = Round.objects.select_for_update().get(pk=round.pk)
        _check_playing(round.game)
        if round.state == Round.State.PLACED:
            raise ApplicationError(_("the round is already placed"))
        if round.solved_at is None:
            raise ApplicationError(_("the tops are not computed yet"))
        position = rebuild(round.game)
        game = position.game
        try:
            move = parse_move(move_text, round.game.event.notation, game.board.size)
            scored = validate(game.board, move, rack_codes(round.rack), game.lexicon, game.rules)
        except (InvalidMoveError, IllegalMoveError) as exc:
            raise ApplicationError(str(exc)) from exc
        planned = master_round(round.game, round.number)
        if planned is not None and format_move(scored.move, "gcg") != planned.played:
            recorded = parse_move(planned.played, "gcg", game.board.size)
            raise ApplicationError(
                _("round %(number)s of a master game places the recorded move %(move)s")
                % {"number": round.number, "move": format_move(recorded, round.game.event.notation)}
            )
        warning = ""
        if scored.score < (round.top_score or 0):
            shown = format_move(scored.move, round.game.event.notation)
            warning = _("%(move)s scores %(score)s, the top is %(top)s") % {
                "move": shown,
                "score": scored.score,
                "top": round.top_score,
            }
            if not confirm_lower:
                raise ApplicationError(
                    _("%(warning)s: confirm to place a lower move") % {"warning": warning},
                    {"warning": warning},
                )
        old = {"chosen": round.chosen, "score": round.chosen_score}
        round.chosen = format_move(scored.move, "gcg")
        round.chosen_score = scored.score
        user, _label = _actor(by)
        round.chosen_by = user
        round.save(update_fields=["chosen", "chosen_score", "chosen_by"])
        history_record(
            event=round.game.event,
            entity="round",
            object_id=round.pk,
            action="choose_top",
            by=by,
            old=old,
            new={"chosen": round.chosen, "score": scored.score},
            reason=warning,
        )
        return TopChoice(round, warning)


def round_place(*, round: Round, by: User = None, draw_next: bool = True) -> Round | None:
    """Place the chosen move (default: the automatic choice among the tops) on the board
    for everyone; then draw the next rack at random unless ``draw_next`` is False.
    Returns the next round, or None (no next round drawn, or the game ended)."""
    # One transaction for the placement and the next draw: a refused draw leaves the
    # round unplaced rather than a placed round with no next rack.
    with transaction.atomic():
        round = Round.objects.select_for_update().get(pk=round.pk)
        _check_playing(round.game)
        if round.state != Round.State.ADJUDICATED:
            raise ApplicationError(
                _("round %(number)s is %(state)s: adjudicate it first")
                % {"number": round.number, "state": round.get_state_display()}
            )
        if not round.chosen:
            if not round.tops:
                raise ApplicationError(_("no legal move: end the game"))
            position = rebuild(round.game)
            tops = [parse_move(t, "gcg", position.game.board.size) for t in round.tops]
            chosen = order_tops(position.game.board, tops)[0]
            round.chosen = format_move(chosen, "gcg")
            round.chosen_score = round.top_score
        round.state = Round.State.PLACED
        round.placed_at = timezone.now()
        round.save(update_fields=["chosen", "chosen_score", "state", "placed_at"])
        history_record(
            event=round.game.event,
            entity="round",
            object_id=round.pk,
            action="place",
            by=by,
            new={"chosen": round.chosen, "score": round.chosen_score},
        )
        rebuild(round.game)  # the placed move must replay: refuse the commit otherwise
        if draw_next:
            return round_draw(game=round.game, by=by)
        return None


def game_end(*, game: Game, reason: str, by: User = None) -> Game:
    from solver.formats.record import END_REASONS

    if reason not in END_REASONS or not reason:
        raise ApplicationError(_("unknown end of game %(reason)s") % {"reason": repr(reason)})
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game.pk)
        if game.state == Game.State.ENDED:
            return game
        pending = game.rounds.exclude(state=Round.State.PLACED).first()
        # A drawn or adjudicated round that is never placed (no move, or stopped) keeps its
        # draw in the record; an open or closing round must be finished first.
        if pending is not None and pending.state in (Round.State.OPEN, Round.State.CLOSED):
            raise ApplicationError(
                _("round %(number)s is still %(state)s")
                % {"number": pending.number, "state": pending.get_state_display()}
            )
        _check_end_reason(game, reason, pending)
        game.state = Game.State.ENDED
        game.end_reason = reason
        game.ended_at = timezone.now()
        game.save(update_fields=["state", "end_reason", "ended_at"])
        history_record(
            event=game.event, entity="game", object_id=game.pk, action="end", by=by, new={"reason": reason}
        )
        return game


def _check_end_reason(game: Game, reason: str, pending: Round | None) -> None:
    """The draw rule and "no legal move" are facts the game record states and a replay
    checks: refuse them while they are not true (the arbitrator stops the game instead)."""
    if reason == "no_move":
        if pending is None:
            raise ApplicationError(_("no rack is drawn: draw the next one to see whether it has a move"))
        if pending.solved_at is None:
            raise ApplicationError(
                _("the moves of round %(number)s are not counted yet: try again in a moment")
                % {"number": pending.number}
            )
        if pending.tops:
            raise ApplicationError(
                _("round %(number)s has %(moves)s legal moves (top %(top)s): stop the game instead")
                % {"number": pending.number, "moves": pending.move_count, "top": pending.top_score}
            )
    elif reason == "draw_rule":
        position = rebuild(game)
        solver_game = position.game
        pool = solver_game.bag.tiles + tuple(solver_game.reliquat)
        if position.current is not None or not game_over_by_draw(
            solver_game.tiles, pool, solver_game.round_number, solver_game.draw_rules
        ):
            raise ApplicationError(_("a rack can still be drawn: the draw rule does not end the game"))


def tasks_requeue_pending() -> int:
    """Send again the tasks of rounds whose work is not done (unsolved, or closed and not
    adjudicated): a worker killed in the middle of a task loses it on the file-system
    broker. Both tasks are idempotent, so a duplicate is harmless. Returns how many."""
    playing = Round.objects.filter(game__state=Game.State.PLAYING)
    unsolved = list(playing.filter(solved_at__isnull=True).values_list("pk", flat=True))
    closed = list(playing.filter(state=Round.State.CLOSED).values_list("pk", flat=True))
    for pk in unsolved:
        tasks.round_solve_task.delay(pk)
    for pk in closed:
        tasks.round_adjudicate_task.delay(pk)
    return len(unsolved) + len(closed)


def analysis_for(round: Round) -> Any:
    """The full analysis of a round (all moves ranked), for virtual players and review."""
    position = rebuild(round.game)
    return analyse(
        position.game.board, position.game.lexicon, rack_codes(round.rack), position.game.rules, keep="all"
    )
