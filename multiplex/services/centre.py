"""A centre of a multiplex talking to its hub (docs/rules.md#multiplex), through the hub's
REST API (multiplex/api.py): joining, then syncing again and again.

A sync sends what the centre owes in the order it was queued (the draw centre's draws,
tops and ends; every centre's closes with their slips' digest, and its results, queued
here whenever a placed round's rulings differ from those last queued), its roster first
(queued here whenever its players differ from the roster last queued: the hub takes
results only for the players of the roster it holds), then fetches
ahead every round the hub will serve (rack and top: the centre keeps playing through a
lost connection; the hub records when each was first seen). Everything is stored before
and after each request: a sync cut at any point loses nothing, and the next one carries
on. The hub's answers to the same request sent twice are the same (its services are
idempotent), so a request whose answer was lost is simply sent again.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import http.client
import json
import logging
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass, field
from typing import Any, Protocol

from cryptography.fernet import Fernet, InvalidToken
from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Case, Max, Q, Value, When
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from multiplex.link import hub_link, link_event
from multiplex.models import HubCopy, HubLink, HubOutbox, HubSealed
from multiplex.services.outbox import outbox_put
from tournaments.core import ApplicationError, User
from tournaments.judging import adjudication_settings, solo_players
from tournaments.models import Event, Game, Player, Round, Ruling
from tournaments.services.history import history_record
from tournaments.services.rounds import round_take_served_move
from tournaments.state import event_config

logger = logging.getLogger(__name__)

#: Seconds a request to the hub may take: a hall's Wi-Fi, then the internet.
TIMEOUT = 10.0

#: The game settings a centre's event must share with its hub's (the seed aside: a centre
#: draws nothing of its own).
CONFIG_EXCLUDED = ("seed",)

#: The outbox kind of the centre's roster (one item per link, game 0, round 0).
ROSTER = HubOutbox.Kind.ROSTER


class HubError(ApplicationError):
    """The hub could not be reached, or answered with a refusal."""


class HubUnreachable(HubError):
    """No answer, or a server error: the same request is sent again later."""


class HubRefused(HubError):
    """The hub refused the request (4xx): sending it again will not change that."""

    def __init__(self, message: str, status: int) -> None:
        super().__init__(message)
        self.status = status


class Hub(Protocol):
    """What a sync needs of its hub: the API's JSON, or HubRefused / HubUnreachable."""

    def get(self, path: str) -> Any: ...

    def post(self, path: str, body: Any) -> Any: ...

    def put(self, path: str, body: Any) -> Any: ...


class HttpHub:
    """The hub over HTTP, with the centre's key (``Authorization: Centre <key>``)."""

    def __init__(self, url: str, key: str, timeout: float = TIMEOUT) -> None:
        self.base = url.rstrip("/") + "/api/hub/"
        self.key = key
        self.timeout = timeout

    def get(self, path: str) -> Any:
        return self._send("GET", path, None)

    def post(self, path: str, body: Any) -> Any:
        return self._send("POST", path, body)

    def put(self, path: str, body: Any) -> Any:
        return self._send("PUT", path, body)

    def _send(self, method: str, path: str, body: Any) -> Any:
        url = urllib.parse.urljoin(self.base, path)
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(url, data=data, method=method)
        request.add_header("Authorization", f"Centre {self.key}")
        request.add_header("Accept", "application/json")
        # The hub's refusals in the centre's language, as its arbitrator reads them.
        request.add_header("Accept-Language", translation.get_language() or settings.LANGUAGE_CODE)
        if data is not None:
            request.add_header("Content-Type", "application/json")
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as response:
                return json.loads(response.read() or b"null")
        except urllib.error.HTTPError as exc:
            message = _error_message(exc)
            if exc.code >= 500 or exc.code == 429:
                raise HubUnreachable(message) from exc
            raise HubRefused(message, exc.code) from exc
        except (urllib.error.URLError, OSError, ValueError, http.client.HTTPException) as exc:
            reason = getattr(exc, "reason", exc)
            raise HubUnreachable(_("the hub cannot be reached: %(reason)s") % {"reason": reason}) from exc


def _error_message(exc: urllib.error.HTTPError) -> str:
    """The hub's own message (the API's one error format), else the HTTP status."""
    try:
        body = json.loads(exc.read())
        return str(body["error"]["message"])
    except (ValueError, KeyError, TypeError, OSError):
        return _("the hub answered %(status)s") % {"status": exc.code}


def hub_client(link: HubLink) -> Hub:
    return HttpHub(link.url, link.key)


# ------------------------------------------------------------------ joining


def hub_settings(event: Event) -> dict[str, Any]:
    """What the hub tells its centres of its event's settings (multiplex/api.py), and what a
    centre compares with its own: the same function on both sides."""
    config = {k: v for k, v in event_config(event, 0).to_dict().items() if k not in CONFIG_EXCLUDED}
    adjudication = dataclasses.asdict(adjudication_settings(event))
    adjudication.pop("notation")  # each centre writes moves in its own notation
    adjudication["solo_players"] = event.solo_players
    return {"config": config, "adjudication": adjudication}


def hub_join(*, event: Event, url: str, key: str, by: User = None, hub: Hub | None = None) -> HubLink:
    """Make ``event`` a centre of the multiplex at ``url`` with the centre key ``key``:
    refused unless the hub knows the key and its settings are this event's."""
    url = url.strip()
    if urllib.parse.urlsplit(url).scheme not in ("http", "https"):
        raise ApplicationError(_("the hub's address must start with http:// or https://"))
    if not key.strip():
        raise ApplicationError(_("the centre key is missing"))
    if event.games.exists():
        raise ApplicationError(_("a centre joins its multiplex before its first game"))
    if event.masters:
        raise ApplicationError(_("an event with master games cannot be a centre of a multiplex"))
    hub = hub or HttpHub(url, key.strip())
    info = hub.get("")
    theirs = {"config": info.get("config", {}), "adjudication": info.get("adjudication", {})}
    ours = hub_settings(event)
    differ = [
        f"{name} ({theirs[part].get(name)!r} / {value!r})"
        for part in ("config", "adjudication")
        for name, value in ours[part].items()
        if theirs[part].get(name) != value
    ]
    if differ:
        raise ApplicationError(
            _("this event's settings differ from the hub's (hub / here): %(list)s")
            % {"list": ", ".join(differ)}
        )
    if HubLink.objects.filter(event=event).exists():
        raise ApplicationError(_("this event is already a centre of a multiplex"))
    # The roster before the link: a roster the hub refuses refuses the join.
    roster = roster_payload(event)
    hub.put("roster/", roster)
    with transaction.atomic():
        if HubLink.objects.filter(event=event).exists():
            raise ApplicationError(_("this event is already a centre of a multiplex"))
        link = HubLink.objects.create(
            event=event,
            url=url,
            key=key.strip(),
            centre_name=info["centre"]["name"],
            draws=bool(info["centre"]["draws"]),
            multiplex_name=info["multiplex"]["name"],
            prepared=info["multiplex"].get("mode") == "prepared",
            last_contact_at=timezone.now(),
        )
        link_event(event)
        outbox_put(link=link, kind=ROSTER, game=0, number=0, payload=roster)
        HubOutbox.objects.filter(link=link, kind=ROSTER).update(sent_at=timezone.now(), attempts=1)
        history_record(
            event=event, entity="hub_link", object_id=link.pk, action="join", by=by,
            new={"url": url, "centre": link.centre_name, "draws": link.draws},
        )  # fmt: skip
    return link


# ------------------------------------------------------------------ syncing


@dataclass
class SyncReport:
    sent: int = 0
    refused: list[str] = field(default_factory=list)  # each refusal once
    fetched: int = 0
    reached: bool = True
    error: str = ""

    def refuse(self, message: str) -> None:
        if message not in self.refused:
            self.refused.append(message)


#: How long a sync holds its link (seconds): longer than the requests of a sync can take.
SYNC_LEASE = 300


def hub_sync(
    *, event: Event, hub: Hub | None = None, now: dt.datetime | None = None, full: bool = True
) -> SyncReport:
    """Send what the centre owes its hub, then fetch what the hub will serve. One sync at
    a time per centre: two at once (a placement's and the watchdog's) could each post a
    payload the other has replaced, an older correction arriving after a newer one. Not
    ``full`` (after a close or a placement): the results of the rounds with a ruling saved
    since they were queued only (:func:`results_queue`)."""
    link = hub_link(event)
    if link is None:
        raise ApplicationError(_("this event is not a centre of a multiplex"))
    started = timezone.now()
    # Claimed by a conditional update, not a row lock: the requests must not hold a write
    # transaction (on SQLite that would stop every slip meanwhile).
    claimed = (
        HubLink.objects.filter(pk=link.pk)
        .filter(Q(sync_until__isnull=True) | Q(sync_until__lt=started))
        .update(sync_until=started + dt.timedelta(seconds=SYNC_LEASE))
    )
    if not claimed:
        return SyncReport(reached=False, error=_("another sync with the hub is under way"))
    try:
        return _sync(event, link, hub or hub_client(link), now, full)
    finally:
        HubLink.objects.filter(pk=link.pk).update(sync_until=None)


def _sync(event: Event, link: HubLink, hub: Hub, now: dt.datetime | None, full: bool) -> SyncReport:
    report = SyncReport()
    try:
        roster_queue(link)
        results_queue(link, full=full)
        if link.prepared:
            # Before the results: the key makes the game's rounds served to this centre,
            # the results of a game opened with a key read out are then taken.
            try:
                _sealed(link, hub, report)
            except HubUnreachable:
                raise
            except HubError as exc:  # a key refused (too late): said, the results still sent
                report.refuse(exc.message)
        _send(link, hub, report)
        if not link.draws:
            _fetch(link, hub, report)
    except HubUnreachable as exc:
        report.reached, report.error = False, exc.message
    except HubError as exc:
        # A refusal of a fetch (a game this centre started too late, a key the hub no
        # longer knows), a sealed game its key does not open: said to the arbitrator, and
        # asked again at the next sync.
        report.refuse(exc.message)
    now = now or timezone.now()
    if report.reached:
        # What the hub refused stays on the link until a sync has nothing refused.
        error = "; ".join(report.refused)
        HubLink.objects.filter(pk=link.pk).update(
            last_contact_at=now, last_error=error, last_error_at=now if error else None
        )
    else:
        logger.warning("hub %s not reached: %s", link.url, report.error)
        HubLink.objects.filter(pk=link.pk).update(last_error=report.error, last_error_at=now)
    if not link.draws:
        _take_tops(event)
    return report


def _path(item: HubOutbox) -> str:
    if item.kind == ROSTER:
        return "roster/"
    if item.kind == HubOutbox.Kind.END:
        return f"games/{item.game}/end/"
    return f"games/{item.game}/rounds/{item.number}/{item.kind}/"


def _send(link: HubLink, hub: Hub, report: SyncReport) -> None:
    owed = HubOutbox.objects.filter(link=link, sent_at__isnull=True)
    # The roster first: results queued earlier may name a player added since it was sent.
    roster_first = Case(When(kind=ROSTER, then=Value(0)), default=Value(1))
    for pk in owed.order_by(roster_first, "queued_at", "pk").values_list("pk", flat=True):
        # Read just before it is sent: a correction queued meanwhile is sent, not the older.
        item = HubOutbox.objects.filter(pk=pk, sent_at__isnull=True).first()
        if item is None:
            continue
        digest = item.digest
        try:
            if item.kind == ROSTER:
                hub.put(_path(item), item.payload)
            else:
                hub.post(_path(item), item.payload)
        except HubRefused as exc:
            # Kept with the hub's reason, for the arbitrator; later items are still sent.
            HubOutbox.objects.filter(pk=item.pk).update(attempts=item.attempts + 1, last_error=exc.message)
            report.refuse(f"{item.kind} {item.game}.{item.number}: {exc.message}")
            continue
        except HubUnreachable:
            HubOutbox.objects.filter(pk=item.pk).update(attempts=item.attempts + 1)
            raise
        # Acknowledged: unless a newer payload was queued meanwhile (it is sent next time).
        HubOutbox.objects.filter(pk=item.pk, digest=digest).update(
            sent_at=timezone.now(), attempts=item.attempts + 1, last_error=""
        )
        report.sent += 1


def _fetch(link: HubLink, hub: Hub, report: SyncReport) -> None:
    """Every round the hub serves from where this centre stands: the rounds whose top was
    not given yet, then the next ones, game after game once one has ended."""
    last = HubCopy.objects.filter(link=link).order_by("-game", "-number").first()
    game = max(last.game if last is not None else 1, _local_game(link))
    while True:
        copies = list(HubCopy.objects.filter(link=link, game=game).order_by("number"))
        for copy in copies:
            if copy.top is None and not copy.game_end:
                again = _store(link, _get(hub, game, copy.number), report)
                if again is None or (again.top is None and not again.game_end):
                    return  # not placed on the hub yet: nothing after it is drawn
        latest = copies[-1] if copies else None
        if latest is not None and latest.game_end:
            game += 1
            continue
        number = latest.number + 1 if latest is not None else 1
        stored = _store(link, _get(hub, game, number), report)
        if stored is None and latest is not None:
            # Nothing after the last round: asked again, it says whether the game ended.
            stored = _store(link, _get(hub, game, latest.number), report)
            if stored is None or not stored.game_end:
                return
        elif stored is None or (stored.top is None and not stored.game_end):
            return


def _sealed(link: HubLink, hub: Hub, report: SyncReport) -> None:
    """A prepared multiplex: its games fetched ahead, sealed, from the one this centre
    plays on; each opened with its key once the hub gives it (from the game's start)."""
    first = _local_game(link)
    game = first
    while HubSealed.objects.filter(link=link, game=game).exists():
        game += 1
    while (data := _hub_answer(hub, f"games/{game}/sealed/", game)) is not None:  # those not fetched yet
        fetched = {"starts_at": _when(data, game), "token": _field(data, "token", game)}
        HubSealed.objects.get_or_create(
            link=link, game=game, defaults={**fetched, "fetched_at": timezone.now()}
        )
        game += 1
    # From the game this centre plays on (one it skipped, refused as too late, is not asked
    # again), and any it opened with a key read out (the hub then counts its rounds served).
    waiting = HubSealed.objects.filter(link=link, keyed_at__isnull=True).filter(
        Q(game__gte=first) | Q(opened_at__isnull=False)
    )
    for sealed in waiting.order_by("game"):
        try:
            answer = _hub_answer(hub, f"games/{sealed.game}/key/", sealed.game)
        except HubRefused as exc:
            report.refuse(exc.message)  # this game refused (too late): the next ones still asked
            continue
        if answer is None:  # not started yet; its start may have moved since it was fetched
            if sealed.starts_at <= timezone.now():
                again = _hub_answer(hub, f"games/{sealed.game}/sealed/", sealed.game)
                if again is not None:
                    HubSealed.objects.filter(pk=sealed.pk).update(starts_at=_when(again, sealed.game))
            continue
        if sealed.opened_at is None:
            report.fetched += _unseal(sealed, _field(answer, "key", sealed.game))
        HubSealed.objects.filter(pk=sealed.pk).update(keyed_at=timezone.now())


def _hub_answer(hub: Hub, path: str, game: int) -> dict[str, Any] | None:
    """The hub's answer, None for a 404 (not there, or not yet)."""
    try:
        answer = hub.get(path)
    except HubRefused as exc:
        if exc.status == 404:
            return None
        raise
    if not isinstance(answer, dict):
        raise HubError(_("the hub's answer about game %(game)s cannot be read") % {"game": game})
    return answer


def _field(answer: dict[str, Any], name: str, game: int) -> str:
    value = answer.get(name)
    if not isinstance(value, str) or not value:
        raise HubError(_("the hub's answer about game %(game)s cannot be read") % {"game": game})
    return value


def _when(answer: dict[str, Any], game: int) -> dt.datetime:
    try:
        when = dt.datetime.fromisoformat(_field(answer, "starts_at", game).replace("Z", "+00:00"))
    except ValueError:
        when = None
    if when is None or when.tzinfo is None:
        raise HubError(_("the hub's answer about game %(game)s cannot be read") % {"game": game})
    return when


def _unseal(sealed: HubSealed, key: str) -> int:
    """Open a sealed game with its key: its rounds, with their tops, as if fetched one by
    one. How many rounds were copied; HubError when the key does not open it."""
    try:
        package = json.loads(Fernet(key.strip().encode()).decrypt(sealed.token.encode()))
    except (InvalidToken, ValueError, TypeError) as exc:
        raise HubError(_("this key does not open the sealed game %(game)s") % {"game": sealed.game}) from exc
    if package.get("game") != sealed.game:
        raise HubError(_("this key does not open the sealed game %(game)s") % {"game": sealed.game})
    report = SyncReport()
    with transaction.atomic():
        for served in package["rounds"]:
            _store(sealed.link, served, report)
        HubSealed.objects.filter(pk=sealed.pk).update(opened_at=timezone.now())
    return report.fetched


def hub_unseal(*, event: Event, game: int, key: str, by: User = None) -> int:
    """Open a sealed game with the key the hub's arbitrator read out (a centre that cannot
    reach its hub at the start); the hub counts the rounds served to this centre once it
    is reached again. How many rounds were copied."""
    link = hub_link(event)
    if link is None or not link.prepared:
        raise ApplicationError(_("this event is not a centre of a prepared multiplex"))
    sealed = HubSealed.objects.filter(link=link, game=game).first()
    if sealed is None:
        raise ApplicationError(
            _("game %(game)s was not fetched from the hub before: nothing to open") % {"game": game}
        )
    if sealed.opened_at is not None:
        return 0
    copied = _unseal(sealed, key)
    history_record(
        event=event, entity="hub_link", object_id=link.pk, action="unseal", by=by,
        new={"game": game, "rounds": copied},
    )  # fmt: skip
    return copied


def _local_game(link: HubLink) -> int:
    """The hub's game this centre plays or plays next: its own game numbers are the hub's.
    A centre refused a game (it would start it too late) ends its own game of that number
    without a round, and the next one follows the hub's next game."""
    local = Game.objects.filter(event_id=link.event_id).order_by("-number").first()
    if local is None:
        return 1
    return local.number + 1 if local.state == Game.State.ENDED else local.number


def _get(hub: Hub, game: int, number: int) -> dict[str, Any] | None:
    try:
        served: dict[str, Any] = hub.get(f"games/{game}/rounds/{number}/?top=1")
    except HubRefused as exc:
        if exc.status == 404:
            return None  # not published yet (or sealed): nothing more to fetch
        raise
    return served


def _store(link: HubLink, served: dict[str, Any] | None, report: SyncReport) -> HubCopy | None:
    """The round as served, kept (a copy fetched again takes the top and end it now has)."""
    if served is None:
        return None
    values = {
        "reliquat": served["reliquat"],
        "new_tiles": served["new"],
        "rejected": served["rejected"],
        "manual": served["manual"],
        "top": served["top"],
        "game_end": served["game_end"],
    }
    key = {"link": link, "game": served["game"], "number": served["round"]}
    copy = HubCopy.objects.filter(**key).first()
    if copy is None:
        try:
            with transaction.atomic():
                copy = HubCopy.objects.create(**key, **values, fetched_at=timezone.now())
            report.fetched += 1
            return copy
        except IntegrityError:  # another sync stored it meanwhile
            copy = HubCopy.objects.get(**key)
    changed = [k for k, v in values.items() if getattr(copy, k) != v and v not in (None, "")]
    if changed:  # a top or an end once given is not taken back by an older answer
        for k in changed:
            setattr(copy, k, values[k])
        copy.save(update_fields=changed)
    return copy


def _take_tops(event: Event) -> None:
    """The rounds solved before the hub's move came get it now."""
    for round in Round.objects.filter(
        game__event=event, game__state=Game.State.PLAYING, solved_at__isnull=False, chosen=""
    ).exclude(state=Round.State.PLACED):
        round_take_served_move(round=round, reason=_("the hub's move"))


# ------------------------------------------------------------------ results


def roster_payload(event: Event) -> dict[str, Any]:
    """The centre's roster as the hub reads it (multiplex/api.py): every player, withdrawn
    ones too (their rounds so far still rank); a player removed here leaves it. Sent whole
    and kept by the hub as sent (an existing hub's centres send theirs at their next sync)."""
    players = Player.objects.filter(event=event).order_by("table")
    return {
        "players": [
            {"table": p.table, "name": p.name, "club": p.club, "licence": p.licence, "category": p.category}
            for p in players.only("table", "name", "club", "licence", "category")
        ]
    }


def roster_queue(link: HubLink) -> bool:
    """Queue the roster when the centre's players differ from the roster queued last (a
    player added, corrected or removed): one query at each sync, so that no change to the
    players needs to know of the hub. True when something is to be sent."""
    with transaction.atomic():
        return outbox_put(link=link, kind=ROSTER, game=0, number=0, payload=roster_payload(link.event))


def results_payload(round: Round) -> dict[str, Any]:
    """A placed round's rulings as the hub reads them (multiplex/api.py): by table, the
    roster names the players (:func:`roster_payload`)."""
    rulings = list(Ruling.objects.filter(round=round).select_related("player").order_by("player__table"))
    return {
        "rulings": [
            {
                "table": r.player.table,
                "reason": r.reason,
                "move": r.move,
                "move_score": r.move_score,
                "credited": r.credited,
                "penalty": r.penalty,
                "warnings": r.warnings,
                "solo": r.solo,
                "is_top": r.is_top,
                "letterpoints": r.letterpoints,
                "overridden": r.overridden,
            }
            for r in rulings
        ],
        "taking_part": solo_players(round),
    }


def results_queue(link: HubLink, *, full: bool = True) -> int:
    """Queue the results of every placed round whose rulings differ from those queued last
    (a correction after the placement included); returns how many were queued. Not
    ``full``: only the rounds never queued, or with a ruling saved since (each payload is
    rebuilt from every ruling of its round: doing all of them at every sync costs more as
    the game goes on, docs/decisions.md); a full one (the watchdog's, every 30 s) also
    finds what changed without a ruling saved (a player's name corrected)."""
    queued = 0
    placed = Round.objects.filter(game__event_id=link.event_id, state=Round.State.PLACED)
    rounds = list(placed.select_related("game__event"))
    if not full:
        items = HubOutbox.objects.filter(link=link, kind=HubOutbox.Kind.RESULTS)
        sent = {(game, number): at for game, number, at in items.values_list("game", "number", "queued_at")}
        latest = Ruling.objects.filter(round__in=rounds).values("round_id").annotate(last=Max("ruled_at"))
        ruled = dict(latest.values_list("round_id", "last"))

        def changed(r: Round) -> bool:
            at = sent.get((r.game.number, r.number))
            return at is None or (r.pk in ruled and ruled[r.pk] > at)

        rounds = [r for r in rounds if changed(r)]
    for round in rounds:
        with transaction.atomic():
            payload = results_payload(round)
            if outbox_put(
                link=link, kind=HubOutbox.Kind.RESULTS, game=round.game.number, number=round.number,
                payload=payload,
            ):  # fmt: skip
                queued += 1
    return queued
