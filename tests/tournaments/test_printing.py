"""The printed sheets of a simulated event (tournaments.printing): every PDF parses and
says the right names, scores and totals; a FISF event's sheets name the moves in FISF."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command

from tests.helpers import pdf_text as _text
from tournaments.models import Event
from tournaments.printing import SheetError, render_sheet

pytestmark = pytest.mark.django_db


@pytest.mark.django_db
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


@pytest.mark.django_db
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


@pytest.mark.django_db
def test_the_player_sheet_says_each_round_of_one_player() -> None:
    from tournaments.models import Round, Ruling

    call_command("simulate_event", players=4, games=1, seed=7, stdout=io.StringIO())
    event = Event.objects.get()
    player = event.players.order_by("table").last()
    text = "\n".join(
        _text(render_sheet("player", event=event, game_number=1, player_id=player.pk, language="en"))
    )
    assert player.name in text and "page 1 of" in text
    # Under the table, the same game drawn: its captions and the last gap, as on the phone.
    assert "Points per round" in text and "Gap to the top, round after round" in text
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
    assert "\n".join(pages).count("Points per round") == event.players.count()  # a chart each
    french = "\n".join(_text(render_sheet("player", event=event, game_number=1, language="fr")))
    assert french.count("Points par coup") == event.players.count() and "Écart au top" in french
    assert all(f"page {i} of {len(pages)}" in page for i, page in enumerate(pages, 1))


def test_the_sheets_of_a_fisf_event_name_the_moves_in_fisf(event: Event) -> None:
    from tests.tournaments.helpers import draw_round, fisf
    from tournaments.models import Round
    from tournaments.services.games import game_start
    from tournaments.services.players import player_add
    from tournaments.services.rounds import round_close, round_open, round_place
    from tournaments.services.slips import slip_submit

    Event.objects.filter(pk=event.pk).update(notation="fisf")  # before its first game
    event.refresh_from_db()
    anne = player_add(event=event, name="Anne")
    game = game_start(event=event)
    placed = []
    for _ in range(2):
        round = draw_round(game)
        round_open(round=round)
        coordinates, word = fisf(round.tops[0]).split()
        slip_submit(round=round, player=anne, coordinates=coordinates, word=word, announced_score=None)
        round_close(round=round)
        round_place(round=Round.objects.get(pk=round.pk), draw_next=False)
        round.refresh_from_db()
        placed.append(round.chosen)
    game_text = "\n".join(_text(render_sheet("game", event=event, game_number=1, language="en")))
    player_text = "\n".join(
        _text(render_sheet("player", event=event, game_number=1, player_id=anne.pk, language="en"))
    )
    for text in (game_text, player_text):
        for gcg in placed:
            assert fisf(gcg) in text and gcg not in text, (gcg, text)


@pytest.mark.django_db
def test_the_round_result_and_the_standings_say_where_the_game_stood() -> None:
    from tournaments.display import shown_move
    from tournaments.models import Round, Ruling

    call_command("simulate_event", players=4, games=1, seed=7, stdout=io.StringIO())
    event = Event.objects.get()
    game = event.games.get()
    round = Round.objects.get(game=game, number=3)
    text = "\n".join(_text(render_sheet("round", event=event, game_number=1, round_number=3, language="en")))
    assert "Result of round 3, game 1" in text
    assert shown_move(round.tops[0], event.board, event.notation) in text and str(round.top_score) in text
    totals = {}
    for player_id, credited in Ruling.objects.filter(round__game=game, round__number__lte=3).values_list(
        "player_id", "credited"
    ):
        totals[player_id] = totals.get(player_id, 0) + credited
    for player in event.players.all():
        assert player.name in text
    best = max(totals.values())
    assert str(best) in text
    with pytest.raises(SheetError, match="has no round 99"):
        render_sheet("round", event=event, game_number=1, round_number=99)
    # The game is over: the standings say so, and after which round.
    last = Round.objects.filter(game=game, state=Round.State.PLACED).order_by("number").last()
    standings = _text(render_sheet("standings", event=event, game_number=1, language="fr"))[0]
    said = f"Après le coup {last.number} de la partie 1 : la partie est terminée."
    assert said in standings.replace("\u00a0", " ")


@pytest.mark.django_db
def test_the_final_board_prints_each_premium_in_letters() -> None:
    """A grey print or a colour-blind reader tells the premiums apart: each empty premium
    square carries its mark, in the sheet's language (issue 14, item 2)."""
    call_command("simulate_event", players=2, games=1, seed=7, stdout=io.StringIO())
    event = Event.objects.get()
    french = "\n".join(_text(render_sheet("game", event=event, game_number=1, language="fr")))
    english = "\n".join(_text(render_sheet("game", event=event, game_number=1, language="en")))
    board = french.split("Grille finale")[1]
    assert "MT" in board and "LD" in board and "TW" not in board
    assert "TW" in english.split("Final board")[1]
