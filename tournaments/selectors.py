"""Reads shared by the console, the phone and projector pages, the terminal commands and
the API: the one read layer of the front-ends (what is being played, who sits where, what a
player may see, the review of a round, the live versions).

The pages poll :func:`live_versions` (a few small queries) and re-render only when it
changes; :func:`public_view` replays the game, so its result is cached per version."""

from __future__ import annotations

import datetime as dt
import functools
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar, cast

import psycopg
from django.contrib.auth.models import User as AuthUser
from django.core.cache import cache
from django.db import connection
from django.db.models import Count, Max, QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring import adjudication as adj
from solver.notation import parse_move
from solver.tiles import ALPHABET, BLANK_CHAR, rack_codes
from tournaments import rows
from tournaments.display import Cell, axis_labels, board_cells, rack_text, shown_move, tile_values
from tournaments.messages import say_error
from tournaments.models import (
    JOIN_WAIT,
    Event,
    Game,
    HistoryEntry,
    Player,
    PlayerToken,
    Round,
    Ruling,
    Slip,
    counted_rounds,
)
from tournaments.state import rebuild

INVALID = (adj.Reason.ILLEGAL, adj.Reason.NOT_IN_LEXICON, adj.Reason.UNREADABLE)
#: The review's lists of slips scored 0, by reason; every other ruling with a move is
#: listed under its move (penalised and corrected ones too), the rest under "corrected".
ZERO_SECTIONS = {
    **dict.fromkeys(INVALID, "invalid"),
    adj.Reason.SEVERAL_SLIPS: "several",
    adj.Reason.BLANK_SLIP: "blank",
    adj.Reason.MISSING: "missing",
    adj.Reason.LATE: "late",
}
RULED = (Round.State.ADJUDICATED, Round.State.PLACED)


_TOKEN = rows.Columns(PlayerToken, Player, Event)


@functools.cache
def _token_sql(vendor: str, match: str = "= %s") -> str:
    c = rows.column
    return (
        f"SELECT {_TOKEN.select()} FROM {rows.table(PlayerToken)}"
        f" INNER JOIN {rows.table(Player)} ON {c(Player, 'pk')} = {c(PlayerToken, 'player')}"
        f" INNER JOIN {rows.table(Event)} ON {c(Event, 'pk')} = {c(Player, 'event')}"
        f" WHERE {c(PlayerToken, 'key')} {match} AND {c(PlayerToken, 'confirmed_at')} IS NOT NULL"
    )


def player_token(key: str) -> PlayerToken | None:
    """The token of ``key`` with its player and the player's event, or None; a token
    waiting for the arbitrator's confirmation is none yet. Every slip of a hall reads it
    (the API's player authentication): in SQL written once (tournaments/rows.py)."""
    found = rows.fetch(_token_sql(connection.vendor), [key], _TOKEN)
    return _token_of(found[0]) if found else None


async def aplayer_tokens(keys: list[str], db: psycopg.AsyncConnection[Any]) -> dict[str, PlayerToken]:
    """:func:`player_token` of each of ``keys`` found, by key, on an event loop, through
    ``db`` (PostgreSQL: arbiter/hall.py, the phones' live streams opened there)."""
    async with psycopg.AsyncCursor(db) as cursor:
        await cursor.execute(_token_sql("postgresql", "= ANY(%s)"), [keys], prepare=True)
        found = [_token_of(_TOKEN.instances(row)) for row in await cursor.fetchall()]
    return {token.key: token for token in found}


def _token_of(found: list[Any]) -> PlayerToken:
    token, player, event = found
    player.event = event
    token.player = player
    return cast(PlayerToken, token)


def waiting_token(key: str) -> PlayerToken | None:
    """The token of ``key`` while it waits for the arbitrator's confirmation."""
    if not key:
        return None
    return _waiting().filter(key=key).select_related("player").first()


def join_requests(event: Event) -> list[PlayerToken]:
    """The phones waiting for the arbitrator's confirmation, the first asked first."""
    return list(_waiting().filter(player__event=event).select_related("player").order_by("created_at", "pk"))


def _waiting() -> QuerySet[PlayerToken]:
    """Tokens waiting for a confirmation, and not for longer than :data:`JOIN_WAIT`."""
    return PlayerToken.objects.filter(confirmed_at__isnull=True, created_at__gte=timezone.now() - JOIN_WAIT)


def playing_game(event: Event) -> Game | None:
    """The game being played: at most one per event."""
    return event.games.playing().first()


def current_game(event: Event) -> Game | None:
    """The game being played, else the last one (for a look back after its end)."""
    return playing_game(event) or event.games.order_by("number").last()


def unplaced_round(game: Game) -> Round | None:
    """The round whose move is not on the board yet (drawn, open, closed or ruled): the
    one the arbitrator acts on. None between a placement that ended the game and the
    next game."""
    return game.rounds.unplaced().order_by("number").last()


def player_at_table(event: Event, table: int) -> Player | None:
    return event.players.at_table(table).first()


def current_round(event: Event) -> Round | None:
    """The last round of the current game (:func:`current_game`): None between the start of
    a game and its first draw, not the last round of the game before."""
    # While a game is played (every slip of a hall): one query, not one for the game and one
    # for its round.
    playing = (
        Round.objects.filter(game__event=event, game__state=Game.State.PLAYING)
        .select_related("game__event")
        .order_by("-number")
        .first()
    )
    if playing is not None:
        return playing
    game = current_game(event)
    if game is None:
        return None
    return Round.objects.filter(game=game).select_related("game__event").order_by("-number").first()


@dataclass(frozen=True)
class PlayerSight:
    """What a player may see of a round; the arbitrator sees everything. The rack once the
    round is open; the answers (how many moves, the tops and their score, the move to be
    placed) once the slips are ruled; the move the arbitrator chose, as placed, once it is
    on the board (docs/rules.md#slips). The pages and the API hide by this one rule."""

    rack: bool
    answers: bool
    placed: bool


def player_sight(round: Round) -> PlayerSight:
    return PlayerSight(
        rack=round.state != Round.State.DRAWN,
        answers=results_shown(round),
        placed=round.state == Round.State.PLACED,
    )


def results_shown(round: Round) -> bool:
    """Whether the players see the round's top and their rulings: once the arbitrator has
    reviewed them (published, or placed the move), or at the close under the event's
    ``publish_at_close`` (docs/rules.md#tops-and-placement)."""
    if round.state == Round.State.PLACED:
        return True
    return round.state == Round.State.ADJUDICATED and round.published_at is not None


def results_being_checked(round: Round | None) -> bool:
    """Closed, and its results not shown yet: the phones and the projector say so."""
    return (
        round is not None
        and round.state in (Round.State.CLOSED, Round.State.ADJUDICATED)
        and not (results_shown(round))
    )


# --------------------------------------------------------------------------- live updates


@dataclass(frozen=True)
class LiveVersions:
    """``public`` changes with what every phone and the projector show (draws, opening,
    close, results shown, placing); ``full`` also with every slip and with the round's
    state (the arbitrator's console: the rulings done)."""

    public: str
    full: str
    deadline: str | None
    state: str | None
    #: The time left on the clock while the arbitrator holds it (ms), else None.
    paused: int | None = None


PRIVATE_ENTITIES = ("slip", "player")
#: Kept in the history and shown to no one but the arbitrator: the rulings written while
#: the round is open (tournaments/services/rulings.py, round_rule_ahead).
PRIVATE_ACTIONS = ("rule_ahead",)


def live_versions(event: Event) -> LiveVersions:
    return live_versions_of(event, current_round(event))


def live_versions_of(event: Event, round: Round | None) -> LiveVersions:
    """:func:`live_versions` for a caller that has read ``current_round(event)`` already
    (a phone's panel needs it too: one reading fewer per panel, and 2,000 panels follow
    each change in a hall)."""
    last = HistoryEntry.objects.filter(event=event).aggregate(all=Max("id"))["all"] or 0
    # Slips and players (joins, releases) change what the arbitrator sees, not what every
    # phone shows: a hall of phones must not reload at each of them.
    public = (
        HistoryEntry.objects.filter(event=event, shown=True)
        .exclude(entity__in=PRIVATE_ENTITIES)
        .exclude(action__in=PRIVATE_ACTIONS)
        .aggregate(m=Max("id"))["m"]
        or 0
    )
    if round is None:
        shown_key = solved = "none"
        deadline = state = None
        paused = None
    else:
        # Solving and ruling are done by workers and leave no history: the round's own
        # fields tell when they are done. The solving shows on the console only (phones and
        # the projector see the tops once the slips are ruled): a hall of phones does not
        # reload for it.
        key = f"{round.pk}.{round.state}"
        solved = f"{key}.{int(round.solved_at is not None)}"
        # The phones and the projector show a round ruled but not published as they showed
        # it closed ("the arbitrator is checking the results"): the rulings done, a hall of
        # phones must not rebuild its panels for nothing while the arbitrator's review is
        # asked for. The console follows the round's own state (rooms/static/arbiter/live.js).
        shown = "closed" if results_being_checked(round) else round.state
        shown_key = f"{round.pk}.{shown}"
        deadline = round.deadline.isoformat() if round.deadline else None
        state = round.state
        paused = round.paused_ms
    return LiveVersions(f"{public}.{shown_key}", f"{last}.{solved}", deadline, state, paused)


# --------------------------------------------------------------------------- a phone's own lines


@dataclass(frozen=True)
class OwnSlip:
    """A player's slip as their phone shows it (read as values: a hall's, at each public
    change, in each web process)."""

    coordinates: str
    word: str
    announced_score: int | None
    late: bool
    received_at: dt.datetime


@dataclass(frozen=True)
class OwnRuling:
    """A player's ruling as their phone shows it, with the slip it ruled (read as values)."""

    slip: ListedSlip | None
    credited: int
    is_top: bool
    solo: bool
    reason: str
    warnings: int
    penalty: int
    detail: str
    notes: list[dict[str, Any]]


@dataclass(frozen=True)
class PlayerLines:
    """What a phone shows of its own player; the rest of its panel is the same on every
    phone at one public version."""

    #: The player's slip of the round (the current one first, then the last handed in).
    slip: OwnSlip | None
    #: The player's ruling, once the round's answers are shown.
    ruling: OwnRuling | None
    #: Round number -> what the player scored, for the placed rounds of the game shown.
    credited: dict[int, int]

    @property
    def total(self) -> int:
        return sum(self.credited.values())


#: What a phone's lines read of its ruling (:class:`OwnRuling`, in its order).
_OWN_RULING = (
    "player_id",
    "slip_id",
    "slip__coordinates",
    "slip__word",
    "slip__announced_score",
    "credited",
    "is_top",
    "solo",
    "reason",
    "warnings",
    "penalty",
    "detail",
    "notes",
)

#: Up to this many players their rows are asked for by id; more (a hall's phones in one
#: process) read the round's rows whole, which the database answers faster than a long IN.
_LINES_BY_ID = 200


def player_lines(
    event: Event, round: Round | None, game_number: int | None, players: list[int]
) -> dict[int, PlayerLines]:
    """The own lines of ``players`` (ids) in three queries whatever their number: a hall's
    phones are sent theirs at each change from one reading per web process, not one
    request and three queries per phone."""
    by_id = len(players) <= _LINES_BY_ID
    wanted = set(players)

    def only_them(rows: QuerySet[Any]) -> QuerySet[Any]:
        return rows.filter(player_id__in=players) if by_id else rows

    # Read as values: a hall's rulings and slips as model instances were most of each
    # web process's build of its phones' panels.
    slips: dict[int, OwnSlip] = {}
    if round is not None and round.state != Round.State.DRAWN:
        rows = only_them(Slip.objects.filter(round=round)).order_by("player_id", "-current", "-received_at")
        for player_id, *slip in rows.values_list(
            "player_id", "coordinates", "word", "announced_score", "late", "received_at"
        ):
            if player_id not in slips:
                slips[player_id] = OwnSlip(*slip)
    rulings: dict[int, OwnRuling] = {}
    if round is not None and player_sight(round).answers:
        ruled = only_them(Ruling.objects.filter(round=round)).order_by().values_list(*_OWN_RULING)
        rulings = {
            player_id: OwnRuling(None if slip_id is None else ListedSlip(coordinates, word, announced), *rest)
            for player_id, slip_id, coordinates, word, announced, *rest in ruled
        }
    credited: dict[int, dict[int, int]] = defaultdict(dict)
    if game_number:
        placed = only_them(
            Ruling.objects.filter(
                counted_rounds("round__"), round__game__event=event, round__game__number=game_number
            )
        ).values_list("player_id", "round__number", "credited")
        # Unordered: Ruling's ordering (its round's, its game's, its event's; the player's
        # table) sorted 46,000 rows through four joins, 0.12 s of 0.03 at each change.
        for player_id, number, value in placed.order_by():
            credited[player_id][number] = value
    return {pk: PlayerLines(slips.get(pk), rulings.get(pk), credited.get(pk, {})) for pk in wanted}


# --------------------------------------------------------------------------- the game as shown


@dataclass(frozen=True)
class PlacedRound:
    number: int
    rack: str
    move: str
    score: int
    top_score: int


@dataclass
class GameView:
    """A game as phones and the projector show it: no secret before its time."""

    event_id: int
    game: int
    game_state: str
    round: int | None
    state: str | None
    deadline: str | None
    rows: list[tuple[str, list[Cell]]]  # (row label, cells)
    col_labels: list[str]
    rack: str  # "" while the round is drawn and not open
    rack_values: list[tuple[str, int]]
    to_come: list[tuple[str, int, int]]  # (letter, count, value), unseen tiles only
    to_come_total: int
    values: list[tuple[str, int]]
    placed: list[PlacedRound]
    top_total: int
    #: After the close and adjudication: the tops and the move to be placed.
    top_score: int | None = None
    tops: list[str] = field(default_factory=list)
    chosen: str = ""


def _placed_squares(game_rounds: list[Round], size: int) -> set[tuple[int, int]]:
    placed = [r for r in game_rounds if r.state == Round.State.PLACED and r.chosen]
    if not placed:
        return set()
    move = parse_move(placed[-1].chosen, "gcg", size)
    step = (0, 1) if move.across else (1, 0)
    return {(move.row + i * step[0], move.col + i * step[1]) for i in range(len(move.word))}


def game_view(game: Game) -> GameView:
    event = game.event
    position = rebuild(game)
    board = position.game.board
    tiles = position.game.tiles
    rounds = list(game.rounds.order_by("number"))
    current = position.current
    sight = player_sight(current) if current is not None else None
    revealed = sight is not None and sight.rack
    rack = current.rack if current is not None and revealed else ""
    # The letters still to come: the bag, plus the rack itself while it is still secret.
    unseen = list(position.game.bag.counts())
    if current is not None and not revealed:
        for code in rack_codes(current.rack):
            unseen[code] += 1
    to_come = [(ALPHABET[c - 1], unseen[c], tiles.values[c]) for c in range(1, 27) if unseen[c]]
    if unseen[0]:
        to_come.append((BLANK_CHAR, unseen[0], 0))
    row_labels, col_labels = axis_labels(board.size, event.notation)
    cells = board_cells(
        board.rows(), board.layout, tiles, event.notation, _placed_squares(rounds, board.size)
    )
    placed = [
        PlacedRound(
            r.number,
            rack_text(r.reliquat, r.new_tiles),
            shown_move(r.chosen, event.board, event.notation),
            r.chosen_score or 0,
            r.top_score or 0,
        )
        for r in rounds
        if r.state == Round.State.PLACED
    ]
    view = GameView(
        event_id=event.pk,
        game=game.number,
        game_state=game.state,
        round=current.number if current else None,
        state=current.state if current else None,
        deadline=current.deadline.isoformat() if current and current.deadline else None,
        rows=list(zip(row_labels, cells, strict=True)),
        col_labels=col_labels,
        rack=rack,
        rack_values=tile_values(tiles, rack),
        to_come=to_come,
        to_come_total=sum(unseen),
        values=[(ALPHABET[c - 1], tiles.values[c]) for c in range(1, 27)],
        placed=placed,
        # The rounds counted in every total: the placed ones, and the current one once its
        # results are published (tournaments.models.counted_rounds).
        top_total=sum(p.top_score for p in placed)
        + ((current.top_score or 0) if current is not None and sight is not None and sight.answers else 0),
    )
    if current is not None and sight is not None and sight.answers:
        view.top_score = current.top_score
        view.tops = [shown_move(t, event.board, event.notation) for t in current.tops]
        # The move fixed at the publication (the one then placed); none yet only for a
        # centre waiting for the hub's: the top score is told alone.
        view.chosen = shown_move(current.chosen, event.board, event.notation)
    return view


def public_view(event: Event, version: str, game: Game | None = None) -> GameView | None:
    """:func:`game_view` of the current game (``game``, when the caller has it), cached
    per live version: a hall of phones asking at once after a change replays the game
    once."""
    game = game or current_game(event)
    if game is None:
        return None
    key = f"arbiter:view:{event.pk}:{game.pk}:{version}"
    view: GameView | None = cache.get(key)
    if view is None:
        view = game_view(game)
        cache.set(key, view, 300)
    return view


# --------------------------------------------------------------------------- review of a round


@dataclass(frozen=True)
class ListedPlayer:
    table: int
    name: str


@dataclass(frozen=True)
class ListedSlip:
    coordinates: str
    word: str
    announced_score: int | None


@dataclass(frozen=True)
class ListedRuling:
    """A ruling as the console's review lists it: what the page says of it, read as values
    (a hall's rulings, their slips and players as model instances were most of the
    console's page after each action)."""

    pk: int
    player: ListedPlayer
    slip: ListedSlip | None
    move: str
    move_score: int
    credited: int
    warnings: int
    penalty: int
    solo: bool
    is_top: bool
    reason: str
    detail: str
    notes: list[dict[str, Any]]
    shift_candidate: str
    overridden: bool
    override_reason: str


#: A ruling of a review: the model's (the API, the terminal) or the console's values.
R = TypeVar("R", Ruling, ListedRuling)


@dataclass
class MoveGroup(Generic[R]):
    move: str  # GCG
    shown: str
    score: int
    is_top: bool
    rulings: list[R]


@dataclass
class Review(Generic[R]):
    """Every ruling of the round once, in one section: under its move (``groups``), or in
    the list of its reason (``invalid``, ``several``, ``blank``, ``missing``, ``late``), or
    among the ``corrected`` without a move (an average, an unreadable slip credited). The
    other lists name the same rulings again by what they got."""

    round: Round
    rulings: list[R]
    groups: list[MoveGroup[R]]
    invalid: list[R]
    several: list[R]
    blank: list[R]
    missing: list[R]
    late: list[R]
    corrected: list[R]
    overridden: list[R]
    solos: list[R]
    penalties: list[R]
    found_top: list[R]

    @property
    def valid(self) -> int:
        """The slips scored for a move (the rulings under the moves)."""
        return sum(len(g.rulings) for g in self.groups)


def review_section(ruling: Ruling | ListedRuling) -> str:
    """Where the review lists a ruling: "move", a reason's list, or "corrected"."""
    zero = ZERO_SECTIONS.get(ruling.reason)
    if zero is not None:
        return zero
    if ruling.move and ruling.reason != adj.Reason.AVERAGE:  # an average is no move
        return "move"
    return "corrected"


def round_review(round: Round) -> Review[Ruling]:
    """A round's rulings grouped by move (best first), then the slips scored 0 by kind."""
    rulings = list(
        Ruling.objects.filter(round=round)
        .select_related("player", "slip", "ruled_by")
        .order_by("player__table")
    )
    return _reviewed(round, rulings)


#: What the console's review reads of each ruling (:class:`ListedRuling`, in its order).
_LISTED = (
    "pk",
    "player__table",
    "player__name",
    "slip_id",
    "slip__coordinates",
    "slip__word",
    "slip__announced_score",
    "move",
    "move_score",
    "credited",
    "warnings",
    "penalty",
    "solo",
    "is_top",
    "reason",
    "detail",
    "notes",
    "shift_candidate",
    "overridden",
    "override_reason",
)


#: What a round's review shows, by the history's entities: its rulings and slips, the
#: players' names and tables, the event's notation.
REVIEW_ENTITIES = ("ruling", "slip", "player", "event")


def review_version(round: Round) -> str:
    """What the review of ``round`` is written from, as a key: a change to a ruling, a slip,
    a player or the event leaves a history entry, but for a ruling written again with the
    same figures (only its ``ruled_at`` says so). A publication, which the review does not
    show, leaves it as it was."""
    changed = HistoryEntry.objects.filter(event_id=round.game.event_id, entity__in=REVIEW_ENTITIES)
    last = changed.aggregate(last=Max("id"))["last"] or 0
    rulings = Ruling.objects.filter(round=round).aggregate(n=Count("pk"), at=Max("ruled_at"))
    at = rulings["at"].isoformat() if rulings["at"] is not None else ""
    return f"{round.pk}.{round.state}.{last}.{rulings['n']}.{at}"


def listed_review(round: Round) -> Review[ListedRuling]:
    """:func:`round_review` for the console's page: the same sections, each ruling read as
    the values the page shows."""
    rows = Ruling.objects.filter(round=round).order_by("player__table").values_list(*_LISTED)
    rulings = [
        ListedRuling(
            pk,
            ListedPlayer(table, name),
            None if slip_id is None else ListedSlip(coordinates, word, announced),
            *rest,
        )
        for pk, table, name, slip_id, coordinates, word, announced, *rest in rows
    ]
    return _reviewed(round, rulings)


def _reviewed(round: Round, rulings: list[R]) -> Review[R]:
    event = round.game.event
    sections: dict[str, list[R]] = defaultdict(list)
    grouped: dict[tuple[str, int], list[R]] = defaultdict(list)
    for r in rulings:
        section = review_section(r)
        sections[section].append(r)
        if section == "move":
            grouped[(r.move, r.move_score)].append(r)
    groups = [
        MoveGroup(
            move=move,
            shown=shown_move(move, event.board, event.notation),
            score=score,
            is_top=bool(round.top_score) and score == round.top_score,
            rulings=members,
        )
        for (move, score), members in sorted(grouped.items(), key=lambda kv: (-kv[0][1], kv[0][0]))
    ]
    return Review(
        round=round,
        rulings=rulings,
        groups=groups,
        invalid=sections["invalid"],
        several=sections["several"],
        blank=sections["blank"],
        missing=sections["missing"],
        late=sections["late"],
        corrected=sections["corrected"],
        overridden=[r for r in rulings if r.overridden],
        solos=[r for r in rulings if r.solo],
        penalties=[r for r in rulings if r.penalty],
        found_top=[r for r in rulings if r.is_top],
    )


# --------------------------------------------------------------------------- slips


@dataclass(frozen=True)
class SlipWatch:
    """The arbitrator's view of an open round: who has handed in, who has not."""

    received: int
    expected: int
    missing_tables: list[int]
    slips: list[Slip] | list[WatchedSlip]


def slip_watch(round: Round) -> SlipWatch:
    slips = list(
        Slip.objects.filter(round=round, current=True)
        .select_related("player", "entered_by")
        .order_by("-received_at")
    )
    return _watched(round, slips, {s.player_id for s in slips})


@dataclass(frozen=True)
class WatchedSlip:
    """A slip as the console's watch lists it, read as values (a hall's 2,000 slips as
    model instances were most of the console's page while its round was open)."""

    player: ListedPlayer
    coordinates: str
    word: str
    announced_score: int | None
    received_at: dt.datetime
    source: str


def listed_watch(round: Round) -> SlipWatch:
    """:func:`slip_watch` for the console's page: the same counts, each slip read as the
    values the page shows."""
    rows = (
        Slip.objects.filter(round=round, current=True)
        .order_by("-received_at")
        .values_list(
            "player_id", "player__table", "player__name", "coordinates", "word", "announced_score",
            "received_at", "source",
        )
    )  # fmt: skip
    slips = [
        WatchedSlip(ListedPlayer(table, name), coordinates, word, announced, received_at, source)
        for _pk, table, name, coordinates, word, announced, received_at, source in rows
    ]
    return _watched(round, slips, {row[0] for row in rows})


def _watched(round: Round, slips: list[Slip] | list[WatchedSlip], handed: set[int]) -> SlipWatch:
    # Virtual players hand in no slip through the pages: they are never "missing".
    players = round.game.event.players.people().order_by("table").values_list("pk", "table", "withdrawn_at")
    # A player withdrawn before the round opened hands nothing in: not expected, not missing.
    opened = round.opened_at
    expected = [
        (pk, table)
        for pk, table, withdrawn_at in players
        if withdrawn_at is None or (opened is not None and withdrawn_at >= opened)
    ]
    return SlipWatch(
        received=len(handed),
        expected=len(expected),
        missing_tables=[table for pk, table in expected if pk not in handed],
        slips=slips,
    )


def typed_rack_problem(game: Game, typed: str, rejected: tuple[str, ...] = ()) -> str:
    """Why a rack typed from a physical draw would be refused as the game's next rack, or
    "" when it would be accepted. Checked on a replay in memory: nothing is stored."""

    from solver.errors import IllegalRackError

    position = rebuild(game)
    if position.current is not None:
        return _("round %(number)s is not placed yet") % {"number": position.current.number}
    try:
        position.game.draw_manual(typed.strip().upper(), rejected)
    except IllegalRackError as exc:
        return say_error(exc)
    return ""


# --------------------------------------------------------------------------- event-scoped reads of the API


def events_for(*, user: object, token: object) -> QuerySet[Event]:
    """The events a caller may list: all for staff, their own for a user, the token's one."""
    if isinstance(token, PlayerToken):
        return Event.objects.filter(pk=token.player.event_id)
    if isinstance(user, AuthUser) and user.is_active:
        return Event.objects.all() if user.is_staff else Event.objects.filter(created_by=user)
    return Event.objects.none()


def round_slips(round: Round, *, player_id: int | None = None) -> QuerySet[Slip]:
    slips = Slip.objects.filter(round=round).select_related("player")
    return slips if player_id is None else slips.filter(player_id=player_id)


def has_counted_rounds(event: Event, *, game_number: int | None = None) -> bool:
    """Whether a round's results count in the standings (placed, or published)."""
    rounds = Round.objects.filter(game__event=event).counted()
    if game_number is not None:
        rounds = rounds.filter(game__number=game_number)
    return rounds.exists()


def event_players(event: Event) -> QuerySet[Player]:
    return Player.objects.filter(event=event).order_by("table")


def _rulings() -> QuerySet[Ruling]:
    return Ruling.objects.select_related("round__game__event", "player", "slip", "ruled_by")


def event_ruling(event: Event, ruling_id: int) -> Ruling | None:
    """A ruling of ``event`` only: an id from another event is not found."""
    return _rulings().filter(pk=ruling_id, round__game__event=event).first()


def round_ruling(round: Round, table: int) -> Ruling | None:
    return _rulings().filter(round=round, player__table=table).first()


def event_history(event: Event) -> QuerySet[HistoryEntry]:
    """Newest first: the console shows the last changes at the top."""
    return HistoryEntry.objects.filter(event=event).order_by("-at", "-pk")
