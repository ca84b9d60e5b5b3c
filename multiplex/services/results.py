"""What the centres send back (docs/rules.md#multiplex): their rulings of each round,
merged with every centre's (the solo given again over all of them: :mod:`scoring.multiplex`),
their rosters, and the hub arbitrator's removals from the merged ranking.

Several centres write at once: the round's row is locked while its rulings are merged, so
that two centres' uploads for the same round cannot each merge without the other's.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from multiplex.models import Centre, CentrePlayer, CentreRuling, HubRound, Multiplex, Serving
from multiplex.services.hub import centre_record
from scoring import multiplex as merge
from scoring.adjudication import REASON_TEXT
from tournaments.core import ApplicationError, User
from tournaments.judging import adjudication_settings
from tournaments.models import Event
from tournaments.services.history import history_record

# ------------------------------------------------------------------ results


@dataclass(frozen=True)
class Receipt:
    received: int
    changed: int


_PLAYER_FIELDS = ("name", "club", "licence", "category")
_RULING_FIELDS = (
    "reason",
    "move",
    "move_score",
    "credited",
    "penalty",
    "warnings",
    "solo",
    "is_top",
    "letterpoints",
    "overridden",
)


#: What a ruling sent without a field holds there: the model's own defaults.
_RULING_DEFAULTS = {
    f.name: f.get_default() for f in CentreRuling._meta.concrete_fields if f.name in _RULING_FIELDS
}


def receive_results(
    *,
    centre: Centre,
    game: int,
    number: int,
    rulings: list[dict[str, Any]],
    taking_part: int,
    now: dt.datetime | None = None,
) -> Receipt:
    """A centre's rulings of a placed round it has closed. The same results sent twice
    change nothing; a ruling that differs from the one kept replaces it, and the change is
    recorded. Refused whole, nothing kept, unless the round was served to this centre,
    closed by it (its close binds its results) and placed, and every ruling names a
    player of its roster (:func:`roster_receive`: the roster names the players, the
    results only their tables); checked against the round (no move scores above the top).
    The round's solo is then given again over every centre."""
    now = now or timezone.now()
    multiplex = centre.multiplex
    hub_round = HubRound.objects.filter(multiplex=multiplex, game=game, number=number).first()
    serving = None if hub_round is None else Serving.objects.filter(centre=centre, round=hub_round).first()
    if hub_round is None or serving is None:
        raise ApplicationError(
            _("round %(number)s of game %(game)s was never served to this centre")
            % {"number": number, "game": game}
        )
    if serving.closed_at is None:
        raise ApplicationError(
            _(
                "round %(number)s of game %(game)s is not closed at this centre:"
                " its results are taken after its close"
            )
            % {"number": number, "game": game}
        )
    if hub_round.placed_at is None:
        raise ApplicationError(
            _("round %(number)s is not placed yet: its results cannot be ruled") % {"number": number}
        )
    _check_rulings(rulings, hub_round, multiplex.event)
    settings = adjudication_settings(multiplex.event)
    with transaction.atomic():
        # The centre's row, then the round's, locked: a roster update cannot take a player
        # off between this check and the rulings written, and every centre's upload for
        # the round merges the solo over the others' rulings, so two uploads at once must
        # take turns (see the module).
        locked = Centre.objects.select_for_update().get(pk=centre.pk)
        HubRound.objects.select_for_update().get(pk=hub_round.pk)
        known = _on_roster(locked, {r["table"] for r in rulings})
        # The count a solo needs is the centres' sum: one centre's inflated count would
        # hand its own player a solo (docs/decisions.md).
        roster = CentrePlayer.objects.filter(centre=centre, left_at__isnull=True).count()
        if taking_part > roster:
            raise ApplicationError(
                _("%(count)s players taking part, more than the %(roster)s of this centre's roster")
                % {"count": taking_part, "roster": roster}
            )
        kept = {
            r.player.table: r for r in CentreRuling.objects.filter(serving=serving).select_related("player")
        }
        changed = 0
        for data in rulings:
            table = data["table"]
            values = {f: data.get(f, _RULING_DEFAULTS[f]) for f in _RULING_FIELDS}
            ruling = kept.get(table)
            if ruling is None:
                CentreRuling.objects.create(serving=serving, player=known[table], **values)
                changed += 1
            elif any(getattr(ruling, f) != v for f, v in values.items()):
                old = {f: getattr(ruling, f) for f in _RULING_FIELDS}
                for f, v in values.items():
                    setattr(ruling, f, v)
                ruling.save()
                centre_record(multiplex, "centre_ruling", ruling.pk, "correct", centre, old, values)
                changed += 1
        if serving.taking_part != taking_part or serving.results_at is None:
            serving.taking_part, serving.results_at = taking_part, now
            serving.save(update_fields=["taking_part", "results_at"])
        _merge(hub_round, settings)
    Centre.objects.filter(pk=centre.pk).update(last_seen_at=now)
    return Receipt(received=len(rulings), changed=changed)


def _on_roster(centre: Centre, tables: set[int]) -> dict[int, CentrePlayer]:
    """The roster's players at ``tables``; ApplicationError naming the tables that are not
    on it (never sent, or taken off by a roster update). A player the hub's arbitrator
    removed from the ranking is still on the roster: their rulings are kept (put back,
    they rank with every round), out of the ranking meanwhile."""
    if centre.roster_at is None:
        raise ApplicationError(
            _("this centre has sent no roster yet: its results may name only the players of its roster")
        )
    known = {
        p.table: p for p in CentrePlayer.objects.filter(centre=centre, table__in=tables, left_at__isnull=True)
    }
    missing = sorted(tables - set(known))
    if missing:
        raise ApplicationError(
            _("tables not on this centre's roster: %(tables)s. Nothing of these results was taken.")
            % {"tables": ", ".join(str(t) for t in missing)}
        )
    return known


def _table(data: Any) -> int:
    """The table a player or a ruling is sent for: a whole number from 1 (else refused,
    before anything is written)."""
    table = data.get("table") if isinstance(data, dict) else None
    if not isinstance(table, int) or isinstance(table, bool) or table < 1:
        raise ApplicationError(_("each player and each ruling needs its table, a whole number from 1"))
    return table


def _check_players(players: list[dict[str, Any]]) -> dict[int, dict[str, str]]:
    """A roster's players by table, each with a name (else refused, before anything is
    written)."""
    tables: dict[int, dict[str, str]] = {}
    for data in players:
        table = _table(data)
        if table in tables:
            raise ApplicationError(_("table %(table)s is listed twice") % {"table": table})
        values = {f: str(data.get(f) or "").strip() for f in _PLAYER_FIELDS}
        if not values["name"]:
            raise ApplicationError(_("the player of table %(table)s needs a name") % {"table": table})
        tables[table] = values
    return tables


def _check_rulings(rulings: list[dict[str, Any]], hub_round: HubRound, event: Event) -> None:
    seen: set[int] = set()
    top = hub_round.top_score or 0
    for data in rulings:
        table = _table(data)
        if table in seen:
            raise ApplicationError(_("table %(table)s has two rulings") % {"table": table})
        seen.add(table)
        if data.get("reason", "") not in REASON_TEXT:
            raise ApplicationError(
                _("table %(table)s: unknown ruling %(reason)s")
                % {"table": table, "reason": data.get("reason")}
            )
        if data.get("move_score", 0) > top or data.get("credited", 0) > top + event.solo_bonus:
            raise ApplicationError(
                _("table %(table)s: no move of this round scores more than its top, %(top)s")
                % {"table": table, "top": top}
            )


def _merge(hub_round: HubRound, settings: Any) -> None:
    """Give the round's solo again over every centre's rulings; the caller holds the
    round locked. A player off the ranking (taken off their centre's roster, or removed by
    the hub's arbitrator) neither holds nor blocks a solo, and is taken out of the count a
    solo needs, in which their centre counted them when it sent the round."""
    rulings = list(CentreRuling.objects.filter(serving__round=hub_round).select_related("player"))
    ranked = [r for r in rulings if _ranked(r.player)]
    # Off the ranking, out of the count too: the centre counted them when it sent the round.
    removed = len(rulings) - len(ranked)
    taking_part = sum(
        Serving.objects.filter(round=hub_round, results_at__isnull=False).values_list(
            "taking_part", flat=True
        )
    )
    sent = [
        merge.CentreRuling(
            key=r.pk, reason=r.reason, move_score=r.move_score, credited=r.credited, solo=r.solo
        )
        for r in ranked
    ]
    merged = merge.merge_round(
        sent,
        top_score=hub_round.top_score or 0,
        players_in_game=max(0, taking_part - removed),
        settings=settings,
    )
    changed = []
    for r in rulings:
        if r.pk in merged:
            credited, solo = merged[r.pk].credited, merged[r.pk].solo
        else:  # off the ranking: their centre's points without its solo, none of the merge's
            credited, solo = r.credited - (settings.solo_bonus if r.solo else 0), False
        if (r.merged_credited, r.merged_solo) != (credited, solo):
            r.merged_credited, r.merged_solo = credited, solo
            changed.append(r)
    if changed:
        CentreRuling.objects.bulk_update(changed, ["merged_credited", "merged_solo"])


def _ranked(player: CentrePlayer) -> bool:
    return player.left_at is None and player.removed_at is None


def _merge_again(multiplex: Multiplex, players: list[CentrePlayer]) -> None:
    """The rounds these players have a ruling in, merged again (one left the ranking or
    came back: the solo may change hands). Locked in order, as each upload locks its one."""
    if not players:
        return
    rounds = HubRound.objects.filter(servings__rulings__player__in=players).values_list("pk", flat=True)
    settings = adjudication_settings(multiplex.event)
    for hub_round in HubRound.objects.select_for_update().filter(pk__in=list(rounds)).order_by("pk"):
        _merge(hub_round, settings)


# ------------------------------------------------------------------ rosters


@dataclass(frozen=True)
class RosterReceipt:
    players: int
    added: int
    changed: int
    left: int


def _player_data(player: CentrePlayer) -> dict[str, Any]:
    return {f: getattr(player, f) for f in _PLAYER_FIELDS}


def roster_receive(
    *, centre: Centre, players: list[dict[str, Any]], now: dt.datetime | None = None
) -> RosterReceipt:
    """The centre's whole roster (table, name, club, licence, category): its results may
    name only these players, and the merged ranking names them as here. A new table is
    added, a corrected one changed, a table no longer sent leaves the roster (kept, its
    rulings out of the ranking: not deleted, rulings point at it), one sent again comes
    back. Each change is recorded, the centre as its author. The same roster sent again
    changes nothing."""
    now = now or timezone.now()
    tables = _check_players(players)
    multiplex = centre.multiplex
    added = changed = left = 0
    moved: list[CentrePlayer] = []  # off the roster or back on it: their rounds merged again
    with transaction.atomic():
        # Locked as an upload of results locks it: neither sees half the other.
        Centre.objects.select_for_update().get(pk=centre.pk)
        kept = {p.table: p for p in CentrePlayer.objects.filter(centre=centre)}
        for table, values in sorted(tables.items()):
            player = kept.get(table)
            if player is None:
                player = CentrePlayer.objects.create(centre=centre, table=table, **values)
                centre_record(
                    multiplex, "centre_player", player.pk, "add", centre, None, {"table": table, **values}
                )
                added += 1
                continue
            old, left_at = _player_data(player), player.left_at
            if old == values and left_at is None:
                continue
            for f, v in values.items():
                setattr(player, f, v)
            player.left_at = None
            player.save()
            if left_at is not None:
                moved.append(player)
                old["left_at"] = left_at.isoformat()
                centre_record(
                    multiplex, "centre_player", player.pk, "return", centre, old, {**values, "left_at": None}
                )
            else:
                centre_record(multiplex, "centre_player", player.pk, "change", centre, old, values)
            changed += 1
        ruled = set(CentreRuling.objects.filter(player__centre=centre).values_list("player_id", flat=True))
        for table, player in sorted(kept.items()):
            if table in tables or player.left_at is not None:
                continue
            if player.pk not in ruled:
                # Nothing points at a player without rulings: gone, so that rosters sent
                # again and again with other tables do not pile up on the hub.
                centre_record(multiplex, "centre_player", player.pk, "leave", centre,
                        _player_data(player), {"left_at": now.isoformat()})  # fmt: skip
                player.delete()
                left += 1
                continue
            player.left_at = now
            player.save(update_fields=["left_at"])
            moved.append(player)
            centre_record(multiplex, "centre_player", player.pk, "leave", centre,
                    {"left_at": None}, {"left_at": now.isoformat()})  # fmt: skip
            left += 1
        Centre.objects.filter(pk=centre.pk).update(roster_at=now, last_seen_at=now)
        _merge_again(multiplex, moved)
    centre.roster_at = now
    return RosterReceipt(players=len(tables), added=added, changed=changed, left=left)


# ------------------------------------------------------------------ the hub arbitrator's players


def _locked_player(player: CentrePlayer) -> CentrePlayer:
    """The player's row locked after its centre's, in the order an upload of results and a
    roster lock them (centre, then the player's rows and rounds): no deadlock between them."""
    Centre.objects.select_for_update().get(pk=player.centre_id)
    return (
        CentrePlayer.objects.select_for_update().select_related("centre__multiplex__event").get(pk=player.pk)
    )


def centre_player_remove(
    *, player: CentrePlayer, reason: str, by: User = None, now: dt.datetime | None = None
) -> CentrePlayer:
    """The hub's arbitrator takes a centre's player out of the merged ranking (a player
    the centre should not have ranked, a forged row): their rulings are kept, out of the
    ranking and of the solos, until put back (:func:`centre_player_restore`). The reason
    is required and recorded."""
    reason = reason.strip()
    if not reason:
        raise ApplicationError(_("say why the player is removed from the merged ranking"))
    now = now or timezone.now()
    with transaction.atomic():
        locked = _locked_player(player)
        if locked.removed_at is not None:
            return locked
        locked.removed_at, locked.removed_reason = now, reason[:200]
        locked.save(update_fields=["removed_at", "removed_reason"])
        multiplex = locked.centre.multiplex
        history_record(
            event=multiplex.event, entity="centre_player", object_id=locked.pk, action="remove", by=by,
            old={"removed_at": None},
            new={"removed_at": now.isoformat(), "removed_reason": locked.removed_reason,
                 "centre": locked.centre.name, "table": locked.table, "name": locked.name},
            reason=reason,
        )  # fmt: skip
        _merge_again(multiplex, [locked])
    return locked


def centre_player_restore(*, player: CentrePlayer, reason: str = "", by: User = None) -> CentrePlayer:
    """Put a removed player back into the merged ranking, with every round they were
    ruled (their rulings were kept); recorded."""
    with transaction.atomic():
        locked = _locked_player(player)
        if locked.removed_at is None:
            return locked
        old = {"removed_at": locked.removed_at.isoformat(), "removed_reason": locked.removed_reason}
        locked.removed_at, locked.removed_reason = None, ""
        locked.save(update_fields=["removed_at", "removed_reason"])
        multiplex = locked.centre.multiplex
        history_record(
            event=multiplex.event, entity="centre_player", object_id=locked.pk, action="restore", by=by,
            old=old, new={"removed_at": None, "centre": locked.centre.name, "table": locked.table,
                          "name": locked.name},
            reason=reason.strip(),
        )  # fmt: skip
        _merge_again(multiplex, [locked])
    return locked
