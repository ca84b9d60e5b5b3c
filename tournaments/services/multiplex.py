"""The hub of a multiplex (docs/rules.md#multiplex): one game played in many centres.

The hub's event holds the settings and the word list. Its rounds (:class:`HubRound`) come
from the draw centre as it plays (live mode: each rack when drawn, each top when placed,
checked here by replaying the game) or from the event's master games (prepared mode,
served from the agreed start). A centre is served a round only once it may see it, and
every serving is kept (rack, close with the digest of its slips, top). The centres send
their rulings back; sending is idempotent, a later correction replaces the earlier ruling
and is recorded, and the solo of each round is given again over every centre
(:mod:`scoring.multiplex`).

Several centres write at once: the round's row is locked while its rulings are merged, so
that two centres' uploads for the same round cannot each merge without the other's.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import re
import secrets
from dataclasses import dataclass
from typing import Any

from cryptography.fernet import Fernet
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring import multiplex as merge
from scoring.adjudication import REASON_TEXT
from solver.analysis import Analysis
from solver.errors import IllegalRackError
from solver.formats.record import END_REASONS, GameRecord
from solver.game import Game as SolverGame
from solver.notation import format_move, parse_move
from tournaments.core import ApplicationError, User
from tournaments.judging import adjudication_settings
from tournaments.messages import say_error
from tournaments.models import (
    Centre,
    CentrePlayer,
    CentreRuling,
    Event,
    HubGame,
    HubRound,
    Multiplex,
    Serving,
)
from tournaments.services.history import history_record
from tournaments.state import event_config, solver_lexicon

#: A slips digest: the SHA-256 of the centre's slips of the round, in hexadecimal.
DIGEST = re.compile(r"[0-9a-f]{64}")


class NotServed(ApplicationError):
    """A round this centre may not see (yet): the hub says nothing more about it."""


def key_hash(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


# ------------------------------------------------------------------ setting up


def multiplex_create(
    *,
    event: Event,
    mode: str = Multiplex.Mode.LIVE,
    starts_at: dt.datetime | None = None,
    max_delay_minutes: int = 90,
    by: User = None,
) -> Multiplex:
    """Make ``event`` the hub of a multiplex. Prepared mode serves the event's master games
    from ``starts_at``; live mode the rounds its draw centre publishes."""
    if mode not in Multiplex.Mode.values:
        raise ApplicationError(_("unknown multiplex mode %(mode)s") % {"mode": mode})
    if mode == Multiplex.Mode.PREPARED:
        if not event.masters:
            raise ApplicationError(
                _("a prepared multiplex needs the event's master games: import them first")
            )
        if starts_at is None:
            raise ApplicationError(_("a prepared multiplex needs its agreed start"))
    with transaction.atomic():
        event = Event.objects.select_for_update().get(pk=event.pk)
        if Multiplex.objects.filter(event=event).exists():
            raise ApplicationError(_("this event is already a multiplex"))
        multiplex = Multiplex.objects.create(
            event=event,
            mode=mode,
            starts_at=starts_at if mode == Multiplex.Mode.PREPARED else None,
            max_delay_minutes=max_delay_minutes,
        )
        if mode == Multiplex.Mode.PREPARED:
            assert starts_at is not None
            _prepare(multiplex, starts_at)
        history_record(
            event=event,
            entity="multiplex",
            object_id=multiplex.pk,
            action="create",
            by=by,
            new={"mode": mode, "starts_at": starts_at.isoformat() if starts_at else None,
                 "max_delay_minutes": max_delay_minutes},
        )  # fmt: skip
        return multiplex


def new_seal_key() -> str:
    """A game's Fernet key, never starting with "-": typed after ``--key`` on a command
    line, it would be taken for an option (as a centre key once was)."""
    while (key := Fernet.generate_key().decode()).startswith("-"):
        pass
    return key


def _prepare(multiplex: Multiplex, starts_at: dt.datetime) -> None:
    """The master games' rounds, as the centres will be served them from the start."""
    for number, data in enumerate(multiplex.event.masters, start=1):
        record = GameRecord.from_dict(data)
        HubGame.objects.create(
            multiplex=multiplex,
            number=number,
            started_at=starts_at,
            end=record.end,
            final=record.final.to_dict() if record.final else None,
            ended_at=starts_at if record.end else None,
            seal_key=new_seal_key(),
        )
        HubRound.objects.bulk_create(
            HubRound(
                multiplex=multiplex,
                game=number,
                number=r.round,
                reliquat=r.reliquat,
                new_tiles=r.new,
                rejected=list(r.rejected),
                manual=r.manual,
                drawn_at=starts_at,
                played=r.played,
                score=r.score,
                moves=r.moves,
                top_score=r.top_score,
                tops=list(r.tops),
                board=r.board,
                placed_at=starts_at,
            )
            for r in record.rounds
        )


def centre_add(
    *, multiplex: Multiplex, name: str, draws: bool = False, by: User = None
) -> tuple[Centre, str]:
    """Add a centre; returns it and its key, shown this once (only its hash is kept)."""
    name = name.strip()
    if not name:
        raise ApplicationError(_("a centre needs a name"))
    if draws and multiplex.mode != Multiplex.Mode.LIVE:
        raise ApplicationError(_("only a live multiplex has a draw centre"))
    key = _new_key()
    try:
        with transaction.atomic():
            centre = Centre.objects.create(
                multiplex=multiplex, name=name, draws=draws, key_hash=key_hash(key)
            )
    except IntegrityError as exc:
        if draws and multiplex.centres.filter(draws=True).exists():
            raise ApplicationError(_("this multiplex already has its draw centre")) from exc
        raise ApplicationError(
            _("a centre of this multiplex is already named %(name)s") % {"name": name}
        ) from exc
    history_record(
        event=multiplex.event,
        entity="centre",
        object_id=centre.pk,
        action="add",
        by=by,
        new={"name": name, "draws": draws},
    )
    return centre, key


def _new_key() -> str:
    # Never a leading "-": typed after --key, the command line would read it as an option.
    return "k" + secrets.token_urlsafe(32)


def centre_for_key(key: str) -> Centre | None:
    """The centre this key is of (its hash is looked up: the key itself is not kept)."""
    if not key or len(key) > 200:
        return None
    return Centre.objects.select_related("multiplex__event__lexicon").filter(key_hash=key_hash(key)).first()


# ------------------------------------------------------------------ the hub's game


def _replayed(multiplex: Multiplex, game: int) -> SolverGame:
    """The multiplex game after its placed rounds, every rack taken from the bag again and
    every move played again: what a new draw or top is checked against."""
    event = multiplex.event
    solver_game = SolverGame(event_config(event, 0), solver_lexicon(event.lexicon))
    size = solver_game.board.size
    for r in HubRound.objects.filter(multiplex=multiplex, game=game, placed_at__isnull=False).order_by(
        "number"
    ):
        drawn = solver_game.draw_manual(r.reliquat + r.new_tiles, tuple(r.rejected))
        tops = tuple(parse_move(t, "gcg", size) for t in r.tops)
        solver_game.play(drawn, Analysis(r.moves or 0, r.top_score, tops), parse_move(r.played, "gcg", size))
    return solver_game


def _draw_centre(centre: Centre) -> None:
    if not centre.draws or centre.multiplex.mode != Multiplex.Mode.LIVE:
        raise ApplicationError(_("only the draw centre of a live multiplex publishes rounds"))


def publish_draw(
    *,
    centre: Centre,
    game: int,
    number: int,
    rack: str,
    rejected: tuple[str, ...] = (),
    manual: bool = False,
    now: dt.datetime | None = None,
) -> HubRound:
    """The draw centre drew round ``number`` of ``game``: the other centres may now be
    served its rack. The same draw sent again changes nothing; a different rack for a
    round already served to a centre is refused (it has been played with)."""
    _draw_centre(centre)
    now = now or timezone.now()
    multiplex = centre.multiplex
    with transaction.atomic():
        # The multiplex row serialises the draw centre's publications (a retry racing
        # its original must not create the round twice or check against a stale game).
        Multiplex.objects.select_for_update().get(pk=multiplex.pk)
        hub_game = HubGame.objects.filter(multiplex=multiplex, number=game).first()
        if hub_game is None:
            previous = HubGame.objects.filter(multiplex=multiplex, number=game - 1).first()
            if game > 1 and (previous is None or not previous.end):
                raise ApplicationError(
                    _("game %(number)s cannot start before the one before has ended") % {"number": game}
                )
            if number != 1:
                raise ApplicationError(_("a game starts with round 1"))
        elif hub_game.end:
            raise ApplicationError(_("game %(number)s has ended") % {"number": game})
        existing = HubRound.objects.filter(multiplex=multiplex, game=game, number=number).first()
        if existing is not None and existing.placed_at is not None:
            # A retry whose first answer was lost, after the round's top came: the same
            # draw is acknowledged; another is a change, refused like any after serving.
            if sorted(existing.reliquat + existing.new_tiles) == sorted(rack.upper()) and tuple(
                existing.rejected
            ) == tuple(rejected):
                return existing
            raise ApplicationError(
                _("round %(number)s was published with %(rack)s and centres have it: it cannot change")
                % {"number": number, "rack": existing.reliquat + existing.new_tiles}
            )
        solver_game = _replayed(multiplex, game)
        if solver_game.round_number != number:
            raise ApplicationError(
                _("round %(number)s cannot be drawn: the hub expects round %(expected)s")
                % {"number": number, "expected": solver_game.round_number}
            )
        try:
            drawn = solver_game.draw_manual(rack, rejected)
        except IllegalRackError as exc:
            raise ApplicationError(say_error(exc)) from exc
        reliquat, new, rejected_texts = drawn.texts()
        if existing is not None:
            same = (existing.reliquat, existing.new_tiles, tuple(existing.rejected)) == (
                reliquat,
                new,
                rejected_texts,
            )
            if same:
                return existing
            # The draw centre is served its own draws: only another centre's copy binds.
            if existing.servings.exclude(centre__draws=True).exists():
                raise ApplicationError(
                    _("round %(number)s was published with %(rack)s and centres have it: it cannot change")
                    % {"number": number, "rack": existing.reliquat + existing.new_tiles}
                )
            old = {"reliquat": existing.reliquat, "new": existing.new_tiles, "rejected": existing.rejected}
            existing.reliquat, existing.new_tiles, existing.rejected = reliquat, new, list(rejected_texts)
            existing.manual, existing.drawn_at = manual, now
            existing.save()
            _record(multiplex, "hub_round", existing.pk, "redraw", centre, old, _round_data(existing))
            return existing
        if hub_game is None:
            HubGame.objects.create(multiplex=multiplex, number=game, started_at=now)
        hub_round = HubRound.objects.create(
            multiplex=multiplex,
            game=game,
            number=number,
            reliquat=reliquat,
            new_tiles=new,
            rejected=list(rejected_texts),
            manual=manual,
            drawn_at=now,
        )
        _record(multiplex, "hub_round", hub_round.pk, "draw", centre, None, _round_data(hub_round))
        return hub_round


def publish_top(
    *, centre: Centre, game: int, number: int, played: str, score: int, now: dt.datetime | None = None
) -> HubRound:
    """The draw centre placed ``played`` (GCG notation) on round ``number``: checked by
    playing it on the hub's game, with the round's count and tops found here."""
    _draw_centre(centre)
    now = now or timezone.now()
    multiplex = centre.multiplex
    with transaction.atomic():
        Multiplex.objects.select_for_update().get(pk=multiplex.pk)
        hub_round = HubRound.objects.filter(multiplex=multiplex, game=game, number=number).first()
        if hub_round is None:
            raise ApplicationError(_("round %(number)s has not been drawn") % {"number": number})
        if hub_round.placed_at is not None:
            if (hub_round.played, hub_round.score) == (played, score):
                return hub_round
            raise ApplicationError(
                _("round %(number)s was placed with %(move)s: a published top cannot change")
                % {"number": number, "move": hub_round.played}
            )
        solver_game = _replayed(multiplex, game)
        size = solver_game.board.size
        drawn = solver_game.draw_manual(hub_round.reliquat + hub_round.new_tiles, tuple(hub_round.rejected))
        try:
            move = parse_move(played, "gcg", size)
            analysis = solver_game.analyse(list(drawn.rack))
            placed = solver_game.play(drawn, analysis, move)
        except ValueError as exc:
            raise ApplicationError(
                _("%(move)s cannot be played on round %(number)s: %(reason)s")
                % {"move": played, "number": number, "reason": str(exc)}
            ) from exc
        if placed.score != score:
            raise ApplicationError(
                _("%(move)s scores %(real)s, not %(score)s")
                % {"move": played, "real": placed.score, "score": score}
            )
        hub_round.played = format_move(move, "gcg")
        hub_round.score = placed.score
        hub_round.moves = placed.moves
        hub_round.top_score = placed.top_score
        hub_round.tops = list(placed.tops)
        hub_round.board = placed.board
        hub_round.placed_at = now
        hub_round.save()
        _record(
            multiplex, "hub_round", hub_round.pk, "place", centre, None, {"played": played, "score": score}
        )
        return hub_round


def publish_end(
    *,
    centre: Centre,
    game: int,
    reason: str,
    final: dict[str, Any] | None = None,
    now: dt.datetime | None = None,
) -> HubGame:
    """The draw centre's game ended (``reason``: one of the records' end reasons)."""
    _draw_centre(centre)
    now = now or timezone.now()
    if reason not in END_REASONS or not reason:
        raise ApplicationError(_("unknown end of game %(reason)s") % {"reason": reason})
    multiplex = centre.multiplex
    with transaction.atomic():
        Multiplex.objects.select_for_update().get(pk=multiplex.pk)
        hub_game = HubGame.objects.filter(multiplex=multiplex, number=game).first()
        if hub_game is None:
            raise ApplicationError(_("game %(number)s has not started") % {"number": game})
        if hub_game.end:
            if hub_game.end == reason:
                return hub_game
            raise ApplicationError(_("game %(number)s has ended") % {"number": game})
        pending = HubRound.objects.filter(multiplex=multiplex, game=game, placed_at__isnull=True).first()
        if pending is not None and reason == "draw_rule":
            raise ApplicationError(_("round %(number)s is not placed") % {"number": pending.number})
        if pending is not None and reason == "no_move":
            # The rack that had no move is the game's final draw, as in the records (a
            # game stopped with a rack drawn keeps it as its last round, never placed).
            final = {"reliquat": pending.reliquat, "new": pending.new_tiles, "rejected": pending.rejected,
                     "manual": pending.manual}  # fmt: skip
        hub_game.end, hub_game.final, hub_game.ended_at = reason, final, now
        hub_game.save()
        _record(multiplex, "hub_game", hub_game.pk, "end", centre, None, {"end": reason})
        return hub_game


def _round_data(r: HubRound) -> dict[str, Any]:
    return {
        "game": r.game,
        "round": r.number,
        "reliquat": r.reliquat,
        "new": r.new_tiles,
        "rejected": r.rejected,
    }


def _record(
    multiplex: Multiplex, entity: str, pk: int, action: str, centre: Centre, old: Any, new: Any
) -> None:
    # The centres are not users of the hub: the entry says which centre did it.
    history_record(
        event=multiplex.event,
        entity=entity,
        object_id=pk,
        action=action,
        by=None,
        old=old,
        new=new,
        reason=_("sent by centre %(name)s") % {"name": centre.name},
    )


# ------------------------------------------------------------------ serving the centres


@dataclass(frozen=True)
class Served:
    round: HubRound
    serving: Serving
    with_top: bool
    game_end: str


def _visible(multiplex: Multiplex, game: int, number: int, now: dt.datetime) -> HubRound:
    """The round if any centre may see it now; NotServed otherwise (sealed draws: a rack
    the draw centre has not drawn, or a prepared game before its start)."""
    hub_round = HubRound.objects.filter(multiplex=multiplex, game=game, number=number).first()
    if hub_round is None or hub_round.drawn_at > now:
        raise NotServed(_("this round is not available"))
    if multiplex.mode == Multiplex.Mode.PREPARED:
        # Each game from its own start (game_schedule); the rounds carry it.
        hub_game = HubGame.objects.filter(multiplex=multiplex, number=game).first()
        if hub_game is None or now < hub_game.started_at:
            raise NotServed(_("this round is not available"))
    return hub_round


def serve_round(
    *, centre: Centre, game: int, number: int, with_top: bool = False, now: dt.datetime | None = None
) -> Served:
    """Round ``number`` of ``game`` for ``centre``: its rack, and its top when asked for
    and placed. A centre fetches ahead what has been published (it keeps playing when the
    connection drops); every first sight is recorded, so a top taken before the round's
    close is on the record. A centre starts a game at most ``max_delay_minutes`` after it
    began; rounds are served in order (round n once round n - 1 was)."""
    now = now or timezone.now()
    multiplex = centre.multiplex
    hub_round = _visible(multiplex, game, number, now)
    hub_game = HubGame.objects.get(multiplex=multiplex, number=game)
    with transaction.atomic():
        serving = Serving.objects.select_for_update().filter(centre=centre, round=hub_round).first()
        if serving is None:
            if number == 1 and not centre.draws:
                _check_not_late(multiplex, hub_game, now)
            elif (
                number > 1
                and not Serving.objects.filter(
                    centre=centre, round__multiplex=multiplex, round__game=game, round__number=number - 1
                ).exists()
            ):
                raise NotServed(_("this round is not available"))
            serving = Serving.objects.create(centre=centre, round=hub_round, rack_at=now)
        give_top = hub_round.placed_at is not None and (with_top or serving.closed_at is not None)
        if give_top and serving.top_at is None:
            serving.top_at = now
            serving.save(update_fields=["top_at"])
    Centre.objects.filter(pk=centre.pk).update(last_seen_at=now)
    return Served(hub_round, serving, give_top, hub_game.end if _is_last(hub_round, hub_game) else "")


def _check_not_late(multiplex: Multiplex, hub_game: HubGame, now: dt.datetime) -> None:
    late = now - hub_game.started_at
    if late > dt.timedelta(minutes=multiplex.max_delay_minutes):
        raise ApplicationError(
            _(
                "game %(game)s began %(minutes)s minutes ago:"
                " a centre may start it at most %(max)s minutes late"
            )
            % {
                "game": hub_game.number,
                "minutes": int(late.total_seconds() // 60),
                "max": multiplex.max_delay_minutes,
            }
        )


def round_served(r: HubRound, *, with_top: bool, game_end: str) -> dict[str, Any]:
    """A round as a centre receives it (api/multiplex.py; the sealed games hold the same):
    the rack, the top when given (played, score, moves, top_score, tops, board), the
    game's end on its last round once it has ended."""
    top = None
    if with_top:
        top = {
            "played": r.played,
            "score": r.score,
            "moves": r.moves,
            "top_score": r.top_score,
            "tops": r.tops,
            "board": r.board,
        }
    return {
        "game": r.game,
        "round": r.number,
        "reliquat": r.reliquat,
        "new": r.new_tiles,
        "rejected": r.rejected,
        "manual": r.manual,
        "top": top,
        "game_end": game_end,
    }


# ------------------------------------------------------------------ prepared games, sealed


@dataclass(frozen=True)
class Sealed:
    game: HubGame
    token: str


def _prepared_game(centre: Centre, game: int) -> HubGame:
    multiplex = centre.multiplex
    if multiplex.mode != Multiplex.Mode.PREPARED or centre.draws:
        raise ApplicationError(_("only the centres of a prepared multiplex receive sealed games"))
    hub_game = HubGame.objects.filter(multiplex=multiplex, number=game).first()
    if hub_game is None:
        raise NotServed(_("this game is not available"))
    return hub_game


def sealed_game(*, centre: Centre, game: int) -> Sealed:
    """A prepared game for ``centre`` ahead of its start, encrypted with the game's key
    (Fernet: AES-128 in CBC mode with an HMAC-SHA256): every round with its top. Fetched
    any time; readable only with the key, given from the game's start (:func:`game_key`)."""
    hub_game = _prepared_game(centre, game)
    rounds = list(HubRound.objects.filter(multiplex=centre.multiplex, game=game).order_by("number"))
    package = {
        "game": game,
        "rounds": [
            round_served(r, with_top=True, game_end=hub_game.end if i == len(rounds) - 1 else "")
            for i, r in enumerate(rounds)
        ],
    }
    token = Fernet(hub_game.seal_key.encode()).encrypt(json.dumps(package).encode()).decode()
    Centre.objects.filter(pk=centre.pk).update(last_seen_at=timezone.now())
    return Sealed(hub_game, token)


def game_key(*, centre: Centre, game: int, now: dt.datetime | None = None) -> str:
    """The key of a prepared game, from its start (a centre starting it later than the
    maximum delay is refused it). From then on every round of the game counts as served
    to the centre, rack and top: the record says when it could first see them."""
    now = now or timezone.now()
    hub_game = _prepared_game(centre, game)
    if now < hub_game.started_at:
        raise NotServed(_("this game is not available"))
    with transaction.atomic():
        if not Serving.objects.filter(
            centre=centre, round__multiplex=centre.multiplex, round__game=game
        ).exists():
            _check_not_late(centre.multiplex, hub_game, now)
        _serve_whole_game(centre, game, now)
    Centre.objects.filter(pk=centre.pk).update(last_seen_at=now)
    return hub_game.seal_key


def _check_first_sight(centre: Centre, hub_game: HubGame, now: dt.datetime) -> None:
    """A centre that has seen nothing of the game yet starts it now: not too late."""
    seen = Serving.objects.filter(
        centre=centre, round__multiplex=centre.multiplex, round__game=hub_game.number
    )
    if not seen.exists():
        _check_not_late(centre.multiplex, hub_game, now)


def _serve_whole_game(centre: Centre, game: int, now: dt.datetime) -> None:
    """Every round of a prepared game served to ``centre`` now, rack and top: a round
    first served otherwise (GET of a round) keeps its times, its top's set now if unset."""
    rounds = list(HubRound.objects.filter(multiplex=centre.multiplex, game=game))
    Serving.objects.bulk_create(
        [Serving(centre=centre, round=r, rack_at=now, top_at=now) for r in rounds], ignore_conflicts=True
    )
    Serving.objects.filter(centre=centre, round__in=rounds, top_at__isnull=True).update(top_at=now)


def key_read_out(*, multiplex: Multiplex, game: int, centre: Centre, by: User = None) -> HubGame:
    """The hub's arbitrator read a started game's key out to ``centre`` (it could not reach
    the hub): from now its rounds count as served to it, so that its results are taken
    when it is reached again, however late (the maximum delay is checked now)."""
    now = timezone.now()
    if centre.multiplex_id != multiplex.pk:
        raise ApplicationError(_("this centre is not a centre of this multiplex"))
    hub_game = _prepared_game(centre, game)
    if now < hub_game.started_at:
        raise ApplicationError(
            _("game %(game)s has not started: its key is given from its start") % {"game": game}
        )
    with transaction.atomic():
        _check_first_sight(centre, hub_game, now)
        _serve_whole_game(centre, game, now)
        history_record(
            event=multiplex.event, entity="hub_game", object_id=hub_game.pk, action="key_read_out", by=by,
            new={"centre": centre.name},
        )  # fmt: skip
    return hub_game


def game_schedule(
    *,
    multiplex: Multiplex,
    game: int,
    starts_at: dt.datetime,
    by: User = None,
    now: dt.datetime | None = None,
) -> HubGame:
    """Move a prepared game's start (each game of a simultané may have its own), until it
    has started: its rounds are served, and its key given, from then on. Not to the past
    (the game would open at once, every centre already late), and the games in order."""
    now = now or timezone.now()
    if multiplex.mode != Multiplex.Mode.PREPARED:
        raise ApplicationError(_("only a prepared multiplex has agreed starts"))
    if starts_at.tzinfo is None:
        raise ApplicationError(_("the start needs its time zone"))
    if starts_at <= now:
        raise ApplicationError(_("the start must be to come"))
    with transaction.atomic():
        games = {g.number: g for g in HubGame.objects.select_for_update().filter(multiplex=multiplex)}
        hub_game = games.get(game)
        if hub_game is None:
            raise ApplicationError(_("the multiplex has no game %(game)s") % {"game": game})
        if hub_game.started_at <= now:
            raise ApplicationError(_("game %(game)s has started: its start cannot move") % {"game": game})
        # The centres ask for the keys in game order: no game starts before the one before it.
        before, after = games.get(game - 1), games.get(game + 1)
        if before is not None and starts_at < before.started_at:
            raise ApplicationError(
                _("game %(game)s cannot start before game %(other)s") % {"game": game, "other": game - 1}
            )
        if after is not None and starts_at > after.started_at:
            raise ApplicationError(
                _("game %(game)s cannot start after game %(other)s") % {"game": game, "other": game + 1}
            )
        old = hub_game.started_at
        hub_game.started_at = starts_at
        hub_game.ended_at = starts_at if hub_game.end else None
        hub_game.save(update_fields=["started_at", "ended_at"])
        HubRound.objects.filter(multiplex=multiplex, game=game).update(
            drawn_at=starts_at, placed_at=starts_at
        )
        if game == 1:
            Multiplex.objects.filter(pk=multiplex.pk).update(starts_at=starts_at)
        history_record(
            event=multiplex.event, entity="hub_game", object_id=hub_game.pk, action="schedule", by=by,
            old={"starts_at": old.isoformat()}, new={"starts_at": starts_at.isoformat()},
        )  # fmt: skip
    return hub_game


def _is_last(hub_round: HubRound, hub_game: HubGame) -> bool:
    if not hub_game.end:
        return False
    return not HubRound.objects.filter(
        multiplex_id=hub_round.multiplex_id, game=hub_round.game, number__gt=hub_round.number
    ).exists()


def round_closed(
    *, centre: Centre, game: int, number: int, slips_digest: str, now: dt.datetime | None = None
) -> Served:
    """The centre closed round ``number``: its slips' digest is kept (the rulings sent
    later are of those slips) and the top is given, once the round is placed."""
    now = now or timezone.now()
    if not DIGEST.fullmatch(slips_digest):
        raise ApplicationError(_("the slips' digest must be 64 hexadecimal digits (SHA-256)"))
    multiplex = centre.multiplex
    hub_round = _visible(multiplex, game, number, now)
    with transaction.atomic():
        serving = Serving.objects.select_for_update().filter(centre=centre, round=hub_round).first()
        if serving is None:
            raise ApplicationError(_("round %(number)s was never served to this centre") % {"number": number})
        if serving.closed_at is None:
            serving.closed_at, serving.slips_digest = now, slips_digest
            serving.save(update_fields=["closed_at", "slips_digest"])
        elif serving.slips_digest != slips_digest:
            old = {"slips_digest": serving.slips_digest}
            serving.slips_digest = slips_digest
            serving.save(update_fields=["slips_digest"])
            _record(
                multiplex, "serving", serving.pk, "close_again", centre, old, {"slips_digest": slips_digest}
            )
    return serve_round(centre=centre, game=game, number=number, now=now)


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
                _record(multiplex, "centre_ruling", ruling.pk, "correct", centre, old, values)
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
                _record(
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
                _record(
                    multiplex, "centre_player", player.pk, "return", centre, old, {**values, "left_at": None}
                )
            else:
                _record(multiplex, "centre_player", player.pk, "change", centre, old, values)
            changed += 1
        ruled = set(CentreRuling.objects.filter(player__centre=centre).values_list("player_id", flat=True))
        for table, player in sorted(kept.items()):
            if table in tables or player.left_at is not None:
                continue
            if player.pk not in ruled:
                # Nothing points at a player without rulings: gone, so that rosters sent
                # again and again with other tables do not pile up on the hub.
                _record(multiplex, "centre_player", player.pk, "leave", centre,
                        _player_data(player), {"left_at": now.isoformat()})  # fmt: skip
                player.delete()
                left += 1
                continue
            player.left_at = now
            player.save(update_fields=["left_at"])
            moved.append(player)
            _record(multiplex, "centre_player", player.pk, "leave", centre,
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
