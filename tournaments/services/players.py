"""Players: added one by one or from a CSV file, corrected, removed (before any slip) or
withdrawn from the later rounds, and a table's phone (the join flow's token, released by
the arbitrator)."""

from __future__ import annotations

import csv
import datetime as dt
import hmac
import io
import unicodedata

from django.db import models, transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournaments.core import ApplicationError, User
from tournaments.models import Event, Player, PlayerToken
from tournaments.services.history import history_record


def _checked(*, name: str, club: str, licence: str, category: str, table: int | None) -> dict[str, str]:
    name = name.strip()
    if not name:
        raise ApplicationError(_("a player needs a name"))
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
    return values


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
    if virtual_level is not None and not 1 <= virtual_level <= 6:
        raise ApplicationError(_("a virtual player's level is 1 to 6"))
    values = _checked(name=name, club=club, licence=licence, category=category, table=table)
    with transaction.atomic():
        if table is None:
            table = (event.players.aggregate(m=Max("table"))["m"] or 0) + 1
        if event.players.at_table(table).exists():
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


#: A French header's column (accents and case aside) -> ours: a French club's file is
#: written "nom;club;licence;catégorie;table" (or "série", as the sheets say).
HEADER_NAMES = {
    "nom": "name",
    "joueur": "name",
    "categorie": "category",
    "serie": "category",
    "n° de licence": "licence",
    "numero de licence": "licence",
    "license": "licence",
}


def _bare(header: str) -> str:
    """A header as compared: trimmed, lowercase, without accents."""
    text = unicodedata.normalize("NFKD", header.strip().lower().lstrip("\ufeff"))
    return "".join(c for c in text if not unicodedata.combining(c))


def players_import(*, event: Event, csv_text: str, by: User = None) -> list[Player]:
    """Import players from CSV with a header row: ``name`` required; ``club``,
    ``licence``, ``category``, ``table`` optional (comma or semicolon separated); or the
    same in French (``nom``, ``catégorie`` or ``série``). All or nothing: one bad line
    refuses the whole file, naming the line."""
    sample = csv_text[:2048]
    try:
        dialect = csv.Sniffer().sniff(sample, delimiters=",;\t")
    except csv.Error:
        dialect = csv.excel
    # newline="": the csv module reads the line ends itself, a lone "\r" (old Mac files) too.
    reader = csv.DictReader(io.StringIO(csv_text, newline=""), dialect=dialect)
    try:
        fields = [HEADER_NAMES.get(_bare(f), _bare(f)) for f in (reader.fieldnames or [])]
        if "name" not in fields:
            raise ApplicationError(
                _("the CSV needs a header row with a 'name' (or 'nom') column; found: %(found)s")
                % {"found": "; ".join(f.strip() for f in reader.fieldnames or []) or "—"}
            )
        reader.fieldnames = fields
        return _import_rows(event, reader, by)
    except csv.Error as exc:
        line = reader.line_num + 1  # line_num counts the lines read before the one that failed
        raise ApplicationError(
            _("the CSV cannot be read at line %(line)s: %(error)s") % {"line": line, "error": exc}
        ) from exc


def _import_rows(event: Event, reader: csv.DictReader[str], by: User) -> list[Player]:
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


def player_token_issue(*, event: Event, code: str, table: int, held: str = "") -> PlayerToken:
    """The token of the player at ``table``, given the event's join code. One message for
    a wrong code and a wrong table: the answer must not tell which tables exist.

    A table joins on one phone only: whoever knows the code (it is on the projector) could
    otherwise join as someone else and replace their slip. A second join is refused until
    the arbitrator releases the table (:func:`player_release`); ``held``, the token this
    browser already has for the table, lets the same phone join again."""
    refused = ApplicationError(_("wrong join code or table"), {"reason": "join_refused"})
    if not hmac.compare_digest(code.strip().upper().encode(), event.code.upper().encode()):
        raise refused
    player = event.players.people().at_table(table).first()
    if player is None:
        raise refused
    with transaction.atomic():
        # The player row is the lock: two phones joining at once, one gets the table.
        Player.objects.select_for_update().get(pk=player.pk)
        tokens = PlayerToken.objects.filter(player=player)
        if held:
            mine = tokens.filter(key=held).first()
            if mine is not None:
                return mine
        if tokens.exists():
            raise ApplicationError(
                _("table %(table)s has already joined on another phone: ask the arbitrator to release it")
                % {"table": table},
                {"reason": "already_joined"},
            )
        token = PlayerToken.objects.create(player=player)
        history_record(
            event=event, entity="player", object_id=player.pk, action="join", by=None, new={"table": table}
        )
        return token


def player_release(*, player: Player, by: User) -> int:
    """Release a table: its phone's token stops working and the table may join again (a
    phone lost, changed, or a wrong table taken). Returns the tokens revoked."""
    with transaction.atomic():
        Player.objects.select_for_update().get(pk=player.pk)
        revoked, _kinds = PlayerToken.objects.filter(player=player).delete()
        history_record(
            event=player.event,
            entity="player",
            object_id=player.pk,
            action="release",
            by=by,
            old={"tokens": revoked},
            new={"tokens": 0},
        )
        return revoked


PLAYER_FIELDS = ("name", "club", "licence", "category", "table")


def _snapshot(player: Player) -> dict[str, object]:
    return {key: getattr(player, key) for key in PLAYER_FIELDS}


def player_update(
    *, player: Player, name: str, club: str = "", licence: str = "", category: str = "", table: int, by: User
) -> Player:
    """Correct a player's details (a misspelled name goes onto every sheet). The table
    changes only while the player has handed in no slip: paper slips, rulings and sheets
    name the player by it."""
    values = _checked(name=name, club=club, licence=licence, category=category, table=table)
    with transaction.atomic():
        # The slips lock the player's row: a table changes between two slips, not during one.
        player = Player.objects.select_for_update().select_related("event").get(pk=player.pk)
        if table != player.table:
            handed = player.slips.count()
            if handed:
                raise ApplicationError(
                    ngettext(
                        "%(name)s has handed in %(count)s slip at table %(table)s: the table stays",
                        "%(name)s has handed in %(count)s slips at table %(table)s: the table stays",
                        handed,
                    )
                    % {"name": player.name, "count": handed, "table": player.table}
                )
            if player.event.players.at_table(table).exclude(pk=player.pk).exists():
                raise ApplicationError(_("table %(table)s already has a player") % {"table": table})
        old = _snapshot(player)
        for key, value in {**values, "table": table}.items():
            setattr(player, key, value)
        new = _snapshot(player)
        if new == old:
            return player
        player.save(update_fields=list(PLAYER_FIELDS))
        changed = [key for key in PLAYER_FIELDS if old[key] != new[key]]
        history_record(
            event=player.event,
            entity="player",
            object_id=player.pk,
            action="edit",
            by=by,
            old={key: old[key] for key in changed},
            new={key: new[key] for key in changed},
        )
        return player


def player_remove(*, player: Player, by: User) -> None:
    """Remove a player added by mistake, only while they have handed in no slip (their
    rulings are then those of missing slips, 0, removed with them). A player who played
    is withdrawn instead: their scores stay on the sheets."""
    with transaction.atomic():
        player = Player.objects.select_for_update().select_related("event").get(pk=player.pk)
        handed = player.slips.count()
        if handed:
            raise ApplicationError(
                ngettext(
                    "%(name)s has handed in %(count)s slip: withdraw them from the later rounds instead",
                    "%(name)s has handed in %(count)s slips: withdraw them from the later rounds instead",
                    handed,
                )
                % {"name": player.name, "count": handed}
            )
        rulings = player.rulings.count()
        history_record(
            event=player.event,
            entity="player",
            object_id=player.pk,
            action="remove",
            by=by,
            old={**_snapshot(player), "rulings": rulings},
        )
        player.delete()


def player_withdraw(
    *, player: Player, by: User, withdrawn: bool = True, now: dt.datetime | None = None
) -> Player:
    """Withdraw a player from the rounds opened from now on (they leave the event), or
    bring them back (``withdrawn=False``). Their slips, rulings and scores so far stay."""
    with transaction.atomic():
        player = Player.objects.select_for_update().select_related("event").get(pk=player.pk)
        if withdrawn == (player.withdrawn_at is not None):
            return player
        old = {"withdrawn_at": player.withdrawn_at.isoformat() if player.withdrawn_at else None}
        player.withdrawn_at = (now or timezone.now()) if withdrawn else None
        player.save(update_fields=["withdrawn_at"])
        history_record(
            event=player.event,
            entity="player",
            object_id=player.pk,
            action="withdraw" if withdrawn else "reinstate",
            by=by,
            old=old,
            new={"withdrawn_at": player.withdrawn_at.isoformat() if player.withdrawn_at else None},
        )
        return player
