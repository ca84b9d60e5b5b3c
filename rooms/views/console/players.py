"""The event's players: the list and the phones asking for a table, the table cards, one
player's details."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from rooms.forms import (
    PlayerForm,
    PlayersImportForm,
)
from rooms.views.common import arbitrated_event, arbitrator_page, number, refusals
from rooms.views.hall import join_url
from tournaments.core import ApplicationError
from tournaments.models import (
    Player,
    PlayerToken,
)
from tournaments.selectors.players import event_people, join_requests, players_with_phones
from tournaments.services.players import (
    PLAYER_FIELDS,
    join_number,
    player_add,
    player_join_confirm,
    player_join_refuse,
    player_release,
    player_remove,
    player_update,
    player_withdraw,
    players_import,
    seat_code_renew,
)


@arbitrator_page
def players(request: HttpRequest, event_id: int) -> HttpResponse:
    event = arbitrated_event(request, event_id)
    form = PlayerForm(prefix="one")
    import_form = PlayersImportForm(prefix="csv")
    if request.method == "POST" and "one-name" in request.POST:
        form = PlayerForm(request.POST, prefix="one")
        if form.is_valid():
            with refusals(request):
                player = player_add(event=event, by=request.user, **form.cleaned_data)
                messages.success(
                    request,
                    _("%(name)s added at table %(table)s.") % {"name": player.name, "table": player.table},
                )
                return redirect("console:players", event_id=event.pk)
    elif request.method == "POST" and "release" in request.POST:
        player = get_object_or_404(Player, pk=number(request.POST.get("release", "")) or 0, event=event)
        with refusals(request):
            player_release(player=player, by=request.user)
            messages.success(
                request, _("Table %(table)s released: it may join again.") % {"table": player.table}
            )
            return redirect("console:players", event_id=event.pk)
    elif request.method == "POST" and ("confirm" in request.POST or "refuse" in request.POST):
        confirm = "confirm" in request.POST
        key = number(request.POST.get("confirm" if confirm else "refuse", "")) or 0
        token = get_object_or_404(PlayerToken, pk=key, player__event=event)
        with refusals(request):
            table = token.player.table
            if confirm:
                player_join_confirm(token=token, by=request.user)
                said = _("Table %(table)s: the phone is confirmed.")
            else:
                player_join_refuse(token=token, by=request.user)
                said = _("Table %(table)s: the phone is refused.")
            messages.success(request, said % {"table": table})
            return redirect("console:players", event_id=event.pk)
    elif request.method == "POST":
        import_form = PlayersImportForm(request.POST, request.FILES, prefix="csv")
        if import_form.is_valid():
            with refusals(request):
                created = players_import(
                    event=event, csv_text=import_form.cleaned_data["text"], by=request.user
                )
                messages.success(
                    request,
                    ngettext("%(count)s player imported.", "%(count)s players imported.", len(created))
                    % {"count": len(created)},
                )
                return redirect("console:players", event_id=event.pk)
    listed = players_with_phones(event)
    waiting = [(t, join_number(t)) for t in join_requests(event)]
    return render(
        request,
        "console/players.html",
        {"event": event, "form": form, "import_form": import_form, "players": listed, "waiting": waiting},
    )


@arbitrator_page
def table_cards(request: HttpRequest, event_id: int) -> HttpResponse:
    """The table cards to print and lay on the tables: each player's seat code, which
    their phone types to take the table (the event code alone is on the projector)."""
    event = arbitrated_event(request, event_id)
    return render(
        request,
        "console/table_cards.html",
        {
            "event": event,
            "players": event_people(event),
            "join_url": join_url(request, event),
        },
    )


@arbitrator_page
def player_edit(request: HttpRequest, event_id: int, player_id: int) -> HttpResponse:
    """One player: corrected, withdrawn from the later rounds (or back), or removed."""
    event = arbitrated_event(request, event_id)
    player = get_object_or_404(Player, pk=player_id, event=event)
    form = PlayerForm(initial={key: getattr(player, key) for key in PLAYER_FIELDS})
    if request.method == "POST":
        action = request.POST.get("action", "")
        with refusals(request):
            if action == "save":
                form = PlayerForm(request.POST)
                if form.is_valid():
                    data = dict(form.cleaned_data)
                    data["table"] = data.get("table") or player.table
                    player = player_update(player=player, by=request.user, **data)
                    messages.success(
                        request,
                        _("%(name)s, table %(table)s: saved.") % {"name": player.name, "table": player.table},
                    )
                    return redirect("console:players", event_id=event.pk)
            elif action in ("withdraw", "reinstate"):
                player = player_withdraw(player=player, by=request.user, withdrawn=action == "withdraw")
                messages.success(
                    request,
                    (
                        _("%(name)s is withdrawn from the rounds opened from now on; their scores stay.")
                        if action == "withdraw"
                        else _("%(name)s plays again from the next round opened.")
                    )
                    % {"name": player.name},
                )
                return redirect("console:players", event_id=event.pk)
            elif action == "seat_code":
                player = seat_code_renew(player=player, by=request.user)
                messages.success(
                    request,
                    _(
                        "Table %(table)s has a new seat code: print its card again;"
                        " the old one no longer joins."
                    )
                    % {"table": player.table},
                )
                return redirect("console:player", event_id=event.pk, player_id=player.pk)
            elif action == "remove":
                player_remove(player=player, by=request.user)
                messages.success(request, _("%(name)s is removed.") % {"name": player.name})
                return redirect("console:players", event_id=event.pk)
            else:
                raise ApplicationError(_("Unknown action."))
    return render(
        request,
        "console/player.html",
        {"event": event, "player": player, "form": form, "slips": player.slips.count()},
    )
