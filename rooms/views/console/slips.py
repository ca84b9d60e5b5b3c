"""Paper slips typed by the arbitrator, and their Try Move preview (updated in place)."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from rooms.forms import (
    SlipForm,
)
from rooms.views.common import arbitrated_event, arbitrator_page, is_htmx, refusals
from rooms.views.console.base import back, unplaced_round
from tournaments.core import ApplicationError
from tournaments.judging import move_preview
from tournaments.selectors.players import player_at_table
from tournaments.services.slips import paper_slip_submit


@arbitrator_page
def slip_entry(request: HttpRequest, event_id: int) -> HttpResponse:
    """Paper slips by keyboard: table, coordinates, word, score, Enter; the form comes
    back empty with the table field focused and a line saying what was stored."""
    event = arbitrated_event(request, event_id)
    if request.method != "POST":
        return back(event)
    form = SlipForm(request.POST)
    stored = ""
    ask_second = False
    refused: list[str] = []
    if form.is_valid():
        data = form.cleaned_data
        with refusals(request, refused if is_htmx(request) else None):
            round = unplaced_round(event, request)
            player = player_at_table(event, data["table"])
            if player is None:
                raise ApplicationError(_("No player at table %(table)s.") % {"table": data["table"]})
            preview = move_preview(
                round, data["coordinates"], data["word"], data["announced_score"], player=player
            )
            try:
                result = paper_slip_submit(
                    round=round,
                    player=player,
                    coordinates=data["coordinates"],
                    word=data["word"],
                    announced_score=data["announced_score"],
                    by=request.user,
                    second=data["second"] or None,
                )
            except ApplicationError as exc:
                # The same slip comes back with the question; nothing is stored yet.
                ask_second = exc.extra.get("reason") == "second_slip"
                raise

            stored = _("Table %(table)s (%(name)s): %(move)s, %(outcome)s") % {
                "table": player.table,
                "name": player.name,
                "move": preview.move or f"{data['coordinates']} {data['word']}".strip() or "-",
                "outcome": _outcome(preview),
            }
            if result.slip.late:
                stored += " " + _("LATE: the round was closed, the slip is kept and scores 0.")
            form = SlipForm()
    if not is_htmx(request):
        if stored:
            messages.success(request, stored)
        elif form.errors:
            messages.error(request, _("The slip was not stored: check the fields."))
        return back(event)
    if ask_second:
        form.fields["second"].widget.attrs["autofocus"] = True  # the question, not the table
    # The form comes back in place of itself; what happened goes into the region under it,
    # which stays (a live region replaced with its words is not read out).
    return render(
        request,
        "console/_slip_stored.html",
        {
            "event": event,
            "slip_form": form,
            "stored": stored,
            "refused": refused,
            "ask_second": ask_second,
            "round_key": request.POST.get("round_key", ""),
        },
    )


def _outcome(preview: Any) -> str:
    if preview.ok:
        score = preview.move_score
        text = ngettext("%(score)s point", "%(score)s points", score) % {"score": score}
        remarks = preview.remarks()
        if remarks:
            text += " (" + remarks + ")"
        if preview.warnings or preview.penalty:
            text += ", " + _("%(credited)s credited") % {"credited": preview.credited}
        if preview.warning_penalty:
            text += " " + _("(warning %(count)s of the game: %(penalty)s-point penalty)") % {
                "count": preview.game_warnings,
                "penalty": preview.warning_penalty,
            }
        return text
    return _("0: %(detail)s") % {"detail": preview.detail}


@arbitrator_page
def slip_preview(request: HttpRequest, event_id: int) -> HttpResponse:
    """Try Move: what the slip being typed scores on the current board, as typed."""
    event = arbitrated_event(request, event_id)
    form = SlipForm(request.POST or request.GET)
    form.is_valid()
    data = form.cleaned_data
    preview = player = None
    error = ""
    coordinates, word = data.get("coordinates") or "", data.get("word") or ""
    if data.get("table"):
        player = player_at_table(event, data["table"])
    if coordinates or word:
        try:
            preview = move_preview(
                unplaced_round(event), coordinates, word, data.get("announced_score"), player=player
            )
        except ApplicationError as exc:
            error = exc.message
    return render(
        request,
        "console/_preview.html",
        {"preview": preview, "player": player, "table": data.get("table"), "error": error, "event": event},
    )
