"""Admin for every model. The history is read-only: it is the record of who changed what."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from tournaments.models import Event, Game, HistoryEntry, Lexicon, Player, Round, Ruling, Slip


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
    search_fields = ("name", "code")
    inlines = [PlayerInline]


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin[Player]):
    list_display = ("table", "name", "club", "category", "event", "virtual_level")
    list_filter = ("event",)
    search_fields = ("name", "club", "licence")


@admin.register(Game)
class GameAdmin(admin.ModelAdmin[Game]):
    list_display = ("event", "number", "state", "end_reason", "started_at")
    list_filter = ("event", "state")


@admin.register(Round)
class RoundAdmin(admin.ModelAdmin[Round]):
    list_display = ("game", "number", "state", "reliquat", "new_tiles", "top_score", "chosen")
    list_filter = ("state", "game__event")
    # Draws and tops change only through the services, which keep the history.
    readonly_fields = (
        "reliquat",
        "new_tiles",
        "rejected",
        "manual",
        "move_count",
        "top_score",
        "tops",
        "solved_at",
    )


@admin.register(Slip)
class SlipAdmin(admin.ModelAdmin[Slip]):
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
    readonly_fields = ("received_at", "client_id")


@admin.register(Ruling)
class RulingAdmin(admin.ModelAdmin[Ruling]):
    list_display = ("round", "player", "move", "credited", "warnings", "penalty", "solo", "is_top", "reason")
    list_filter = ("reason", "solo", "is_top", "overridden")


@admin.register(HistoryEntry)
class HistoryAdmin(admin.ModelAdmin[HistoryEntry]):
    list_display = ("at", "actor_label", "action", "entity", "object_id", "reason")
    list_filter = ("entity", "action")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
