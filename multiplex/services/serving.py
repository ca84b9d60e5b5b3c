"""The hub's game and what the centres are served of it (docs/rules.md#multiplex): the
draw centre's publications (live mode, each checked by replaying the game), the rounds a
centre may see, the prepared games sent ahead sealed and their keys, the closes."""

from __future__ import annotations

import datetime as dt
import json
from dataclasses import dataclass
from typing import Any

from cryptography.fernet import Fernet
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from multiplex.models import Centre, HubGame, HubRound, Multiplex, Serving
from multiplex.services.hub import DIGEST, NotServed, centre_record
from solver.analysis import Analysis
from solver.errors import IllegalRackError
from solver.formats.record import END_REASONS
from solver.game import Game as SolverGame
from solver.notation import format_move, parse_move
from tournaments.core import ApplicationError, User
from tournaments.messages import say_error
from tournaments.services.history import history_record
from tournaments.state import event_config, solver_lexicon

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
            centre_record(multiplex, "hub_round", existing.pk, "redraw", centre, old, _round_data(existing))
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
        centre_record(multiplex, "hub_round", hub_round.pk, "draw", centre, None, _round_data(hub_round))
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
        centre_record(
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
        centre_record(multiplex, "hub_game", hub_game.pk, "end", centre, None, {"end": reason})
        return hub_game


def _round_data(r: HubRound) -> dict[str, Any]:
    return {
        "game": r.game,
        "round": r.number,
        "reliquat": r.reliquat,
        "new": r.new_tiles,
        "rejected": r.rejected,
    }


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
    """A round as a centre receives it (multiplex/api.py; the sealed games hold the same):
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
            centre_record(
                multiplex, "serving", serving.pk, "close_again", centre, old, {"slips_digest": slips_digest}
            )
    return serve_round(centre=centre, game=game, number=number, now=now)
