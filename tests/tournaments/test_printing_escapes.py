"""Data from people reaches the printed sheets as text, never as ReportLab markup (issue
30, item 1): a club "<img src=x onerror=alert(2)>" stopped the standings sheet; "<a
href>" printed a live link, "<font color=white>" hid text."""

from __future__ import annotations

import pytest

from tests.helpers import pdf_text
from tests.tournaments.helpers import play_out
from tournaments.models import Event, Player, Round, Slip
from tournaments.printing import KINDS, render_sheet
from tournaments.services.games import game_start, round_draw
from tournaments.services.players import player_add
from tournaments.services.rounds import round_close, round_open, round_place
from tournaments.services.slips import slip_submit

pytestmark = pytest.mark.django_db

HOSTILE = [
    "Dupont <Paris>",
    "Club & Co",
    '"Les <b>as</b>"',
    "<img src=x onerror=alert(2)>",
    '<a href="https://ev.il/">clic</a>',
    "<font color=white>caché</font>",
    "O'Brien > Smith",
]


@pytest.fixture
def hostile_event(event: Event) -> Event:
    Event.objects.filter(pk=event.pk).update(name="Open <i>de</i> Vichy & Co")
    event.refresh_from_db()
    for i, name in enumerate(HOSTILE, start=1):
        player_add(event=event, name=name, club=HOSTILE[-i], category="<S>")
    game = game_start(event=event)
    round = round_open(round=round_draw(game=game))
    for player in Player.objects.filter(event=event)[:3]:
        slip_submit(round=round, player=player, coordinates="<8H>", word="<b>WORD</b>",
                             announced_score=None, source=Slip.Source.PAPER)  # fmt: skip
    round_close(round=Round.objects.get(pk=round.pk))
    round_place(round=Round.objects.get(pk=round.pk), draw_next=False)
    round2 = round_draw(game=game)
    play_out(round2)
    return event


@pytest.mark.parametrize("language", ["fr", "en"])
@pytest.mark.parametrize("kind", KINDS)
def test_every_sheet_prints_peoples_data_as_text(hostile_event: Event, kind: str, language: str) -> None:
    pdf = render_sheet(kind, event=hostile_event, game_number=1, language=language, round_number=1)
    assert pdf.startswith(b"%PDF") and b"/Link" not in pdf and b"/URI" not in pdf
    # Compared without spaces: a long name wraps inside its cell.
    text = "".join("".join(page.split()) for page in pdf_text(pdf))
    assert "Open<i>de</i>Vichy&Co" in text
    if kind in ("standings", "rounds", "player", "round"):
        for name in HOSTILE:
            assert "".join(name.split()) in text, (kind, name)
    if kind in ("round", "player"):
        assert "<b>WORD</b>" in text, kind
