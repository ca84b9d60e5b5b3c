"""Every statement of a hall's hot path (each phone's slip) that is written in SQL: each one
named and explained here, with the few tools that write and run them. Everything else goes
through the ORM.

Why SQL at all (docs/decisions.md): compiling the ORM's queries again at every slip is a
large part of a slip's time in the web process, and a slip needs what the ORM cannot say:
the round locked in SHARE mode beside its player locked FOR NO KEY UPDATE, in the
statement that reads them; a slip checked and written by one INSERT ... SELECT, in one
round trip; a new row's id by RETURNING, without ``save()``'s machinery.

Each statement is written once per database vendor (and per variant) from the models' own
tables and columns (``Model._meta``, ``connection.ops``), and its rows come back as the ORM
gives them: through the steps ``Model.objects.raw()`` takes (the compiler's converters,
``Model.from_db``), with what a raw query works out again at each call (each column's
converters) worked out once per connection, and several models in one row, which a raw
query cannot give (tests/tournaments/test_statements.py compares them with the ORM's)."""

from __future__ import annotations

import datetime as dt
import weakref
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from django.db import DEFAULT_DB_ALIAS, connections
from django.db.models import Model
from django.db.models.sql import Query

from tournaments.models import Event, Game, HistoryEntry, Player, PlayerToken, Round, Slip

# ---------------------------------------------------------------------------- the tools


def quote(name: str) -> str:
    return str(connections[DEFAULT_DB_ALIAS].ops.quote_name(name))


def table(model: type[Model]) -> str:
    return quote(model._meta.db_table)


def _field(model: type[Model], name: str) -> Any:
    meta = model._meta
    field = meta.pk if name == "pk" else meta.get_field(name)
    if not getattr(field, "column", None):
        raise ValueError(f"{model.__name__}.{name} is not a column of {meta.db_table}")
    return field


def own(model: type[Model], name: str) -> str:
    """The column of the field ``name`` (``"pk"``: the primary key), unqualified: for a
    table under another name."""
    return quote(str(_field(model, name).column))


def column(model: type[Model], name: str) -> str:
    """``table.column`` of the field ``name`` (``"pk"``: the primary key)."""
    return f"{table(model)}.{own(model, name)}"


def columns(*models: type[Model]) -> str:
    """Every column of ``models``, one model after the other: a :class:`Select`'s row."""
    return ", ".join(
        f"{table(model)}.{quote(str(f.column))}" for model in models for f in model._meta.concrete_fields
    )


def _update_lock(model: type[Model], no_key: bool = False) -> str:
    # Django's own clause, as select_for_update(of=..., no_key=...) writes it.
    return str(connections[DEFAULT_DB_ALIAS].ops.for_update_sql(of=(table(model),), no_key=no_key))


def _share_lock(model: type[Model]) -> str:
    # The ORM's select_for_update has no SHARE mode.
    return f"FOR SHARE OF {table(model)}"


def _vendor(vendor: str | None) -> str:
    return vendor or connections[DEFAULT_DB_ALIAS].vendor


Writer = Callable[..., str]


class Statement:
    """SQL that ``write(vendor, **options)`` writes once per vendor and options, run on
    Django's cursor. An empty text is nothing to run on that vendor."""

    def __init__(self, write: Writer) -> None:
        self.write = write
        self.__name__ = write.__name__
        self.__doc__ = write.__doc__ or type(self).__doc__
        self._sql: dict[tuple[Any, ...], str] = {}

    def sql(self, vendor: str | None = None, **options: Any) -> str:
        vendor = _vendor(vendor)
        key = (vendor, *sorted(options.items()))
        known = self._sql.get(key)
        if known is None:
            known = self._sql[key] = self._written(vendor, options)
        return known

    def _written(self, vendor: str, options: dict[str, Any]) -> str:
        return self.write(vendor, **options)

    def run(self, params: Sequence[Any], **options: Any) -> None:
        wrapper = connections[DEFAULT_DB_ALIAS]
        sql = self.sql(wrapper.vendor, **options)
        if sql:
            with wrapper.cursor() as cursor:
                cursor.execute(sql, params)


Converters = dict[int, tuple[list[Callable[..., Any]], Any]]


class Select(Statement):
    """A SELECT whose row is every column of ``models`` (:func:`columns`, given to its
    writer after the vendor), read back as one instance of each model."""

    def __init__(self, models: tuple[type[Model], ...], write: Writer) -> None:
        super().__init__(write)
        self.models = models
        self._names = [[f.attname for f in model._meta.concrete_fields] for model in models]
        self._cols = [f.get_col(m._meta.db_table) for m in models for f in m._meta.concrete_fields]
        self._query = Query(models[0])
        #: Per connection (each thread has its own): the converters of the row's columns,
        #: worked out once, not at each call as a raw query does (docs/decisions.md).
        self._converters: weakref.WeakKeyDictionary[Any, Converters] = weakref.WeakKeyDictionary()

    @classmethod
    def of(cls, *models: type[Model]) -> Callable[[Writer], Select]:
        """The decorator naming a :class:`Select` of ``models`` after its writer."""
        return lambda write: cls(models, write)

    def _written(self, vendor: str, options: dict[str, Any]) -> str:
        return self.write(vendor, columns(*self.models), **options)

    def _compiler(self, wrapper: Any) -> Any:
        return wrapper.ops.compiler("SQLCompiler")(self._query, wrapper, wrapper.alias)

    def rows(self, params: Sequence[Any], **options: Any) -> list[list[Any]]:
        """The statement's rows, each one instance of each model."""
        wrapper = connections[DEFAULT_DB_ALIAS]
        with wrapper.cursor() as cursor:
            cursor.execute(self.sql(wrapper.vendor, **options), params)
            fetched = cursor.fetchall()
        return self.instances(fetched)

    def instances(self, rows: Iterable[Sequence[Any]]) -> list[list[Any]]:
        """``rows`` of this statement, read on any cursor of the default database (psycopg's
        own, say), each as one instance of each model."""
        wrapper = connections[DEFAULT_DB_ALIAS]
        converters = self._converters.get(wrapper)
        if converters is None:
            converters = self._converters[wrapper] = self._compiler(wrapper).get_converters(self._cols)
        values: Iterable[Sequence[Any]] = rows
        if converters:
            values = self._compiler(wrapper).apply_converters(rows, converters)
        made = []
        for row in values:
            one, start = [], 0
            for model, names in zip(self.models, self._names, strict=True):
                one.append(model.from_db(wrapper.alias, names, row[start : start + len(names)]))
                start += len(names)
            made.append(one)
        return made


class Insert(Statement):
    """``INSERT ... RETURNING`` of a new ``model`` instance: what ``save()`` does for a new
    row, the values prepared by the fields as the ORM prepares them (``pre_save`` fills
    ``auto_now_add``), without its ``pre_save``/``post_save`` signals (no receiver listens
    to the models inserted so: tests/tournaments/test_statements.py checks it). Written
    once: the ORM's own insert compiles it again at each row (docs/decisions.md)."""

    def __init__(self, model: type[Model]) -> None:
        pk = model._meta.pk
        self.model = model
        self.fields = [f for f in model._meta.concrete_fields if f is not pk]
        super().__init__(self._insert)
        self.__name__ = f"insert {model.__name__}"

    def _insert(self, vendor: str) -> str:
        names = ", ".join(quote(str(f.column)) for f in self.fields)
        marks = ", ".join(["%s"] * len(self.fields))
        return f"INSERT INTO {table(self.model)} ({names}) VALUES ({marks}) RETURNING {own(self.model, 'pk')}"

    def __call__(self, instance: Model) -> Model:
        wrapper = connections[DEFAULT_DB_ALIAS]
        if not wrapper.features.can_return_columns_from_insert:
            instance.save(force_insert=True)
            return instance
        values = [f.get_db_prep_save(f.pre_save(instance, True), wrapper) for f in self.fields]
        with wrapper.cursor() as cursor:
            cursor.execute(self.sql(wrapper.vendor), values)
            (instance.pk,) = cursor.fetchone()
        instance._state.adding = False
        instance._state.db = wrapper.alias
        return instance


# ------------------------------------------------------------------- a phone's token


@Select.of(PlayerToken, Player, Event)
def confirmed_token(vendor: str, columns: str, *, many: bool = False) -> str:
    """A confirmed token by its key (``many``: by any of a list of keys, PostgreSQL's
    ``= ANY(%s)``), with its player and the player's event: every slip of a hall reads it
    (the API's player authentication)."""
    c = column
    match = "= ANY(%s)" if many else "= %s"
    return (
        f"SELECT {columns} FROM {table(PlayerToken)}"
        f" INNER JOIN {table(Player)} ON {c(Player, 'pk')} = {c(PlayerToken, 'player')}"
        f" INNER JOIN {table(Event)} ON {c(Event, 'pk')} = {c(Player, 'event')}"
        f" WHERE {c(PlayerToken, 'key')} {match} AND {c(PlayerToken, 'confirmed_at')} IS NOT NULL"
    )


# ------------------------------------------------------- a slip by slip_submit (services/slips.py)


@Select.of(Round, Game, Event)
def locked_round(vendor: str, columns: str, *, by_event: bool, exclusive: bool) -> str:
    """The round (with its game and event) and the player, locked, in one statement: the
    round by its id (parameters: the player's id, the round's), or ``by_event`` the event's
    current round, the last of the game being played (the player's id, the event's, the
    playing state).

    On PostgreSQL a slip takes the round in SHARE mode: slips do not wait for each other
    (with the lock exclusive, a hall's slips would queue one behind the other across every
    web process, each waiting for the round held by another: docs/decisions.md), while the
    close and the ruling, which take it FOR UPDATE, wait for the slips already in and are
    waited for by the ones after. ``exclusive``: FOR UPDATE, for a slip that rules the
    round again. The player's row, locked for update, keeps two slips of one player (a
    retry, a correction) one after the other: each sees the other's slip. FOR NO KEY
    UPDATE, so that the key share that a new slip's foreign key takes on the row never
    waits. SQLite takes one writer at a time (IMMEDIATE transactions, the settings): no
    locking clause there. The ORM's ``select_for_update`` says neither SHARE nor two modes
    in one statement."""
    c = column
    sql = (
        f"SELECT {columns} FROM {table(Round)}"
        f" INNER JOIN {table(Game)} ON {c(Game, 'pk')} = {c(Round, 'game')}"
        f" INNER JOIN {table(Event)} ON {c(Event, 'pk')} = {c(Game, 'event')}"
        f" INNER JOIN {table(Player)}"
        f" ON {c(Player, 'pk')} = %s AND {c(Player, 'event')} = {c(Event, 'pk')}"
    )
    if by_event:
        sql += f" WHERE {c(Event, 'pk')} = %s AND {c(Game, 'state')} = %s ORDER BY {c(Round, 'number')} DESC"
    else:
        sql += f" WHERE {c(Round, 'pk')} = %s"
    sql += " LIMIT 1"
    if vendor == "postgresql":
        round_lock = _update_lock(Round) if exclusive else _share_lock(Round)
        sql += f" {round_lock} {_update_lock(Player, no_key=True)}"
    return sql


@Select.of(Slip)
def known_slips(vendor: str, columns: str, *, with_client_id: bool) -> str:
    """The player's slips that matter to a new one, by id: the current ones of the round
    (parameters: the player's id, the round's, True) and, ``with_client_id``, the one of
    that client_id, in any round (the client_id)."""
    c = column
    mine = f"({c(Slip, 'round')} = %s AND {c(Slip, 'current')} = %s)"
    if with_client_id:
        mine = f"({mine} OR {c(Slip, 'client_id')} = %s)"
    return (
        f"SELECT {columns} FROM {table(Slip)} WHERE {c(Slip, 'player')} = %s AND {mine}"
        f" ORDER BY {c(Slip, 'pk')}"
    )


#: A slip, inserted (and the history entry of each change, slips' or not: services/history.py).
insert_slip = Insert(Slip)
insert_history = Insert(HistoryEntry)


@Statement
def round_shared(vendor: str) -> str:
    """The round (parameter: its id) locked in SHARE mode until the transaction ends, as a
    slip locks it (:func:`locked_round`), for a pass of the rulings ahead that is about to
    write: others sharing it go on, the close, which takes it for update, waits. PostgreSQL
    only: SQLite takes one writer at a time (the settings' IMMEDIATE transactions)."""
    if vendor != "postgresql":
        return ""
    return f"SELECT 1 FROM {table(Round)} WHERE {column(Round, 'pk')} = %s FOR SHARE"


# ------------------------------------ a phone's slip in one round trip (services/phone_slips.py)


@Select.of(Round, Game, Event)
def current_round(vendor: str, columns: str) -> str:
    """The current round of an event (parameters: its id, the playing state), as
    :func:`locked_round` finds it by the event: the last round of the game being played."""
    c = column
    return (
        f"SELECT {columns} FROM {table(Event)}"
        f" INNER JOIN {table(Game)} ON {c(Game, 'event')} = {c(Event, 'pk')}"
        f" INNER JOIN {table(Round)} ON {c(Round, 'game')} = {c(Game, 'pk')}"
        f" WHERE {c(Event, 'pk')} = %s AND {c(Game, 'state')} = %s"
        f" ORDER BY {c(Round, 'number')} DESC LIMIT 1"
    )


#: The slip's columns a phone's slip writes (all but its id), in the statements' order.
SLIP_FIELDS: list[Any] = [f for f in Slip._meta.concrete_fields if not f.primary_key]
#: The one of them the statements give: the token's player.
SLIP_PLAYER = Slip._meta.get_field("player")
#: The history entry's columns (all but its id), in the statements' order.
HISTORY_FIELDS: list[Any] = [f for f in HistoryEntry._meta.concrete_fields if not f.primary_key]


def _prepared(fields: Iterable[Any], instance: Model) -> list[Any]:
    return [f.get_db_prep_save(f.pre_save(instance, True), connections[DEFAULT_DB_ALIAS]) for f in fields]


def phone_slip_values(slip: Slip) -> list[Any]:
    """The slip's parameters of :func:`phone_slip_insert`: its values as ``save()`` prepares
    them, but its player's (the token's)."""
    return _prepared((f for f in SLIP_FIELDS if f is not SLIP_PLAYER), slip)


def _recheck_fields() -> list[Any]:
    """The columns the recheck's parameters are compared with, in their order
    (:func:`phone_slip_recheck`)."""
    token, round, game, event = PlayerToken._meta, Round._meta, Game._meta, Event._meta
    return [
        token.get_field("key"), round.pk, game.get_field("state"), round.get_field("state"),
        round.get_field("state"), round.get_field("closed_at"), round.get_field("deadline"),
        event.get_field("mode"), event.get_field("notation"), event.get_field("board"),
        event.get_field("first_slip_best_placement"), game.get_field("state"),
        Slip._meta.get_field("client_id"),
    ]  # fmt: skip


def phone_slip_recheck(*, key: str, round: Round, handed: dt.datetime, client_id: str) -> list[Any]:
    """What :func:`phone_slip_insert` checks again under the locks, its parameters after
    the slip's: the token, ``round`` (its game and event as the checks read them) still
    open, or closed after the slip was ``handed`` in, and still the event's current round,
    the player without a slip of it nor one of ``client_id``."""
    wrapper = connections[DEFAULT_DB_ALIAS]
    event = round.game.event
    playing, handed_in = Game.State.PLAYING, wrapper.ops.adapt_datetimefield_value(handed)
    return [
        key, round.pk, playing, Round.State.OPEN, Round.State.CLOSED, handed_in, handed_in,
        event.mode, event.notation, event.board, event.first_slip_best_placement, playing, client_id,
    ]  # fmt: skip


def phone_slip_history(entry: HistoryEntry) -> list[Any]:
    """The history entry's parameters of :func:`phone_slip_write`: its values as ``save()``
    prepares them, but its object_id (the slip's, which the statement gives)."""
    return _prepared((f for f in HISTORY_FIELDS if f.name != "object_id"), entry)


def _mark(field: Any, vendor: str) -> str:
    """A value's placeholder, with its column's type on PostgreSQL: the statements are
    prepared there, and a parameter in a SELECT list (a NULL above all) has no other."""
    if vendor != "postgresql":
        return "%s"
    return f"CAST(%s AS {field.db_type(connections[DEFAULT_DB_ALIAS])})"


@Statement
def phone_slip_insert(vendor: str) -> str:
    """The slip (parameters: :func:`phone_slip_values`, then :func:`phone_slip_recheck`),
    inserted for the token's player only if what the checks read still holds, read again
    in the same statement (under :func:`phone_slip_locks` on PostgreSQL): one round trip
    where the ORM would take one to read and one to write. Its id and player RETURNING."""
    c = column
    marks = ", ".join(c(Player, "pk") if f is SLIP_PLAYER else _mark(f, vendor) for f in SLIP_FIELDS)
    names = ", ".join(quote(str(f.column)) for f in SLIP_FIELDS)
    deadline, paused = c(Round, "deadline"), c(Round, "paused_at")
    return (
        f"INSERT INTO {table(Slip)} ({names}) SELECT {marks} FROM {table(Round)}"
        f" INNER JOIN {table(Game)} ON {c(Game, 'pk')} = {c(Round, 'game')}"
        f" INNER JOIN {table(Event)} ON {c(Event, 'pk')} = {c(Game, 'event')}"
        f" INNER JOIN {table(Player)} ON {c(Player, 'event')} = {c(Event, 'pk')}"
        f" INNER JOIN {table(PlayerToken)} ON {c(PlayerToken, 'player')} = {c(Player, 'pk')}"
        f" AND {c(PlayerToken, 'key')} = %s AND {c(PlayerToken, 'confirmed_at')} IS NOT NULL"
        f" WHERE {c(Round, 'pk')} = %s AND {c(Game, 'state')} = %s"
        f" AND ({c(Round, 'state')} = %s OR ({c(Round, 'state')} = %s AND {c(Round, 'closed_at')} >= %s))"
        f" AND {c(Round, 'first_published_at')} IS NULL"
        f" AND ({deadline} IS NULL OR {paused} IS NOT NULL OR {deadline} >= %s)"
        f" AND {c(Event, 'mode')} = %s AND {c(Event, 'notation')} = %s AND {c(Event, 'board')} = %s"
        f" AND {c(Event, 'first_slip_best_placement')} = %s"
        # Still the event's current round (the round the process knew may be a few seconds old).
        f" AND NOT EXISTS (SELECT 1 FROM {table(Round)} AS later"
        f" INNER JOIN {table(Game)} AS its ON its.{own(Game, 'id')} = later.{own(Round, 'game')}"
        f" WHERE its.{own(Game, 'event')} = {c(Event, 'pk')} AND its.{own(Game, 'state')} = %s"
        f" AND later.{own(Round, 'number')} > {c(Round, 'number')})"
        f" AND {c(Player, 'withdrawn_at')} IS NULL AND NOT EXISTS ("
        f"SELECT 1 FROM {table(Slip)} AS known"
        f" WHERE known.{own(Slip, 'player')} = {c(Player, 'pk')}"
        f" AND ((known.{own(Slip, 'round')} = {c(Round, 'pk')} AND known.{own(Slip, 'current')})"
        f" OR known.{own(Slip, 'client_id')} = %s))"
        f" RETURNING {own(Slip, 'id')}, {own(Slip, 'player')}"
    )


@Statement
def phone_slip_locks(vendor: str) -> str:
    """The locks of a phone's slip on PostgreSQL (parameters: the round's id, the token's
    key), as :func:`locked_round` takes them: the round shared, so that slips never wait
    for each other and the close waits for them; the token's player for update, so that
    two slips of one player go one after the other."""
    c = column
    return (
        f"SELECT 1 FROM {table(Round)}, {table(PlayerToken)}"
        f" INNER JOIN {table(Player)} ON {c(Player, 'pk')} = {c(PlayerToken, 'player')}"
        f" WHERE {c(Round, 'pk')} = %s AND {c(PlayerToken, 'key')} = %s"
        f" {_share_lock(Round)} {_update_lock(Player, no_key=True)}"
    )


def _history_value(field: Any, vendor: str) -> str:
    if field.name == "object_id":
        return f"slip.{own(Slip, 'id')}"
    if field.name == "new":
        return f"{_mark(field, vendor)} || jsonb_build_object('player', slip.{own(Slip, 'player')})"
    return _mark(field, vendor)


@Statement
def phone_slip_write(vendor: str, *, into: str = "") -> str:
    """A phone's slip on PostgreSQL, after :func:`phone_slip_locks`: the slip
    (:func:`phone_slip_insert`) and its history entry (then :func:`phone_slip_history`;
    the entry's ``new`` given the slip's player) in one statement, which the ORM cannot
    write; ``into``: PL/pgSQL's INTO clause."""
    names = ", ".join(quote(str(f.column)) for f in HISTORY_FIELDS)
    values = ", ".join(_history_value(f, vendor) for f in HISTORY_FIELDS)
    return (
        f"WITH slip AS ({phone_slip_insert.sql(vendor)}),"
        f" entry AS (INSERT INTO {table(HistoryEntry)} ({names}) SELECT {values} FROM slip)"
        f" SELECT {own(Slip, 'id')}, {own(Slip, 'player')}{into} FROM slip"
    )


#: The function of :func:`phone_slips_function`: a connection's own (created with it).
PHONE_SLIPS_FUNCTION = "pg_temp.arbiter_phone_slips"


def _batch_types() -> list[str]:
    """The SQL type of each array the function takes: a slip's parameters of
    :func:`phone_slip_locks`, :func:`phone_slip_write` (the slip's and the recheck's),
    :func:`phone_slip_history`, in that order."""
    fields = [
        Round._meta.pk, PlayerToken._meta.get_field("key"),
        *(f for f in SLIP_FIELDS if f is not SLIP_PLAYER), *_recheck_fields(),
        *(f for f in HISTORY_FIELDS if f.name != "object_id"),
    ]  # fmt: skip
    connection = connections[DEFAULT_DB_ALIAS]
    return [str(f.db_type(connection)) for f in fields]


def _arrayed(sql: str, first: int) -> str:
    """``sql`` with its placeholders as the i-th items of the function's arrays from ``first``."""
    parts = sql.split("%s")
    return parts[0] + "".join(f"p{first + n}[i]{part}" for n, part in enumerate(parts[1:]))


@Statement
def phone_slips_function(vendor: str) -> str:
    """The function that writes a batch of phones' slips in one statement, one round trip
    and one transaction (arbiter/hall.py; its CREATE): the round locked once for all, then
    for each slip, as a phone's slip alone does it, the player locked and the slip written,
    each statement with a snapshot of its own taken after its locks were granted."""
    types = _batch_types()
    arguments = ", ".join(f"p{n} {kind}[]" for n, kind in enumerate(types, 1))
    connection = connections[DEFAULT_DB_ALIAS]
    player_lock = (
        f"PERFORM 1 FROM {table(PlayerToken)}"
        f" INNER JOIN {table(Player)} ON {column(Player, 'pk')} = {column(PlayerToken, 'player')}"
        f" WHERE {column(PlayerToken, 'key')} = p2[i] {_update_lock(Player, no_key=True)}"
    )
    write = _arrayed(phone_slip_write.sql(vendor, into=" INTO slip_id, slip_player"), 3)
    return (
        f"CREATE OR REPLACE FUNCTION {PHONE_SLIPS_FUNCTION}({arguments})"
        f" RETURNS TABLE (slip_index integer, slip_id {Slip._meta.pk.db_type(connection)},"
        f" slip_player {Player._meta.pk.db_type(connection)})"
        " LANGUAGE plpgsql AS $arbiter$\n#variable_conflict use_column\nBEGIN\n"
        f"PERFORM 1 FROM {table(Round)} WHERE {column(Round, 'pk')} = ANY(p1)"
        f" {_share_lock(Round)};\n"
        f"FOR i IN 1 .. cardinality(p1) LOOP\n{player_lock};\n{write};\n"
        "slip_index := i;\nRETURN NEXT;\nEND LOOP;\nEND\n$arbiter$"
    )


@Statement
def phone_slips_call(vendor: str) -> str:
    """A batch of slips written by :func:`phone_slips_function` (parameters: one array
    each, every slip's in it): each slip's index, and its id and player when written."""
    casts = ", ".join(f"CAST(%s AS {kind}[])" for kind in _batch_types())
    return f"SELECT slip_index, slip_id, slip_player FROM {PHONE_SLIPS_FUNCTION}({casts})"
