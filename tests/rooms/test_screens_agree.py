"""What several screens show of one fact agrees (issue 29's walkthrough): the top announced
and the top placed, the review and the rulings, the totals of a phone and the standings."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.template import Context, Template
from django.template.loader import render_to_string
from django.test import Client
from django.utils import translation

from bench import invariants
from rooms.lines import player_lines
from rooms.listed import listed_review, listed_watch
from rooms.templatetags import arbiter as arbiter_tags
from rooms.templatetags.arbiter import receipt_html, result_html
from scoring import adjudication as adj
from tests.helpers import pdf_text
from tests.rooms.helpers import live_forget
from tests.rooms.helpers import phone as _phone
from tests.rooms.helpers import url as _url
from tests.tournaments.helpers import play_out
from tournaments.core import ApplicationError
from tournaments.models import Event, Game, Player, Round, Ruling, Slip
from tournaments.printing import render_sheet
from tournaments.selectors.review import round_review
from tournaments.selectors.slips import slip_watch
from tournaments.services.corrections import ruling_override, slip_correct
from tournaments.services.games import game_end, game_start, round_draw
from tournaments.services.players import player_add, players_import
from tournaments.services.rounds import round_close, round_open, round_place, round_publish
from tournaments.services.slips import slip_submit

pytestmark = pytest.mark.django_db


def _equal_tops(event: Event) -> Round:
    game = game_start(event=event)
    round = round_draw(game=game, typed="AEGINRS")
    round_open(round=round)
    round_close(round=Round.objects.get(pk=round.pk))
    round = Round.objects.get(pk=round.pk)
    assert len(round.tops) == 7
    return round


def test_the_equal_top_selected_at_the_publication_is_announced_and_placed(
    console: Client, event: Event, players
) -> None:
    round = _equal_tops(event)
    phone = _phone(event, 1)
    selected = round.tops[3]
    key = {"round_key": f"{round.game.number}-{round.number}"}
    console.post(_url(event, "publish/"), {**key, "move": selected})
    live_forget()
    published = Round.objects.get(pk=round.pk)
    assert published.published_at is not None and published.chosen == selected
    # Every screen announces the selected top, the console keeps it selected.
    assert f"<b>{selected}</b>" in phone.get(f"/p/{event.pk}/").content.decode()
    assert f"<b>{selected}</b>" in console.get(f"/hall/{event.pk}/").content.decode()
    assert console.get(f"/api/events/{event.pk}/game/").json()["chosen"] == selected
    page = console.get(_url(event)).content.decode()
    assert f'value="{selected}" data-squares' in page
    assert page.split(f'value="{selected}"')[1].split(">")[0].strip().endswith("checked")
    # Placed with nothing more said: the move announced.
    console.post(_url(event, "place/"), key)
    assert Round.objects.get(pk=round.pk).chosen == selected


def test_a_publication_without_a_choice_fixes_the_automatic_top(
    console: Client, event: Event, players
) -> None:
    round = _equal_tops(event)
    round_publish(round=round)
    announced = console.get(f"/api/events/{event.pk}/game/").json()["chosen"]
    assert announced == round.tops[0] == Round.objects.get(pk=round.pk).chosen
    round_place(round=round, draw_next=False)
    assert Round.objects.get(pk=round.pk).chosen == announced


def test_results_shown_at_the_close_fix_the_top_they_announce(event: Event, players) -> None:
    Event.objects.filter(pk=event.pk).update(publish_at_close=True)
    event.refresh_from_db()
    ruled = _equal_tops(event)
    assert ruled.published_at is not None and ruled.chosen == ruled.tops[0]


def _second_round(event: Event) -> Round:
    game = game_start(event=event)
    play_out(round_draw(game=game))
    return round_open(round=round_draw(game=game))


#: Two lists of the review as the template wrote them before review_items.
_REVIEW_ITEMS_TEMPLATE = {
    "invalid": (
        "{% load i18n arbiter %}{% for r in rulings %}\n"
        '  <li><a href="{{ ruling_path }}{{ r.pk }}/" data-ruling="{{ r.pk }}">{{ r.player.table }} '
        "{{ r.player.name }}</a>{% colon %} {{ r.slip.coordinates }} {{ r.slip.word }} — "
        "{{ r.reason|ruling_label }} <small>({{ r|ruling_detail }})</small>{% if r.shift_candidate %} "
        '<b>{% translate "shifted reference?" %}</b>{% endif %}</li>{% endfor %}'
    ),
    "several": (
        '{% load i18n arbiter %}{% translate "corrected" as corrected %}{% for r in rulings %}\n'
        '  <li><a href="{{ ruling_path }}{{ r.pk }}/" data-ruling="{{ r.pk }}">{{ r.player.table }} '
        "{{ r.player.name }}</a>{% if r.overridden %} <i>{{ corrected }}</i>{% endif %}</li>{% endfor %}"
    ),
}


def test_every_ruling_is_in_the_review_once_under_its_move_or_its_reason(
    console: Client, event: Event, players
) -> None:
    round = _second_round(event)
    round.refresh_from_db()
    top_coordinates, top_word = round.tops[0].split()
    anne, bruno, chloe = players
    # Names with markup in the lists the console writes itself (review_items escapes them).
    denis, chloe_marked = '<b>Denis & "Léa"</b>', "<i>Chloé</i> d'Ys"
    Player.objects.filter(pk=chloe.pk).update(name=chloe_marked)
    extra = [player_add(event=event, name=name) for name in (denis, "Emma", "Félix")]
    # A wrong reference with the top's score (5 points less), the top itself, a word not
    # in the list, two slips, a blank slip, and a missing one.
    submit = slip_submit
    submit(round=round, player=anne, coordinates="1A", word=top_word, announced_score=round.top_score)
    submit(round=round, player=bruno, coordinates=top_coordinates, word=top_word, announced_score=None)
    submit(round=round, player=chloe, coordinates=top_coordinates, word="QZXV", announced_score=None)
    submit(round=round, player=extra[0], coordinates=top_coordinates, word=top_word, announced_score=None)
    submit(
        round=round, player=extra[0], coordinates=top_coordinates, word=top_word, announced_score=None,
        source=Slip.Source.PAPER, second="second",
    )  # fmt: skip
    submit(round=round, player=extra[1], coordinates="", word="", announced_score=None)
    round_close(round=Round.objects.get(pk=round.pk))
    rulings = {r.player.name: r for r in Ruling.objects.filter(round=round).select_related("player")}
    assert rulings["Anne"].reason == adj.Reason.WRONG_REFERENCE and rulings["Anne"].penalty == 5
    assert rulings[denis].reason == adj.Reason.SEVERAL_SLIPS
    # A correction without a move (a slip read blank, credited all the same) is listed too.
    ruling_override(ruling=rulings["Emma"], by=None, reason="read again", credited=3)
    page = console.get(_url(event)).content.decode()
    listed = re.findall(r'<a href="/console/\d+/rulings/(\d+)/"[^>]*data-ruling="(\d+)"', page)
    assert sorted(int(a) for a, b in listed if a == b) == sorted(r.pk for r in rulings.values())
    assert len(listed) == len(rulings)
    # Anne is under the top's move with her penalty; the lines below link every name.
    review = round_review(Round.objects.get(pk=round.pk))
    under = {g.move: [r.player.name for r in g.rulings] for g in review.groups}
    assert under[rulings["Anne"].move] == ["Anne", "Bruno"] and review.valid == 2
    assert [r.player.name for r in review.several] == [denis]
    assert [r.player.name for r in review.corrected] == ["Emma"]
    assert [r.player.name for r in review.invalid] == [chloe_marked]
    penalties = page.split("Penalties:")[1].split("</p>")[0]
    assert f'/rulings/{rulings["Anne"].pk}/"' in penalties
    found = page.split("Found the top:")[1].split("</p>")[0]
    assert f'/rulings/{rulings["Anne"].pk}/"' in found and f'/rulings/{rulings["Bruno"].pk}/"' in found
    api = console.get(f"/api/events/{event.pk}/rounds/current/review/").json()
    sections = ("invalid", "several", "blank", "missing", "late", "corrected")
    in_api = [r["id"] for g in api["groups"] for r in g["rulings"]] + [
        r["id"] for s in sections for r in api[s]
    ]
    assert sorted(in_api) == sorted(r.pk for r in rulings.values()) and api["valid"] == 2
    # The console reads the rulings as values (listed_review): the same sections, the same page.
    ruled = Round.objects.get(pk=round.pk)
    listed, full = listed_review(ruled), round_review(ruled)
    assert _sections(listed) == _sections(full)
    for language in ("en", "fr"):
        with translation.override(language):
            page = "console/_review.html"
            shown = [render_to_string(page, {"ruling_path": "/r/", "review": r}) for r in (listed, full)]
            # The lists of invalid slips and of several slips as the template wrote them.
            for items, section in ((full.invalid, "invalid"), (full.several, "several")):
                context = {"ruling_path": "/r/", "rulings": items}
                written = Template(_REVIEW_ITEMS_TEMPLATE[section]).render(Context(context))
                assert items and written == arbiter_tags.review_items(Context(context), items, section)
                listed_items = getattr(listed, section)
                assert written == arbiter_tags.review_items(Context(context), listed_items, section)
                assert "&lt;b&gt;Denis &amp; &quot;Léa&quot;&lt;/b&gt;" in written or section == "invalid"
                assert "&lt;i&gt;Chloé&lt;/i&gt; d&#x27;Ys" in written or section == "several"
        assert shown[0] == shown[1] and "Emma" in shown[0]
    # A phone's own lines are read as values too (player_lines): they say what the models say.
    round_publish(round=ruled)
    ruled = Round.objects.get(pk=round.pk)
    everyone = [*players, *extra]
    lines = player_lines(event, ruled, ruled.game.number, [p.pk for p in everyone])
    for player in everyone:
        slip = Slip.objects.filter(round=round, player=player).order_by("-current", "-received_at").first()
        ruling = Ruling.objects.select_related("slip").get(round=round, player=player)
        for language in ("en", "fr"):
            with translation.override(language):
                said = receipt_html(lines[player.pk].slip, ruled, False, True)
                assert said == receipt_html(slip, ruled, False, True)
                assert result_html(lines[player.pk].ruling) == arbiter_tags._result_line(ruling)


def _sections(review: Any) -> dict[str, Any]:
    lists = ("rulings", "invalid", "several", "blank", "missing", "late", "corrected", "overridden", "solos",
             "penalties", "found_top")  # fmt: skip
    found: dict[str, Any] = {name: [r.pk for r in getattr(review, name)] for name in lists}
    found["groups"] = [(g.move, g.shown, g.score, g.is_top, [r.pk for r in g.rulings]) for g in review.groups]
    return found


def test_after_a_publication_every_screen_gives_each_player_the_same_total(
    console: Client, event: Event, players
) -> None:
    game = game_start(event=event)
    round = round_open(round=round_draw(game=game))
    round.refresh_from_db()
    coordinates, word = round.tops[0].split()
    phones = {p.table: _phone(event, p.table) for p in players}
    phones[1].post(f"/p/{event.pk}/slip/", {"coordinates": coordinates, "word": word})
    phones[2].post(f"/p/{event.pk}/slip/", {"coordinates": coordinates, "word": "ZZZZ"})
    round_close(round=Round.objects.get(pk=round.pk))
    round_publish(round=Round.objects.get(pk=round.pk))
    live_forget()
    expected = {1: round.top_score, 2: 0, 3: 0}
    totals = {t: invariants.phone_total(p.get(f"/p/{event.pk}/").content.decode()) for t, p in phones.items()}
    assert totals == {t: (v, round.top_score) for t, v in expected.items()}
    api = console.get(f"/api/events/{event.pk}/standings/").json()["rows"]
    sheet = render_sheet("standings", event=event)
    cells = [line for page in pdf_text(sheet) for line in page.splitlines()]  # a cell a line
    views = {
        "phones": {t: v[0] for t, v in totals.items() if v is not None},
        "projector": invariants.standings_totals(console.get(f"/hall/{event.pk}/").content.decode()),
        "console": invariants.standings_totals(console.get(_url(event, "standings/")).content.decode()),
        "api": {r["player"]["table"]: r["total"] for r in api},
        "sheet": {p.table: int(cells[cells.index(p.name) + 1].replace("−", "-")) for p in players},
    }
    assert invariants.check_totals(views, expected=expected) == []
    # A player's own page too, for the published round and the one after it.
    phones_fr = phones[1].get(f"/p/{event.pk}/", HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert invariants.phone_total(phones_fr) == (round.top_score, round.top_score)


def test_a_slip_misread_is_read_again_and_ruled_with_its_round(
    console: Client, event: Event, players
) -> None:
    round = _second_round(event)
    round.refresh_from_db()
    coordinates, word = round.tops[0].split()
    anne = players[0]
    typo = word[:-1] + ("Z" if word[-1] != "Z" else "Q")
    slip_submit(round=round, player=anne, coordinates=coordinates, word=typo, announced_score=None,
                         source=Slip.Source.PAPER)  # fmt: skip
    round_close(round=Round.objects.get(pk=round.pk))
    ruling = Ruling.objects.get(round=round, player=anne)
    assert ruling.credited == 0
    page = console.get(_url(event, f"rulings/{ruling.pk}/"), HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "Relire le bulletin" in page and f'value="{typo}"' in page
    refused = console.post(_url(event, f"rulings/{ruling.pk}/"), {"read-coordinates": coordinates,
                           "read-word": word, "read-reason": ""})  # fmt: skip
    assert Ruling.objects.get(pk=ruling.pk).credited == 0 and refused.status_code == 200
    response = console.post(
        _url(event, f"rulings/{ruling.pk}/"),
        {"read-coordinates": coordinates, "read-word": word, "read-reason": "misread the last letter"},
    )
    assert response.status_code == 302
    ruled = Ruling.objects.get(pk=ruling.pk)
    assert ruled.credited == round.top_score and ruled.is_top and ruled.slip.word == word
    slips = list(Slip.objects.filter(round=round, player=anne).order_by("pk").values_list("word", "current"))
    assert slips == [(typo, False), (word, True)]  # the first reading kept
    history = console.get(_url(event, "history/")).content.decode()
    assert "slip read again" in history and "misread the last letter" in history
    # A later correction of the points says the move's own score, not the points set.
    ruling_override(ruling=ruled, by=None, reason="bonus by mistake", credited=round.top_score + 20)
    page = console.get(_url(event, f"rulings/{ruling.pk}/")).content.decode()
    assert f"{round.tops[0]} · {round.top_score} points" in page
    assert f"· {round.top_score + 20} points" not in page and "ruling corrected" in page
    with pytest.raises(ApplicationError, match="reads the same"):
        slip_correct(ruling=ruled, by=None, reason="again", coordinates=coordinates, word=word,
                              announced_score=None)  # fmt: skip


def test_the_history_says_every_entry_in_the_page_language(console: Client, event: Event, players) -> None:
    game = game_start(event=event)
    round = round_open(round=round_draw(game=game))
    round_close(round=Round.objects.get(pk=round.pk))
    ruling = Ruling.objects.filter(round=round).first()
    ruling_override(ruling=ruling, by=None, reason="lu de travers", credited=3)
    game_end(game=game, reason="stopped")
    french = console.get(_url(event, "history/"), HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "arrêtée par l’arbitre" in french and ">stopped<" not in french
    english = console.get(_url(event, "history/"), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    # A short date and the time to the second, never "1:14 a.m.:08".
    assert re.search(r"<td>\d\d/\d\d/\d{4} \d\d:\d\d:\d\d</td>", english) and ".m.:" not in english
    page = console.get(_url(event, f"rulings/{ruling.pk}/"), HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    history = page.split("Historique</h2>")[1]
    assert "Arbiter (automatique)" in history
    assert " · system · " not in history and " · override · " not in history and " · rule · " not in history


def test_the_sheets_default_to_the_game_played_and_print_the_round_asked(
    console: Client, event: Event, players
) -> None:
    from tournaments.models import PrintedSheet

    game = game_start(event=event)
    play_out(round_draw(game=game))
    play_out(round_draw(game=game))
    game_end(game=game, reason="stopped")
    round_draw(game=game_start(event=event))  # game 2: its first rack drawn
    page = console.get(_url(event, "sheets/"), HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert '<input type="number" name="round"' in page
    console.post(_url(event, "sheets/"), {"kind": "round", "round": "1", "language": "en"})
    console.post(_url(event, "sheets/"), {"kind": "round", "language": "en"})
    console.post(_url(event, "sheets/"), {"kind": "standings", "language": "fr"})
    first, last, standings = PrintedSheet.objects.order_by("requested_at")
    assert (first.state, last.state, standings.state) == ("ready", "ready", "ready"), first.error
    assert "Result of round 1, game 1" in pdf_text(bytes(first.pdf))[0]
    assert "Result of round 2, game 1" in pdf_text(bytes(last.pdf))[0]
    text = pdf_text(bytes(standings.pdf))[0]
    assert "Après le coup 2 de la partie 1" in text and "coup 0" not in text


def test_the_first_rack_of_a_game_is_typed_from_a_physical_draw(
    console: Client, event: Event, players
) -> None:
    page = console.get(_url(event), HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "Premier tirage fait à la main" in page
    refused = console.post(_url(event, "game/start/"), {"typed": "QZXWKJV"}, follow=True)
    said = [str(m) for m in refused.context["messages"]]
    assert any("Nothing was started" in m and "QZXWKJV" in m for m in said), said
    assert not event.games.exists()  # a refused rack starts nothing
    console.post(_url(event, "game/start/"), {"typed": "aeginrs"})
    round = Round.objects.get(game__event=event)
    assert round.manual and sorted(round.rack) == sorted("AEGINRS")
    console.post(_url(event, "game/start/"))  # a game in play: refused, nothing drawn
    assert Round.objects.filter(game__event=event).count() == 1


def test_a_player_passes_from_the_phone_with_a_blank_slip(event: Event, players) -> None:
    game = game_start(event=event)
    round = round_open(round=round_draw(game=game))
    phone = _phone(event, 1)
    page = phone.get(f"/p/{event.pk}/", HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "Je passe : rendre un bulletin blanc" in page.replace("\xa0", " ")
    response = phone.post(f"/p/{event.pk}/slip/", {"pass": "1", "word": "IGNORED", "announced_score": "x"})
    assert response.status_code == 302
    slip = Slip.objects.get(round=round)
    assert (slip.coordinates, slip.word, slip.announced_score, slip.late) == ("", "", None, False)
    live_forget()
    receipt = phone.get(f"/p/{event.pk}/").content.decode()
    assert "<b>a blank slip</b>" in receipt
    round_close(round=Round.objects.get(pk=round.pk))
    assert Ruling.objects.get(round=round, player=players[0]).reason == adj.Reason.BLANK_SLIP


def test_players_are_imported_from_a_french_header(event: Event) -> None:
    text = "nom;club;licence;Catégorie;table\nDupont Anne;Vichy;12345;V;3\n"
    (anne,) = players_import(event=event, csv_text=text)
    assert (anne.name, anne.club, anne.licence, anne.category, anne.table) == (
        "Dupont Anne",
        "Vichy",
        "12345",
        "V",
        3,
    )
    with pytest.raises(ApplicationError, match=r"'name' \(or 'nom'\) column; found: joueuse; club"):
        players_import(event=event, csv_text="joueuse;club\nX;Y\n")


def test_the_standings_after_each_round_agree_on_the_console_the_sheet_and_the_api(
    console: Client, event: Event, players
) -> None:
    game = game_start(event=event)
    for table in (1, 2):  # round 1: Anne finds the top; round 2: Bruno does
        round = round_open(round=round_draw(game=game))
        round.refresh_from_db()
        coordinates, word = round.tops[0].split()
        slip_submit(round=round, player=players[table - 1], coordinates=coordinates, word=word,
                             announced_score=round.top_score)  # fmt: skip
        round_close(round=Round.objects.get(pk=round.pk))
        round_place(round=Round.objects.get(pk=round.pk), draw_next=False)
    first = Round.objects.get(game=game, number=1)
    after_1 = {1: first.top_score, 2: 0, 3: 0}
    page = console.get(_url(event, "standings/"), {"game": 1, "round": 1}, HTTP_ACCEPT_LANGUAGE="fr").content
    text = page.decode()
    assert "après le coup 1" in text and '<option value="2" >2</option>' in text.replace("selected", "")
    api = console.get(f"/api/events/{event.pk}/standings/", {"game": 1, "round": 1}).json()
    assert api["round"] == 1
    sheet = render_sheet("standings", event=event, game_number=1, round_number=1)
    cells = [line for page_text in pdf_text(sheet) for line in page_text.splitlines()]
    assert any("Après le coup 1 de la partie 1" in line for line in cells)
    views = {
        "console": invariants.standings_totals(text),
        "api": {r["player"]["table"]: r["total"] for r in api["rows"]},
        "sheet": {p.table: int(cells[cells.index(p.name) + 1].replace("−", "-")) for p in players},
    }
    assert invariants.check_totals(views, expected=after_1) == []
    # The projector says after which round its standings stand.
    hall = console.get(f"/hall/{event.pk}/").content.decode()
    assert "Classement · après le coup 2" in hall.replace("\xa0", " ")
    # A round with no results yet is refused, in words.
    assert console.get(f"/api/events/{event.pk}/standings/", {"game": 1, "round": 5}).status_code == 404
    assert console.get(f"/api/events/{event.pk}/standings/", {"round": 1}).status_code == 400


def test_equal_totals_are_parted_as_the_federation_does_by_default(event: Event, players) -> None:
    from tournaments.standings import game_standings

    assert Event.objects.get(pk=event.pk).tie_break == "fisf"
    game = game_start(event=event)
    anne, bruno = players[0], players[1]
    for points in ((20, 10), (10, 20)):  # 30 each: Bruno scored more in the last round
        round = round_open(round=round_draw(game=game))
        round_close(round=Round.objects.get(pk=round.pk))
        for player, credited in zip((anne, bruno), points, strict=True):
            ruling = Ruling.objects.get(round=round, player=player)
            ruling_override(ruling=ruling, by=None, reason="set", credited=credited)
        round_place(round=Round.objects.get(pk=round.pk), draw_next=False)
    rows = game_standings(game)
    assert [(r.rank, r.player.name, r.total) for r in rows[:2]] == [(1, "Bruno", 30), (2, "Anne", 30)]
    Event.objects.filter(pk=event.pk).update(tie_break="shared")
    shared = game_standings(Game.objects.get(pk=game.pk))
    assert [(r.rank, r.player.name) for r in shared[:2]] == [(1, "Anne"), (1, "Bruno")]


def test_a_late_slip_after_the_rulings_is_listed_late_not_missing(
    console: Client, event: Event, players
) -> None:
    round = round_open(round=round_draw(game=game_start(event=event)))
    round_close(round=Round.objects.get(pk=round.pk))
    coordinates, word = Round.objects.get(pk=round.pk).tops[0].split()
    result = slip_submit(round=round, player=players[0], coordinates=coordinates, word=word,
                                  announced_score=None)  # fmt: skip
    assert result.slip.late
    ruling = Ruling.objects.get(round=round, player=players[0])
    assert (ruling.reason, ruling.credited, ruling.slip_id) == (adj.Reason.LATE, 0, result.slip.pk)
    assert [r.player.name for r in round_review(Round.objects.get(pk=round.pk)).late] == ["Anne"]
    assert Ruling.objects.get(round=round, player=players[1]).reason == adj.Reason.MISSING


#: The watch's rows as the template wrote them before watch_rows: the page must not change.
_WATCH_ROWS_TEMPLATE = (
    "{% load i18n %}{% for s in slips %}<tr><td>{{ s.player.table }}</td><td>{{ s.player.name }}</td>"
    '<td>{{ s.coordinates }} {{ s.word }}</td><td>{{ s.announced_score|default_if_none:"" }}</td>'
    '<td>{{ s.received_at|time:"H:i:s" }}{% if s.source == "paper" %} · {% translate "paper" %}{% endif %}'
    "</td></tr>{% endfor %}"
)


def test_the_consoles_watch_lists_every_slip_as_the_models_say(event: Event, players, arbitrator) -> None:
    # The console reads the open round's slips as values (listed_watch): the same counts
    # and the same rows as the models give, names and words escaped.
    player_add(event=event, name='<b>Zoé & "Léa"</b>')
    absent = player_add(event=event, name="Yves")
    game = game_start(event=event)
    round = round_draw(game=game, typed="AEGINRS")
    round_open(round=round)
    round = Round.objects.get(pk=round.pk)
    everyone = list(event.players.order_by("table"))
    slips = [
        (everyone[0], "8D", "EARINGS", 70, {}),
        (everyone[1], "", "", None, {}),
        (everyone[-2], "H4", "SEARING", None, {}),
        (everyone[2], "8H", "ZZ", 5, {"entered_by": arbitrator, "source": Slip.Source.PAPER}),
    ]
    for player, coordinates, word, score, more in slips:
        slip_submit(
            round=round, player=player, coordinates=coordinates, word=word, announced_score=score, **more
        )
    listed, full = listed_watch(round), slip_watch(round)
    assert (listed.received, listed.expected, listed.missing_tables) == (
        full.received,
        full.expected,
        full.missing_tables,
    )
    assert listed.received == 4 and listed.missing_tables == [absent.table]
    for language in ("en", "fr"):
        with translation.override(language):
            written = str(arbiter_tags.watch_rows(listed.slips))
            assert written == str(arbiter_tags.watch_rows(full.slips))
            assert written == Template(_WATCH_ROWS_TEMPLATE).render(Context({"slips": full.slips}))
    assert "&lt;b&gt;Zoé &amp; &quot;Léa&quot;&lt;/b&gt;" in written and "H4 SEARING" in written
    assert " · papier" in written


_CSRF = re.compile(r'name="csrfmiddlewaretoken" value="[^"]*"')


def _parts_as_reloaded(console: Client, event: Event, *shown: str) -> None:
    """Each part of the round's page, reloaded alone as its stream asks (htmx), is what
    the whole page shows in its place (the parts build only what they show); the parts
    ``shown`` have something to show, the others are empty."""
    live_forget()
    page = _CSRF.sub("csrf", console.get(_url(event)).content.decode())
    for part in ("status", "watch", "review", "board"):
        alone = console.get(_url(event, f"?part={part}"), HTTP_HX_REQUEST="true").content.decode()
        alone = _CSRF.sub("csrf", alone).strip()
        assert alone in page, f"the {part} reloaded is not the page's"
        assert bool(alone) == (part in shown), f"the {part}: {alone[:200]!r}"


def test_each_part_of_the_round_page_reloaded_is_the_pages_through_a_game(
    console: Client, event: Event, players
) -> None:
    _parts_as_reloaded(console, event, "status")  # no game yet
    game = game_start(event=event)
    round = round_draw(game=game, typed="AEGINRS")
    _parts_as_reloaded(console, event, "status", "board")
    round_open(round=round)
    anne, bruno, _chloe = players
    slip_submit(round=round, player=anne, coordinates="8D", word="EARINGS", announced_score=70)
    slip_submit(round=round, player=bruno, coordinates="8H", word="ZZ", announced_score=5)
    _parts_as_reloaded(console, event, "status", "board", "watch")
    round_close(round=Round.objects.get(pk=round.pk))  # ruled at once here
    _parts_as_reloaded(console, event, "status", "board", "review")
    round_publish(round=Round.objects.get(pk=round.pk))
    _parts_as_reloaded(console, event, "status", "board", "review")
    round_place(round=Round.objects.get(pk=round.pk), draw_next=True)
    _parts_as_reloaded(console, event, "status", "board")
    game_end(game=Game.objects.get(pk=game.pk), reason="stopped")
    _parts_as_reloaded(console, event, "status", "board")
