"""Players: added one by one or from a CSV file, corrected, removed (before any slip) or
withdrawn from the later rounds, and a table's phone (the join flow's token, released by
the arbitrator)."""

from __future__ import annotations

import csv
import datetime as dt
import hashlib
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
from tournaments.models.players import JOIN_WAIT, new_seat_code, new_token_key, seat_code_clean
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
    paper_only: bool = False,
    seat_code: str = "",
    by: User = None,
) -> Player:
    """A player at ``table`` (the next free one without it). ``seat_code``: the one of a
    table card already handed out (an event restored from its file), kept when well formed
    and free; otherwise a new one is drawn."""
    if virtual_level is not None and not 1 <= virtual_level <= 6:
        raise ApplicationError(_("a virtual player's level is 1 to 6"))
    values = _checked(name=name, club=club, licence=licence, category=category, table=table)
    with transaction.atomic():
        if table is None:
            table = (event.players.aggregate(m=Max("table"))["m"] or 0) + 1
        if event.players.at_table(table).exists():
            raise ApplicationError(_("table %(table)s already has a player") % {"table": table})
        player = Player.objects.create(
            event=event,
            table=table,
            virtual_level=virtual_level,
            seat_code=_kept_seat_code(event, seat_code) or _free_seat_code(event),
            paper_only=paper_only,
            **values,
        )
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
    "papier": "paper",
    "paper only": "paper",
}

#: A "paper" cell that marks a player paper slips only (a club's spreadsheet says oui or x).
YES = {"1", "x", "yes", "y", "oui", "o", "true", "vrai"}


def _bare(header: str) -> str:
    """A header as compared: trimmed, lowercase, without accents."""
    text = unicodedata.normalize("NFKD", header.strip().lower().lstrip("\ufeff"))
    return "".join(c for c in text if not unicodedata.combining(c))


def players_import(*, event: Event, csv_text: str, by: User = None) -> list[Player]:
    """Import players from CSV with a header row: ``name`` required; ``club``,
    ``licence``, ``category``, ``table``, ``paper`` (yes: paper slips only) optional (comma
    or semicolon separated); or the same in French (``nom``, ``catégorie`` or ``série``,
    ``papier``: oui). All or nothing: one bad line
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
                        paper_only=(row.get("paper") or "").strip().lower() in YES,
                        by=by,
                    )
                )
            except ApplicationError as exc:
                raise ApplicationError(
                    _("line %(line)s: %(error)s") % {"line": number, "error": exc.message}
                ) from exc
    return created


#: Phones asking for one table at once, waiting for the arbitrator: more is a flood.
PENDING_LIMIT = 5


def _seat(event: Event, seat: str) -> Player | None:
    code = seat_code_clean(seat)
    return event.players.people().filter(seat_code=code).first() if code else None


def seat_code_needed() -> ApplicationError:
    """The refusal of a table or a name where only the table card's seat code joins."""
    return ApplicationError(
        _("type the seat code printed on your table card (the table number alone is not enough)"),
        {"reason": "seat_code_needed"},
    )


def player_token_issue(
    *,
    event: Event,
    code: str,
    table: int | None = None,
    seat: str = "",
    held: str = "",
    address: str = "",
    device: str = "",
) -> PlayerToken:
    """A phone takes a table. The event code is on the projector, so it proves nothing by
    itself: the seat code (on the player's table card) takes the table at once; a table
    number (or a name, found by the caller) only where the event lets the arbitrator
    confirm it (``Event.seating``), and the token works once confirmed
    (:func:`player_join_confirm`). One message for a wrong code, table or seat: the
    answer must not tell which exist.

    A table has one phone: a second is refused until the arbitrator releases the table
    (:func:`player_release`); ``held``, the token this browser already has for the table,
    lets the same phone join again (or see that it still waits)."""
    refused = ApplicationError(_("wrong join code, table or seat code"), {"reason": "join_refused"})
    if not hmac.compare_digest(code.strip().upper().encode(), event.code.upper().encode()):
        raise refused
    by_seat = bool(seat.strip())
    if by_seat:
        player = _seat(event, seat)
    elif table is not None:
        if event.seating != Event.Seating.CONFIRM:
            raise seat_code_needed()
        player = event.players.people().at_table(table).first()
    else:
        player = None
    if player is None:
        raise refused
    if player.paper_only:
        raise ApplicationError(
            _("table %(table)s hands in paper slips: ask the arbitrator") % {"table": player.table},
            {"reason": "paper_only"},
        )
    with transaction.atomic():
        # The player row is the lock: two phones joining at once, one gets the table.
        Player.objects.select_for_update().get(pk=player.pk)
        tokens = PlayerToken.objects.filter(player=player)
        mine = tokens.filter(key=held).first() if held else None
        if mine is not None and (mine.confirmed_at is not None or not by_seat):
            return mine
        if tokens.filter(confirmed_at__isnull=False).exists():
            raise ApplicationError(
                _("table %(table)s has already joined on another phone: ask the arbitrator to release it")
                % {"table": player.table},
                {"reason": "already_joined"},
            )
        now = timezone.now()
        seen = {"address": address[:45], "device": device[:120]}
        if by_seat:
            # The table card proves the seat: the phones still waiting for it are refused.
            tokens.delete()
            token = PlayerToken.objects.create(player=player, confirmed_at=now, **seen)
        else:
            # A request goes stale, and an address asking again replaces its own: one
            # address cannot fill a table's waiting list (behind a shared address, each
            # player asks for a different table).
            tokens.filter(confirmed_at__isnull=True, created_at__lt=now - JOIN_WAIT).delete()
            if address:
                tokens.filter(address=address[:45]).delete()
            if tokens.count() >= PENDING_LIMIT:
                raise ApplicationError(
                    _("too many phones wait for table %(table)s: ask the arbitrator")
                    % {"table": player.table},
                    {"reason": "too_many_waiting"},
                )
            # Two phones waiting for one table never show the same four digits.
            shown = {join_number(t) for t in tokens}
            key = new_token_key()
            while _number_of(key) in shown:
                key = new_token_key()
            token = PlayerToken.objects.create(player=player, key=key, **seen)
        history_record(
            event=event,
            entity="player",
            object_id=player.pk,
            action="join" if by_seat else "join_request",
            by=None,
            new={"table": player.table, "number": join_number(token), **seen},
        )
        return token


def join_number(token: PlayerToken) -> str:
    """Four digits the waiting phone shows and the console lists beside the request: the
    arbitrator confirms the phone the player holds up, not another asking for the table."""
    return _number_of(token.key)


def _number_of(key: str) -> str:
    return f"{int(hashlib.sha256(key.encode()).hexdigest()[:8], 16) % 10_000:04d}"


def _waiting(token: PlayerToken) -> PlayerToken:
    token = PlayerToken.objects.select_related("player__event").get(pk=token.pk)
    if token.confirmed_at is not None:
        raise ApplicationError(_("this phone has already joined"))
    if token.created_at < timezone.now() - JOIN_WAIT:
        raise PlayerToken.DoesNotExist  # stale: as if it had gone (the phone asks again)
    return token


def player_join_confirm(*, token: PlayerToken, by: User) -> PlayerToken:
    """The arbitrator confirms a waiting phone: it takes the table, the others asking for
    it are refused."""
    with transaction.atomic():
        Player.objects.select_for_update().get(pk=token.player_id)
        try:
            token = _waiting(token)
        except PlayerToken.DoesNotExist:
            raise ApplicationError(_("this phone no longer waits (refused, or the table released)")) from None
        player = token.player
        if PlayerToken.objects.filter(player=player, confirmed_at__isnull=False).exists():
            raise ApplicationError(
                _("table %(table)s has already joined on another phone: release it first")
                % {"table": player.table}
            )
        refused = PlayerToken.objects.filter(player=player).exclude(pk=token.pk).delete()[0]
        token.confirmed_at = timezone.now()
        token.save(update_fields=["confirmed_at"])
        history_record(
            event=player.event,
            entity="player",
            object_id=player.pk,
            action="join_confirm",
            by=by,
            new={"table": player.table, "number": join_number(token), "refused": refused},
        )
        return token


def player_join_refuse(*, token: PlayerToken, by: User) -> None:
    """The arbitrator refuses a waiting phone (not the player's)."""
    with transaction.atomic():
        Player.objects.select_for_update().get(pk=token.player_id)
        try:
            token = _waiting(token)
        except PlayerToken.DoesNotExist:
            return
        history_record(
            event=token.player.event,
            entity="player",
            object_id=token.player_id,
            action="join_refuse",
            by=by,
            old={"table": token.player.table, "number": join_number(token), "address": token.address},
        )
        token.delete()


def player_release(*, player: Player, by: User) -> int:
    """Release a table: its phone's token stops working (and the phones waiting for it are
    refused); the table may join again (a phone lost, changed, or a wrong table taken).
    Returns the tokens revoked."""
    with transaction.atomic():
        player = Player.objects.select_for_update().select_related("event").get(pk=player.pk)
        return _revoke(player, "release", by)


def seat_code_renew(*, player: Player, by: User) -> Player:
    """A new seat code for a table whose card was seen by others (or lost): the old code no
    longer joins; the phone at the table, if any, is released (it joins with the new card)."""
    with transaction.atomic():
        player = Player.objects.select_for_update().select_related("event").get(pk=player.pk)
        player.seat_code = _free_seat_code(player.event)
        player.save(update_fields=["seat_code"])
        # The codes themselves stay out of the history (a history reader is not a table holder).
        _revoke(player, "seat_code", by)
        return player


def _revoke(player: Player, action: str, by: User) -> int:
    """Every token of the table, working or waiting, ended and recorded; the caller holds
    the player's row locked."""
    revoked = PlayerToken.objects.filter(player=player).delete()[0]
    history_record(
        event=player.event,
        entity="player",
        object_id=player.pk,
        action=action,
        by=by,
        old={"tokens": revoked},
        new={"tokens": 0},
    )
    return revoked


def _kept_seat_code(event: Event, code: str) -> str:
    code = seat_code_clean(code)
    return code if code and not event.players.filter(seat_code=code).exists() else ""


def _free_seat_code(event: Event) -> str:
    # 2,000 tables among 3 x 10^8 codes: a second try is rare, a third rarer still.
    while True:
        code = new_seat_code()
        if not event.players.filter(seat_code=code).exists():
            return code


PLAYER_FIELDS = ("name", "club", "licence", "category", "table", "paper_only")


def _snapshot(player: Player) -> dict[str, object]:
    return {key: getattr(player, key) for key in PLAYER_FIELDS}


def player_update(
    *,
    player: Player,
    name: str,
    club: str = "",
    licence: str = "",
    category: str = "",
    table: int,
    paper_only: bool | None = None,
    by: User,
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
        paper = player.paper_only if paper_only is None else paper_only
        for key, value in {**values, "table": table, "paper_only": paper}.items():
            setattr(player, key, value)
        new = _snapshot(player)
        if new == old:
            return player
        player.save(update_fields=list(PLAYER_FIELDS))
        changed = [key for key in PLAYER_FIELDS if old[key] != new[key]]
        if paper and not old["paper_only"]:
            # No phone may hand in a slip for a paper-only table: the one there leaves.
            _revoke(player, "release", by)
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
