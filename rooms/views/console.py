"""The arbitrator's console: set up the event, run each round, review and correct.

Every action is a POST form that works without JavaScript (post, then redirect back to
the round page with a message); with htmx the paper slip entry and its Try Move preview
update in place, and the round page refreshes itself when something changes."""

from __future__ import annotations

import datetime as dt
import functools
from dataclasses import dataclass
from typing import Any

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.db import transaction
from django.db.models import OuterRef, Subquery
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.functional import SimpleLazyObject
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from rooms.forms import (
    DrawForm,
    EventForm,
    MasterImportForm,
    OpenForm,
    OverrideForm,
    PlayerForm,
    PlayersImportForm,
    ReasonForm,
    SlipForm,
    SlipReadForm,
    TopForm,
)
from rooms.views.common import arbitrated_event, arbitrator_page, is_htmx, number, refusals
from rooms.views.hall import join_url
from scoring.adjudication import Reason
from solver.notation import parse_move
from tournaments import selectors, services
from tournaments.centre import hub_move, link_state
from tournaments.display import board_size, end_reason_text, rack_text, shown_move
from tournaments.history_text import history_lines
from tournaments.judging import move_preview
from tournaments.models import (
    CentrePlayer,
    Event,
    Game,
    HistoryEntry,
    HubGame,
    Lexicon,
    Player,
    PlayerToken,
    Round,
    Ruling,
)
from tournaments.selectors import (
    RULED,
    current_game,
    current_round,
    listed_review,
    listed_watch,
    live_versions,
    public_view,
    review_version,
    typed_rack_problem,
)
from tournaments.services import centre as centre_service
from tournaments.services import transfer
from tournaments.standings import (
    counted_round_numbers,
    event_standings,
    game_standings,
    multiplex_standings,
    multiplex_top_total,
)
from tournaments.state import master_round


def _back(event: Event) -> HttpResponse:
    return redirect("console:event", event_id=event.pk)


# --------------------------------------------------------------------------- events


@arbitrator_page
def events(request: HttpRequest) -> HttpResponse:
    user = request.user
    listed = Event.objects.all() if user.is_staff else Event.objects.filter(created_by=user.pk)
    return render(request, "console/events.html", {"events": listed.order_by("-starts_on", "name")})


def _lexicon(form: EventForm) -> Lexicon:
    """The word list chosen in the form: bundled, imported before, or uploaded now (its
    size checked by the form; a worker compiles it)."""
    upload = form.cleaned_data.get("word_list")
    if upload is not None:
        name = upload.name.rsplit(".", 1)[0][:80] or "list"
        language = "fr" if form.cleaned_data["language"] == Event.Language.FRENCH else "en"
        suffix = 2
        unique = name
        while Lexicon.objects.filter(name=unique).exists():
            unique, suffix = f"{name} ({suffix})", suffix + 1
        return services.lexicon_upload(
            name=unique, language=language, data=upload.read(), source_name=upload.name
        )
    kind, _sep, value = form.cleaned_data["lexicon_choice"].partition(":")
    if kind == "bundled":
        return services.lexicon_bundled(name=value)
    return get_object_or_404(Lexicon.objects.defer("content"), pk=number(value) or 0)


def _lexicon_said(request: HttpRequest, lexicon: Lexicon) -> None:
    if lexicon.state == Lexicon.State.IMPORTING:
        messages.info(
            request,
            _(
                "The word list %(name)s is being imported by the worker: its progress shows on the"
                " event's pages. A game can start once it is ready."
            )
            % {"name": lexicon.name},
        )


@arbitrator_page
def lexicon_progress(request: HttpRequest, event_id: int) -> HttpResponse:
    """Where the import of the event's word list is (its part of the event's pages asks
    every few seconds while it is importing)."""
    event = arbitrated_event(request, event_id)
    return render(request, "console/_lexicon.html", {"event": event, "lexicon": event.lexicon})


@arbitrator_page
def event_new(request: HttpRequest) -> HttpResponse:
    if request.method == "POST":
        form = EventForm(request.POST, request.FILES)
        if form.is_valid():
            # Atomic: an event refused leaves no word list behind, nor its import queued.
            with refusals(request), transaction.atomic():
                event = services.event_create(
                    name=form.cleaned_data["name"],
                    starts_on=form.cleaned_data["starts_on"],
                    lexicon=_lexicon(form),
                    created_by=request.user,
                    **form.settings(),
                )
                messages.success(
                    request, _("Event created. Its join code is %(code)s.") % {"code": event.code}
                )
                _lexicon_said(request, event.lexicon)
                return redirect("console:players", event_id=event.pk)
    else:
        form = EventForm(initial={"starts_on": dt.date.today()})
    return render(request, "console/event_form.html", {"form": form, "event": None})


@arbitrator_page
def event_import(request: HttpRequest) -> HttpResponse:
    """A new event whose first game replays an imported game record (a master game)."""
    if request.method == "POST":
        form = MasterImportForm(request.POST, request.FILES)
        if form.is_valid():
            with refusals(request):
                restore = form.cleaned_data["restore"]
                settings = form.settings()
                if restore:
                    # The notation and mode the slips were written and ruled with come with them.
                    settings = {key: settings[key] for key in transfer.FREE_SETTINGS}
                event = transfer.event_import(
                    name=form.cleaned_data["name"],
                    starts_on=form.cleaned_data["starts_on"],
                    game_file=transfer.read_game_file(form.cleaned_data["record"].read()),
                    restore=restore,
                    by=request.user,
                    **settings,
                )
                done = (
                    _("Event created with the game restored. Its join code is %(code)s.")
                    if restore
                    else _(
                        "Event created: its first game replays the imported game. Its join code is %(code)s."
                    )
                )
                messages.success(request, done % {"code": event.code})
                return redirect("console:players", event_id=event.pk)
    else:
        form = MasterImportForm(initial={"starts_on": dt.date.today()})
    return render(request, "console/event_import.html", {"form": form})


@arbitrator_page
def event_settings(request: HttpRequest, event_id: int) -> HttpResponse:
    event = arbitrated_event(request, event_id)
    started = event.games.exists()
    if request.method == "POST":
        form = EventForm(request.POST, request.FILES, instance=Event.objects.get(pk=event.pk))
        if started:
            form.lock()
        if form.is_valid():
            with refusals(request), transaction.atomic():
                changes = form.settings()
                changes["name"] = form.cleaned_data["name"]
                changes["starts_on"] = form.cleaned_data["starts_on"]
                if not started:
                    changes["lexicon"] = _lexicon(form)
                services.event_update(event=event, by=request.user, **changes)
                messages.success(request, _("Settings saved."))
                if not started:
                    _lexicon_said(request, changes["lexicon"])
                return _back(event)
    else:
        form = EventForm(instance=event)
        if started:
            form.lock()
    return render(request, "console/event_form.html", {"form": form, "event": event, "started": started})


# --------------------------------------------------------------------------- players


@arbitrator_page
def players(request: HttpRequest, event_id: int) -> HttpResponse:
    event = arbitrated_event(request, event_id)
    form = PlayerForm(prefix="one")
    import_form = PlayersImportForm(prefix="csv")
    if request.method == "POST" and "one-name" in request.POST:
        form = PlayerForm(request.POST, prefix="one")
        if form.is_valid():
            with refusals(request):
                player = services.player_add(event=event, by=request.user, **form.cleaned_data)
                messages.success(
                    request,
                    _("%(name)s added at table %(table)s.") % {"name": player.name, "table": player.table},
                )
                return redirect("console:players", event_id=event.pk)
    elif request.method == "POST" and "release" in request.POST:
        player = get_object_or_404(Player, pk=number(request.POST.get("release", "")) or 0, event=event)
        with refusals(request):
            services.player_release(player=player, by=request.user)
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
                services.player_join_confirm(token=token, by=request.user)
                said = _("Table %(table)s: the phone is confirmed.")
            else:
                services.player_join_refuse(token=token, by=request.user)
                said = _("Table %(table)s: the phone is refused.")
            messages.success(request, said % {"table": table})
            return redirect("console:players", event_id=event.pk)
    elif request.method == "POST":
        import_form = PlayersImportForm(request.POST, request.FILES, prefix="csv")
        if import_form.is_valid():
            with refusals(request):
                created = services.players_import(
                    event=event, csv_text=import_form.cleaned_data["text"], by=request.user
                )
                messages.success(
                    request,
                    ngettext("%(count)s player imported.", "%(count)s players imported.", len(created))
                    % {"count": len(created)},
                )
                return redirect("console:players", event_id=event.pk)
    phones = PlayerToken.objects.filter(player=OuterRef("pk"), confirmed_at__isnull=False)
    listed = event.players.order_by("table").annotate(
        phone_at=Subquery(phones.values("confirmed_at")[:1]),
        phone_address=Subquery(phones.values("address")[:1]),
    )
    waiting = [(t, services.join_number(t)) for t in selectors.join_requests(event)]
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
            "players": event.players.people().order_by("table"),
            "join_url": join_url(request, event),
        },
    )


@arbitrator_page
def player_edit(request: HttpRequest, event_id: int, player_id: int) -> HttpResponse:
    """One player: corrected, withdrawn from the later rounds (or back), or removed."""
    event = arbitrated_event(request, event_id)
    player = get_object_or_404(Player, pk=player_id, event=event)
    form = PlayerForm(initial={key: getattr(player, key) for key in services.PLAYER_FIELDS})
    if request.method == "POST":
        action = request.POST.get("action", "")
        with refusals(request):
            if action == "save":
                form = PlayerForm(request.POST)
                if form.is_valid():
                    data = dict(form.cleaned_data)
                    data["table"] = data.get("table") or player.table
                    player = services.player_update(player=player, by=request.user, **data)
                    messages.success(
                        request,
                        _("%(name)s, table %(table)s: saved.") % {"name": player.name, "table": player.table},
                    )
                    return redirect("console:players", event_id=event.pk)
            elif action in ("withdraw", "reinstate"):
                player = services.player_withdraw(
                    player=player, by=request.user, withdrawn=action == "withdraw"
                )
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
                player = services.seat_code_renew(player=player, by=request.user)
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
                services.player_remove(player=player, by=request.user)
                messages.success(request, _("%(name)s is removed.") % {"name": player.name})
                return redirect("console:players", event_id=event.pk)
            else:
                raise services.ApplicationError(_("Unknown action."))
    return render(
        request,
        "console/player.html",
        {"event": event, "player": player, "form": form, "slips": player.slips.count()},
    )


# --------------------------------------------------------------------------- the round page


#: The parts of the round's page that its stream reloads, each on its own (console/_<part>.html).
PARTS = ("status", "watch", "review", "board")


def _round_context(request: HttpRequest, event: Event, part: str | None = None) -> dict[str, Any]:
    """What the round's page shows, or only its ``part`` (one of PARTS): a change reloads
    the four at once, and each built the whole page's (the review of 2,000 rulings four
    times after a close)."""
    wants = {part} if part else set(PARTS)
    versions = live_versions(event)
    game = current_game(event)
    round = current_round(event)
    context: dict[str, Any] = {
        "event": event,
        "game": game,
        "round": round,
        "versions": versions,
        "end_reason": end_reason_text(game.end_reason) if game else "",
    }
    if part is None:
        # Phones asking for a table (where the arbitrator confirms joins): said at the top.
        context["waiting_phones"] = len(selectors.join_requests(event))
        context["slip_form"] = SlipForm()
    if "board" in wants:
        context["view"] = public_view(event, versions.public) if game else None
    if "status" in wants:
        context.update(_status_context(event, game, round))
    if round is not None and "watch" in wants and round.state in (Round.State.OPEN, Round.State.CLOSED):
        context["watch"] = listed_watch(round)
    if round is not None and "review" in wants and round.state in RULED:
        # Read only when its page is not kept already (console/_review.html): a hall's
        # rulings, read and written again at each page of the review's actions otherwise.
        context["review"] = SimpleLazyObject(functools.partial(listed_review, round))
        context["review_version"] = review_version(round)
        context["ruling_path"] = ruling_path(event)
    return context


def _status_context(event: Event, game: Game | None, round: Round | None) -> dict[str, Any]:
    """The round's status: its rack, its tops, and where the game's moves come from."""
    context: dict[str, Any] = {}
    if game is not None and game.state == Game.State.ENDED:
        # The last game's end is undone with its last placement (a wrong move placed last).
        last = game.rounds.filter(state=Round.State.PLACED).order_by("-number").first()
        context["last_placed"] = last.number if last is not None else None
    if game is not None and game.master is not None:
        # A master game: the racks and the moves placed come from its record.
        at = round.number if round is not None and round.game_id == game.pk else 0
        planned = master_round(game, at)
        if planned is not None:
            context["master_move"] = shown_move(planned.played, event.board, event.notation)
            context["master_score"] = planned.score
        context["master_next"] = master_round(game, at + 1) is not None
    hub = link_state(event)
    if hub is not None:
        context["hub"] = hub
        # A following centre draws the hub's racks and places the hub's moves: no typed
        # rack, no choice of top.
        context["hub_follows"] = not hub.link.draws
        played = hub_move(round.game, round.number) if round is not None and not hub.link.draws else None
        if played is not None:
            context["hub_move"] = shown_move(played[0], event.board, event.notation)
            context["hub_score"] = played[1]
    if round is not None:
        context["round_key"] = f"{round.game.number}-{round.number}"
        context["rack"] = rack_text(round.reliquat, round.new_tiles)
        context["tops"] = [shown_move(t, event.board, event.notation) for t in round.tops]
        context["chosen"] = shown_move(round.chosen, event.board, event.notation)
        context["top_choices"] = _top_choices(round, event)
    return context


def ruling_path(event: Event) -> str:
    """The address of a ruling's page but its id: the review links every ruling of a hall
    (2,000), and a ``{% url %}`` each was a good part of the page's time."""
    return reverse("console:ruling", kwargs={"event_id": event.pk, "ruling_id": 0}).removesuffix("0/")


@dataclass(frozen=True)
class TopChoice:
    """One of the equal tops as the console offers it: its name in the event's notation
    and its tiles ("row,col,letter;..."), which console.js previews on the board."""

    shown: str
    squares: str


def _top_choices(round: Round, event: Event) -> list[TopChoice]:
    size = board_size(event.board)
    choices = []
    for gcg in round.tops:
        move = parse_move(gcg, "gcg", size)
        dr, dc = (0, 1) if move.across else (1, 0)
        squares = ";".join(
            f"{move.row + i * dr},{move.col + i * dc},{letter}" for i, letter in enumerate(move.word)
        )
        choices.append(TopChoice(shown_move(gcg, event.board, event.notation), squares))
    return choices


@arbitrator_page
def event_round(request: HttpRequest, event_id: int) -> HttpResponse:
    """The page the arbitrator keeps open during a game."""
    event = arbitrated_event(request, event_id)
    part = request.GET.get("part")
    if is_htmx(request) and part in PARTS:
        return render(request, f"console/_{part}.html", _round_context(request, event, part))
    return render(request, "console/round.html", _round_context(request, event))


def _playing_game(event: Event) -> Game:
    game = selectors.playing_game(event)
    if game is None:
        raise services.ApplicationError(_("No game is being played: start one."))
    return game


def _unplaced_round(event: Event, request: HttpRequest | None = None) -> Round:
    """The round being played; with ``request``, the one its form was shown for (field
    ``round_key``, "game-round"): a click on a page left a round behind, or a paper slip
    typed as another arbitrator placed the round, must not act on the next round."""
    game = _playing_game(event)
    round = selectors.unplaced_round(game)
    if round is None:
        raise services.ApplicationError(_("No rack is drawn: draw one."))
    if request is not None:
        services.check_round(round, _round_key(request.POST.get("round_key", "")))
    return round


def _round_key(text: str) -> tuple[int, int] | None:
    game_text, _sep, round_text = text.partition("-")
    game, round = number(game_text), number(round_text)
    if game is None or round is None:
        return None
    return game, round


@require_POST
@arbitrator_page
def game_start(request: HttpRequest, event_id: int) -> HttpResponse:
    event = arbitrated_event(request, event_id)
    typed = (request.POST.get("typed") or "").strip().upper()[:20] or None
    with refusals(request), transaction.atomic():
        # One step: a first rack typed by hand and refused starts nothing (typed again).
        game = services.game_start(event=event, by=request.user)
        try:
            rejected = _rejected(request.POST) if typed else ()
            round = services.round_draw(game=game, by=request.user, typed=typed, rejected=rejected)
        except services.RackRefusedError as exc:
            raise services.ApplicationError(
                _("Nothing was started: the rack typed, %(rack)s, is refused (%(why)s). Type it again.")
                % {"rack": typed, "why": exc.message}
            ) from exc
        if round is not None:
            messages.success(request, _("Game %(game)s started.") % {"game": game.number})
    return _back(event)


@require_POST
@arbitrator_page
def game_end(request: HttpRequest, event_id: int) -> HttpResponse:
    event = arbitrated_event(request, event_id)
    with refusals(request):
        game = _playing_game(event)
        pending = selectors.unplaced_round(game)
        # A drawn rack with no legal move ends the game for that reason (the record and the
        # game sheet say so); otherwise the arbitrator stops it.
        no_move = pending is not None and pending.solved_at is not None and not pending.tops
        services.game_end(game=game, reason="no_move" if no_move else "stopped", by=request.user)
        messages.success(request, _("Game %(game)s ended.") % {"game": game.number})
    return _back(event)


@require_POST
@arbitrator_page
def round_draw(request: HttpRequest, event_id: int) -> HttpResponse:
    """Draw the next rack at random, or check the rack typed from a physical draw."""
    event = arbitrated_event(request, event_id)
    form = DrawForm(request.POST)
    if form.is_valid():
        with refusals(request):
            typed = form.cleaned_data["typed"].strip().upper() or None
            round = services.round_draw(
                game=_playing_game(event), by=request.user, typed=typed, rejected=_rejected(request.POST)
            )
            if round is None:
                messages.info(request, _("The draw rule ends the game: no rack can be drawn."))
    return _back(event)


def _rejected(data: Any) -> tuple[str, ...]:
    """The racks drawn by hand before this one and put back for the vowel/consonant rule,
    in the order drawn (docs/rules.md#draws: every rejection is recorded)."""
    text = str(data.get("rejected") or "")[:200].upper()
    return tuple(part for part in text.replace(",", " ").split() if part)


@arbitrator_page
def rack_check(request: HttpRequest, event_id: int) -> HttpResponse:
    """As the arbitrator types a rack drawn by hand: would it be accepted, and if not, why."""
    event = arbitrated_event(request, event_id)
    typed = (request.GET.get("typed") or "").strip()[:20]
    game = selectors.playing_game(event)
    problem = ""
    if typed and game is not None:
        problem = typed_rack_problem(game, typed, _rejected(request.GET))
    return render(request, "console/_rack_check.html", {"typed": typed.upper(), "problem": problem})


@require_POST
@arbitrator_page
def round_open(request: HttpRequest, event_id: int) -> HttpResponse:
    event = arbitrated_event(request, event_id)
    form = OpenForm(request.POST)
    if form.is_valid():
        with refusals(request):
            services.round_open(
                round=_unplaced_round(event, request), by=request.user, seconds=form.cleaned_data["seconds"]
            )
    return _back(event)


@require_POST
@arbitrator_page
def round_close(request: HttpRequest, event_id: int) -> HttpResponse:
    event = arbitrated_event(request, event_id)
    with refusals(request):
        services.round_close(round=_unplaced_round(event, request), by=request.user)
    return _back(event)


@require_POST
@arbitrator_page
def round_reopen(request: HttpRequest, event_id: int) -> HttpResponse:
    """A round closed by mistake, open again before its move is placed."""
    event = arbitrated_event(request, event_id)
    typed = request.POST.get("seconds")
    seconds = (number(typed) or 0) if typed else None  # not a number: 0, refused with its message
    with refusals(request):
        round = services.round_reopen(
            round=_unplaced_round(event, request),
            by=request.user,
            seconds=seconds,
            reason=(request.POST.get("reason") or "")[:500],
        )
        messages.success(request, _("Round %(number)s is open again.") % {"number": round.number})
    return _back(event)


@require_POST
@arbitrator_page
def round_publish(request: HttpRequest, event_id: int) -> HttpResponse:
    """The arbitrator has reviewed the rulings: the phones and the projector show them."""
    event = arbitrated_event(request, event_id)
    with refusals(request):
        round = _selected_top(request, event, _unplaced_round(event, request))
        round = services.round_publish(round=round, by=request.user)
        messages.success(
            request,
            _("The results of round %(number)s are shown on the phones and the projector.")
            % {"number": round.number},
        )
    return _back(event)


@require_POST
@arbitrator_page
def round_clock(request: HttpRequest, event_id: int) -> HttpResponse:
    """Pause, resume or add time to the open round's clock."""
    event = arbitrated_event(request, event_id)
    action = request.POST.get("action", "")
    with refusals(request):
        round = _unplaced_round(event, request)
        if action == "pause":
            services.round_pause(round=round, by=request.user)
            messages.success(request, _("The clock is paused: no slip is late while it is."))
        elif action == "resume":
            services.round_resume(round=round, by=request.user)
            messages.success(request, _("The clock is running again."))
        elif action == "add":
            seconds = number(request.POST.get("seconds")) or 0  # 0: refused with its message
            services.round_add_time(round=round, by=request.user, seconds=seconds)
            messages.success(request, _("Time added to the clock: %(seconds)s s.") % {"seconds": seconds})
        else:
            raise services.ApplicationError(_("Unknown clock action."))
    return _back(event)


@require_POST
@arbitrator_page
def round_unplace(request: HttpRequest, event_id: int) -> HttpResponse:
    """Undo the last placement: its move leaves the board, the next rack goes back to the bag."""
    event = arbitrated_event(request, event_id)
    with refusals(request):
        # The game being played, or the last one when a placement ended it.
        game = current_game(event)
        if game is None:
            raise services.ApplicationError(_("No game is being played: start one."))
        if game.state == Game.State.PLAYING and selectors.unplaced_round(game) is not None:
            _unplaced_round(event, request)  # the page's round: a click from a stale page does nothing
        placed = services.round_unplace(game=game, by=request.user)
        messages.success(
            request, _("The placement of round %(number)s is undone.") % {"number": placed.number}
        )
    return _back(event)


@require_POST
@arbitrator_page
def round_rule_again(request: HttpRequest, event_id: int) -> HttpResponse:
    """A round whose rulings do not come (its worker died): sent to a worker again."""
    event = arbitrated_event(request, event_id)
    with refusals(request):
        services.round_rule_again(round=_unplaced_round(event, request), by=request.user)
        messages.success(request, _("The slips were sent to a worker to be ruled again."))
    return _back(event)


@arbitrator_page
def slip_entry(request: HttpRequest, event_id: int) -> HttpResponse:
    """Paper slips by keyboard: table, coordinates, word, score, Enter; the form comes
    back empty with the table field focused and a line saying what was stored."""
    event = arbitrated_event(request, event_id)
    if request.method != "POST":
        return _back(event)
    form = SlipForm(request.POST)
    stored = ""
    ask_second = False
    refused: list[str] = []
    if form.is_valid():
        data = form.cleaned_data
        with refusals(request, refused if is_htmx(request) else None):
            round = _unplaced_round(event, request)
            player = selectors.player_at_table(event, data["table"])
            if player is None:
                raise services.ApplicationError(_("No player at table %(table)s.") % {"table": data["table"]})
            preview = move_preview(
                round, data["coordinates"], data["word"], data["announced_score"], player=player
            )
            try:
                result = services.paper_slip_submit(
                    round=round,
                    player=player,
                    coordinates=data["coordinates"],
                    word=data["word"],
                    announced_score=data["announced_score"],
                    by=request.user,
                    second=data["second"] or None,
                )
            except services.ApplicationError as exc:
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
        return _back(event)
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
        player = selectors.player_at_table(event, data["table"])
    if coordinates or word:
        try:
            preview = move_preview(
                _unplaced_round(event), coordinates, word, data.get("announced_score"), player=player
            )
        except services.ApplicationError as exc:
            error = exc.message
    return render(
        request,
        "console/_preview.html",
        {"preview": preview, "player": player, "table": data.get("table"), "error": error, "event": event},
    )


@require_POST
@arbitrator_page
def top_choose(request: HttpRequest, event_id: int) -> HttpResponse:
    event = arbitrated_event(request, event_id)
    form = TopForm(request.POST)
    if form.is_valid():
        with refusals(request):
            choice = services.top_choose(
                round=_unplaced_round(event, request),
                move_text=form.cleaned_data["move"],
                by=request.user,
                confirm_lower=form.cleaned_data["confirm_lower"],
            )
            if choice.warning:
                messages.warning(request, choice.warning)
            else:
                messages.success(
                    request,
                    _("%(move)s will be placed.")
                    % {"move": shown_move(choice.round.chosen, event.board, event.notation)},
                )
    return _back(event)


def _selected_top(request: HttpRequest, event: Event, round: Round) -> Round:
    """The equal top selected in the publish or place form, chosen before the action: the
    move the phones announce and the one placed are the one the arbitrator selected."""
    move = (request.POST.get("move") or "").strip()[:40]
    if move and move != shown_move(round.chosen, event.board, event.notation):
        round = services.top_choose(round=round, move_text=move, by=request.user).round
    return round


@require_POST
@arbitrator_page
def round_place(request: HttpRequest, event_id: int) -> HttpResponse:
    """Place the chosen move, then draw the next rack: at random, or as typed from a
    physical draw (a refused rack places nothing: the arbitrator reads why and types it
    again)."""
    event = arbitrated_event(request, event_id)
    typed = (request.POST.get("typed") or "").strip().upper()[:20]
    with refusals(request):
        # A refused rack below leaves the top selected chosen, not placed (the page shows it).
        round = _selected_top(request, event, _unplaced_round(event, request))
        try:
            rejected = _rejected(request.POST) if typed else ()
            following = services.round_place(
                round=round, by=request.user, typed=typed or None, rejected=rejected
            )
        except services.RackRefusedError as exc:
            raise services.ApplicationError(
                _("Nothing was placed: the rack typed, %(rack)s, is refused (%(why)s). Type it again.")
                % {"rack": typed, "why": exc.message}
            ) from exc
        if following is None and Game.objects.get(pk=round.game_id).state == Game.State.ENDED:
            messages.info(request, _("The draw rule ends the game: no rack can be drawn."))
    return _back(event)


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
                services.slip_correct(ruling=ruling, by=request.user, **read_form.cleaned_data)
                messages.success(
                    request,
                    _("The slip of table %(table)s is read again and ruled.")
                    % {"table": ruling.player.table},
                )
                return redirect("console:ruling", event_id=event.pk, ruling_id=ruling.pk)
    elif request.method == "POST" and "average" in request.POST:
        with refusals(request):
            services.ruling_average(ruling=ruling, by=request.user)
            messages.success(
                request, _("Average credited to table %(table)s.") % {"table": ruling.player.table}
            )
            return _back(event)
    elif request.method == "POST" and "shift-reason" in request.POST:
        shift_form = ReasonForm(request.POST, prefix="shift")
        if shift_form.is_valid():
            with refusals(request):
                services.ruling_accept_shift(
                    ruling=ruling, by=request.user, reason=shift_form.cleaned_data["reason"]
                )
                messages.success(request, _("Shifted reference accepted."))
                return _back(event)
    elif request.method == "POST":
        form = OverrideForm(request.POST)
        if form.is_valid():
            changes = {k: v for k, v in form.cleaned_data.items() if v is not None and k != "reason"}
            with refusals(request):
                services.ruling_override(
                    ruling=ruling, by=request.user, reason=form.cleaned_data["reason"], **changes
                )
                messages.success(
                    request, _("Ruling corrected for table %(table)s.") % {"table": ruling.player.table}
                )
                return _back(event)
    entries = HistoryEntry.objects.filter(event=event, entity="ruling", object_id=ruling.pk).order_by("-at")
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
        return services.round_average(ruling)
    except services.ApplicationError:
        return None


# --------------------------------------------------------------------------- results


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
    return _back(event)


@require_POST
@arbitrator_page
def hub_unseal(request: HttpRequest, event_id: int) -> HttpResponse:
    """A centre that cannot reach its hub at a game's start opens the game it fetched
    sealed with the key the hub's arbitrator reads out."""
    event = arbitrated_event(request, event_id)
    game = number(request.POST.get("game"))
    with refusals(request):
        if game is None:
            raise services.ApplicationError(_("Which game? Its number is missing."))
        copied = centre_service.hub_unseal(
            event=event, game=game, key=request.POST.get("key", ""), by=request.user
        )
        messages.success(
            request, _("Game %(game)s opened: %(rounds)s round(s).") % {"game": game, "rounds": copied}
        )
    return _back(event)


@require_POST
@arbitrator_page
def key_read_out(request: HttpRequest, event_id: int) -> HttpResponse:
    """The hub's arbitrator read a game's key out to a centre: its rounds count as served
    to it, its results are taken when it is back."""
    event = arbitrated_event(request, event_id)
    hub = selectors.multiplex_of(event)
    if hub is None:
        raise Http404(_("this event is not a multiplex"))
    game, centre_id = number(request.POST.get("game")), number(request.POST.get("centre"))
    centre = hub.centres.filter(pk=centre_id).first() if centre_id is not None else None
    with refusals(request):
        if centre is None or game is None:
            raise services.ApplicationError(_("Which centre, which game? Choose them in the list."))
        services.key_read_out(multiplex=hub, game=game, centre=centre, by=request.user)
        messages.success(
            request,
            _("Game %(game)s: the key read out to %(centre)s is on the record.")
            % {"game": game, "centre": centre.name},
        )
    return redirect("console:multiplex", event_id=event.pk)


@require_POST
@arbitrator_page
def multiplex_player_remove(request: HttpRequest, event_id: int) -> HttpResponse:
    """The hub's arbitrator removes a centre's player from the merged ranking, with the
    reason (``restore``: puts them back)."""
    event = arbitrated_event(request, event_id)
    hub = selectors.multiplex_of(event)
    if hub is None:
        raise Http404(_("this event is not a multiplex"))
    player_id = number(request.POST.get("player"))
    player = selectors.multiplex_players(hub).filter(pk=player_id).first() if player_id is not None else None
    reason = request.POST.get("reason", "")
    with refusals(request):
        if player is None:
            raise services.ApplicationError(_("Which player? Choose them in the list."))
        values = {"centre": player.centre.name, "table": player.table, "name": player.name}
        if request.POST.get("restore"):
            services.centre_player_restore(player=player, reason=reason, by=request.user)
            said = _("%(name)s (%(centre)s, table %(table)s) is back in the merged ranking.")
        else:
            services.centre_player_remove(player=player, reason=reason, by=request.user)
            said = _("%(name)s (%(centre)s, table %(table)s) is removed from the merged ranking.")
        messages.success(request, said % values)
    return redirect("console:multiplex", event_id=event.pk)


@arbitrator_page
def multiplex(request: HttpRequest, event_id: int) -> HttpResponse:
    """The hub's page: its centres and the merged ranking (of one game, centre, category)."""
    event = arbitrated_event(request, event_id)
    hub = selectors.multiplex_of(event)
    if hub is None:
        raise Http404(_("this event is not a multiplex"))
    centres = list(selectors.multiplex_centres(hub))
    games = list(HubGame.objects.filter(multiplex=hub).order_by("number"))
    game = next((g.number for g in games if str(g.number) == request.GET.get("game")), None)
    centre = next((c for c in centres if str(c.pk) == request.GET.get("centre")), None)
    category = request.GET.get("category") or None
    rows, centre_of = multiplex_standings(
        hub, game=game, centre=centre.pk if centre else None, category=category
    )
    categories = sorted({c for c in CentrePlayer.objects.filter(centre__multiplex=hub).values_list(
        "category", flat=True) if c})  # fmt: skip
    players = list(selectors.multiplex_players(hub))
    return render(
        request,
        "console/multiplex.html",
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


@arbitrator_page
def standings(request: HttpRequest, event_id: int) -> HttpResponse:
    event = arbitrated_event(request, event_id)
    games = list(event.games.order_by("number"))
    game = next((g for g in games if g.number == number(request.GET.get("game"))), None)
    category = request.GET.get("category") or None
    rounds = counted_round_numbers(game) if game else []
    after = number(request.GET.get("round"))
    after = after if game and after in rounds else None
    if game:
        rows = game_standings(game, category=category, after_round=after)
    else:
        rows = event_standings(event, category=category)
    categories = sorted({c for c in event.players.values_list("category", flat=True) if c})
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
    entries = HistoryEntry.objects.filter(event=event).select_related("actor").order_by("-at", "-pk")
    entity = request.GET.get("entity")
    if entity:
        entries = entries.filter(entity=entity)
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


# --------------------------------------------------------------------------- printed sheets


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
        player = event.players.filter(pk=player_id).first() if player_id is not None else None
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
    listed = PrintedSheet.objects.filter(event=event).defer("pdf").select_related("player")[:50]
    hub = selectors.multiplex_of(event)
    kinds = PrintedSheet.Kind.choices
    if hub is not None:  # a hub prints the merged sheets; the centres print the others
        kinds = [(value, label) for value, label in kinds if value in ("standings", "rounds")]
    context = {
        "event": event,
        "sheets": listed,
        "pending": any(s.state == PrintedSheet.State.PENDING for s in listed),
        "kinds": kinds,
        "games": event.games.order_by("number"),
        "is_hub": hub is not None,
        "hub_games": HubGame.objects.filter(multiplex=hub).order_by("number") if hub else [],
        "players": event.players.order_by("table"),
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
