"""Games in and out of an event: the game file and its import into a new event.

The game file is the solver's JSON game record (``arbiter-game/1``, see
:mod:`solver.formats.record`: settings, seed, racks, tops, moves placed, boards, end), to
which :func:`tournaments.exports.record_json` adds what the event made of it: the
``players`` (table, name, club, licence, category, virtual level), the ``slips`` each
ruling was made on (round, table, coordinates, word, announced score, source, late) and
the arbitrator's ``corrections`` (an override with its values, or an accepted shifted
reference, with the reason). The solver ignores those keys; so does a master game.

Two imports, both into a new event whose board, tiles, word list and draw rules are the
record's (:func:`event_import`):

- a **master game** (as in Eliot): the first game replays the record's racks and moves
  while the players hand in their own slips;
- a **restored game** (``restore=True``, "save / load game"): the players and their slips
  come from the file too, and every recorded round is played again through the services
  (draw, solve, open, slips, close, adjudication, corrections, placement) so that the
  rulings and standings come out as they were. A game saved in progress goes on from its
  last placed round.

Everything is checked before anything is stored, and the import is one transaction: a
bad file stores nothing.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import json
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

from django.db import transaction
from django.utils.translation import gettext as _

from solver import lexicon as lexmod
from solver.formats.record import GameRecord, RecordError
from solver.game import EndReason, replay
from tournaments.core import FILE_SETTINGS, RECORD_SETTINGS, ApplicationError, User
from tournaments.models import Event, Lexicon, Round, Ruling, Slip
from tournaments.services.corrections import ruling_accept_shift, ruling_override
from tournaments.services.events import event_create
from tournaments.services.games import game_end, game_start, round_draw
from tournaments.services.history import history_record
from tournaments.services.lexicons import lexicon_bundled
from tournaments.services.players import player_add
from tournaments.services.rounds import round_close, round_open, round_place, round_solve
from tournaments.services.rulings import round_adjudicate
from tournaments.services.slips import slip_submit
from tournaments.state import solver_lexicon

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

Item = TypeVar("Item", bound="DataclassInstance")

#: Kinds of correction a game file carries.
OVERRIDE, SHIFT = "override", "shift"
#: Those a restored game may change: they do not change a ruling.
FREE_SETTINGS = ("round_seconds",)
#: Many times the size of a big event's game file (docs/benchmarks.md, backups).
MAX_FILE_BYTES = 32 * 1024 * 1024


@dataclass(frozen=True)
class FilePlayer:
    table: int
    name: str
    club: str = ""
    licence: str = ""
    category: str = ""
    virtual_level: int | None = None
    seat_code: str = ""
    paper_only: bool = False


@dataclass(frozen=True)
class FileSlip:
    round: int
    table: int
    coordinates: str
    word: str
    source: str
    announced: int | None = None
    late: bool = False


@dataclass(frozen=True)
class FileCorrection:
    round: int
    table: int
    kind: str
    reason: str
    credited: int | None = None
    warnings: int | None = None
    penalty: int | None = None


@dataclass
class GameFile:
    record: GameRecord
    settings: dict[str, Any] = field(default_factory=dict)
    players: list[FilePlayer] = field(default_factory=list)
    slips: list[FileSlip] = field(default_factory=list)
    corrections: list[FileCorrection] = field(default_factory=list)


def _fail(where: str, problem: str) -> ApplicationError:
    return ApplicationError(
        _("the game file cannot be read: %(where)s: %(problem)s") % {"where": where, "problem": problem}
    )


#: The types of the fields of the file's items (annotations are strings here).
_KINDS: dict[str, type] = {"int": int, "str": str, "bool": bool}


def _items(raw: dict[str, Any], key: str, cls: type[Item], label: str) -> list[Item]:
    """The list ``key`` of the file as ``cls`` items, each field type-checked; a field
    with a default may be missing (or null when its type allows None)."""
    items = raw.get(key, [])
    if not isinstance(items, list) or not all(isinstance(i, dict) for i in items):
        raise _fail(key, _("must be a list of objects"))
    out = []
    for n, item in enumerate(items, 1):
        where = label % {"n": n}
        values = {}
        for f in dataclasses.fields(cls):
            annotation = str(f.type)
            if item.get(f.name) is None and (f.name not in item or "None" in annotation):
                if f.default is dataclasses.MISSING:
                    raise _fail(where, _("%(key)s is missing") % {"key": f.name})
                continue
            kind, value = _KINDS[annotation.split(" | ", maxsplit=1)[0]], item[f.name]
            # bool is an int: a table "true" is refused, as is a flag 1.
            if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
                raise _fail(
                    where,
                    _("%(key)s must be %(kind)s, not %(value)r")
                    % {"key": f.name, "kind": kind.__name__, "value": value},
                )
            values[f.name] = value
        out.append(cls(**values))
    return out


def read_game_file(data: bytes | str) -> GameFile:
    """Read a game file (the JSON record, with or without players, slips, corrections)."""
    if len(data) > MAX_FILE_BYTES:
        raise ApplicationError(
            _("the game file is too large (%(size)s bytes, %(limit)s at most)")
            % {"size": len(data), "limit": MAX_FILE_BYTES}
        )
    try:
        text = data.decode("utf-8-sig") if isinstance(data, bytes) else data
        raw = json.loads(text)
        record = GameRecord.from_dict(raw)
    except UnicodeDecodeError:
        raise ApplicationError(_("the game record is not UTF-8 text")) from None
    except RecordError as exc:
        raise ApplicationError(_("the game record cannot be read: %(error)s") % {"error": exc}) from exc
    except (ValueError, RecursionError) as exc:
        # JSONDecodeError, a number of more than 4,300 digits, brackets nested too deep.
        raise ApplicationError(_("the game record is not JSON: %(error)s") % {"error": exc}) from exc

    players = _items(raw, "players", FilePlayer, _("player %(n)s"))
    slips = _items(raw, "slips", FileSlip, _("slip %(n)s"))
    corrections = _items(raw, "corrections", FileCorrection, _("correction %(n)s"))
    settings = raw.get("settings", {})
    if not isinstance(settings, dict):
        raise _fail("settings", _("must be an object"))
    unknown = sorted(set(settings) - set(FILE_SETTINGS))
    if unknown:
        raise _fail("settings", _("unknown settings: %(names)s") % {"names": ", ".join(unknown)})
    game_file = GameFile(record, settings, players, slips, corrections)
    _check_consistent(game_file)
    return game_file


def _check_consistent(game_file: GameFile) -> None:
    """The slips and corrections name tables that have a player and rounds the record
    has; one slip and one correction per table and round."""
    tables = [p.table for p in game_file.players]
    if len(set(tables)) != len(tables):
        raise _fail("players", _("a table appears twice"))
    rounds = len(game_file.record.rounds)
    sources = set(Slip.Source.values)
    seen: set[tuple[str, int, int]] = set()
    labels = {
        "slip": _("slip of table %(table)s, round %(round)s"),
        "correction": _("correction of table %(table)s, round %(round)s"),
    }
    for what, items in (("slip", game_file.slips), ("correction", game_file.corrections)):
        for item in items:
            where = labels[what] % {"table": item.table, "round": item.round}
            if item.table not in tables:
                raise _fail(where, _("no player at table %(table)s") % {"table": item.table})
            if not 1 <= item.round <= rounds:
                raise _fail(where, _("the record has no round %(round)s") % {"round": item.round})
            if (what, item.round, item.table) in seen:
                raise _fail(where, _("twice for the same table and round"))
            seen.add((what, item.round, item.table))
    for slip in game_file.slips:
        if slip.source not in sources:
            raise _fail(
                f"slip {slip.round}/{slip.table}", _("unknown source %(source)r") % {"source": slip.source}
            )
    for fix in game_file.corrections:
        where = f"correction {fix.round}/{fix.table}"
        if fix.kind not in (OVERRIDE, SHIFT):
            raise _fail(where, _("unknown kind %(kind)r") % {"kind": fix.kind})
        if fix.kind == OVERRIDE and fix.credited is None:
            raise _fail(where, _("an override needs the credited score"))


def _record_lexicon(record: GameRecord) -> Lexicon:
    """The word list a record was played with: by its checksum, else a bundled list of
    its name (the checksum is optional in a record prepared by hand)."""
    name, checksum = record.config.lexicon, record.config.lexicon_checksum
    if checksum:
        same = Lexicon.objects.filter(checksum=checksum)
        # The same list uploaded again may still be importing, or have failed, beside a ready one.
        found = same.filter(state=Lexicon.State.READY).first() or same.first()
        if found is not None:
            return found
    if name in lexmod.BUNDLED:
        bundled = lexicon_bundled(name=name)
        if not checksum or bundled.checksum == checksum:
            return bundled
    elif not checksum:
        found = Lexicon.objects.filter(name=name).first()
        if found is not None:
            return found
    raise ApplicationError(
        _(
            "the game was played with the word list %(name)s (checksum %(checksum)s), which is not on this"
            " server: import that list first"
        )
        % {"name": name, "checksum": (checksum[:12] + "…") if checksum else _("unknown")}
    )


def event_import(
    *,
    name: str,
    starts_on: dt.date,
    game_file: GameFile,
    restore: bool = False,
    by: User = None,
    **settings: Any,
) -> Event:
    """A new event from a game file: a master game (default) or, with ``restore``, the
    game restored with its players, slips and corrections (see the module's text). The
    record is replayed first (racks, moves, scores, boards, end): a record that does not
    replay is refused with the first round that differs."""
    record = game_file.record
    clash = sorted(set(settings) & set(RECORD_SETTINGS))
    if clash:
        raise ApplicationError(
            _("these settings come from the game record: %(names)s") % {"names": ", ".join(clash)}
        )
    if not record.rounds:
        raise ApplicationError(_("the game record has no round"))
    if not -(2**63) <= record.config.seed < 2**63:  # the database's 64-bit integer
        raise ApplicationError(
            _("the game record's seed is out of range: %(seed)s") % {"seed": record.config.seed}
        )
    if restore and not game_file.players:
        raise ApplicationError(
            _("the game file has no players: import it as a master game, or export it again from Arbiter")
        )
    if restore:
        changed = sorted(
            key
            for key, value in settings.items()
            if key not in FREE_SETTINGS and value != game_file.settings.get(key, value)
        )
        if changed:
            raise ApplicationError(
                _("a restored game keeps the settings its slips were written and ruled with: %(names)s")
                % {"names": ", ".join(changed)}
            )
    settings = {**game_file.settings, **settings}
    lexicon = _record_lexicon(record)
    try:
        # Without recomputing the tops: the solver does that round by round during the game.
        checked = replay(record, lexicon=solver_lexicon(lexicon), check_tops=False)
    except RecordError as exc:
        raise ApplicationError(_("the game record does not replay: %(error)s") % {"error": exc}) from exc
    values = {key: getattr(record.config, key) for key in RECORD_SETTINGS}
    with transaction.atomic():
        event = event_create(
            name=name, starts_on=starts_on, lexicon=lexicon, created_by=by, **values, **settings
        )
        # The replayed record: moves in the solver's own spelling, the checksum filled in.
        event.masters = [checked.to_dict()]
        event.save(update_fields=["masters"])
        history_record(
            event=event,
            entity="event",
            object_id=event.pk,
            action="restore_game" if restore else "import_master",
            by=by,
            new={
                "rounds": len(record.rounds),
                "top_total": record.top_total,
                "seed": record.config.seed,
                "end": record.end,
                "players": len(game_file.players) if restore else 0,
                "slips": len(game_file.slips) if restore else 0,
            },
        )
        if restore:
            _restore(event, game_file, by)
        return event


def _restore(event: Event, game_file: GameFile, by: User) -> None:
    """Play the recorded rounds again with the file's players and slips."""
    players = {
        p.table: player_add(
            event=event,
            name=p.name,
            club=p.club,
            licence=p.licence,
            category=p.category,
            table=p.table,
            virtual_level=p.virtual_level,
            seat_code=p.seat_code,
            paper_only=p.paper_only,
            by=by,
        )
        for p in game_file.players
    }
    game = game_start(event=event, by=by)
    for planned in game_file.record.rounds:
        round = round_draw(game=game, by=by)
        assert round is not None  # the record replayed: its racks can be drawn
        # The tops now, in this transaction: the task queued at the commit finds them done.
        round_solve(round_id=round.pk)
        round = round_open(round=round, by=by)
        slips = [s for s in game_file.slips if s.round == planned.round]
        for late in (False, True):
            for slip in (s for s in slips if s.late == late):
                slip_submit(
                    round=round,
                    player=players[slip.table],
                    coordinates=slip.coordinates,
                    word=slip.word,
                    announced_score=slip.announced,
                    source=slip.source,
                    entered_by=by if slip.source == Slip.Source.PAPER else None,
                )
            if not late:
                # A slip late in the file is handed in after the close: late here too.
                round_close(round=round, by=by)
        round_adjudicate(round_id=round.pk)
        fixes = [c for c in game_file.corrections if c.round == planned.round]
        # Shifts first: accepting one rules the round again (overrides are kept).
        for fix in sorted(fixes, key=lambda c: c.kind != SHIFT):
            ruling = Ruling.objects.get(round=round, player=players[fix.table])
            if fix.kind == SHIFT:
                ruling_accept_shift(ruling=ruling, by=by, reason=fix.reason)
            else:
                ruling_override(
                    ruling=ruling,
                    by=by,
                    reason=fix.reason,
                    credited=fix.credited,
                    warnings=fix.warnings,
                    penalty=fix.penalty,
                )
        round_place(round=Round.objects.get(pk=round.pk), by=by, draw_next=False)
    end = game_file.record.end
    if end == EndReason.DRAW_RULE:
        round_draw(game=game, by=by)  # finds no rack: ends the game by the rule
    elif end == EndReason.NO_MOVE:
        final = round_draw(game=game, by=by)  # the rack with no move, from the record
        assert final is not None
        round_solve(round_id=final.pk)  # counted now: game_end checks there is no move
        game_end(game=game, reason=end, by=by)
    elif end:
        game_end(game=game, reason=end, by=by)
