"""The history as people read it: a sentence per entry in the page's language (what
happened, to which round, table or slip), the changes side by side (old -> new) with the
fields named, moves in the event's notation, times in the local time, states and sources
in words. The entries themselves keep what was stored (tournaments/services/history.py)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import FieldDoesNotExist
from django.utils import formats, timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, gettext_noop

from tournaments.display import END_REASON_LABELS, RULING_LABELS, end_reason_text, ruling_text, shown_values
from tournaments.models import Event, Game, HistoryEntry, Player, Round, Ruling, Slip

#: What happened, by (entity, action). An unknown pair is shown as stored.
ACTIONS: dict[tuple[str, str], Any] = {
    ("event", "settings"): gettext_lazy("settings changed"),
    ("event", "restore_game"): gettext_lazy("game restored from a record"),
    ("event", "import_master"): gettext_lazy("master game imported"),
    ("game", "start"): gettext_lazy("game started"),
    ("game", "end"): gettext_lazy("game ended"),
    ("game", "end_undone"): gettext_lazy("game played on"),
    ("game", "backup_failed"): gettext_lazy("backup not written"),
    ("player", "add"): gettext_lazy("player added"),
    ("player", "join"): gettext_lazy("phone joined"),
    ("player", "release"): gettext_lazy("table released"),
    ("player", "join_request"): gettext_lazy("phone asked for the table"),
    ("player", "join_confirm"): gettext_lazy("phone confirmed"),
    ("player", "join_refuse"): gettext_lazy("phone refused"),
    ("player", "seat_code"): gettext_lazy("new seat code"),
    ("player", "edit"): gettext_lazy("player corrected"),
    ("player", "remove"): gettext_lazy("player removed"),
    ("player", "withdraw"): gettext_lazy("player withdrawn"),
    ("player", "reinstate"): gettext_lazy("player back in the event"),
    ("round", "draw"): gettext_lazy("rack drawn"),
    ("round", "open"): gettext_lazy("round opened"),
    ("round", "close"): gettext_lazy("round closed"),
    ("round", "reopen"): gettext_lazy("round reopened"),
    ("round", "pause"): gettext_lazy("clock paused"),
    ("round", "resume"): gettext_lazy("clock started again"),
    ("round", "add_time"): gettext_lazy("time added"),
    ("round", "publish"): gettext_lazy("results published"),
    ("round", "rule_again"): gettext_lazy("slips sent to be ruled again"),
    ("round", "choose_top"): gettext_lazy("top chosen"),
    ("round", "place"): gettext_lazy("move placed"),
    ("round", "unplace"): gettext_lazy("placement undone"),
    ("round", "draw_undone"): gettext_lazy("rack put back in the bag"),
    ("slip", "submit"): gettext_lazy("slip handed in"),
    ("slip", "late"): gettext_lazy("late slip handed in"),
    ("slip", "second_slip"): gettext_lazy("second slip handed in"),
    ("slip", "replaced"): gettext_lazy("slip replaced"),
    ("slip", "read_again"): gettext_lazy("slip read again"),
    ("ruling", "rule"): gettext_lazy("ruled"),
    ("ruling", "rerule"): gettext_lazy("ruled again"),
    ("ruling", "rule_ahead"): gettext_lazy("ruled as the slip came, before the close"),
    ("ruling", "recredit"): gettext_lazy("credited again after a correction"),
    ("ruling", "override"): gettext_lazy("ruling corrected"),
    ("ruling", "average"): gettext_lazy("average credited"),
    ("ruling", "accept_shift"): gettext_lazy("shifted reference accepted"),
    ("ruling", "read_again"): gettext_lazy("ruled again on the slip read again"),
    ("centre_player", "add"): gettext_lazy("player added to a centre's roster"),
    ("centre_player", "change"): gettext_lazy("player corrected on a centre's roster"),
    ("centre_player", "leave"): gettext_lazy("player taken off a centre's roster"),
    ("centre_player", "return"): gettext_lazy("player back on a centre's roster"),
    ("centre_player", "remove"): gettext_lazy("player removed from the merged ranking"),
    ("centre_player", "restore"): gettext_lazy("player back in the merged ranking"),
}

#: The fields of the old and new values, named.
FIELDS: dict[str, Any] = {
    "state": gettext_lazy("state"),
    "deadline": gettext_lazy("end of the clock"),
    "closed_at": gettext_lazy("closed at"),
    "paused_at": gettext_lazy("clock paused at"),
    "withdrawn_at": gettext_lazy("withdrawn at"),
    "club": gettext_lazy("club"),
    "licence": gettext_lazy("licence number"),
    "category": gettext_lazy("category / series"),
    "rulings": gettext_lazy("rulings"),
    "published_at": gettext_lazy("published at"),
    "placed_at": gettext_lazy("placed at"),
    "chosen": gettext_lazy("move"),
    "move": gettext_lazy("move"),
    "score": gettext_lazy("score"),
    "round": gettext_lazy("round"),
    "reliquat": gettext_lazy("reliquat"),
    "new": gettext_lazy("new tiles"),
    "rejected": gettext_lazy("racks put back"),
    "manual": gettext_lazy("drawn by hand"),
    "player": gettext_lazy("player"),
    "table": gettext_lazy("table"),
    "coordinates": gettext_lazy("coordinates"),
    "word": gettext_lazy("word"),
    "announced": gettext_lazy("announced score"),
    "announced_score": gettext_lazy("announced score"),
    "source": gettext_lazy("handed in by"),
    "current": gettext_lazy("counts"),
    "credited": gettext_lazy("credited"),
    "warnings": gettext_lazy("warnings"),
    "penalty": gettext_lazy("penalty"),
    "reason": gettext_lazy("reason"),
    "solo": gettext_lazy("solo"),
    "is_top": gettext_lazy("top"),
    "move_score": gettext_lazy("score of the move"),
    "slip": gettext_lazy("slip"),
    "name": gettext_lazy("name"),
    "letterpoints": gettext_lazy("letter points"),
    "number": gettext_lazy("number"),
    "virtual": gettext_lazy("virtual player level"),
    "tokens": gettext_lazy("phones"),
    "refused": gettext_lazy("phones refused"),
    "address": gettext_lazy("address"),
    "device": gettext_lazy("phone"),
    "paper_only": gettext_lazy("paper slips only"),
}

#: What the services write as the reason of their own changes (translated when shown; an
#: arbitrator's own words are shown as typed).
REASONS = (
    gettext_noop("a later slip of the same player arrived before the deadline"),
    gettext_noop("the arbitrator corrected a typing mistake"),
    gettext_noop("the placement before it was undone: its tiles are back in the bag"),
    gettext_noop("its last placement was undone: the game is played on"),
)


@dataclass(frozen=True)
class Change:
    field: str
    old: str
    new: str


@dataclass(frozen=True)
class Line:
    entry: HistoryEntry
    when: str
    who: str
    what: str
    changes: Sequence[Change]
    why: str


def _field(key: str) -> str:
    if key in FIELDS:
        return str(FIELDS[key])
    try:
        return str(getattr(Event._meta.get_field(key), "verbose_name", key))  # an event setting
    except FieldDoesNotExist:
        return key


def _when(value: str) -> str | None:
    try:
        moment = dt.datetime.fromisoformat(value)
    except ValueError:
        return None
    if timezone.is_naive(moment):
        return None
    return local_moment(moment)


def local_moment(moment: dt.datetime) -> str:
    """A moment as the history shows it: the short date of the page's language and the
    local time to the second (SHORT_DATETIME_FORMAT is "1:14 a.m." in English: a second
    added after it read "1:14 a.m.:08")."""
    local = timezone.localtime(moment)
    return f"{formats.date_format(local, 'SHORT_DATE_FORMAT')} {local:%H:%M:%S}"


def _value(key: str, value: Any) -> str:
    if value is None or value == "":
        return "—"
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    if isinstance(value, list):
        return ", ".join(_value(key, v) for v in value) or "—"
    if isinstance(value, str):
        if key == "state" and value in Round.State.values:
            return str(Round.State(value).label)
        if key == "source" and value in Slip.Source.values:
            return str(Slip.Source(value).label)
        if key == "reason" and value in RULING_LABELS:
            return ruling_text(value)
        if key == "reason" and value in END_REASON_LABELS:
            return end_reason_text(value)
        when = _when(value) if key.endswith(("_at", "deadline")) else None
        if when is not None:
            return when
    return str(value)


def _changes(old: Any, new: Any) -> list[Change]:
    if not isinstance(old, dict) and not isinstance(new, dict):
        return [Change("", _value("", old), _value("", new))] if old is not None or new is not None else []
    old = old if isinstance(old, dict) else {}
    new = new if isinstance(new, dict) else {}
    keys = list(dict.fromkeys([*new, *old]))
    return [Change(_field(k), _value(k, old.get(k)) if k in old else "", _value(k, new.get(k))) for k in keys]


class _Names:
    """What the entries of a page name (rounds, slips, rulings, players, games), read in a
    few queries for the whole page."""

    def __init__(self, entries: Iterable[HistoryEntry]) -> None:
        ids: dict[str, set[int]] = {}
        for h in entries:
            ids.setdefault(h.entity, set()).add(h.object_id)
        self.rounds = {
            r.pk: r for r in Round.objects.filter(pk__in=ids.get("round", ())).select_related("game")
        }
        slips = Slip.objects.filter(pk__in=ids.get("slip", ()))
        self.slips = {s.pk: s for s in slips.select_related("player", "round__game")}
        rulings = Ruling.objects.filter(pk__in=ids.get("ruling", ()))
        self.rulings = {r.pk: r for r in rulings.select_related("player", "round__game")}
        self.players = {p.pk: p for p in Player.objects.filter(pk__in=ids.get("player", ()))}
        self.games = {g.pk: g for g in Game.objects.filter(pk__in=ids.get("game", ()))}

    def subject(self, h: HistoryEntry) -> str:
        if h.entity == "round":
            r = self.rounds.get(h.object_id)
            if r is not None:
                return _("Game %(game)s, round %(round)s") % {"game": r.game.number, "round": r.number}
            number = (h.old or {}).get("round") if isinstance(h.old, dict) else None
            return _("Round %(round)s") % {"round": number} if number else _("A round since removed")
        if h.entity in ("slip", "ruling"):
            item = (self.slips if h.entity == "slip" else self.rulings).get(h.object_id)
            if item is not None:
                return _("Table %(table)s (%(name)s), game %(game)s, round %(round)s") % {
                    "table": item.player.table,
                    "name": item.player.name,
                    "game": item.round.game.number,
                    "round": item.round.number,
                }
        if h.entity == "player":
            p = self.players.get(h.object_id)
            if p is not None:
                return _("Table %(table)s (%(name)s)") % {"table": p.table, "name": p.name}
        if h.entity == "game":
            g = self.games.get(h.object_id)
            if g is not None:
                return _("Game %(game)s") % {"game": g.number}
        if h.entity == "event":
            return _("The event")
        return f"{h.entity} #{h.object_id}"


def history_lines(entries: Sequence[HistoryEntry], event: Event) -> list[Line]:
    names = _Names(entries)
    lines = []
    for h in entries:
        action = ACTIONS.get((h.entity, h.action))
        what = _("%(subject)s: %(action)s") % {
            "subject": names.subject(h),
            "action": action if action is not None else h.action,
        }
        old = shown_values(h.old, event.board, event.notation)
        new = shown_values(h.new, event.board, event.notation)
        who = _("Arbiter (automatic)") if h.actor_label == "system" else h.actor_label
        lines.append(
            Line(h, local_moment(h.at), who, what, _changes(old, new), _(h.reason) if h.reason else "")
        )
    return lines
