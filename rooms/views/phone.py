"""The player's phone page: join, see the board and rack, hand in a slip, see the result.

A slip is sent by the page's script to the REST API with the player's token and a
``client_id``, kept in the phone's storage until the server acknowledges it (a Wi-Fi
drop loses nothing: the retry is idempotent). Without JavaScript the form posts here."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from plumbing.middleware import client_address, received_at
from rooms.charts import player_chart
from rooms.forms import JoinForm
from rooms.lines import PlayerLines, player_lines
from rooms.templatetags.arbiter import colon
from rooms.views.common import (
    SESSION_PLAYERS,
    is_htmx,
    number,
    refusals,
    remember_player,
    session_player,
    session_waiting,
    within_rate,
)
from tournaments.core import ApplicationError
from tournaments.display import sorted_rack
from tournaments.models import Event, Player, PlayerToken, Round
from tournaments.models.players import seat_code_clean
from tournaments.selectors.events import event_with_code
from tournaments.selectors.games import current_round, player_sight, results_being_checked
from tournaments.selectors.live import LiveVersions, live_versions_of
from tournaments.selectors.players import person_at_table, person_named
from tournaments.selectors.shown import GameView, public_view
from tournaments.services.players import join_number, player_token_issue, seat_code_needed
from tournaments.services.slips import slip_submit


def _unknown() -> str:
    # One message for every miss: it must not tell which codes, seats or tables exist.
    return _("Unknown event code, seat code, table or name: check them with the arbitrator.")


def _join_allowed(request: HttpRequest) -> bool:
    """Per address, at the API's join rate (``ARBITER_JOIN_RATE``): enough to stop code
    guessing."""
    return within_rate(request, "join", client_address(request))


def _find_player(event: Event, who: str) -> Player | None:
    who = who.strip()
    table = number(who)
    return person_at_table(event, table) if table is not None else person_named(event, who)


def _take_seat(request: HttpRequest, event: Event, typed: str, who: str) -> PlayerToken:
    """The token for what the phone typed: a seat code, else (where the arbitrator
    confirms joins) a table number or a name."""
    held = request.session.get(SESSION_PLAYERS, {}).get(str(event.pk), {}).get("token", "")
    seen = {"held": held, "address": client_address(request), "device": request.headers.get("User-Agent", "")}
    if seat_code_clean(who):
        try:
            return player_token_issue(event=event, code=typed, seat=who, **seen)
        except ApplicationError as exc:
            # A name of six such letters: tried as a name where names may join.
            if exc.extra.get("reason") != "join_refused" or event.seating != Event.Seating.CONFIRM:
                raise
    if event.seating != Event.Seating.CONFIRM:
        # Said before any look-up: the answer must not tell which tables or names exist.
        raise seat_code_needed()
    player = _find_player(event, who)
    if player is None:
        raise ApplicationError(_unknown())
    return player_token_issue(event=event, code=typed, table=player.table, **seen)


def join(request: HttpRequest, code: str = "") -> HttpResponse:
    """Join with the event code (typed, or in the QR code's address) and the seat code of
    the table card (or a table or name, confirmed by the arbitrator, where the event says so)."""
    form = JoinForm(initial={"code": code.upper()})
    if request.method == "POST":
        form = JoinForm(request.POST)
        if not _join_allowed(request):
            messages.error(request, _("Too many attempts: wait a minute and try again."))
        elif form.is_valid():
            typed = form.cleaned_data["code"].strip().upper()
            event = event_with_code(typed)
            if event is None:
                messages.error(request, _unknown())
            else:
                with refusals(request):
                    token = _take_seat(request, event, typed, form.cleaned_data["who"])
                    remember_player(request, event, token.player, token.key)
                    return redirect("phone:play", event_id=event.pk)
    return render(request, "phone/join.html", {"form": form})


#: The session key of the player's rack order, and the order by default (vowels first).
SORT_KEY, SORT_DEFAULT = "arbiter_sort", "v"


def rack_order(request: HttpRequest) -> str:
    """The player's rack order (``?sort=``, then kept in the session): vowels first by default."""
    order = request.GET.get("sort")
    if order in ("a", "v"):
        request.session[SORT_KEY] = order
    return str(request.session.get(SORT_KEY, SORT_DEFAULT))


@dataclass(frozen=True)
class Shared:
    """What every phone's panel shows of an event at one public version."""

    event: Event
    round: Round | None
    versions: LiveVersions
    view: GameView | None


#: event id -> the last :class:`Shared` read in this process.
_shared_memo: dict[int, Shared] = {}


def shared_at(event: Event, wanted: str) -> Shared:
    """The event as every phone sees it. A phone reloading its panel says which public
    version its live stream announced (``?v=``): when this process has read that version
    already, the panel is built from it without reading the event, the round and the
    versions again. At each change a hall's 2,000 phones ask at once; each process reads
    once. Any other version (or none) is read from the database: a phone never gets
    older content than the version it was told of."""
    known = _shared_memo.get(event.pk)
    if wanted and known is not None and known.versions.public == wanted:
        return known
    round = current_round(event)
    versions = live_versions_of(event, round)
    view = public_view(event, versions.public, round.game if round is not None else None)
    shared = Shared(round.game.event if round is not None else event, round, versions, view)
    _shared_memo[event.pk] = shared
    return shared


def forget_shared() -> None:
    """Drop what the panels read (tests)."""
    _shared_memo.clear()


def public_context(shared: Shared, order: str) -> dict[str, Any]:
    """What a panel shows that is the same on every phone at this public version, in one
    rack order (the player's own lines are in :func:`mine_context`)."""
    event, round, versions, view = shared.event, shared.round, shared.versions, shared.view
    return {
        "event": event,
        "versions": versions,
        "view": view,
        "round": round,
        "order": order,
        "rack_sorted": sorted_rack(view.rack, order) if view else "",
        "rack_tiles": _tiles(view, sorted_rack(view.rack, order)) if view else [],
        "ruled": round is not None and player_sight(round).answers,
        "checking": results_being_checked(round),
        "placed": [(p, None) for p in view.placed] if view else [],
    }


def player_lines_of(shared: Shared, players: list[int]) -> dict[int, PlayerLines]:
    view = shared.view
    return player_lines(shared.event, shared.round, view.game if view else None, players)


def mine_context(context: dict[str, Any], lines: PlayerLines) -> dict[str, Any]:
    """``context`` (:func:`public_context`) with one player's own lines in place."""
    view = context["view"]
    round = context["round"]
    return {
        **context,
        "mine": lines,
        # Past the deadline (the round not closed yet) a slip can no longer be replaced.
        "time_up": round is not None and round.time_up(timezone.now()),
        "placed": [(p, lines.credited.get(p.number)) for p in view.placed] if view else [],
        "chart": player_chart(view, context["round"], lines),
    }


def _play_context(request: HttpRequest, event: Event, player: Player, token: str) -> dict[str, Any]:
    shared = shared_at(event, request.GET.get("v", "")[:100])
    context = public_context(shared, rack_order(request))
    lines = player_lines_of(shared, [player.pk])[player.pk]
    return {**mine_context(context, lines), "player": player, "token": token}


def _tiles(view: GameView, rack: str) -> list[tuple[str, int]]:
    """The rack's tiles in the player's order, with their values (``-v``, docs/rules.md#aids-and-records)."""
    values = dict(view.values)
    return [(letter, values.get(letter, 0)) for letter in rack]


def play(request: HttpRequest, event_id: int) -> HttpResponse:
    known = _shared_memo.get(event_id)
    if known is not None and known.versions.public == request.GET.get("v"):
        event = known.event  # a panel reload at a version this process has read
    else:
        event = get_object_or_404(Event, pk=event_id)
    player, token = session_player(request, event)
    if request.GET.get("part") == "waiting":
        # The waiting page's question: still waiting (204), or look again (205: joined,
        # refused or released).
        still = player is None and session_waiting(request, event) is not None
        return HttpResponse(status=204 if still else 205)
    if player is None:
        waiting = session_waiting(request, event)
        if waiting is not None:
            return render(
                request,
                "phone/waiting.html",
                {"event": event, "player": waiting.player, "number": join_number(waiting)},
            )
        # To the join page without the code: event ids are sequential, so whoever guesses
        # this address must not be handed the code of the event (and a table with it).
        return redirect("phone:join")
    context = _play_context(request, event, player, token)
    if is_htmx(request) and request.GET.get("part") == "panel":
        return render(request, "phone/_panel.html", context)
    context["phone_text"] = {
        "received": _("Received at"),
        "colon": colon(),
        "blankslip": _("a blank slip"),
        "blank": _("blank"),
        "pending": _("Not received yet: it will be sent again as soon as the network is back."),
        "refused": _("Refused"),
        "offline": _("No network"),
        "sending": _("Sending…"),
        "notsent": _("TOO LATE: the arbitrator had closed the round when the slip arrived; it scores 0."),
        "timeup": _("TOO LATE: time was up when the slip arrived; it scores 0."),
        "timeisup": _("Time is up: no more slips for this round."),
        "replace": _("You may replace it until the deadline."),
        "direction": _("Direction:"),
        "across": _("across"),
        "down": _("down"),
        # The receipts' times in the event's time zone, as the server writes them after a
        # reload, not in the phone's own.
        "tz": timezone.get_current_timezone_name(),
    }
    return render(request, "phone/play.html", context)


@require_POST
def slip(request: HttpRequest, event_id: int) -> HttpResponse:
    """The form's target when the page's script does not run."""
    event = get_object_or_404(Event, pk=event_id)
    player, _token = session_player(request, event)
    if player is None:
        return redirect("phone:join")  # without the code, as play() does
    round = current_round(event)
    blank = bool(request.POST.get("pass"))  # "I pass": a blank slip, the fields not read
    score_text = "" if blank else (request.POST.get("announced_score") or "").strip()
    with refusals(request):
        if not within_rate(request, "slips", f"player-{player.pk}"):  # ARBITER_SLIP_RATE
            raise ApplicationError(_("Too many slips: wait a minute and try again."))
        if round is None:
            raise ApplicationError(_("No round is open."))
        score = number(score_text)
        if score_text and score is None:
            raise ApplicationError(_("The score is a whole number."))
        result = slip_submit(
            round=round,
            player=player,
            coordinates="" if blank else request.POST.get("coordinates", "")[:20],
            word="" if blank else request.POST.get("word", "")[:40],
            announced_score=score,
            client_id=request.POST.get("client_id", "")[:64],
            for_round=_for_round(request),
            now=received_at(request),
        )
        at = timezone.localtime(result.slip.received_at).strftime("%H:%M:%S")
        if result.slip.late:
            messages.error(request, _("Slip received late, at %(time)s: it scores 0.") % {"time": at})
        else:
            messages.success(request, _("Slip received at %(time)s.") % {"time": at})
    return redirect("phone:play", event_id=event.pk)


def _for_round(request: HttpRequest) -> tuple[int, int] | None:
    game, round = number(request.POST.get("game")), number(request.POST.get("round"))
    return (game, round) if game is not None and round is not None else None


@require_POST
def leave(request: HttpRequest, event_id: int) -> HttpResponse:
    """Forget the player joined on this browser (a shared phone, a wrong table)."""
    joined = dict(request.session.get(SESSION_PLAYERS, {}))
    joined.pop(str(event_id), None)
    request.session[SESSION_PLAYERS] = joined
    return redirect("phone:join")
