"""Admin for every model.

Lexicons, events and players are edited here. The play itself (games, rounds, slips,
rulings) is view-only, as is the history: their changes go through the services, which
check the state of the round and record who changed what (``rulings --override``,
``top_choose``, ...); an edit here would bypass both.
"""

from __future__ import annotations

from typing import Any, TypeVar

from django.contrib import admin
from django.db.models import Model
from django.http import HttpRequest

from tournaments.models import Event, Game, HistoryEntry, Lexicon, Player, Round, Ruling, Slip

_M = TypeVar("_M", bound=Model)


class ReadOnlyAdmin(admin.ModelAdmin[_M]):
    """View only, even for a superuser: no add, change or delete."""

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Lexicon)
class LexiconAdmin(admin.ModelAdmin[Lexicon]):
    list_display = ("name", "language", "bundled", "word_count", "created_at")
    readonly_fields = ("checksum", "word_count", "report", "content")


class PlayerInline(admin.TabularInline[Player, Event]):
    model = Player
    extra = 0


@admin.register(Event)
class EventAdmin(admin.ModelAdmin[Event]):
    list_display = ("name", "starts_on", "code", "language", "board", "mode")
    # Master games are checked when imported (services.transfer.event_import); not edited by hand.
    readonly_fields = ("masters",)
    search_fields = ("name", "code")
    inlines = [PlayerInline]


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin[Player]):
    list_display = ("table", "name", "club", "category", "event", "virtual_level")
    list_filter = ("event",)
    search_fields = ("name", "club", "licence")


@admin.register(Game)
class GameAdmin(ReadOnlyAdmin[Game]):
    list_display = ("event", "number", "state", "end_reason", "started_at")
    list_filter = ("event", "state")


@admin.register(Round)
class RoundAdmin(ReadOnlyAdmin[Round]):
    list_display = ("game", "number", "state", "reliquat", "new_tiles", "top_score", "chosen")
    list_filter = ("state", "game__event")


@admin.register(Slip)
class SlipAdmin(ReadOnlyAdmin[Slip]):
    list_display = (
        "round",
        "player",
        "coordinates",
        "word",
        "announced_score",
        "received_at",
        "source",
        "late",
        "current",
    )
    list_filter = ("source", "late", "current")


@admin.register(Ruling)
class RulingAdmin(ReadOnlyAdmin[Ruling]):
    list_display = ("round", "player", "move", "credited", "warnings", "penalty", "solo", "is_top", "reason")
    list_filter = ("reason", "solo", "is_top", "overridden")


@admin.register(HistoryEntry)
class HistoryAdmin(ReadOnlyAdmin[HistoryEntry]):
    list_display = ("at", "actor_label", "action", "entity", "object_id", "reason")
    list_filter = ("entity", "action")
