"""The printed sheets: every PDF parses and says the right names, scores and totals."""

from __future__ import annotations

import io
from decimal import Decimal

import pytest
from django.core.management import call_command
from django.utils import translation
from pypdf import PdfReader

from scoring.sheets.base import minus
from scoring.sheets.standings import StandingsSheet
from scoring.standings import PlayerInfo, Row
from tournaments.models import Event
from tournaments.printing import WORDS, SheetError, render_sheet


def _text(pdf: bytes) -> list[str]:
    return [page.extract_text() for page in PdfReader(io.BytesIO(pdf)).pages]


def _row(rank: int, name: str, total: int, top: int) -> Row:
    return Row(
        rank=rank,
        player=PlayerInfo(id=rank, name=name, club="Vichy", category="A", table=rank),
        total=total,
        tops=1,
        solos=0,
        warnings=2,
        penalties=0,
        diff=total - top,
        percent=Decimal(100 * total / top).quantize(Decimal("0.01")),
        letterpoints=0,
        ratio=None,
        rounds=3,
    )


def test_the_minus_sign_is_the_typographic_one() -> None:
    assert minus(-10) == "\u221210" and minus(0) == "0" and minus(5) == "5"


def test_a_standings_sheet_with_accents_and_the_minus_sign() -> None:
    rows = [_row(1, "Élodie Gaëtan", 120, 120), _row(2, "Jérôme Œuvray", 95, 120)]
    with translation.override("fr"):
        pdf = StandingsSheet(
            event_name="Festival de Vichy", rows=rows, top_total=120, game=1, words=WORDS
        ).render()
    (page,) = _text(pdf)
    for expected in (
        "Festival de Vichy",
        "Élodie Gaëtan",
        "Jérôme Œuvray",
        "\u221225",
        "79,17",
        "page 1 sur 1",
    ):
        assert expected in page, expected
    fonts = PdfReader(io.BytesIO(pdf)).pages[0]["/Resources"]["/Font"]
    assert all("DejaVu" in str(font.get_object()["/BaseFont"]) for font in fonts.values())  # embedded TTF


def test_three_hundred_players_paginate_with_the_header_on_every_page() -> None:
    rows = [_row(i, f"Joueur {i:03d}", 1000 - i, 1000) for i in range(1, 301)]
    with translation.override("en"):
        pdf = StandingsSheet(
            event_name="Simultané", rows=rows, top_total=1000, game=None, words=WORDS
        ).render()
    pages = _text(pdf)
    assert len(pages) >= 5
    for number, page in enumerate(pages, start=1):
        assert "Rank" in page and "To the top" in page  # the repeated header row
        assert f"page {number} of {len(pages)}" in page
    everything = "\n".join(pages)
    assert all(f"Joueur {i:03d}" in everything for i in range(1, 301))
    assert "12.30" not in everything and "70.00" in everything  # 700 of 1000, English decimals


@pytest.mark.django_db(transaction=True)
def test_the_sheets_of_a_simulated_event(tmp_path) -> None:
    call_command("simulate_event", players=6, games=1, seed=7, stdout=io.StringIO())
    event = Event.objects.get()
    from tournaments.standings import game_standings

    rows = game_standings(event.games.get())
    pdf = render_sheet("standings", event=event, game_number=1, language="en")
    (page,) = _text(pdf)
    for row in rows:
        assert row.player.name in page
        assert f"{row.percent:.2f}" in page
    out = tmp_path / "standings.pdf"
    call_command(
        "print_sheet", "standings", "--event", str(event.pk), "--out", str(out), stdout=io.StringIO()
    )
    assert "Classement" in _text(out.read_bytes())[0]
    with pytest.raises(SheetError, match="no game 9"):
        render_sheet("standings", event=event, game_number=9)
    with pytest.raises(SheetError, match="unknown sheet"):
        render_sheet("wall", event=event)


@pytest.mark.django_db(transaction=True)
def test_the_round_by_round_and_game_sheets_of_a_simulated_event() -> None:
    from tournaments.display import shown_move
    from tournaments.models import Round, Ruling

    call_command("simulate_event", players=4, games=1, seed=7, stdout=io.StringIO())
    event = Event.objects.get()
    game = event.games.get()
    placed = list(game.rounds.filter(state=Round.State.PLACED).order_by("number"))
    rounds_text = "\n".join(_text(render_sheet("rounds", event=event, game_number=1, language="en")))
    assert "Round by round, game 1" in rounds_text
    assert str(sum(r.top_score for r in placed)) in rounds_text  # the tops' total in the header
    for player in event.players.all():
        total = sum(Ruling.objects.filter(player=player, round__in=placed).values_list("credited", flat=True))
        # The player's cells follow the name, the total last: the total is among them.
        after = rounds_text[rounds_text.index(player.name) + len(player.name) :].split()
        assert str(total).replace("-", "\u2212") in after[: len(placed) + 1], (player.name, after[:30])
    game_text = "\n".join(_text(render_sheet("game", event=event, game_number=1, language="fr")))
    assert "Feuille de partie" in game_text and "Grille finale" in game_text
    cumulative = 0
    for r in placed:
        cumulative += r.top_score
        assert shown_move(r.chosen, event.board, event.notation) in game_text
    assert str(cumulative) in game_text


@pytest.mark.django_db(transaction=True)
def test_the_player_sheet_says_each_round_of_one_player() -> None:
    from tournaments.models import Round, Ruling

    call_command("simulate_event", players=4, games=1, seed=7, stdout=io.StringIO())
    event = Event.objects.get()
    player = event.players.order_by("table").last()
    text = "\n".join(
        _text(render_sheet("player", event=event, game_number=1, player_id=player.pk, language="en"))
    )
    assert player.name in text and "page 1 of" in text
    placed = Round.objects.filter(game__event=event, state=Round.State.PLACED)
    rulings = Ruling.objects.filter(player=player, round__in=placed).select_related("slip")
    total = sum(r.credited for r in rulings)
    tops = sum(r.top_score for r in placed)
    assert str(total) in text and (f"\u2212{tops - total}" in text or tops == total)
    for ruling in rulings:
        if ruling.slip is not None and ruling.slip.word:
            assert ruling.slip.word in text
    with pytest.raises(SheetError, match="no player 999999"):
        render_sheet("player", event=event, game_number=1, player_id=999_999)
    # Without a player: every player's sheet, each on new pages, in table order.
    pages = _text(render_sheet("player", event=event, game_number=1, language="en"))
    assert "Player sheets, game 1" in pages[0]
    starts = [
        i
        for i, page in enumerate(pages)
        for p in event.players.all()
        if f"{p.table} · {p.name}, game 1" in page
    ]
    assert len(starts) == event.players.count() and starts == sorted(starts)
    assert all(f"page {i} of {len(pages)}" in page for i, page in enumerate(pages, 1))


@pytest.mark.django_db(transaction=True)
def test_print_sheet_finds_the_player_by_table_number(tmp_path) -> None:
    from django.core.management import CommandError

    call_command("simulate_event", players=3, games=1, seed=7, stdout=io.StringIO())
    event = Event.objects.get()
    player = event.players.get(table=2)
    out = tmp_path / "player.pdf"
    args = ("print_sheet", "player", "--event", event.code, "--language", "en", "--out", str(out))
    call_command(*args, "--table", "2", stdout=io.StringIO())
    text = "\n".join(_text(out.read_bytes()))
    assert f"2 · {player.name}" in text
    game_text = "\n".join(_text(render_sheet("game", event=event, language="en")))
    assert "End of the game: " in game_text
    with pytest.raises(CommandError, match="no player at table 7"):
        call_command(*args, "--table", "7", stdout=io.StringIO())


@pytest.mark.django_db(transaction=True)
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


@pytest.mark.django_db(transaction=True)
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
    assert [(r["name"], int(r["total"]), r["percent"]) for r in rows] == [
        (e.player.name, e.total, f"{e.percent:.2f}") for e in expected
    ]
    slips = list(
        csv.DictReader(
            io.StringIO(console.get(f"/console/{event.pk}/export/slips.csv").content.decode("utf-8-sig")),
            delimiter=";",
        )
    )
    assert len(slips) == Slip.objects.count()
    credited = sum(int(s["credited"]) for s in slips if s["credited"])
    assert credited == sum(Ruling.objects.filter(slip__isnull=False).values_list("credited", flat=True))
    assert console.get(f"/console/{event.pk}/export/secrets.csv").status_code == 404
    stranger = Client()
    stranger.force_login(get_user_model().objects.create_user("someone", password="x"))
    assert stranger.get(f"/console/{event.pk}/export/slips.csv").status_code == 403


def test_a_sheet_without_the_callers_words_is_in_english_with_decimal_points() -> None:
    # The layout is pure: with no translation handed in it says its own (English) words,
    # whatever language Django has active.
    rows = [_row(1, "Élodie Gaëtan", 95, 120)]
    with translation.override("fr"):
        pdf = StandingsSheet(event_name="Club", rows=rows, top_total=120, game=2).render()
    (page,) = _text(pdf)
    assert "Standings, game 2" in page and "page 1 of 1" in page and "79.17" in page
    assert "Classement" not in page
