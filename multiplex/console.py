"""A multiplex from the console: a centre's link to its hub, sealed games and their key read
out, the roster, the hub's page."""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from multiplex import selectors as mx_selectors
from multiplex.selectors import multiplex_standings, multiplex_top_total
from multiplex.services import centre as centre_service
from multiplex.services.results import centre_player_remove, centre_player_restore
from multiplex.services.serving import key_read_out as key_read_out_service
from rooms.views.common import arbitrated_event, arbitrator_page, number, refusals
from rooms.views.console.base import back
from tournaments.core import ApplicationError


@require_POST
@arbitrator_page
def hub_sync(request: HttpRequest, event_id: int) -> HttpResponse:
    """A centre syncs with its hub now (the watchdog does it every 30 s)."""
    event = arbitrated_event(request, event_id)
    with refusals(request):
        report = centre_service.hub_sync(event=event)
        if not report.reached:
            messages.error(
                request,
                _("%(error)s. Everything is kept and sent at the next sync.") % {"error": report.error},
            )
        else:
            messages.success(
                request,
                _("Synced with the hub: %(sent)s item(s) sent, %(fetched)s round(s) fetched.")
                % {"sent": report.sent, "fetched": report.fetched},
            )
            for refused in report.refused:
                messages.warning(request, _("Refused by the hub: %(reason)s") % {"reason": refused})
    return back(event)


@require_POST
@arbitrator_page
def hub_unseal(request: HttpRequest, event_id: int) -> HttpResponse:
    """A centre that cannot reach its hub at a game's start opens the game it fetched
    sealed with the key the hub's arbitrator reads out."""
    event = arbitrated_event(request, event_id)
    game = number(request.POST.get("game"))
    with refusals(request):
        if game is None:
            raise ApplicationError(_("Which game? Its number is missing."))
        copied = centre_service.hub_unseal(
            event=event, game=game, key=request.POST.get("key", ""), by=request.user
        )
        messages.success(
            request, _("Game %(game)s opened: %(rounds)s round(s).") % {"game": game, "rounds": copied}
        )
    return back(event)


@require_POST
@arbitrator_page
def key_read_out(request: HttpRequest, event_id: int) -> HttpResponse:
    """The hub's arbitrator read a game's key out to a centre: its rounds count as served
    to it, its results are taken when it is back."""
    event = arbitrated_event(request, event_id)
    hub = mx_selectors.multiplex_of(event)
    if hub is None:
        raise Http404(_("this event is not a multiplex"))
    game, centre_id = number(request.POST.get("game")), number(request.POST.get("centre"))
    centre = mx_selectors.multiplex_centre(hub, centre_id) if centre_id is not None else None
    with refusals(request):
        if centre is None or game is None:
            raise ApplicationError(_("Which centre, which game? Choose them in the list."))
        key_read_out_service(multiplex=hub, game=game, centre=centre, by=request.user)
        messages.success(
            request,
            _("Game %(game)s: the key read out to %(centre)s is on the record.")
            % {"game": game, "centre": centre.name},
        )
    return redirect("multiplex:multiplex", event_id=event.pk)


@require_POST
@arbitrator_page
def multiplex_player_remove(request: HttpRequest, event_id: int) -> HttpResponse:
    """The hub's arbitrator removes a centre's player from the merged ranking, with the
    reason (``restore``: puts them back)."""
    event = arbitrated_event(request, event_id)
    hub = mx_selectors.multiplex_of(event)
    if hub is None:
        raise Http404(_("this event is not a multiplex"))
    player_id = number(request.POST.get("player"))
    player = mx_selectors.multiplex_player(hub, player_id) if player_id is not None else None
    reason = request.POST.get("reason", "")
    with refusals(request):
        if player is None:
            raise ApplicationError(_("Which player? Choose them in the list."))
        values = {"centre": player.centre.name, "table": player.table, "name": player.name}
        if request.POST.get("restore"):
            centre_player_restore(player=player, reason=reason, by=request.user)
            said = _("%(name)s (%(centre)s, table %(table)s) is back in the merged ranking.")
        else:
            centre_player_remove(player=player, reason=reason, by=request.user)
            said = _("%(name)s (%(centre)s, table %(table)s) is removed from the merged ranking.")
        messages.success(request, said % values)
    return redirect("multiplex:multiplex", event_id=event.pk)


@arbitrator_page
def multiplex(request: HttpRequest, event_id: int) -> HttpResponse:
    """The hub's page: its centres and the merged ranking (of one game, centre, category)."""
    event = arbitrated_event(request, event_id)
    hub = mx_selectors.multiplex_of(event)
    if hub is None:
        raise Http404(_("this event is not a multiplex"))
    centres = list(mx_selectors.multiplex_centres(hub))
    games = list(mx_selectors.hub_games(hub))
    game = next((g.number for g in games if str(g.number) == request.GET.get("game")), None)
    centre = next((c for c in centres if str(c.pk) == request.GET.get("centre")), None)
    category = request.GET.get("category") or None
    rows, centre_of = multiplex_standings(
        hub, game=game, centre=centre.pk if centre else None, category=category
    )
    categories = mx_selectors.multiplex_categories(hub)
    players = list(mx_selectors.multiplex_players(hub))
    return render(
        request,
        "multiplex/multiplex.html",
        {
            "event": event,
            "multiplex": hub,
            "centres": centres,
            "rows": rows,
            "centre_of": centre_of,
            "top_total": multiplex_top_total(hub, game=game),
            "games": games,
            "now": timezone.now(),
            "game": game,
            "centre": centre,
            "category": category,
            "categories": categories,
            "players": players,
            "off_ranking": [p for p in players if p.removed_at or p.left_at],
        },
    )
