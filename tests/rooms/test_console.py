"""The arbitrator's console (rooms.views.console): every action through the page, and every
permission rule."""

from __future__ import annotations

import datetime as dt
import html
import io
import re

import pytest
from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.test import Client
from django.utils import timezone

from rooms.forms import EventForm
from tests.helpers import pdf_text as _text
from tests.rooms.helpers import best as _best
from tests.rooms.helpers import last_round as _round
from tests.rooms.helpers import messages as _messages
from tests.rooms.helpers import phone as _phone
from tests.rooms.helpers import url as _url
from tests.tournaments.helpers import blank_top, warned_twice
from tests.tournaments.helpers import simulated_event as _simulated_event
from tournaments import exports, queue
from tournaments.core import ApplicationError
from tournaments.models import Event, Game, HistoryEntry, Lexicon, Player, Round, Ruling, Slip
from tournaments.services.corrections import round_average
from tournaments.services.events import event_create, event_update
from tournaments.services.games import game_end, game_start, round_draw
from tournaments.services.lexicons import lexicon_compile
from tournaments.services.players import player_add, player_update
from tournaments.services.rounds import round_close, round_open, round_place
from tournaments.services.slips import slip_submit

pytestmark = pytest.mark.django_db


# ------------------------------------------------------------------ access


def test_the_console_asks_for_a_login(event: Event) -> None:
    response = Client().get(_url(event))
    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/?next=")


def test_a_user_who_does_not_arbitrate_the_event_is_refused(event: Event, arbitrator) -> None:
    other = get_user_model().objects.create_user("someone", password="x")
    client = Client()
    client.force_login(other)
    for tail in ("", "players/", "settings/", "standings/", "history/"):
        assert client.get(_url(event, tail)).status_code == 403
    assert client.post(_url(event, "game/start/")).status_code == 403
    assert client.get(f"/hall/{event.pk}/").status_code == 403
    assert not Game.objects.exists()


def test_staff_arbitrate_every_event(event: Event) -> None:
    staff = get_user_model().objects.create_user("chief", password="x", is_staff=True)
    client = Client()
    client.force_login(staff)
    assert client.get(_url(event)).status_code == 200


def test_login_page_logs_in_and_goes_to_the_console(arbitrator) -> None:
    client = Client()
    response = client.post("/accounts/login/", {"username": "arbitre", "password": "secret-pass"})
    assert response.status_code == 302 and response["Location"] == "/console/"
    assert "Club evening" in client.get("/console/").content.decode()


def test_forms_need_the_csrf_token(arbitrator, event: Event, players) -> None:
    client = Client(enforce_csrf_checks=True)
    client.force_login(arbitrator)
    assert client.post(_url(event, "game/start/")).status_code == 403
    assert not Game.objects.exists()


# ------------------------------------------------------------------ setting up


def test_create_an_event_with_every_setting(console: Client, enable_lexicon) -> None:
    page = console.get("/console/new/").content.decode()
    assert "Default 50" in page or "50" in page  # the help lines carry the defaults
    form = {
        "name": "Simultané",
        "starts_on": "2026-12-05",
        "lexicon_choice": "bundled:enable",
        "language": "english",
        "board": "standard",
        "smooth": "on",
        "notation": "fisf",
        "mode": "tournament",
        "round_seconds": 120,
        "random_seed": 99,
        "bingo_bonus": 50,
        "first_move_horizontal": "on",
        "y_counts_as": "both",
        "early_rounds": 15,
        "early_vowels": 2,
        "early_consonants": 2,
        "late_vowels": 1,
        "late_consonants": 1,
        "score_policy": "english",
        "free_warnings": 2,
        "warning_penalty": 5,
        "shift_penalty": 5,
        "solo_bonus": 10,
        "solo_min_players": 16,
        "unmarked_blank_warning": "on",
        "first_slip_best_placement": "on",
        "reference_rule": "nearby",
        "raccord": "on",
        "misplaced_blank_warning": "on",
        "blank_reading": "best",
        "several_slips_void": "on",
        "phone_replace": "on",
        "solo_players": "registered",
        "early_fallback": "on",
        "tie_break": "shared",
        "hall_language": "fr",
        "seating": "confirm",
    }
    response = console.post("/console/new/", form)
    event = Event.objects.get(name="Simultané")
    assert response.status_code == 302 and response["Location"] == f"/console/{event.pk}/players/"
    assert (event.round_seconds, event.random_seed, event.score_policy, event.free_warnings) == (
        120,
        99,
        "english",
        2,
    )
    assert event.notation == "fisf" and event.lexicon.bundled == "enable" and event.seating == "confirm"
    assert (event.reference_rule, event.blank_reading, event.solo_players) == ("nearby", "best", "registered")
    assert event.first_slip_best_placement and event.several_slips_void and event.phone_replace


def test_a_refused_event_shows_why_and_stores_nothing(console: Client, enable_lexicon) -> None:
    response = console.post(
        "/console/new/",
        {"name": "X", "starts_on": "2026-12-05", "lexicon_choice": "bundled:enable", "board": "standard"},
    )
    assert response.status_code == 200  # the form again, with its errors
    assert not Event.objects.filter(name="X").exists()


def test_settings_freeze_once_a_game_has_started(console: Client, event: Event, drawn: Round) -> None:
    page = console.get(_url(event, "settings/"))
    form = page.context["form"]
    html = page.content.decode()
    # What can no longer change is shown locked, not refused on save with a field's name.
    assert 'name="bingo_bonus"' in html and form.fields["bingo_bonus"].disabled
    assert not form.fields["round_seconds"].disabled and not form.fields["name"].disabled
    data = {k: v for k, v in form.initial.items() if v is not None}
    data.update({"lexicon_choice": "bundled:enable", "bingo_bonus": 40, "starts_on": "2026-11-21"})
    data = {k: ("on" if v is True else v) for k, v in data.items() if v is not False}
    data["round_seconds"] = 90
    data["name"] = "Club evening (corrected)"  # a misspelled name may still be corrected
    response = console.post(_url(event, "settings/"), data, follow=True)
    assert any("Settings saved" in m for m in _messages(response)), _messages(response)
    event.refresh_from_db()
    assert (event.bingo_bonus, event.round_seconds, event.name) == (50, 90, "Club evening (corrected)")
    entry = HistoryEntry.objects.get(event=event, entity="event")
    assert entry.new == {"round_seconds": 90, "name": "Club evening (corrected)"}
    # The service refuses it all the same (the API, the terminal).
    with pytest.raises(ApplicationError, match="can no longer change"):
        event_update(event=event, bingo_bonus=40)


def test_the_event_date_keeps_its_value_in_french(console: Client, event: Event) -> None:
    """A date picker's value is ISO whatever the language: 21/11/2026 was refused by the
    browser, the date shown empty and *Create* blocked."""
    page = console.get(_url(event, "settings/"), HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert 'type="date" name="starts_on" value="2026-11-21"' in page
    new = console.get("/console/new/", HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert 'type="date" name="starts_on"' in new and "/20" not in new.split('name="starts_on"')[1][:40]


def test_add_and_import_players(console: Client, event: Event) -> None:
    console.post(_url(event, "players/"), {"one-name": "Anne", "one-club": "Paris", "one-table": 5})
    csv = "name;club;table\nBruno;Lyon;\nChloé;Nice;9\n"
    response = console.post(_url(event, "players/"), {"csv-csv_text": csv}, follow=True)
    assert "2 players imported" in _messages(response)[-1]
    assert list(event.players.order_by("table").values_list("name", "table")) == [
        ("Anne", 5),
        ("Bruno", 6),
        ("Chloé", 9),
    ]
    response = console.post(_url(event, "players/"), {"csv-csv_text": "name;table\nDidier;x\n"}, follow=True)
    assert any("line 2" in m for m in _messages(response))
    assert event.players.count() == 3


# ------------------------------------------------------------------ a word list imported in the background


@pytest.fixture
def queued(monkeypatch: pytest.MonkeyPatch) -> list[tuple[object, ...]]:
    """The tasks sent, not run: an uploaded list stays importing until the test compiles it."""
    sent: list[tuple[object, ...]] = []
    monkeypatch.setattr(queue, "send", lambda task, *args, **kw: sent.append((task.name, *args)) or True)
    return sent


def _event_form(event: Event, **changes: object) -> dict[str, object]:
    """The settings form of ``event`` as the page posts it, with ``changes``."""
    initial = EventForm(instance=event).initial
    data = {k: ("on" if v is True else v) for k, v in initial.items() if v is not None and v is not False}
    data.update({"lexicon_choice": "bundled:enable", "starts_on": "2026-11-21", **changes})
    return data


def _upload(name: str, data: bytes) -> SimpleUploadedFile:
    return SimpleUploadedFile(name, data, content_type="text/plain")


def test_a_list_uploaded_with_a_new_event_is_imported_while_the_pages_show_its_progress(
    console: Client, event: Event, queued: list[tuple[object, ...]]
) -> None:
    words = "".join(f"{a}{b}{c}\n" for a in "ABC" for b in "DEF" for c in "GHI").encode("utf-16")
    form = _event_form(event, name="Club list", word_list=_upload("club.txt", words))
    response = console.post("/console/new/", form, follow=True)
    created = Event.objects.get(name="Club list")
    assert response.redirect_chain == [(f"/console/{created.pk}/players/", 302)]
    lexicon = created.lexicon
    assert (lexicon.name, lexicon.state, lexicon.source_name) == ("club", "importing", "club.txt")
    assert queued == [("tournaments.tasks.lexicon_import_task", lexicon.pk, "en")]
    assert any("The word list club is being imported by the worker" in m for m in _messages(response))
    Lexicon.objects.filter(pk=lexicon.pk).update(progress=40)
    status = f'hx-get="/console/{created.pk}/lexicon/" hx-trigger="every 2s"'
    for tail in ("players/", "settings/", ""):
        page = console.get(_url(created, tail)).content.decode()
        assert "The word list club is being imported" in page and status in page, tail
        assert '<progress max="100" value="40">' in page and "40% done." in page
    # No game on half a list: the round page says why.
    started = console.post(_url(created, "game/start/"), follow=True)
    assert any("the word list club is still being imported (40%)" in m for m in _messages(started))
    assert not created.games.exists()
    Lexicon.objects.filter(pk=lexicon.pk).update(progress=0)  # not begun: the task's first run
    lexicon_compile(lexicon_id=lexicon.pk)
    part = console.get(_url(created, "lexicon/")).content.decode()
    assert "The word list club is ready: 27 words." in part and "hx-get" not in part
    assert "word list club" not in console.get(_url(created, "players/")).content.decode()
    console.post(_url(created, "game/start/"))
    assert created.games.count() == 1


def test_a_list_that_could_not_be_imported_says_why_and_what_to_do(
    console: Client, event: Event, queued: list[tuple[object, ...]]
) -> None:
    form = _event_form(event, word_list=_upload("liste.bin", b"AA\x00\x01BB"))
    console.post(_url(event, "settings/"), form)
    event.refresh_from_db()
    assert event.lexicon.state == "importing"
    lexicon_compile(lexicon_id=event.lexicon.pk)
    page = console.get(_url(event, "players/")).content.decode()
    assert (
        "The word list liste could not be imported: liste.bin is not a text word list (binary content)"
        in page
    )
    assert f'<a href="/console/{event.pk}/settings/">Choose another list in the event' in page
    assert "hx-get" not in page.split("lexicon-import")[1].split("</div>")[0]  # nothing left to wait for
    # The settings keep a failed list only by choosing another.
    kept = console.post(_url(event, "settings/"), _event_form(event, lexicon_choice=f"id:{event.lexicon.pk}"))
    assert kept.status_code == 200 and "could not be imported: choose another" in kept.content.decode()
    console.post(_url(event, "settings/"), _event_form(event))
    event.refresh_from_db()
    assert event.lexicon.bundled == "enable"
    assert "lexicon-import" not in console.get(_url(event, "players/")).content.decode()


def test_a_list_above_the_limit_is_refused_by_the_form(console: Client, event: Event, settings) -> None:
    settings.ARBITER_LEXICON_MAX_MB = 1
    form = _event_form(event, name="Big", word_list=_upload("ods.txt", b"zoo\n" * 2**18 + b"qi\n"))
    response = console.post("/console/new/", form)
    assert response.status_code == 200
    assert response.context["form"].errors["word_list"] == [
        "ods.txt is 1.0 MB, more than the 1 MB allowed for a word list: choose a smaller list, or raise"
        " the limit (setting ARBITER_LEXICON_MAX_MB of the server)"
    ]
    assert not Event.objects.filter(name="Big").exists() and not Lexicon.objects.filter(bundled="").exists()


# ------------------------------------------------------------------ a round


def test_start_draws_the_first_rack(console: Client, event: Event, drawn: Round) -> None:
    assert drawn.number == 1 and drawn.state == Round.State.DRAWN
    page = console.get(_url(event)).content.decode()
    assert drawn.new_tiles in page


def test_a_typed_rack_refused_at_place_places_nothing_and_says_so(
    console: Client, event: Event, opened: Round
) -> None:
    # Round 1 ruled, then an impossible rack typed for round 2: the move stays off the
    # board (placing it would leave a placed round and no rack), and the page says why.
    console.post(_url(event, "close/"))
    response = console.post(_url(event, "place/"), {"typed": "ZZZZZZZ"}, follow=True)
    said = _messages(response)[-1]
    assert "Nothing was placed" in said and "ZZZZZZZ" in said and "rack" in said, said
    game = Game.objects.get(event=event)
    assert game.rounds.count() == 1 and game.rounds.get().state == Round.State.ADJUDICATED
    assert not HistoryEntry.objects.filter(entity="round", action="place").exists()
    french = console.post(_url(event, "place/"), {"typed": "ZZZZZZZ"}, follow=True, HTTP_ACCEPT_LANGUAGE="fr")
    assert "Rien n’a été placé" in _messages(french)[-1], _messages(french)
    console.post(_url(event, "place/"), {"typed": ""}, follow=True)  # a random draw: placed
    assert game.rounds.count() == 2 and game.rounds.get(number=1).state == Round.State.PLACED


def test_open_sets_the_deadline(console: Client, event: Event, drawn: Round) -> None:
    console.post(_url(event, "open/"), {"seconds": 60})
    round = _round(event)
    assert round.state == Round.State.OPEN
    assert (round.deadline - round.opened_at) == dt.timedelta(seconds=60)
    page = console.get(_url(event)).content.decode()
    assert "data-countdown" in page and "3" in page  # 0 / 3 slips


def test_paper_slip_by_keyboard_with_its_score_as_typed(console: Client, event: Event, opened: Round) -> None:
    coordinates, word = _best(opened)
    preview = console.get(
        _url(event, "preview/"), {"table": 2, "coordinates": coordinates, "word": word, "announced_score": ""}
    )
    text = preview.content.decode()
    assert "Bruno" in text and str(opened.top_score) in text
    stored = console.post(
        _url(event, "slip/"),
        {"table": 2, "coordinates": coordinates, "word": word, "announced_score": opened.top_score},
        HTTP_HX_REQUEST="true",
    )
    assert stored.status_code == 200 and "Bruno" in stored.content.decode()
    slip = Slip.objects.get(player__table=2)
    assert (slip.source, slip.coordinates, slip.word, slip.announced_score) == (
        "paper",
        coordinates,
        word,
        opened.top_score,
    )
    assert slip.entered_by is not None and slip.entered_by.username == "arbitre"
    # An unknown table stores nothing and says so.
    console.post(_url(event, "slip/"), {"table": 42, "coordinates": coordinates, "word": word})
    assert Slip.objects.count() == 1


def test_paper_slip_typed_after_the_deadline_counts_at_the_deadline(
    console: Client, event: Event, opened: Round
) -> None:
    deadline = opened.opened_at - dt.timedelta(seconds=5)
    Round.objects.filter(pk=opened.pk).update(
        opened_at=deadline - dt.timedelta(seconds=180), deadline=deadline
    )
    coordinates, word = _best(opened)
    console.post(_url(event, "slip/"), {"table": 1, "coordinates": coordinates, "word": word})
    slip = Slip.objects.get()
    assert not slip.late and slip.received_at == deadline


def test_preview_of_an_invalid_slip_says_why(console: Client, event: Event, opened: Round) -> None:
    text = console.get(
        _url(event, "preview/"), {"table": 1, "coordinates": "8H", "word": "QQQ"}
    ).content.decode()
    assert "0 —" in text


def test_the_whole_round_from_the_console(console: Client, event: Event, opened: Round) -> None:
    coordinates, word = _best(opened)
    anne = _phone(event, 1)
    anne.post(f"/p/{event.pk}/slip/", {"coordinates": coordinates, "word": word, "announced_score": "1"})
    console.post(_url(event, "close/"))
    round = _round(event)
    assert round.state == Round.State.ADJUDICATED
    page = console.get(_url(event)).content.decode()
    assert "Anne" in page and "TOP" in page
    ruling = Ruling.objects.get(round=round, player__table=1)
    assert ruling.credited == round.top_score and ruling.warnings == 1  # the announced score was wrong

    # Correct a ruling with a reason.
    response = console.post(
        _url(event, f"rulings/{ruling.pk}/"),
        {"credited": 5, "warnings": 0, "penalty": 0, "reason": "misread"},
    )
    assert response.status_code == 302
    ruling.refresh_from_db()
    assert (ruling.credited, ruling.warnings, ruling.override_reason) == (5, 0, "misread")
    # A correction without a reason is refused.
    console.post(_url(event, f"rulings/{ruling.pk}/"), {"credited": 9, "reason": ""})
    ruling.refresh_from_db()
    assert ruling.credited == 5

    # Choose among the tops (the last one), then place and draw.
    console.post(_url(event, "top/"), {"move": round.tops[-1]})
    round.refresh_from_db()
    assert round.chosen == round.tops[-1]
    console.post(_url(event, "place/"))
    round.refresh_from_db()
    assert round.state == Round.State.PLACED
    assert _round(event).number == 2

    standings = console.get(_url(event, "standings/")).content.decode()
    assert "Anne" in standings
    history = console.get(_url(event, "history/")).content.decode()
    said = ("rack drawn", "round opened", "slip handed in", "round closed", "ruling corrected", "top chosen")
    for action in (*said, "move placed"):
        assert action in history, action


def test_an_override_beyond_any_score_is_refused_on_the_form(
    console: Client, event: Event, opened: Round
) -> None:
    console.post(_url(event, "close/"))
    ruling = Ruling.objects.get(round=_round(event), player__table=1)
    before = (ruling.credited, ruling.warnings, ruling.penalty)
    response = console.post(
        _url(event, f"rulings/{ruling.pk}/"), {"credited": str(10**30), "reason": "typed too much"}
    )
    assert response.status_code == 200
    refusal = "the points credited must be between -9999 and 9999"
    assert refusal in _messages(response) and refusal in response.content.decode()
    ruling.refresh_from_db()
    assert (ruling.credited, ruling.warnings, ruling.penalty) == before and not ruling.overridden


def test_a_lower_move_needs_confirmation(console: Client, event: Event, opened: Round) -> None:
    console.post(_url(event, "close/"))
    round = _round(event)
    from tournaments.services.rounds import analysis_for

    lower = next(m for m in analysis_for(round).ranked if m.score < round.top_score)
    from solver.notation import format_move

    text = format_move(lower, "gcg")
    response = console.post(_url(event, "top/"), {"move": text}, follow=True)
    assert any("confirm" in m for m in _messages(response))
    round.refresh_from_db()
    assert not round.chosen
    console.post(_url(event, "top/"), {"move": text, "confirm_lower": "on"})
    round.refresh_from_db()
    assert round.chosen == text


def test_end_the_game(console: Client, event: Event, drawn: Round) -> None:
    assert "has no legal move" not in console.get(_url(event)).content.decode()
    console.post(_url(event, "game/end/"))
    game = Game.objects.get(event=event)
    assert (game.state, game.end_reason) == (Game.State.ENDED, "stopped")
    assert "next game" in console.get(_url(event)).content.decode()


def test_a_rack_with_no_move_ends_the_game_for_that_reason(
    console: Client, arbitrator, enable_lexicon
) -> None:
    no_minimums = {"early_vowels": 0, "early_consonants": 0, "late_vowels": 0, "late_consonants": 0}
    event = event_create(
        name="Q",
        starts_on=dt.date(2026, 11, 21),
        lexicon=enable_lexicon,
        language="english",
        created_by=arbitrator,
        **no_minimums,
    )
    player_add(event=event, name="Alice")
    game = game_start(event=event)
    round_draw(game=game, typed="QZJXKVV")
    page = console.get(_url(event)).content.decode()
    assert "This rack has no legal move: the game is over." in page
    console.post(_url(event, "game/end/"))
    assert Game.objects.get(pk=game.pk).end_reason == "no_move"


def test_the_current_round_is_none_between_a_new_game_and_its_draw(
    console: Client, event: Event, drawn: Round
) -> None:
    from tournaments.selectors.games import current_round

    console.post(_url(event, "game/end/"))
    game_start(event=event)
    assert current_round(event) is None
    assert "next game" not in console.get(_url(event)).content.decode()


def test_a_typed_rack_is_checked_as_it_is_typed(console: Client, event: Event, opened: Round) -> None:
    console.post(_url(event, "close/"))
    round_place(round=_round(event), draw_next=False)  # placed, the next rack to type
    refused = console.get(_url(event, "draw/check/"), {"typed": "ZZZZZZZ"}).content.decode()
    assert "msg error" in refused and "ZZZZZZZ" in refused
    game = Game.objects.get(event=event)
    from tournaments.state import rebuild

    bag = rebuild(game).game.bag.remaining_string()
    reliquat = rebuild(game).game.reliquat
    from solver.tiles import rack_string

    kept = rack_string(reliquat)
    candidate = kept + next("".join(pick) for pick in [sorted(set(bag.replace("?", "")))[: 7 - len(kept)]])
    checked = console.get(_url(event, "draw/check/"), {"typed": candidate}).content.decode()
    posted = console.post(_url(event, "draw/"), {"typed": candidate}, follow=True)
    accepted = game.rounds.count() == 2
    assert ("msg success" in checked) == accepted, (candidate, checked, _messages(posted))
    assert game.rounds.count() == (2 if accepted else 1)


def test_a_click_on_a_page_left_a_round_behind_does_nothing(
    console: Client, event: Event, opened: Round
) -> None:
    stale = f"{opened.game.number}-{opened.number}"
    coordinates, word = _best(opened)
    console.post(_url(event, "close/"), {"round_key": stale})
    console.post(_url(event, "place/"), {"round_key": stale})
    assert _round(event).number == 2
    # Round 1's page again: a paper slip and a close meant for round 1.
    console.post(_url(event, "open/"), {"seconds": 60, "round_key": f"{opened.game.number}-2"})
    response = console.post(
        _url(event, "slip/"),
        {"table": 2, "coordinates": coordinates, "word": word, "round_key": stale},
        follow=True,
    )
    assert any("no longer the current round" in m for m in _messages(response))
    response = console.post(_url(event, "close/"), {"round_key": stale}, follow=True)
    assert any("no longer the current round" in m for m in _messages(response))
    round2 = _round(event)
    assert round2.state == Round.State.OPEN and not round2.slips.exists()


def test_racks_put_back_for_the_minimums_are_typed_and_recorded(
    console: Client, event: Event, drawn: Round
) -> None:
    """Round 1 again, typed: a rack of consonants only is put back, then a good one."""
    from solver.tiles import rack_codes, rack_string
    from tournaments.state import rebuild

    console.post(_url(event, "game/end/"))
    game = game_start(event=event)
    bag = sorted(rebuild(game).game.bag.remaining_string().replace("?", ""))
    consonants = [c for c in bag if c not in "AEIOUY"]
    vowels = [c for c in bag if c in "AEIOU"]
    thrown = "".join(consonants[:7])
    good = "".join(vowels[:3] + consonants[7:11])
    checked = console.get(_url(event, "draw/check/"), {"typed": good, "rejected": thrown}).content.decode()
    assert "msg success" in checked, checked
    alone = console.get(_url(event, "draw/check/"), {"typed": good, "rejected": good}).content.decode()
    assert "cannot be rejected" in alone
    console.post(_url(event, "draw/"), {"typed": good, "rejected": f"{thrown}"})
    round = game.rounds.get()
    assert round.manual and round.rack == good
    assert round.rejected == [rack_string(rack_codes(thrown))]
    page = console.get(_url(event)).content.decode()
    assert "(typed from a physical draw)" in page and "served by the hub" not in page


# ------------------------------------------------------------------ Try Move: the warnings of the game


@pytest.fixture
def warned(event: Event, arbitrator, players: list[Player]) -> Round:
    """One free warning a game, 7 points each beyond; Anne (table 1) has two warnings from
    round 1 (a blank not marked, no score announced); round 2 is open."""
    event_update(event=event, free_warnings=1, warning_penalty=7)
    return warned_twice(game_start(event=event), players[0])


def test_try_move_says_the_warning_penalty_of_the_game(console: Client, event: Event, warned: Round) -> None:
    coordinates, word = blank_top(warned, marked=True)  # no score announced: a warning
    ask = {"coordinates": coordinates, "word": word, "announced_score": ""}
    anne = console.get(_url(event, "preview/"), {**ask, "table": 1}).content.decode()
    assert "Anne" in anne and "(warning 3 of the game: 7-point penalty)" in anne
    unmarked = {**ask, "word": blank_top(warned, marked=False)[1], "table": 1}
    twice = console.get(_url(event, "preview/"), unmarked).content.decode()
    assert "(warning 4 of the game: 14-point penalty)" in twice
    # Bruno's first warning is free; without a table, no player, no penalty either.
    bruno = console.get(_url(event, "preview/"), {**ask, "table": 2}).content.decode()
    assert "Bruno" in bruno and "no score announced: warning" in bruno and "of the game" not in bruno
    nobody = console.get(_url(event, "preview/"), ask).content.decode()
    assert "no score announced: warning" in nobody and "of the game" not in nobody


def test_try_move_says_the_warning_penalty_in_french(console: Client, event: Event, warned: Round) -> None:
    coordinates, word = blank_top(warned, marked=True)
    ask = {"table": 1, "coordinates": coordinates, "word": word, "announced_score": ""}
    page = console.get(_url(event, "preview/"), ask, HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "(avertissement 3 de la partie\u00a0: pénalité de 7 points)" in page
    stored = console.post(_url(event, "slip/"), ask, HTTP_HX_REQUEST="true", HTTP_ACCEPT_LANGUAGE="fr")
    assert "(avertissement 3 de la partie\u00a0: pénalité de 7 points)" in stored.content.decode()


def test_a_paper_slip_stored_says_the_warning_penalty_the_close_gives(
    console: Client, event: Event, warned: Round
) -> None:
    coordinates, word = blank_top(warned, marked=False)
    ask = {"table": 1, "coordinates": coordinates, "word": word, "announced_score": ""}
    stored = console.post(_url(event, "slip/"), ask, HTTP_HX_REQUEST="true").content.decode()
    assert "Table 1 (Anne)" in stored and "(warning 4 of the game: 14-point penalty)" in stored
    response = console.post(_url(event, "slip/"), {**ask, "table": 2}, follow=True)  # no htmx: a message
    # Bruno's first warning is free, his second costs.
    assert any(
        "Table 2 (Bruno)" in m and "(warning 2 of the game: 7-point penalty)" in m
        for m in _messages(response)
    )
    console.post(_url(event, "close/"))
    assert Ruling.objects.get(round=warned, player__table=1).penalty == 14
    assert Ruling.objects.get(round=warned, player__table=2).penalty == 7  # his 2nd warning


# ------------------------------------------------------------------ sheets, exports and game files


@pytest.mark.django_db
def test_sheets_are_printed_by_a_task_and_downloaded_from_the_console(settings) -> None:
    from django.contrib.auth import get_user_model
    from django.test import Client

    from tournaments.models import PrintedSheet

    settings.LANGUAGE_CODE = "en"
    call_command("simulate_event", players=4, games=1, seed=7, stdout=io.StringIO())
    event = Event.objects.get()
    arbitrator = get_user_model().objects.create_user("arbitre", password="x", is_staff=True)
    console = Client()
    console.force_login(arbitrator)
    url = f"/console/{event.pk}/sheets/"
    console.post(url, {"kind": "standings", "game": "1", "language": "fr"})
    console.post(url, {"kind": "rounds", "game": "9", "language": "en"})
    console.post(url, {"kind": "player", "game": "1", "language": "en"})  # no player: all of them
    ready, failed, everyone = PrintedSheet.objects.order_by("requested_at")
    assert ready.state == "ready" and failed.state == "failed" and "no game 9" in failed.error
    assert everyone.state == "ready" and len(_text(bytes(everyone.pdf))) >= 4
    page = console.get(url).content.decode()
    assert f"/console/{event.pk}/sheets/{ready.pk}.pdf" in page and "no game 9" in page
    response = console.get(f"/console/{event.pk}/sheets/{ready.pk}.pdf")
    assert response["Content-Type"] == "application/pdf"
    assert "Classement, partie 1" in _text(response.content)[0]
    assert console.get(f"/console/{event.pk}/sheets/{failed.pk}.pdf").status_code == 404
    stranger = Client()
    stranger.force_login(get_user_model().objects.create_user("someone", password="x"))
    assert stranger.get(f"/console/{event.pk}/sheets/{ready.pk}.pdf").status_code == 403
    assert stranger.post(url, {"kind": "standings"}).status_code == 403


@pytest.mark.django_db
def test_csv_exports_of_the_standings_and_of_every_slip() -> None:
    import csv

    from django.contrib.auth import get_user_model
    from django.test import Client

    from tournaments.models import Ruling, Slip
    from tournaments.standings import game_standings

    call_command("simulate_event", players=4, games=1, seed=7, stdout=io.StringIO())
    event = Event.objects.get()
    console = Client()
    console.force_login(get_user_model().objects.create_user("arbitre", password="x", is_staff=True))
    response = console.get(f"/console/{event.pk}/export/standings.csv?game=1")
    assert response["Content-Type"].startswith("text/csv")
    text = response.content.decode("utf-8-sig")
    rows = list(csv.DictReader(io.StringIO(text), delimiter=";"))
    expected = game_standings(event.games.get())
    # A French event: French columns, a decimal comma (issue 29, item 12).
    assert [(r["nom"], int(r["total"]), r["pourcentage"]) for r in rows] == [
        (e.player.name, e.total, f"{e.percent:.2f}".replace(".", ",")) for e in expected
    ]
    slips = list(
        csv.DictReader(
            io.StringIO(console.get(f"/console/{event.pk}/export/slips.csv").content.decode("utf-8-sig")),
            delimiter=";",
        )
    )
    assert len(slips) == Slip.objects.count()
    credited = sum(int(s["points"]) for s in slips if s["points"])
    local = timezone.localtime(Slip.objects.order_by("pk").first().received_at)
    assert slips[0]["reçu à"] == local.strftime("%Y-%m-%d %H:%M:%S")  # local time, no offset
    assert credited == sum(Ruling.objects.filter(slip__isnull=False).values_list("credited", flat=True))
    assert console.get(f"/console/{event.pk}/export/secrets.csv").status_code == 404
    stranger = Client()
    stranger.force_login(get_user_model().objects.create_user("someone", password="x"))
    assert stranger.get(f"/console/{event.pk}/export/slips.csv").status_code == 403


def test_the_console_exports_a_game_and_imports_it_as_a_master_game() -> None:
    event = _simulated_event(players=3)
    arbitrator = get_user_model().objects.create_user("arbitre", password="x", is_staff=True)
    console = Client()
    console.force_login(arbitrator)
    page = console.get(f"/console/{event.pk}/sheets/").content.decode()
    assert f"/console/{event.pk}/export/record.json?game=1" in page
    assert f"/console/{event.pk}/export/gcg.gcg?game=1" in page
    response = console.get(f"/console/{event.pk}/export/record.json?game=1")
    assert response["Content-Type"].startswith("application/json")
    assert 'filename="event-' in response["Content-Disposition"]
    record = response.content
    assert record == exports.record_json(event.games.get())
    gcg = console.get(f"/console/{event.pk}/export/gcg.gcg")
    assert gcg.content == exports.game_gcg(event.games.get())
    assert console.get(f"/console/{event.pk}/export/record.csv").status_code == 404
    assert console.get(f"/console/{event.pk}/export/record.json?game=4").status_code == 302

    form = console.get("/console/import/")
    assert form.status_code == 200 and b'name="record"' in form.content
    upload = io.BytesIO(record)
    upload.name = "game-1.json"
    response = console.post(
        "/console/import/",
        {
            "name": "Replay",
            "starts_on": "2026-11-22",
            "notation": "fisf",
            "mode": "tournament",
            "round_seconds": "150",
            "record": upload,
        },
    )
    copy = Event.objects.get(name="Replay")
    assert response.status_code == 302 and response["Location"] == f"/console/{copy.pk}/players/"
    assert copy.created_by == arbitrator and copy.round_seconds == 150 and copy.notation == "fisf"
    player_add(event=copy, name="Alice")
    console.post(f"/console/{copy.pk}/game/start/")
    round = Round.objects.get(game__event=copy)
    first = event.games.get().rounds.get(number=1)
    assert round.rack == first.rack
    round_open(round=round)
    round_close(round=round)
    status = console.get(f"/console/{copy.pk}/?part=status", HTTP_HX_REQUEST="true").content.decode()
    assert "Master game: the recorded move" in status and "data-squares" not in status
    assert "The next rack comes from the master game" in status and 'name="typed"' not in status

    upload = io.BytesIO(record)
    upload.name = "game-1.json"
    fields = {"name": "Kept", "starts_on": "2026-11-22", "notation": "gcg", "mode": "tournament"}
    response = console.post(
        "/console/import/", {**fields, "round_seconds": "150", "record": upload, "restore": "on"}
    )
    kept = Event.objects.get(name="Kept")
    assert response.status_code == 302 and kept.games.get().state == Game.State.ENDED
    assert exports.standings_csv(kept) == exports.standings_csv(event)

    bad = io.BytesIO(b'{"format": "arbiter-game/1"}')
    bad.name = "bad.json"
    response = console.post(
        "/console/import/",
        {
            "name": "Bad",
            "starts_on": "2026-11-22",
            "notation": "fisf",
            "mode": "tournament",
            "round_seconds": "150",
            "record": bad,
        },
        follow=True,
    )
    assert b"cannot be read" in response.content and not Event.objects.filter(name="Bad").exists()
    stranger = Client()
    stranger.force_login(get_user_model().objects.create_user("someone", password="x"))
    assert stranger.get(f"/console/{event.pk}/export/record.json").status_code == 403
    assert Slip.objects.filter(round__game__event=copy).count() == 0


def test_the_average_is_one_click_on_a_ruling_of_a_word_not_in_the_list(
    console: Client, event: Event, opened: Round
) -> None:
    coordinates, word = _best(opened)
    anne, bruno = _phone(event, 1), _phone(event, 2)
    anne.post(
        f"/p/{event.pk}/slip/", {"coordinates": coordinates, "word": word[::-1], "announced_score": "9"}
    )
    bruno.post(f"/p/{event.pk}/slip/", {"coordinates": coordinates, "word": word, "announced_score": "1"})
    console.post(_url(event, "close/"))
    ruling = Ruling.objects.get(round=opened, player__table=1)
    assert ruling.reason == "not_in_lexicon"
    average = round_average(ruling)
    page = console.get(_url(event, f"rulings/{ruling.pk}/")).content.decode()
    assert f"Credit the average ({average})" in page
    french = console.get(_url(event, f"rulings/{ruling.pk}/"), HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "n’est pas dans la liste" in french and "is not in the lexicon" not in french
    response = console.post(_url(event, f"rulings/{ruling.pk}/"), {"average": "1"})
    assert response.status_code == 302
    ruling.refresh_from_db()
    assert (ruling.reason, ruling.credited) == ("average", average)
    # No offer on a ruling of another kind.
    other = Ruling.objects.get(round=opened, player__table=2)
    assert "Credit the average" not in console.get(_url(event, f"rulings/{other.pk}/")).content.decode()


def test_a_round_whose_rulings_do_not_come_is_ruled_again_from_the_console(
    console: Client, event: Event, opened: Round
) -> None:
    # The close's task lost (a worker killed with it): the round stays closed, unruled.
    Round.objects.filter(pk=opened.pk).update(state=Round.State.CLOSED, closed_at=opened.deadline)
    page = console.get(_url(event)).content.decode()
    assert "Rule the slips again" in page
    response = console.post(
        _url(event, "rule-again/"), {"round_key": f"{opened.game.number}-{opened.number}"}, follow=True
    )
    assert any("ruled again" in m for m in _messages(response))
    opened.refresh_from_db()
    assert opened.state == Round.State.ADJUDICATED  # the tasks run in the tests' process
    assert Ruling.objects.filter(round=opened).count() == event.players.count()
    assert HistoryEntry.objects.filter(entity="round", object_id=opened.pk, action="rule_again").exists()
    assert console.get(_url(event, "rule-again/")).status_code == 405


def test_a_round_closed_by_mistake_is_reopened_from_the_console(
    console: Client, event: Event, opened: Round
) -> None:
    console.post(_url(event, "close/"))
    page = console.get(_url(event), HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "Rouvrir le coup" in page and _url(event, "reopen/") in page
    response = console.post(_url(event, "reopen/"), {"seconds": "45"}, follow=True)
    assert any("open again" in m for m in _messages(response)), _messages(response)
    round = _round(event)
    assert round.state == Round.State.OPEN and round.closed_at is None
    assert 40 <= (round.deadline - timezone.now()).total_seconds() <= 45
    assert HistoryEntry.objects.filter(entity="round", action="reopen").count() == 1
    refused = console.post(_url(event, "reopen/"), {"seconds": "45"}, follow=True)  # open: refused
    assert any("only a closed round" in m for m in _messages(refused)), _messages(refused)


def test_a_round_whose_results_were_shown_reopens_from_the_console_only_with_a_reason(
    console: Client, event: Event, opened: Round
) -> None:
    console.post(_url(event, "close/"))
    console.post(_url(event, "publish/"))
    page = console.get(_url(event), HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "le top est public" in page and 'name="reason" required' in page
    refused = console.post(_url(event, "reopen/"), {"seconds": "45"}, follow=True)
    assert any("the top is public" in m for m in _messages(refused)), _messages(refused)
    assert _round(event).state == Round.State.ADJUDICATED
    response = console.post(_url(event, "reopen/"), {"seconds": "45", "reason": "rack misread"}, follow=True)
    assert any("open again" in m for m in _messages(response)), _messages(response)
    assert HistoryEntry.objects.get(entity="round", action="reopen").reason == "rack misread"


def test_the_clock_is_paused_resumed_and_given_time_from_the_console(
    console: Client, event: Event, opened: Round
) -> None:
    key = {"round_key": f"{opened.game.number}-{opened.number}"}
    page = console.get(_url(event), HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "Suspendre le chrono" in page and _url(event, "clock/") in page
    response = console.post(_url(event, "clock/"), {**key, "action": "pause"}, follow=True)
    assert any("paused" in m for m in _messages(response)), _messages(response)
    round = _round(event)
    assert round.paused_at is not None
    page = console.get(_url(event), HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "Relancer le chrono" in page and 'data-paused="' in page and "data-clock-paused hidden" not in page
    left = round.seconds_left(timezone.now())
    assert left is not None
    response = console.post(_url(event, "clock/"), {**key, "action": "add", "seconds": "30"}, follow=True)
    assert any("Time added to the clock: 30 s" in m for m in _messages(response)), _messages(response)
    assert _round(event).seconds_left(timezone.now()) == pytest.approx(left + 30)
    refused = console.post(_url(event, "clock/"), {**key, "action": "add", "seconds": "x"}, follow=True)
    assert any("between 1 and 3600" in m for m in _messages(refused)), _messages(refused)
    console.post(_url(event, "clock/"), {**key, "action": "resume"})
    assert _round(event).paused_at is None
    stale = console.post(_url(event, "clock/"), {"round_key": "1-9", "action": "pause"}, follow=True)
    assert any("no longer the current round" in m for m in _messages(stale)), _messages(stale)
    assert _round(event).paused_at is None
    assert console.get(_url(event, "clock/")).status_code == 405


def test_the_results_are_published_from_the_console(console: Client, event: Event, opened: Round) -> None:
    console.post(_url(event, "close/"))
    page = console.get(_url(event), HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "Publier les résultats" in page and _url(event, "publish/") in page
    hall = console.get(f"/hall/{event.pk}/", HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "Les résultats sont en cours de vérification." in hall and "hall-top" not in hall
    response = console.post(
        _url(event, "publish/"), {"round_key": f"{opened.game.number}-{opened.number}"}, follow=True
    )
    assert any("shown on the phones" in m for m in _messages(response)), _messages(response)
    assert _round(event).published_at is not None
    page = console.get(_url(event)).content.decode()
    assert "Publish the results" not in page and "The players see the top and their rulings" in page
    hall = console.get(f"/hall/{event.pk}/").content.decode()
    assert "hall-top" in hall and "being checked" not in hall
    history = console.get(_url(event, "history/")).content.decode()
    assert "results published" in history


def test_an_equal_top_is_selected_and_placed_in_one_step(console: Client, event: Event, players) -> None:
    game = game_start(event=event)
    round = round_draw(game=game, typed="AEGINRS")
    round_open(round=round)
    round_close(round=Round.objects.get(pk=round.pk))
    round = Round.objects.get(pk=round.pk)
    assert len(round.tops) == 7
    page = console.get(_url(event)).content.decode()
    # Each equal top a radio of the Place form, its tiles given for the board's preview.
    assert page.count('name="move" value="') == 7 and 'data-squares="7,1,R;7,2,E;' in page
    assert "Choose this top" not in page and 'data-place-label="Place %(m)s and draw the next rack"' in page
    key = {"round_key": f"{game.number}-{round.number}"}
    console.post(_url(event, "place/"), {**key, "move": round.tops[3]})
    placed = Round.objects.get(pk=round.pk)
    assert placed.state == Round.State.PLACED and placed.chosen == round.tops[3]
    assert HistoryEntry.objects.filter(entity="round", object_id=round.pk, action="choose_top").exists()


def test_a_lower_move_is_not_placed_through_the_top_choice(console: Client, event: Event, players) -> None:
    game = game_start(event=event)
    round = round_draw(game=game, typed="AEGINRS")
    round_open(round=round)
    round_close(round=Round.objects.get(pk=round.pk))
    response = console.post(_url(event, "place/"), {"move": "8D GAINER"}, follow=True)
    assert any("confirm to place a lower move" in m for m in _messages(response)), _messages(response)
    assert Round.objects.get(pk=round.pk).state == Round.State.ADJUDICATED


def test_the_last_placement_is_undone_from_the_console(console: Client, event: Event, opened: Round) -> None:
    console.post(_url(event, "close/"))
    console.post(_url(event, "place/"))
    page = console.get(_url(event), HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "Annuler la pose du coup 1" in page and _url(event, "unplace/") in page
    response = console.post(_url(event, "unplace/"), {"round_key": "1-2"}, follow=True)
    assert any("placement of round 1 is undone" in m for m in _messages(response)), _messages(response)
    game = Game.objects.get(event=event)
    assert list(game.rounds.values_list("number", "state")) == [(1, Round.State.ADJUDICATED)]
    stale = console.post(_url(event, "unplace/"), {"round_key": "1-2"}, follow=True)  # nothing placed now
    assert any("round 2" in m or "no move" in m for m in _messages(stale)), _messages(stale)


def test_the_placement_that_ended_the_game_is_undone_from_the_console(
    console: Client, event: Event, opened: Round
) -> None:
    console.post(_url(event, "close/"))
    console.post(_url(event, "place/"))
    game = Game.objects.get(event=event)
    game_end(game=game, reason="stopped")  # round 2 drawn, kept in the record
    page = console.get(_url(event), HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "La partie 1 est terminée" in page and "Annuler la pose du coup 1" in page
    assert "La partie 1 continue alors." in page.replace("\u2019", "'").replace("&#x27;", "'")
    response = console.post(_url(event, "unplace/"), follow=True)
    assert any("placement of round 1 is undone" in m for m in _messages(response)), _messages(response)
    game.refresh_from_db()
    assert game.state == Game.State.PLAYING
    assert list(game.rounds.values_list("number", "state")) == [(1, Round.State.ADJUDICATED)]
    history = console.get(_url(event, "history/")).content.decode()
    assert "game played on" in history and "its last placement was undone: the game is played on" in history


def test_the_history_reads_as_sentences_in_the_pages_language(
    console: Client, event: Event, opened: Round
) -> None:
    anne = _phone(event, 1)
    coordinates, word = _best(opened)
    anne.post(f"/p/{event.pk}/slip/", {"coordinates": "8H", "word": "ZZZ"})
    anne.post(f"/p/{event.pk}/slip/", {"coordinates": coordinates, "word": word})  # replaces it
    console.post(_url(event, "close/"))
    page = html.unescape(console.get(_url(event, "history/"), HTTP_ACCEPT_LANGUAGE="fr").content.decode())
    assert "Partie 1, coup 1\u00a0: coup ouvert" in page and "Partie 1, coup 1\u00a0: coup clos" in page
    assert "Table 1 (Anne), partie 1, coup 1\u00a0: bulletin remplacé" in page
    assert "un bulletin plus récent du même joueur est arrivé avant la fin du temps" in page  # the why
    assert "<dt>compte</dt><dd><del>oui</del> → <ins>non</ins></dd>" in page  # old -> new, in words
    assert "Arbiter (automatique)" in page and "system" not in page
    assert "{'" not in page and "'}" not in page  # no raw values
    # The end of the clock in local time (Paris), not the stored UTC.
    deadline = timezone.localtime(opened.deadline)
    assert f"<dt>fin du chrono</dt><dd><ins>{deadline:%d/%m/%Y %H:%M:%S}</ins></dd>" in page


def test_a_player_is_corrected_withdrawn_and_removed_from_the_console(
    console: Client, event: Event, opened: Round
) -> None:
    anne, bruno = event.players.get(table=1), event.players.get(table=2)
    listing = console.get(_url(event, "players/"), HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert _url(event, f"players/{anne.pk}/") in listing
    page = console.get(_url(event, f"players/{anne.pk}/"), HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "Corriger" in page and "Retirer des coups suivants" in page and 'value="remove"' in page
    response = console.post(
        _url(event, f"players/{anne.pk}/"),
        {"action": "save", "name": "Anne Martin", "table": "1"},
        follow=True,
    )
    assert any("Anne Martin, table 1: saved" in m for m in _messages(response)), _messages(response)
    assert Player.objects.get(pk=anne.pk).name == "Anne Martin"
    # Bruno hands in a slip: he can no longer be removed, only withdrawn.
    coordinates, word = opened.tops[0].split()
    slip_submit(round=opened, player=bruno, coordinates=coordinates, word=word, announced_score=None)
    page = console.get(_url(event, f"players/{bruno.pk}/")).content.decode()
    assert 'value="remove"' not in page and "1 slip handed in" in page
    refused = console.post(_url(event, f"players/{bruno.pk}/"), {"action": "remove"}, follow=True)
    assert any("withdraw them" in m for m in _messages(refused)), _messages(refused)
    console.post(_url(event, f"players/{bruno.pk}/"), {"action": "withdraw"})
    assert Player.objects.get(pk=bruno.pk).withdrawn_at is not None
    listing = console.get(_url(event, "players/")).content.decode()
    assert "state withdrawn" in listing
    console.post(_url(event, f"players/{bruno.pk}/"), {"action": "reinstate"})
    assert Player.objects.get(pk=bruno.pk).withdrawn_at is None
    response = console.post(_url(event, f"players/{anne.pk}/"), {"action": "remove"}, follow=True)
    assert any("Anne Martin is removed" in m for m in _messages(response)), _messages(response)
    assert not Player.objects.filter(pk=anne.pk).exists()
    other = event_create(
        name="Other", starts_on=event.starts_on, lexicon=event.lexicon, language="english", notation="gcg"
    )
    stranger = player_add(event=other, name="Zoé")
    assert console.get(_url(event, f"players/{stranger.pk}/")).status_code == 404


def test_the_review_counts_the_invalid_slips_and_the_round_result_prints_in_one_click(
    console: Client, event: Event, opened: Round
) -> None:
    from tournaments.models import PrintedSheet

    anne = _phone(event, 1)
    anne.post(f"/p/{event.pk}/slip/", {"coordinates": "8H", "word": "QQQQ"})
    console.post(_url(event, "close/"))
    review = console.get(_url(event, "?part=review"), HTTP_HX_REQUEST="true").content.decode()
    assert "1 invalid slip (scores 0)" in review and "Invalid (0)" not in review
    page = console.get(_url(event), HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "Imprimer le résultat du coup 1" in page
    response = console.post(
        _url(event, "sheets/"), {"kind": "round", "game": "1", "round": "1", "language": "fr"}, follow=True
    )
    assert response.status_code == 200
    sheet = PrintedSheet.objects.get(kind="round")
    assert (sheet.round, sheet.state) == (1, PrintedSheet.State.READY), sheet.error
    assert sheet.filename.endswith("-round-1-fr.pdf") and bytes(sheet.pdf).startswith(b"%PDF")


def test_the_review_names_every_ruling_once_escaped_in_the_pages_language(
    console: Client, event: Event, players: list[Player], opened: Round
) -> None:
    """The review's lists are written by rooms/templatetags/arbiter.py (a hall's 2,000
    rulings, too slow through the template language): every ruling once under its move or
    its reason, names escaped, words in the page's language."""
    Player.objects.filter(pk=players[0].pk).update(name='<b>Anne</b> "&"')
    slip = {"coordinates": "8H", "word": "PROOF", "announced_score": 30}
    _phone(event, 1).post(f"/p/{event.pk}/slip/", slip)
    _phone(event, 2).post(f"/p/{event.pk}/slip/", {"pass": "1"})
    console.post(_url(event, "close/"))
    rulings = {r.player.table: r for r in Ruling.objects.filter(round=opened).select_related("player")}
    for language, announced in (("en", "announced 30"), ("fr", "annoncé 30")):
        review = console.get(
            _url(event, "?part=review"), HTTP_HX_REQUEST="true", HTTP_ACCEPT_LANGUAGE=language
        ).content.decode()
        listed = re.findall(r'data-ruling="(\d+)"', review)
        assert sorted(listed) == sorted(str(r.pk) for r in rulings.values())  # each once
        assert "&lt;b&gt;Anne&lt;/b&gt; &quot;&amp;&quot;" in review and "<b>Anne</b>" not in review
        assert f"({announced})" in review
        anne = re.search(rf'<a href="[^"]*/{rulings[1].pk}/" class="who"[^>]*>(.*?)</a>', review)
        assert anne is not None and anne.group(1).startswith("1 &lt;b&gt;")
        assert re.search(rf'<a href="[^"]*/{rulings[3].pk}/" data-ruling="{rulings[3].pk}">3</a>', review)


def test_the_review_kept_between_its_pages_is_the_review_written_after_every_change(
    console: Client, event: Event, players: list[Player], opened: Round, monkeypatch
) -> None:
    """The review's page is kept per version of the round's rulings (a hall's 2,000, read
    again by each action of the review): every change that moves what it says gives a
    new one, the same as written from nothing."""
    from django.core.cache import caches

    from rooms.listed import listed_review
    from rooms.views.console import round_page

    proof = {"coordinates": "8H", "word": "PROOF", "announced_score": 30}
    _phone(event, 1).post(f"/p/{event.pk}/slip/", proof)
    _phone(event, 2).post(f"/p/{event.pk}/slip/", {"coordinates": "8H", "word": "QQQQ"})
    console.post(_url(event, "close/"))

    def review(language: str = "en") -> str:
        url = _url(event, "?part=review")
        return console.get(url, HTTP_HX_REQUEST="true", HTTP_ACCEPT_LANGUAGE=language).content.decode()

    def written(language: str = "en") -> str:
        caches["fragments"].clear()
        return review(language)

    first = review()
    assert review() == first == written() and "(announced 30)" in first
    # Published: the review says nothing of it, and is not read again.
    read: list[Round] = []

    def counted(round: Round) -> object:
        read.append(round)
        return listed_review(round)

    monkeypatch.setattr(round_page, "listed_review", counted)
    console.post(_url(event, "publish/"))
    assert review() == first and not read
    assert "(annoncé 30)" in review("fr") and review() == first  # each language its own
    anne, bruno = (Ruling.objects.get(round=opened, player__table=table) for table in (1, 2))
    # A player's name corrected.
    player_update(player=players[0], name="Anne-Marie", table=players[0].table, by=None)
    renamed = review()
    assert "1 Anne-Marie" in renamed and renamed == written()
    # A ruling corrected on its page.
    override = {"credited": 7, "warnings": "", "penalty": "", "reason": "read again"}
    page = console.post(_url(event, f"rulings/{anne.pk}/"), override)
    assert page.status_code == 302
    corrected = review()
    assert corrected != renamed and "read again" in corrected and corrected == written()
    # A ruling written again by the worker with the same figures, its detail only new.
    said = {"notes": [], "detail": "QQQQ: not in the word list"}
    Ruling.objects.filter(pk=bruno.pk).update(**said, ruled_at=timezone.now())
    ruled = review()
    assert "QQQQ: not in the word list" in ruled and ruled == written()
