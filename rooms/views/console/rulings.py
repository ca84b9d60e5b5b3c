"""A ruling of the review corrected: the arbitrator's figures, an average, a shifted
reference accepted, the slip read again."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _

from rooms.forms import (
    OverrideForm,
    ReasonForm,
    SlipReadForm,
)
from rooms.views.common import arbitrated_event, arbitrator_page, refusals
from rooms.views.console.base import back
from scoring.adjudication import Reason
from tournaments.core import ApplicationError
from tournaments.display import shown_move
from tournaments.history_text import history_lines
from tournaments.models import (
    Event,
    Ruling,
)
from tournaments.selectors.events import ruling_history
from tournaments.services.corrections import (
    round_average,
    ruling_accept_shift,
    ruling_average,
    ruling_override,
    slip_correct,
)


def _ruling_of(request: HttpRequest, event: Event, ruling_id: int) -> Ruling:
    ruling = get_object_or_404(Ruling.objects.select_related("round__game", "player", "slip"), pk=ruling_id)
    if ruling.round.game.event_id != event.pk:
        raise PermissionDenied
    return ruling


def _move_points(ruling: Ruling) -> int | None:
    """What the ruling's move scores on the board: the adjudication's own figure (its notes
    keep it), not the points an arbitrator's correction set (``move_score`` then)."""
    for note in ruling.notes:
        score = note.get("params", {}).get("score")
        if isinstance(score, int):
            return score
    return None if ruling.overridden or not ruling.move else ruling.move_score


#: Rulings that do not come from one slip read in time: their points are corrected instead.
UNREAD_AGAIN = ("late", "several_slips", "missing")


@arbitrator_page
def ruling_edit(request: HttpRequest, event_id: int, ruling_id: int) -> HttpResponse:
    """Correct one ruling with a reason, or accept its shifted reference."""
    event = arbitrated_event(request, event_id)
    ruling = _ruling_of(request, event, ruling_id)
    form = OverrideForm(
        initial={"credited": ruling.credited, "warnings": ruling.warnings, "penalty": ruling.penalty}
    )
    shift_form = ReasonForm(prefix="shift")
    slip = ruling.slip
    read_form = SlipReadForm(
        prefix="read",
        initial={"coordinates": slip.coordinates, "word": slip.word, "announced_score": slip.announced_score}
        if slip is not None
        else {},
    )
    if request.method == "POST" and "read-reason" in request.POST:
        read_form = SlipReadForm(request.POST, prefix="read")
        if read_form.is_valid():
            with refusals(request):
                slip_correct(ruling=ruling, by=request.user, **read_form.cleaned_data)
                messages.success(
                    request,
                    _("The slip of table %(table)s is read again and ruled.")
                    % {"table": ruling.player.table},
                )
                return redirect("console:ruling", event_id=event.pk, ruling_id=ruling.pk)
    elif request.method == "POST" and "average" in request.POST:
        with refusals(request):
            ruling_average(ruling=ruling, by=request.user)
            messages.success(
                request, _("Average credited to table %(table)s.") % {"table": ruling.player.table}
            )
            return back(event)
    elif request.method == "POST" and "shift-reason" in request.POST:
        shift_form = ReasonForm(request.POST, prefix="shift")
        if shift_form.is_valid():
            with refusals(request):
                ruling_accept_shift(ruling=ruling, by=request.user, reason=shift_form.cleaned_data["reason"])
                messages.success(request, _("Shifted reference accepted."))
                return back(event)
    elif request.method == "POST":
        form = OverrideForm(request.POST)
        if form.is_valid():
            changes = {k: v for k, v in form.cleaned_data.items() if v is not None and k != "reason"}
            with refusals(request):
                ruling_override(ruling=ruling, by=request.user, reason=form.cleaned_data["reason"], **changes)
                messages.success(
                    request, _("Ruling corrected for table %(table)s.") % {"table": ruling.player.table}
                )
                return back(event)
    entries = ruling_history(event, ruling)
    history = history_lines(list(entries), event)
    return render(
        request,
        "console/ruling.html",
        {
            "event": event,
            "ruling": ruling,
            "form": form,
            "shift_form": shift_form,
            "read_form": read_form,
            "readable": ruling.slip is not None and ruling.reason not in UNREAD_AGAIN,
            "shift": shown_move(ruling.shift_candidate, event.board, event.notation),
            "average": _average_offer(ruling),
            "move": shown_move(ruling.move, event.board, event.notation),
            "move_points": _move_points(ruling),
            "history": history,
        },
    )


def _average_offer(ruling: Ruling) -> int | None:
    """The average the arbitrator may give instead of this 0 (a word not in the list)."""
    if ruling.reason not in (Reason.NOT_IN_LEXICON, Reason.AVERAGE):
        return None
    try:
        return round_average(ruling)
    except ApplicationError:
        return None
