"""The pages: the arbitrator's console, the phone page, the projector, the live endpoint.
Every action through the page, and every permission rule."""

from __future__ import annotations

import datetime as dt
import json
import re

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.test import Client

from tournaments import services
from tournaments.models import Event, Game, HistoryEntry, Player, Round, Ruling, Slip

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _fresh_cache() -> None:
    from rooms.views import live

    cache.clear()
    live.forget()


@pytest.fixture
def arbitrator(event: Event):
    user = get_user_model().objects.create_user("arbitre", password="secret-pass")
    Event.objects.filter(pk=event.pk).update(created_by=user)
    event.refresh_from_db()
    return user


@pytest.fixture
def console(arbitrator) -> Client:
    client = Client()
    client.force_login(arbitrator)
    return client


@pytest.fixture
def players(event: Event) -> list[Player]:
    return [services.player_add(event=event, name=name) for name in ("Anne", "Bruno", "Chloé")]


def live_forget() -> None:
    """The live versions are computed at most every half second: see the change now."""
    from rooms.views import live

    live.forget()


def _url(event: Event, tail: str = "") -> str:
    return f"/console/{event.pk}/{tail}"


def _messages(response) -> list[str]:
    return [str(m) for m in response.context["messages"]] if response.context else []


def _round(event: Event) -> Round:
    return Round.objects.filter(game__event=event).order_by("-game__number", "-number").first()


@pytest.fixture
def drawn(console: Client, event: Event, players: list[Player]) -> Round:
    response = console.post(_url(event, "game/start/"))
    assert response.status_code == 302
    return _round(event)


@pytest.fixture
def opened(console: Client, event: Event, drawn: Round) -> Round:
    console.post(_url(event, "open/"), {"seconds": 180})
    round = _round(event)
    assert round.state == Round.State.OPEN
    return round


def _phone(event: Event, table: int) -> Client:
    client = Client()
    response = client.post("/j/", {"code": event.code.lower(), "who": str(table)})
    assert response.status_code == 302 and response["Location"] == f"/p/{event.pk}/", response.content
    return client


def _best(round: Round) -> tuple[str, str]:
    """The first top as (coordinates, word) in the event's GCG notation."""
    coordinates, word = round.tops[0].split()
    return coordinates, word


# --------------------------------------------------------------------------- access


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


# --------------------------------------------------------------------------- setting up


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
        "tie_break": "shared",
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
    assert event.notation == "fisf" and event.lexicon.bundled == "enable"


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
    data = {k: v for k, v in form.initial.items() if v is not None}
    data.update({"lexicon_choice": "bundled:enable", "bingo_bonus": 40, "starts_on": "2026-11-21"})
    data = {k: ("on" if v is True else v) for k, v in data.items() if v is not False}
    response = console.post(_url(event, "settings/"), data, follow=True)
    assert any("can no longer change (bingo_bonus)" in m for m in _messages(response))
    event.refresh_from_db()
    assert event.bingo_bonus == 50
    data["bingo_bonus"] = 50
    data["round_seconds"] = 90
    console.post(_url(event, "settings/"), data)
    event.refresh_from_db()
    assert event.round_seconds == 90
    entry = HistoryEntry.objects.get(event=event, entity="event")
    assert entry.old == {"round_seconds": 180} and entry.new == {"round_seconds": 90}


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


# --------------------------------------------------------------------------- a round


def test_start_draws_the_first_rack(console: Client, event: Event, drawn: Round) -> None:
    assert drawn.number == 1 and drawn.state == Round.State.DRAWN
    page = console.get(_url(event)).content.decode()
    assert drawn.new_tiles in page


def test_a_typed_rack_is_refused_with_its_reason(console: Client, event: Event, opened: Round) -> None:
    # Play round 1 through, keep the board, then type an impossible rack.
    console.post(_url(event, "close/"))
    response = console.post(_url(event, "place/"), {"typed": "ZZZZZZZ"}, follow=True)
    assert "rack" in _messages(response)[-1], _messages(response)  # the reason, at once
    game = Game.objects.get(event=event)
    assert game.rounds.count() == 1 and game.rounds.get().state == Round.State.PLACED
    response = console.post(_url(event, "draw/"), {"typed": ""}, follow=True)
    assert game.rounds.count() == 2


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
    for action in ("draw", "open", "submit", "close", "override", "choose_top", "place"):
        assert action in history, action


def test_a_lower_move_needs_confirmation(console: Client, event: Event, opened: Round) -> None:
    console.post(_url(event, "close/"))
    round = _round(event)
    from tournaments.services import analysis_for

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
    event = services.event_create(
        name="Q",
        starts_on=dt.date(2026, 11, 21),
        lexicon=enable_lexicon,
        language="english",
        created_by=arbitrator,
        **no_minimums,
    )
    services.player_add(event=event, name="Alice")
    game = services.game_start(event=event)
    services.round_draw(game=game, typed="QZJXKVV")
    page = console.get(_url(event)).content.decode()
    assert "This rack has no legal move: the game is over." in page
    console.post(_url(event, "game/end/"))
    assert Game.objects.get(pk=game.pk).end_reason == "no_move"


# --------------------------------------------------------------------------- the phone


def test_join_by_code_and_table_or_name(event: Event, players) -> None:
    client = Client()
    page = client.get(f"/j/{event.code}/").content.decode()
    assert event.code in page
    response = client.post("/j/", {"code": event.code, "who": "bruno"})
    assert response.status_code == 302
    assert "Bruno" in client.get(f"/p/{event.pk}/").content.decode()


def test_join_refuses_alike_a_wrong_code_or_table(event: Event, players) -> None:
    wrong_code = Client().post("/j/", {"code": "NOPE", "who": "1"}, follow=True)
    wrong_table = Client().post("/j/", {"code": event.code, "who": "77"}, follow=True)
    assert _messages(wrong_code) == _messages(wrong_table) and _messages(wrong_code)


def test_join_is_rate_limited(event: Event, players) -> None:
    client = Client()
    for _ in range(10):
        client.post("/j/", {"code": "NOPE", "who": "1"})
    response = client.post("/j/", {"code": event.code, "who": "1"}, follow=True)
    assert any("Too many" in m or "Trop" in m for m in _messages(response))
    assert client.get(f"/p/{event.pk}/").status_code == 302  # not joined


def test_the_phone_needs_a_join(event: Event, players) -> None:
    response = Client().get(f"/p/{event.pk}/")
    assert response.status_code == 302 and response["Location"] == f"/j/{event.code}/"


def test_the_phone_sees_no_rack_before_the_open_and_no_top_before_the_ruling(
    console: Client, event: Event, drawn: Round
) -> None:
    anne = _phone(event, 1)
    page = anne.get(f"/p/{event.pk}/").content.decode()
    assert f'data-rack="{drawn.rack}"' not in page and "data-rack" not in page
    console.post(_url(event, "open/"), {"seconds": 180})
    round = _round(event)
    page = anne.get(f"/p/{event.pk}/").content.decode()
    assert "data-rack" in page
    for top in round.tops:
        assert top.split()[1] not in page.replace(round.rack, "")


def test_a_phone_sees_only_its_own_slip(console: Client, event: Event, opened: Round) -> None:
    anne, bruno = _phone(event, 1), _phone(event, 2)
    anne.post(f"/p/{event.pk}/slip/", {"coordinates": "8H", "word": "ANNEWORD"})
    bruno.post(f"/p/{event.pk}/slip/", {"coordinates": "8G", "word": "BRUNOWORD"})
    assert "ANNEWORD" in anne.get(f"/p/{event.pk}/").content.decode()
    assert "BRUNOWORD" not in anne.get(f"/p/{event.pk}/").content.decode()
    assert Slip.objects.get(word="ANNEWORD").player.table == 1


def test_a_phone_replaces_its_slip_until_the_deadline(console: Client, event: Event, opened: Round) -> None:
    anne = _phone(event, 1)
    anne.post(f"/p/{event.pk}/slip/", {"coordinates": "8H", "word": "FIRST"})
    anne.post(f"/p/{event.pk}/slip/", {"coordinates": "8H", "word": "SECOND"})
    assert list(Slip.objects.filter(current=True).values_list("word", flat=True)) == ["SECOND"]


def test_the_phone_shows_the_result_after_the_close(console: Client, event: Event, opened: Round) -> None:
    coordinates, word = _best(opened)
    anne = _phone(event, 1)
    anne.post(f"/p/{event.pk}/slip/", {"coordinates": coordinates, "word": word})
    console.post(_url(event, "close/"))
    page = anne.get(f"/p/{event.pk}/").content.decode()
    assert f"{opened.top_score}" in page and "result-title" in page


def test_the_phone_leaves(event: Event, players) -> None:
    anne = _phone(event, 1)
    anne.post(f"/p/{event.pk}/leave/")
    assert anne.get(f"/p/{event.pk}/").status_code == 302


def test_rack_sort_is_remembered(console: Client, event: Event, opened: Round) -> None:
    anne = _phone(event, 1)
    anne.get(f"/p/{event.pk}/?sort=a")
    page = anne.get(f"/p/{event.pk}/").content.decode()
    rack = re.search(r'data-rack="([^"]*)"', page)
    assert rack is not None
    letters = rack.group(1).replace("?", "")
    assert letters == "".join(sorted(letters))


# --------------------------------------------------------------------------- projector and live


def test_the_projector_shows_the_join_qr_and_the_rack_once_open(
    console: Client, event: Event, opened
) -> None:
    page = console.get(f"/hall/{event.pk}/").content.decode()
    assert "<svg" in page and f"/j/{event.code}/" in page
    assert "countdown huge" in page


def test_live_versions_change_with_the_state(console: Client, event: Event, drawn: Round) -> None:
    anne = _phone(event, 1)
    before = anne.get(f"/live/{event.pk}/").json()
    assert set(before) == {"public", "deadline", "state", "now"}  # no "full" for a player
    full = console.get(f"/live/{event.pk}/").json()
    assert "full" in full
    console.post(_url(event, "open/"), {"seconds": 180})
    live_forget()
    after = anne.get(f"/live/{event.pk}/").json()
    assert after["public"] != before["public"] and after["state"] == "open" and after["deadline"]
    # A slip changes what the arbitrator sees, not what the phones show.
    anne.post(f"/p/{event.pk}/slip/", {"coordinates": "8H", "word": "WORD"})
    live_forget()
    assert anne.get(f"/live/{event.pk}/").json()["public"] == after["public"]
    assert console.get(f"/live/{event.pk}/").json()["full"] != full["full"]


def test_live_is_refused_to_strangers(event: Event, players) -> None:
    assert Client().get(f"/live/{event.pk}/").status_code == 403


def test_phone_slips_are_rate_limited(console: Client, event: Event, opened: Round) -> None:
    anne = _phone(event, 1)
    for i in range(30):
        anne.post(f"/p/{event.pk}/slip/", {"coordinates": "8H", "word": f"W{i}"})
    response = anne.post(f"/p/{event.pk}/slip/", {"coordinates": "8H", "word": "LAST"}, follow=True)
    assert any("Too many" in m for m in _messages(response))
    assert not Slip.objects.filter(word="LAST").exists()
    assert Slip.objects.filter(player__table=1).count() == 30


def test_the_phone_shows_the_ruling_in_words(console: Client, event: Event, opened: Round) -> None:
    anne = _phone(event, 1)
    anne.post(f"/p/{event.pk}/slip/", {"coordinates": "8H", "word": "QQQQ"})
    console.post(_url(event, "close/"))
    page = anne.get(f"/p/{event.pk}/").content.decode()
    assert "0: " not in page or "cannot be" in page or "not in the list" in page
    ruling = Ruling.objects.get(player__table=1)
    from tournaments.display import ruling_text

    assert ruling_text(ruling.reason) in page


def test_the_current_round_is_none_between_a_new_game_and_its_draw(
    console: Client, event: Event, drawn: Round
) -> None:
    from tournaments.selectors import current_round

    console.post(_url(event, "game/end/"))
    services.game_start(event=event)
    assert current_round(event) is None
    assert "next game" not in console.get(_url(event)).content.decode()


def test_a_typed_rack_is_checked_as_it_is_typed(console: Client, event: Event, opened: Round) -> None:
    console.post(_url(event, "close/"))
    console.post(_url(event, "place/"), {"typed": "ZZZZZZZ"})  # placed, the typed rack refused
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


def test_the_live_stream_sends_the_versions_then_each_change(
    console: Client, event: Event, drawn: Round
) -> None:
    from rooms.views import live

    response = console.get(f"/live/{event.pk}/stream/")
    assert response.status_code == 200 and response["Content-Type"] == "text/event-stream"
    assert response["X-Accel-Buffering"] == "no"
    chunks = iter(response.streaming_content)
    assert next(chunks).decode() == f"retry: {live.RETRY_MS}\n\n"
    first = next(chunks).decode()
    assert first.startswith("event: version\ndata: ")
    body = json.loads(first.split("data: ", 1)[1])
    assert set(body) == {"public", "full", "deadline", "state", "now"} and body["state"] == "drawn"
    services.round_open(round=drawn)
    live_forget()
    changed = json.loads(next(chunks).decode().split("data: ", 1)[1])
    assert changed["state"] == "open" and changed["public"] != body["public"] and changed["deadline"]
    response.close()


def test_a_player_stream_has_no_slip_version_and_strangers_get_none(event: Event, drawn: Round) -> None:
    anne = _phone(event, 1)
    response = anne.get(f"/live/{event.pk}/stream/")
    chunks = iter(response.streaming_content)
    next(chunks)
    body = json.loads(next(chunks).decode().split("data: ", 1)[1])
    assert "full" not in body
    response.close()
    assert Client().get(f"/live/{event.pk}/stream/").status_code == 403


def test_a_table_joins_on_one_phone_until_the_arbitrator_releases_it(
    console: Client, event: Event, opened: Round
) -> None:
    anne = _phone(event, 1)
    # The same browser may join again (a reload of the join page, say).
    again = anne.post("/j/", {"code": event.code, "who": "1"})
    assert again["Location"] == f"/p/{event.pk}/"
    # Someone else with the code cannot take Anne's table and replace her slip.
    intruder = Client()
    response = intruder.post("/j/", {"code": event.code, "who": "anne"}, follow=True)
    assert any("already joined" in m for m in _messages(response))
    assert intruder.get(f"/p/{event.pk}/").status_code == 302
    # The arbitrator releases the table: Anne's old phone is out, a new one may join.
    anne_id = Player.objects.get(event=event, table=1).pk
    page = console.get(_url(event, "players/")).content.decode()
    assert f'name="release" value="{anne_id}"' in page
    console.post(_url(event, "players/"), {"release": anne_id})
    assert anne.get(f"/p/{event.pk}/").status_code == 302
    assert anne.get(f"/live/{event.pk}/").status_code == 403
    assert _phone(event, 1).get(f"/p/{event.pk}/").status_code == 200
    actions = list(
        HistoryEntry.objects.filter(entity="player", object_id=anne_id).values_list("action", flat=True)
    )
    assert actions.count("join") == 2 and actions.count("release") == 1


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


def test_a_phone_slip_for_a_round_that_is_over_is_refused(
    console: Client, event: Event, opened: Round
) -> None:
    anne = _phone(event, 1)
    game = opened.game.number
    console.post(_url(event, "close/"))
    console.post(_url(event, "place/"))
    console.post(_url(event, "open/"), {"seconds": 60})
    response = anne.post(
        f"/p/{event.pk}/slip/", {"coordinates": "8H", "word": "WORD", "game": game, "round": 1}, follow=True
    )
    assert any("no longer the current round" in m for m in _messages(response))
    assert not Slip.objects.filter(word="WORD").exists()


def test_racks_put_back_for_the_minimums_are_typed_and_recorded(
    console: Client, event: Event, drawn: Round
) -> None:
    """Round 1 again, typed: a rack of consonants only is put back, then a good one."""
    from solver.tiles import rack_codes, rack_string
    from tournaments.state import rebuild

    console.post(_url(event, "game/end/"))
    game = services.game_start(event=event)
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
