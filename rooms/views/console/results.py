"""What an event has given: its standings, its history, the printed sheets, the exports."""

from __future__ import annotations

from django.contrib import messages
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _

from rooms.views.common import arbitrated_event, arbitrator_page, is_htmx, number, refusals
from tournaments.history_text import history_lines
from tournaments.linked import linker
from tournaments.selectors.events import event_history, printed_sheets
from tournaments.selectors.games import event_games
from tournaments.selectors.players import event_categories, event_player, event_players
from tournaments.standings import (
    counted_round_numbers,
    event_standings,
    game_standings,
)


@arbitrator_page
def standings(request: HttpRequest, event_id: int) -> HttpResponse:
    event = arbitrated_event(request, event_id)
    games = list(event_games(event))
    game = next((g for g in games if g.number == number(request.GET.get("game"))), None)
    category = request.GET.get("category") or None
    rounds = counted_round_numbers(game) if game else []
    after = number(request.GET.get("round"))
    after = after if game and after in rounds else None
    if game:
        rows = game_standings(game, category=category, after_round=after)
    else:
        rows = event_standings(event, category=category)
    categories = event_categories(event)
    return render(
        request,
        "console/standings.html",
        {
            "event": event,
            "rows": rows,
            "rounds": rounds,
            "after": after if after is not None else (rounds[-1] if rounds else None),
            "games": games,
            "game": game,
            "category": category,
            "categories": categories,
        },
    )


@arbitrator_page
def history(request: HttpRequest, event_id: int) -> HttpResponse:
    event = arbitrated_event(request, event_id)
    entity = request.GET.get("entity")
    entries = event_history(event, entity=entity)
    page = Paginator(entries, 100).get_page(request.GET.get("page"))
    # Each entry keeps what was stored (moves in GCG, times in UTC); the page says it in words.
    rows = history_lines(list(page), event)
    kinds = [
        ("event", _("settings")),
        ("game", _("games")),
        ("round", _("draws and rounds")),
        ("slip", _("slips")),
        ("ruling", _("rulings")),
    ]
    return render(
        request,
        "console/history.html",
        {"event": event, "page": page, "rows": rows, "entity": entity, "kinds": kinds},
    )


@arbitrator_page
def sheets(request: HttpRequest, event_id: int) -> HttpResponse:
    """Ask for a sheet (printed by a worker) and download the printed ones."""
    from tournaments.models import PrintedSheet
    from tournaments.services import sheets as sheet_services

    event = arbitrated_event(request, event_id)
    if request.method == "POST":
        kind = request.POST.get("kind", "")
        game_text = request.POST.get("game", "")
        player_text = request.POST.get("player", "")
        player_id = number(player_text)
        player = event_player(event, player_id) if player_id is not None else None
        round_text = request.POST.get("round", "")
        with refusals(request):
            sheet_services.sheet_request(
                event=event,
                kind=kind,
                game=number(game_text),
                player=player,
                round=number(round_text),
                language=request.POST.get("language", "fr"),
                by=request.user,
            )
            messages.success(request, _("The sheet is being printed: it appears below in a moment."))
        return redirect("console:sheets", event_id=event.pk)
    listed = printed_sheets(event)
    own = linker(event).own_sheets(event)
    kinds = PrintedSheet.Kind.choices
    if own is not None:  # a hub prints the merged sheets; the centres print the others
        kinds = [(value, label) for value, label in kinds if value in own.kinds]
    context = {
        "event": event,
        "sheets": listed,
        "pending": any(s.state == PrintedSheet.State.PENDING for s in listed),
        "kinds": kinds,
        "games": event_games(event),
        "is_hub": own is not None,
        "hub_games": [{"number": n} for n in own.games()] if own is not None else [],
        "players": event_players(event),
    }
    if is_htmx(request):
        return render(request, "console/_sheets.html", context)
    return render(request, "console/sheets.html", context)


@arbitrator_page
def sheet_download(request: HttpRequest, event_id: int, sheet_id: int) -> HttpResponse:
    from tournaments.models import PrintedSheet

    event = arbitrated_event(request, event_id)
    sheet = get_object_or_404(PrintedSheet, pk=sheet_id, event=event, state=PrintedSheet.State.READY)
    response = HttpResponse(bytes(sheet.pdf), content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{sheet.filename}"'
    return response


#: Content type of each export's file extension.
EXPORT_TYPES = {
    "csv": "text/csv; charset=utf-8",
    "json": "application/json; charset=utf-8",
    "gcg": "text/plain; charset=utf-8",
}


@arbitrator_page
def export(request: HttpRequest, event_id: int, kind: str, ext: str) -> HttpResponse:
    """An export as a file: the standings (of one game with ``?game=N``), every slip with
    its ruling, the JSON game record or the GCG of a game (``?game=N``, default the last)."""
    from tournaments import exports

    event = arbitrated_event(request, event_id)
    if exports.EXPORTS.get(kind) != ext:
        raise Http404
    game = request.GET.get("game", "")
    game_number = number(game)
    try:
        data = exports.export(kind, event, game_number)
    except ValueError as exc:
        messages.error(request, str(exc))
        return redirect("console:sheets", event_id=event.pk)
    response = HttpResponse(data, content_type=EXPORT_TYPES[ext])
    suffix = f"-game-{game_number}" if game_number is not None and kind != "slips" else ""
    response["Content-Disposition"] = f'attachment; filename="event-{event.pk}-{kind}{suffix}.{ext}"'
    return response
