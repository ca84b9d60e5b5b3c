"""The player's phone page (rooms.views.phone): joining a table, the slips, what a phone may see."""

from __future__ import annotations

import html
import json
import re

import pytest
from django.test import Client
from rest_framework.throttling import ScopedRateThrottle

from tests.rooms.helpers import best as _best
from tests.rooms.helpers import last_round as _round
from tests.rooms.helpers import live_forget
from tests.rooms.helpers import messages as _messages
from tests.rooms.helpers import phone as _phone
from tests.rooms.helpers import url as _url
from tournaments.models import Event, HistoryEntry, Player, PlayerToken, Round, Ruling, Slip
from tournaments.services.games import game_end
from tournaments.services.players import join_number, player_add

pytestmark = pytest.mark.django_db


# ------------------------------------------------------------------ joining


def test_join_by_code_and_the_seat_code_of_the_table_card(event: Event, players) -> None:
    client = Client()
    page = client.get(f"/j/{event.code}/").content.decode()
    assert event.code in page
    seat = players[1].seat_code
    # Typed as people type it from a card: lower case, a space in the middle.
    response = client.post("/j/", {"code": event.code, "who": f"{seat[:3].lower()} {seat[3:].lower()}"})
    assert response.status_code == 302
    assert "Bruno" in client.get(f"/p/{event.pk}/").content.decode()


def test_the_projected_code_and_a_table_or_a_name_take_no_seat(event: Event, players) -> None:
    # Found by the probe: anyone with the projected code took 35 tables nobody had joined.
    said = []
    # Tables and names that exist or not: one answer (it must not tell which exist).
    for who in ("2", "bruno", "99", "Nobody Here"):
        thief = Client()
        response = thief.post("/j/", {"code": event.code, "who": who}, follow=True)
        said.append(_messages(response))
        assert any("seat code" in m for m in said[-1]), said[-1]
        assert thief.get(f"/p/{event.pk}/").status_code == 302
    assert all(s == said[0] for s in said)
    assert not Player.objects.get(pk=players[1].pk).api_tokens.exists()


def test_join_refuses_alike_a_wrong_code_table_or_seat(event: Event, players) -> None:
    event.seating = Event.Seating.CONFIRM
    event.save()
    wrong_code = Client().post("/j/", {"code": "NOPE", "who": players[0].seat_code}, follow=True)
    wrong_table = Client().post("/j/", {"code": event.code, "who": "77"}, follow=True)
    wrong_seat = Client().post("/j/", {"code": event.code, "who": "XXXXXX"}, follow=True)
    assert _messages(wrong_code) == _messages(wrong_table) == _messages(wrong_seat)
    assert _messages(wrong_code)


def test_a_table_or_name_waits_for_the_arbitrator_who_confirms_the_phone_showing_the_number(
    console: Client, event: Event, players
) -> None:
    event.seating = Event.Seating.CONFIRM
    event.save()
    bruno, intruder = Client(REMOTE_ADDR="10.0.0.2"), Client(REMOTE_ADDR="10.0.0.3")
    for client in (bruno, intruder):
        assert client.post("/j/", {"code": event.code, "who": "bruno"})["Location"] == f"/p/{event.pk}/"
    waiting = bruno.get(f"/p/{event.pk}/").content.decode()
    number = re.search(r'class="join-number"[^>]*>(\d{4})<', waiting)
    assert number, waiting
    assert bruno.get(f"/p/{event.pk}/?part=waiting").status_code == 204
    # Not joined yet: no slip, no live stream, and the API token does not work.
    assert bruno.get(f"/live/{event.pk}/").status_code == 403
    assert bruno.post(f"/p/{event.pk}/slip/", {"coordinates": "H8", "word": "MOT"})["Location"] == "/j/"
    # The console lists both requests with their numbers; the arbitrator confirms Bruno's.
    listed = console.get(_url(event, "players/")).content.decode()
    assert number.group(1) in listed and listed.count('name="confirm"') == 2
    token = next(t for t in players[1].api_tokens.all() if join_number(t) == number.group(1))
    assert console.post(_url(event, "players/"), {"confirm": token.pk}).status_code == 302
    assert bruno.get(f"/p/{event.pk}/?part=waiting").status_code == 205
    assert "Bruno" in bruno.get(f"/p/{event.pk}/").content.decode()
    assert bruno.get(f"/live/{event.pk}/").status_code == 200
    # The other phone asking for the table is refused with it, and cannot ask again.
    assert intruder.get(f"/p/{event.pk}/")["Location"] == "/j/"
    again = intruder.post("/j/", {"code": event.code, "who": "bruno"}, follow=True)
    assert any("already joined" in m for m in _messages(again))
    actions = HistoryEntry.objects.filter(entity="player", object_id=players[1].pk).order_by("pk")
    assert [a.action for a in actions][-3:] == ["join_request", "join_request", "join_confirm"]


def test_the_arbitrator_refuses_a_phone_and_it_goes_back_to_the_join_form(
    console: Client, event: Event, players
) -> None:
    event.seating = Event.Seating.CONFIRM
    event.save()
    stranger = Client()
    stranger.post("/j/", {"code": event.code, "who": "1"})
    token = players[0].api_tokens.get()
    console.post(_url(event, "players/"), {"refuse": token.pk})
    assert not players[0].api_tokens.exists()
    assert stranger.get(f"/p/{event.pk}/?part=waiting").status_code == 205
    assert stranger.get(f"/p/{event.pk}/")["Location"] == "/j/"
    assert HistoryEntry.objects.filter(action="join_refuse", object_id=players[0].pk).exists()


def test_a_paper_only_table_joins_on_no_phone(console: Client, event: Event, players) -> None:
    anne = _phone(event, 1)
    console.post(
        _url(event, f"players/{players[0].pk}/"),
        {"action": "save", "name": "Anne", "table": 1, "paper_only": "on"},
    )
    # Marked paper only: the phone there leaves, and no phone may take the table.
    assert anne.get(f"/p/{event.pk}/")["Location"] == "/j/"
    response = Client().post("/j/", {"code": event.code, "who": players[0].seat_code}, follow=True)
    assert any("paper slips" in m for m in _messages(response))
    assert "paper slips only" in console.get(_url(event, "players/")).content.decode()


def test_a_new_seat_code_locks_out_the_old_card_and_the_phone_that_used_it(
    console: Client, event: Event, players
) -> None:
    old = players[0].seat_code
    thief = _phone(event, 1)
    console.post(_url(event, f"players/{players[0].pk}/"), {"action": "seat_code"})
    new = Player.objects.get(pk=players[0].pk).seat_code
    assert new != old
    assert thief.get(f"/p/{event.pk}/")["Location"] == "/j/"
    refused = Client().post("/j/", {"code": event.code, "who": old}, follow=True)
    assert _messages(refused)
    assert _phone(event, 1).get(f"/p/{event.pk}/").status_code == 200


def test_the_table_cards_carry_the_seat_codes_and_the_projector_none(
    console: Client, event: Event, players
) -> None:
    cards = console.get(_url(event, "players/cards/")).content.decode()
    for player in players:
        assert player.seat_code in cards
    hall = console.get(f"/hall/{event.pk}/").content.decode()
    assert event.code in hall
    assert not any(p.seat_code in hall for p in players)
    assert Client().get(_url(event, "players/cards/")).status_code == 302  # the arbitrator's only


def test_join_is_rate_limited(event: Event, players) -> None:
    client = Client()
    for _ in range(10):
        client.post("/j/", {"code": "NOPE", "who": "1"})
    response = client.post("/j/", {"code": event.code, "who": "1"}, follow=True)
    assert any("Too many" in m or "Trop" in m for m in _messages(response))
    assert client.get(f"/p/{event.pk}/").status_code == 302  # not joined


def test_the_joins_counted_are_under_the_key_named(event: Event, players) -> None:
    # The browser tests forget their joins by this key between tests (tests/e2e/conftest.py).
    from django.core.cache import cache

    from rooms.views.common import rate_key

    client = Client()
    for _ in range(10):
        client.post("/j/", {"code": "NOPE", "who": "1"})
    assert cache.get(rate_key("join", "127.0.0.1"))
    cache.delete(rate_key("join", "127.0.0.1"))
    response = client.post(
        "/j/", {"code": event.code, "who": event.players.get(table=1).seat_code}, follow=True
    )
    assert not any("Too many" in m or "Trop" in m for m in _messages(response))


def test_the_phone_needs_a_join_and_a_stranger_is_not_given_the_code(event: Event, players) -> None:
    # Event ids are sequential: the join code once leaked to anyone who asked /p/<id>/.
    stranger = Client()
    response = stranger.get(f"/p/{event.pk}/")
    assert response.status_code == 302 and response["Location"] == "/j/"
    page = stranger.get(f"/p/{event.pk}/", follow=True).content.decode()
    assert event.code not in page
    sent = stranger.post(f"/p/{event.pk}/slip/", {"coordinates": "H8", "word": "MOT"})
    assert sent.status_code == 302 and sent["Location"] == "/j/"


def test_a_table_joins_on_one_phone_until_the_arbitrator_releases_it(
    console: Client, event: Event, opened: Round
) -> None:
    anne = _phone(event, 1)
    seat = Player.objects.get(event=event, table=1).seat_code
    # The same browser may join again (a reload of the join page, say).
    again = anne.post("/j/", {"code": event.code, "who": seat})
    assert again["Location"] == f"/p/{event.pk}/"
    # Someone else who read the card cannot take Anne's table and replace her slip.
    intruder = Client()
    response = intruder.post("/j/", {"code": event.code, "who": seat}, follow=True)
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


def test_the_phone_leaves(event: Event, players) -> None:
    anne = _phone(event, 1)
    anne.post(f"/p/{event.pk}/leave/")
    assert anne.get(f"/p/{event.pk}/").status_code == 302


# ------------------------------------------------------------------ a round on the phone


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
    # Ruled, not reviewed yet: the phone says so and shows neither the top nor the ruling.
    page = anne.get(f"/p/{event.pk}/", HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "l’arbitre vérifie les résultats" in page and "result-title" not in page
    assert opened.tops[0].split()[1] not in page.split('id="receipt"')[1].split("</div>")[1]
    console.post(_url(event, "publish/"))
    page = anne.get(f"/p/{event.pk}/").content.decode()
    assert f"{opened.top_score}" in page and "result-title" in page and "checking the results" not in page


def test_rack_sort_is_remembered(console: Client, event: Event, opened: Round) -> None:
    anne = _phone(event, 1)
    anne.get(f"/p/{event.pk}/?sort=a")
    page = anne.get(f"/p/{event.pk}/").content.decode()
    rack = re.search(r'data-rack="([^"]*)"', page)
    assert rack is not None
    letters = rack.group(1).replace("?", "")
    assert letters == "".join(sorted(letters))


def test_phone_slips_are_rate_limited(console: Client, event: Event, opened: Round) -> None:
    anne = _phone(event, 1)
    for i in range(30):
        word = "W" + "".join(chr(ord("A") + int(digit)) for digit in str(i))  # letters only: readable
        anne.post(f"/p/{event.pk}/slip/", {"coordinates": "8H", "word": word})
    response = anne.post(f"/p/{event.pk}/slip/", {"coordinates": "8H", "word": "LAST"}, follow=True)
    assert any("Too many" in m for m in _messages(response))
    assert not Slip.objects.filter(word="LAST").exists()
    assert Slip.objects.filter(player__table=1).count() == 30


def test_the_pages_limits_are_the_apis_rates_with_counts_of_their_own(
    console: Client, event: Event, opened: Round, monkeypatch
) -> None:
    monkeypatch.setitem(ScopedRateThrottle.THROTTLE_RATES, "join", "2/min")
    monkeypatch.setitem(ScopedRateThrottle.THROTTLE_RATES, "slips", "2/min")
    guesser = Client(REMOTE_ADDR="10.0.0.5")
    for _ in range(2):
        guesser.post("/j/", {"code": "NOPE", "who": "1"})
    response = guesser.post("/j/", {"code": event.code, "who": "1"}, follow=True)
    assert any("Too many attempts" in m for m in _messages(response))
    # The API's joins count apart: the same address still has its whole allowance there.
    api_join = guesser.post(f"/api/events/{event.pk}/join/", {"code": "NOPE", "seat": "AAAAAA"})
    assert api_join.status_code != 429
    anne = _phone(event, 1)
    for word in ("AA", "AB"):
        anne.post(f"/p/{event.pk}/slip/", {"coordinates": "8H", "word": word})
    response = anne.post(f"/p/{event.pk}/slip/", {"coordinates": "8H", "word": "LAST"}, follow=True)
    assert any("Too many slips" in m for m in _messages(response))
    assert not Slip.objects.filter(word="LAST").exists()


def test_the_phone_shows_the_ruling_in_words(console: Client, event: Event, opened: Round) -> None:
    anne = _phone(event, 1)
    anne.post(f"/p/{event.pk}/slip/", {"coordinates": "8H", "word": "QQQQ"})
    console.post(_url(event, "close/"))
    console.post(_url(event, "publish/"))
    page = anne.get(f"/p/{event.pk}/").content.decode()
    assert "0: " not in page or "cannot be" in page or "not in the list" in page
    ruling = Ruling.objects.get(player__table=1)
    from tournaments.display import ruling_text

    assert ruling_text(ruling.reason) in page


def test_the_phone_names_the_word_not_in_the_list_and_the_warning_in_its_language(
    console: Client, event: Event, opened: Round
) -> None:
    coordinates, word = _best(opened)
    anne, bruno = _phone(event, 1), _phone(event, 2)
    anne.post(
        f"/p/{event.pk}/slip/", {"coordinates": coordinates, "word": word[::-1], "announced_score": "9"}
    )
    bruno.post(f"/p/{event.pk}/slip/", {"coordinates": coordinates, "word": word})  # no score: a warning
    console.post(_url(event, "close/"))
    console.post(_url(event, "publish/"))
    unlisted = word[::-1].upper()
    assert f"{unlisted} is not in the lexicon" in anne.get(f"/p/{event.pk}/").content.decode()
    french = anne.get(f"/p/{event.pk}/", HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert f"{unlisted} n’est pas dans la liste" in french
    assert "no score announced: warning" in bruno.get(f"/p/{event.pk}/").content.decode()
    french = bruno.get(f"/p/{event.pk}/", HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "score non indiqué\u00a0: avertissement" in french


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


class DeadlinePassesWhileQueued:
    """Test middleware, right after the receipt stamp: the request waits in the server
    (threads, locks) while the deadline passes."""

    def __init__(self, get_response):  # type: ignore[no-untyped-def]
        self.get_response = get_response

    def __call__(self, request):  # type: ignore[no-untyped-def]
        from django.utils import timezone

        Round.objects.filter(state=Round.State.OPEN).update(deadline=timezone.now())
        return self.get_response(request)


def test_a_slip_sent_in_time_but_queued_past_the_deadline_is_in_time(
    settings, event: Event, opened: Round
) -> None:
    first, *rest = settings.MIDDLEWARE
    assert first == "plumbing.middleware.ReceivedAtMiddleware"
    settings.MIDDLEWARE = [first, "tests.rooms.test_phone.DeadlinePassesWhileQueued", *rest]
    anne = _phone(event, 1)  # a client made now loads the middleware above
    coordinates, word = _best(opened)
    anne.post(f"/p/{event.pk}/slip/", {"coordinates": coordinates, "word": word})
    slip = Slip.objects.get(round=opened, player__table=1)
    opened.refresh_from_db()
    assert slip.received_at < opened.deadline and not slip.late and slip.current


def test_panels_at_the_announced_version_are_built_from_one_reading(
    console: Client, event: Event, drawn: Round
) -> None:
    # A hall's phones reload their panels together at each change, each saying which
    # version its stream announced: the event, the round and the versions are read once
    # per process, not once per phone; another version is read afresh, never stale.
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from rooms.views import phone as phone_views

    anne, bruno = _phone(event, 1), _phone(event, 2)
    version = anne.get(f"/live/{event.pk}/").json()["public"]
    first = anne.get(f"/p/{event.pk}/?part=panel&v={version}", HTTP_HX_REQUEST="true")
    assert first.status_code == 200
    with CaptureQueriesContext(connection) as alone:
        anne.get(f"/p/{event.pk}/?part=panel", HTTP_HX_REQUEST="true")
    with CaptureQueriesContext(connection) as shared:
        again = bruno.get(f"/p/{event.pk}/?part=panel&v={version}", HTTP_HX_REQUEST="true")
    assert again.status_code == 200 and "Bruno" not in first.content.decode()
    assert len(shared.captured_queries) <= len(alone.captured_queries) - 4
    # The round opens: a phone told of the new version gets the open round (the rack),
    # even though this process last read the old one.
    console.post(_url(event, "open/"), {"seconds": 180})
    live_forget()
    opened = anne.get(f"/live/{event.pk}/").json()["public"]
    assert opened != version
    panel = anne.get(f"/p/{event.pk}/?part=panel&v={opened}", HTTP_HX_REQUEST="true").content.decode()
    assert 'id="slip"' in panel and phone_views._shared_memo[event.pk].versions.public == opened


def test_a_slip_that_cannot_be_read_is_refused_on_the_page(
    console: Client, event: Event, opened: Round
) -> None:
    anne = _phone(event, 1)
    # Round 1 takes a word without coordinates (the best placement): round 2 does not.
    console.post(_url(event, "close/"))
    console.post(_url(event, "place/"))
    console.post(_url(event, "open/"), {"seconds": 60})
    unreadable = {"coordinates": "Z99", "word": "POULE"}
    response = anne.post(f"/p/{event.pk}/slip/", unreadable, follow=True, HTTP_ACCEPT_LANGUAGE="fr")
    said = _messages(response)
    assert any(m.startswith("Ce bulletin ne peut pas être lu") for m in said), said
    assert not Slip.objects.filter(player__table=1).exists()


def test_after_the_game_ended_the_phone_says_so_and_waits_for_no_rack(
    console: Client, event: Event, opened: Round
) -> None:
    anne = _phone(event, 1)
    console.post(_url(event, "close/"))
    console.post(_url(event, "place/"))  # round 2 drawn
    game_end(game=opened.game, reason="stopped")
    page = anne.get(f"/p/{event.pk}/").content.decode()
    assert "The game has ended." in page and "Next rack coming" not in page


def _chart_said(page: str) -> str:
    """What the phone's chart says to a screen reader, "" without a chart."""
    found = re.search(r'<svg[^>]* class="chart"[^>]* aria-label="([^"]*)"', page)
    return html.unescape(found.group(1)) if found else ""


def test_the_phone_draws_the_players_game_once_each_result_is_shown(
    console: Client, event: Event, opened: Round
) -> None:
    coordinates, word = _best(opened)
    anne, bruno = _phone(event, 1), _phone(event, 2)
    anne.post(f"/p/{event.pk}/slip/", {"coordinates": coordinates, "word": word})
    assert _chart_said(anne.get(f"/p/{event.pk}/").content.decode()) == ""  # the rack's time
    console.post(_url(event, "close/"))
    assert _chart_said(anne.get(f"/p/{event.pk}/").content.decode()) == ""  # under review
    console.post(_url(event, "publish/"))
    top = opened.top_score
    said = _chart_said(anne.get(f"/p/{event.pk}/").content.decode())
    assert said == f"Your game: {top} points out of {top} (0), the top in 1 of 1 round."
    said = _chart_said(bruno.get(f"/p/{event.pk}/").content.decode())
    assert said == f"Your game: 0 points out of {top} (\u2212{top}), the top in 0 of 1 round."
    console.post(_url(event, "place/"))  # round 2 drawn: the chart stays until it opens
    page = bruno.get(f"/p/{event.pk}/", HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "Votre partie" in page and _chart_said(page).startswith("Votre partie\u00a0: 0 points sur")
    assert "Points par coup" in page
    held = _sent_chart(bruno_player := event.players.get(table=2))
    console.post(_url(event, "open/"), {"seconds": 180})
    assert _chart_said(bruno.get(f"/p/{event.pk}/").content.decode()) == ""
    # Left out of the page while the rack is played, the chart is the same: the stream,
    # which sends it only to a phone without it, does not send it again at the close.
    assert _sent_chart(bruno_player) == held
    console.post(_url(event, "close/"))
    assert _sent_chart(bruno_player) == held and held[1].startswith("<svg")


def _sent_chart(player: Player) -> tuple[str, str]:
    """The key and the chart of the lines a phone's stream sends ``player`` now."""
    from rooms.views import panels

    token = PlayerToken.objects.get(player=player, confirmed_at__isnull=False)  # its phone's
    built = panels.build(player.event, "", [panels.Seat(player.pk, "en", "v", token.key)])
    lines = built.mine[player.pk, "en"]
    return lines.chart_key, json.loads(lines.chart)


def test_the_players_page_shows_no_seat_code_a_player_at_the_desk_could_read(
    console: Client, event: Event, players
) -> None:
    page = console.get(_url(event, "players/")).content.decode()
    assert not any(p.seat_code in page for p in players)
    assert players[0].seat_code in console.get(_url(event, f"players/{players[0].pk}/")).content.decode()


def test_markup_in_a_name_and_a_phones_user_agent_stays_text_on_the_console_and_the_cards(
    console: Client, event: Event
) -> None:
    """Data from people on the pages this issue added: a player's name on the table cards
    and the waiting list, a phone's User-Agent on the waiting list."""
    event.seating = Event.Seating.CONFIRM
    event.save()
    player_add(event=event, name="<img src=x onerror=alert(1)>", club="Club & <b>Co</b>")
    Client(HTTP_USER_AGENT="<script>alert(2)</script>").post("/j/", {"code": event.code, "who": "1"})
    cards = console.get(_url(event, "players/cards/")).content.decode()
    waiting = console.get(_url(event, "players/")).content.decode()
    for page in (cards, waiting):
        assert "<img src=x" not in page and "&lt;img src=x onerror=alert(1)&gt;" in page
    assert "<b>Co</b>" not in cards and "Club &amp; &lt;b&gt;Co&lt;/b&gt;" in cards
    assert "<script>alert(2)" not in waiting and "&lt;script&gt;alert(2)" in waiting
