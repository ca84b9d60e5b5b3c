"""The hot path's statements (tournaments/statements.py) give what the ORM gives: the same
instances, every field equal and of the same type (aware datetimes, JSON, booleans), and
the same rows chosen; each locks as its vendor allows. :func:`same_as_the_orm` runs here
on the tests' SQLite and on PostgreSQL in tests/integration/test_slip_locks.py."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import transaction
from django.db.models import Model, Q, signals
from django.utils import timezone

from tournaments import statements
from tournaments.models import Event, Game, HistoryEntry, Player, PlayerToken, Round, Slip
from tournaments.selectors.players import player_token
from tournaments.services import slips
from tournaments.services.events import event_create
from tournaments.services.games import round_draw
from tournaments.services.history import history_record
from tournaments.services.players import player_add
from tournaments.services.rounds import round_open
from tournaments.services.slips import slip_submit

pytestmark = pytest.mark.django_db


def _fields(instance: Model) -> dict[str, Any]:
    return {f.attname: getattr(instance, f.attname) for f in instance._meta.concrete_fields}


def assert_same(made: Model, orm: Model, read: bool = True) -> None:
    """``made`` equals ``orm``; when ``made`` was read (not made by the caller, whose values
    stay as given: a choice's enum, say), each field of the same type too."""
    assert type(made) is type(orm) and made.pk == orm.pk
    ours, theirs = _fields(made), _fields(orm)
    assert ours == theirs
    if read:
        assert {k: type(v) for k, v in ours.items()} == {k: type(v) for k, v in theirs.items()}
    assert made._state.adding is False and made._state.db == orm._state.db


def same_as_the_orm(game: Game, players: list[Player]) -> None:
    """A round opened with slips in it: the token, the locked round and the player's slips
    read by the hot path equal the ORM's readings."""
    anne, bruno = players[0], players[1]
    round = round_draw(game=game)
    assert round is not None
    round_open(round=Round.objects.get(pk=round.pk))
    coordinates, word = Round.objects.get(pk=round.pk).tops[0].split(" ", 1)
    event = game.event
    for player, client_id in ((anne, "a-1"), (anne, "a-2"), (bruno, "b-1")):
        submitted = slip_submit(
            event=event,
            player=player,
            coordinates=coordinates,
            word=word,
            announced_score=None,
            client_id=client_id,
        )
        # Inserted in SQL (statements.insert_slip): the row read back is the instance returned.
        assert_same(submitted.slip, Slip.objects.get(pk=submitted.slip.pk), read=False)
        assert timezone.is_aware(submitted.slip.received_at)
    entry = history_record(
        event=event, entity="slip", object_id=1, action="submit", by=None, old={"a": [1, "é"]}, new=None
    )
    assert_same(entry, HistoryEntry.objects.get(pk=entry.pk), read=False)
    assert entry.at is not None and timezone.is_aware(entry.at)
    key = PlayerToken.objects.create(player=anne, confirmed_at=timezone.now()).key

    token = player_token(key)
    assert token is not None
    orm_token = PlayerToken.objects.select_related("player__event").get(key=key)
    assert_same(token, orm_token)
    assert_same(token.player, orm_token.player)
    assert_same(token.player.event, orm_token.player.event)
    assert player_token(key + "x") is None

    orm_round = Round.objects.select_related("game__event").get(pk=round.pk)
    ((current, its_game, its_event),) = statements.current_round.rows([event.pk, Game.State.PLAYING])
    assert_same(current, orm_round)
    assert_same(its_game, orm_round.game)
    assert_same(its_event, orm_round.game.event)

    with transaction.atomic():
        locked = slips._locked_round(None, event, anne, exclusive=False)
        assert_same(locked, orm_round)
        assert_same(locked.game, orm_round.game)
        assert_same(locked.game.event, orm_round.game.event)
        assert locked.deadline is not None and timezone.is_aware(locked.deadline)
        for exclusive in (False, True):  # by the round's id, in either mode
            by_id = slips._fetch_locked(anne, exclusive, round.pk, event.pk)
            assert by_id is not None
            assert_same(by_id, orm_round)
            assert_same(by_id.game.event, orm_round.game.event)
        statements.round_shared.run([round.pk])

        for client_id in ("a-1", "", "nothing"):
            known = slips._known_slips(anne, locked, client_id)
            mine = (
                Q(round=locked, current=True) | Q(client_id=client_id)
                if client_id
                else Q(round=locked, current=True)
            )
            orm_known = list(Slip.objects.filter(mine, player=anne).order_by("pk"))
            assert [s.pk for s in known] == [s.pk for s in orm_known] and known
            for ours, theirs in zip(known, orm_known, strict=True):
                assert_same(ours, theirs)


def test_the_hot_paths_rows_are_the_orms(game: Game, players: list[Player]) -> None:
    same_as_the_orm(game, players)


def test_the_round_of_another_event_or_a_player_of_another_is_not_found(
    game: Game, players: list[Player], event
) -> None:
    round = round_draw(game=game)
    assert round is not None
    other = event_create(
        name="Elsewhere", starts_on=event.starts_on, lexicon=event.lexicon, language="english", notation="gcg"
    )
    stranger = player_add(event=other, name="Stranger")
    with transaction.atomic():
        assert slips._fetch_locked(stranger, False, round.pk, event.pk) is None
        assert slips._fetch_locked(stranger, False, None, event.pk) is None
        assert slips._fetch_locked(players[0], False, None, other.pk) is None
        assert slips._fetch_locked(players[0], False, round.pk, event.pk) is not None


def test_no_receiver_misses_the_rows_inserted_in_sql() -> None:
    """statements.Insert sends no pre_save/post_save: nothing may listen to those models."""
    for model in (Slip, HistoryEntry):
        assert not signals.pre_save.has_listeners(model)
        assert not signals.post_save.has_listeners(model)


def test_a_column_that_is_no_column_is_refused() -> None:
    assert statements.column(Slip, "player").endswith('"player_id"')
    assert statements.own(Slip, "player") == '"player_id"'
    with pytest.raises(ValueError, match="not a column"):
        statements.column(Player, "slips")  # the reverse side of a foreign key
    assert len(statements.columns(Round, Game).split(", ")) == len(Round._meta.concrete_fields) + len(
        Game._meta.concrete_fields
    )


ROUND, PLAYER = '"tournaments_round"', '"tournaments_player"'


def test_slips_share_the_round_on_postgresql_and_lock_nothing_on_sqlite() -> None:
    """The lock clauses are PostgreSQL's: the round shared by slips (FOR UPDATE when a
    slip rules it again), the player for update without its key, the ruling pass's round
    shared; SQLite takes one writer at a time and is given none."""
    for by_event in (False, True):
        shared = statements.locked_round.sql("postgresql", by_event=by_event, exclusive=False)
        assert shared.endswith(f" LIMIT 1 FOR SHARE OF {ROUND} FOR NO KEY UPDATE OF {PLAYER}")
        exclusive = statements.locked_round.sql("postgresql", by_event=by_event, exclusive=True)
        assert exclusive.endswith(f" LIMIT 1 FOR UPDATE OF {ROUND} FOR NO KEY UPDATE OF {PLAYER}")
        for mode in (False, True):
            assert " FOR " not in statements.locked_round.sql("sqlite", by_event=by_event, exclusive=mode)
    assert statements.phone_slip_locks.sql("postgresql").endswith(
        f" FOR SHARE OF {ROUND} FOR NO KEY UPDATE OF {PLAYER}"
    )
    assert statements.round_shared.sql("postgresql").endswith(" = %s FOR SHARE")
    assert statements.round_shared.sql("sqlite") == ""


def test_a_statement_is_written_once_per_vendor_and_variant() -> None:
    first = statements.known_slips.sql("sqlite", with_client_id=True)
    assert statements.known_slips.sql("sqlite", with_client_id=True) is first
    assert statements.known_slips.sql("sqlite", with_client_id=False) != first
    assert statements.locked_round.__name__ == "locked_round" and "SHARE" in (
        statements.locked_round.__doc__ or ""
    )


def test_a_select_reads_no_row_as_none_and_each_row_as_its_models(
    event: Event, players: list[Player]
) -> None:
    assert statements.confirmed_token.rows(["nobody"]) == []
    assert statements.current_round.rows([event.pk, Game.State.PLAYING]) == []  # no game yet
    keys = [PlayerToken.objects.create(player=p, confirmed_at=timezone.now()).key for p in players[:2]]
    waiting = PlayerToken.objects.create(player=players[2]).key  # not confirmed: not found
    found = [statements.confirmed_token.rows([key]) for key in [*keys, waiting]]
    assert [[type(m) for m in row] for (row,) in found[:2]] == [[PlayerToken, Player, Event]] * 2
    assert [row[0].key for (row,) in found[:2]] == keys and found[2] == []


def test_the_insert_gives_the_row_its_id_and_fills_what_save_fills(event: Event) -> None:
    entry = HistoryEntry(event=event, entity="slip", object_id=7, action="submit", actor_label="system")
    assert entry.pk is None and entry.at is None
    assert statements.insert_history(entry) is entry
    assert entry.pk is not None and entry.at is not None and not entry._state.adding
    assert_same(entry, HistoryEntry.objects.get(pk=entry.pk), read=False)
    assert statements.insert_history.sql().startswith('INSERT INTO "tournaments_historyentry" (')
    assert statements.insert_history.sql().endswith(' RETURNING "id"')
