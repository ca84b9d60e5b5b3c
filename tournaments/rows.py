"""Queries of a hall's hot path (each phone's slip), written once per process in SQL.

Building and compiling a query through the ORM costs more than running it, and a slip
reads a token, a round and the player's slips and writes two rows (docs/decisions.md).
Here the SQL is written once, from the
models' own tables and columns, and the rows come back as the ORM would give them: every
column through the converters the ORM applies (SQLite's dates come as text, say), the
instances made by ``Model.from_db`` (so they save, refresh and compare as any other).

Only what a hall does thousands of times a minute belongs here; everything else goes
through the ORM."""

from __future__ import annotations

import weakref
from collections.abc import Callable, Sequence
from typing import Any

from django.db import DEFAULT_DB_ALIAS, connections
from django.db.models import Model

Converter = Callable[[Any, Any, Any], Any]


class Columns:
    """The columns of ``models``, one after the other, as a SELECT list and back."""

    def __init__(self, *models: type[Model]) -> None:
        self.models = models
        self.names = [[f.attname for f in model._meta.concrete_fields] for model in models]
        #: Per database connection: each column with its converters (a connection's
        #: converters are bound to it, and each thread has its own).
        self._converters: weakref.WeakKeyDictionary[Any, list[tuple[Any, list[Converter]]]] = (
            weakref.WeakKeyDictionary()
        )

    def select(self) -> str:
        quote = connections[DEFAULT_DB_ALIAS].ops.quote_name
        return ", ".join(
            f"{quote(model._meta.db_table)}.{quote(str(f.column))}"
            for model in self.models
            for f in model._meta.concrete_fields
        )

    def _columns(self, wrapper: Any) -> list[tuple[Any, list[Converter]]]:
        known = self._converters.get(wrapper)
        if known is None:
            known = []
            for model in self.models:
                for f in model._meta.concrete_fields:
                    column = f.get_col(model._meta.db_table)
                    converters = wrapper.ops.get_db_converters(column) + f.get_db_converters(wrapper)
                    known.append((column, converters))
            self._converters[wrapper] = known
        return known

    def instances(self, row: Sequence[Any]) -> list[Any]:
        """One instance of each model from ``row``, in the models' order."""
        wrapper = connections[DEFAULT_DB_ALIAS]
        values = []
        for read, (column, converters) in zip(row, self._columns(wrapper), strict=True):
            value = read
            for convert in converters:
                value = convert(value, column, wrapper)
            values.append(value)
        made = []
        start = 0
        for model, names in zip(self.models, self.names, strict=True):
            made.append(model.from_db(wrapper.alias, names, values[start : start + len(names)]))
            start += len(names)
        return made


def fetch(sql: str, params: Sequence[Any], columns: Columns) -> list[list[Any]]:
    """The rows of ``sql`` (selecting ``columns.select()``) as instances, per row."""
    with connections[DEFAULT_DB_ALIAS].cursor() as cursor:
        cursor.execute(sql, params)
        rows = cursor.fetchall()
    return [columns.instances(row) for row in rows]


def lock_shared(model: type[Model], pk: int) -> None:
    """The row locked in SHARE mode until the transaction ends, which the ORM cannot say
    (its ``select_for_update`` is exclusive): others sharing it go on, one that takes it
    for update waits. PostgreSQL only: SQLite takes one writer at a time (the settings'
    IMMEDIATE transactions)."""
    connection = connections[DEFAULT_DB_ALIAS]
    if connection.vendor != "postgresql":
        return
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT 1 FROM {table(model)} WHERE {column(model, 'pk')} = %s FOR SHARE", [pk])


def quote(name: str) -> str:
    return str(connections[DEFAULT_DB_ALIAS].ops.quote_name(name))


def table(model: type[Model]) -> str:
    return quote(model._meta.db_table)


def column(model: type[Model], name: str) -> str:
    """``table.column`` of the field ``name`` (``"pk"`` for the primary key)."""
    meta = model._meta
    field = meta.pk if name == "pk" else meta.get_field(name)
    name_in_table = getattr(field, "column", None)
    if not name_in_table:
        raise ValueError(f"{model.__name__}.{name} is not a column of {meta.db_table}")
    return f"{table(model)}.{quote(name_in_table)}"


class Insert:
    """``INSERT ... RETURNING`` of new ``model`` instances, written once: what ``save()``
    does for a new row, with the values prepared by the fields as the ORM prepares them
    (``pre_save`` fills ``auto_now_add``) and no ``pre_save``/``post_save`` signals (no
    receiver listens to the models inserted so; tests/tournaments/test_rows.py checks it)."""

    def __init__(self, model: type[Model]) -> None:
        self.model = model
        pk = model._meta.pk
        self.fields = [f for f in model._meta.concrete_fields if f is not pk]

        self._sql: dict[str, str] = {}

    def sql(self, vendor: str) -> str:
        known = self._sql.get(vendor)
        if known is None:
            names = ", ".join(quote(str(f.column)) for f in self.fields)
            marks = ", ".join(["%s"] * len(self.fields))
            returning = quote(str(self.model._meta.pk.column if self.model._meta.pk else "id"))
            known = self._sql[vendor] = (
                f"INSERT INTO {table(self.model)} ({names}) VALUES ({marks}) RETURNING {returning}"
            )
        return known

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
