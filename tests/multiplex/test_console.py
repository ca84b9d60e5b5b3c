"""The console of a multiplex: the hub's page (its centres, the merged ranking with a
centre column, its CSV) and a centre's round page (the link to the hub: last contact,
items waiting, problems said in words, "sync now"; the hub's rack and move, no typed
rack and no choice of top). The hub and its centres share the test database; the centres
reach the hub's API through the test client (tests/multiplex/conftest.py)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from multiplex.models import HubGame, HubOutbox, Serving
from multiplex.services import centre as centre_service
from rooms.management.commands._common import draw_lines
from tests.multiplex.helpers import play, started
from tests.rooms.helpers import last_round, messages, url
from tournaments.models import Event, Round
from tournaments.services.games import game_start, round_draw
from tournaments.services.rounds import round_place

pytestmark = pytest.mark.django_db


@pytest.fixture
def played(network: dict[str, Any], arbitrator: User) -> dict[str, Any]:
    """Binche (the draw centre) places two rounds; Dakar plays the first, and has the
    second ruled, waiting for the hub's move; every centre is the arbitrator's."""
    events = network["events"]
    Event.objects.filter(pk__in=[e.pk for e in events.values()]).update(created_by=arbitrator)
    drawing = game_start(event=events["Binche"])
    round = round_draw(game=drawing)
    assert round is not None
    round = round_place(round=play(round, 1))
    assert round is not None
    round_place(round=play(round, 1))
    centre_service.hub_sync(event=events["Dakar"])
    game = game_start(event=events["Dakar"])
    mine = round_draw(game=game)
    assert mine is not None
    mine = round_place(round=play(mine, 2))
    assert mine is not None
    play(mine, 2)
    return network


def test_the_hub_page_lists_its_centres_and_the_merged_ranking(
    console: Client,
    hub_event: Event,
    played: dict[str, Any],
) -> None:
    page = console.get(url(hub_event, "multiplex/")).content.decode()
    assert ">Multiplex</a>" in page  # in the event's links
    rows = re.findall(
        r"<tr><td>(\w+)</td><td>(draw centre|centre)</td>.*?<td>(\d+)</td><td>(\d+)</td><td>(\d+)</td></tr>",
        page,
        re.S,
    )
    assert rows == [("Binche", "draw centre", "3", "2", "2"), ("Dakar", "centre", "3", "2", "1"),
                    ("Rabat", "centre", "0", "0", "0")]  # fmt: skip
    assert "<th>Centre</th>" in page and page.count("<td>Dakar</td>") == 1 + 3  # its row and its players'
    dakar = played["events"]["Dakar"]
    only = console.get(url(hub_event, "multiplex/"), {"centre": _centre_id(page, "Dakar"), "game": "1"})
    assert only.content.decode().count("<td>Binche</td>") == 1  # the centres' table only
    assert Round.objects.filter(game__event=dakar, state=Round.State.PLACED).count() == 1
    csv = console.get(url(hub_event, "export/standings.csv")).content.decode("utf-8-sig")
    assert csv.startswith("rang;centre;table;nom;") and csv.count("\r\n") == 1 + 6  # Rabat sent nothing yet
    assert console.get(url(played["events"]["Rabat"], "multiplex/")).status_code == 404  # not a hub


def _centre_id(page: str, name: str) -> str:
    found = re.search(rf'<option value="(\d+)" >{name}</option>', page)
    assert found is not None, page
    return found.group(1)


def test_a_centre_sees_its_link_and_plays_the_hubs_rounds(console: Client, played: dict[str, Any]) -> None:
    dakar = played["events"]["Dakar"]
    page = console.get(url(dakar)).content.decode()
    assert "This event is the centre Dakar: its racks and the moves placed come from the hub." in page
    assert "Waiting to be sent: 0 items" in page and "The hub has served up to game 1, round 3." in page
    assert "Multiplex: the hub's move" in page  # round 2 was placed on the hub, its move fetched
    assert 'name="typed"' not in page and "The next rack comes from the hub." in page
    assert "Place another move" not in page
    # The hub's rack is stored as typed, not drawn from the centre's seed: said as served.
    assert last_round(dakar).manual
    assert "(served by the hub)" in page and "physical draw" not in page
    assert draw_lines(last_round(dakar), dakar)[0].endswith(" (served by the hub)")  # the terminal's

    played["hubs"]["Dakar"].online = False
    response = console.post(url(dakar, "hub/sync/"), follow=True)
    said = messages(response)
    assert said == [
        "the hub cannot be reached: connection refused. Everything is kept and sent at the next sync."
    ]
    page = response.content.decode()
    # Said in words (data-say: read out by console.js when it changes), not by colour alone.
    assert "<span data-say><b>Problem:</b> the hub cannot be reached: connection refused</span>" in page
    console.post(url(dakar, "place/"), {"round_key": "1-2"})
    assert HubOutbox.objects.filter(link__event=dakar, sent_at__isnull=True).count() == 1  # the results of 2
    assert "Waiting to be sent: 1 item<" in console.get(url(dakar)).content.decode()

    played["hubs"]["Dakar"].online = True
    said = messages(console.post(url(dakar, "hub/sync/"), follow=True))
    assert said == ["Synced with the hub: 1 item(s) sent, 0 round(s) fetched."]
    page = console.get(url(dakar)).content.decode()
    assert "Waiting to be sent: 0 items" in page and "Problem:" not in page
    owed = HubOutbox.objects.filter(link__event=dakar).first()
    assert owed is not None
    HubOutbox.objects.filter(pk=owed.pk).update(
        sent_at=None, last_error="round 9 was never served to this centre"
    )
    page = console.get(url(dakar)).content.decode()
    assert "the hub refused what follows; it is kept and sent again at each sync:" in page
    assert "<li>round 9 was never served to this centre</li>" in page


def test_the_round_page_reads_the_centres_link_once(console: Client, played: dict[str, Any]) -> None:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from multiplex.models import HubSealed

    def reads(path: str, **headers: str) -> tuple[int, str]:
        # Each reading of the link (multiplex.link.link_state) asks for its sealed games once.
        with CaptureQueriesContext(connection) as queries:
            page = console.get(path, **headers).content.decode()
        return sum(HubSealed._meta.db_table in q["sql"] for q in queries.captured_queries), page

    dakar = played["events"]["Dakar"]
    count, page = reads(url(dakar))
    assert count == 1 and "Waiting to be sent: 0 items" in page
    # The status reloaded alone (its live updates) reads it itself.
    count, status = reads(url(dakar) + "?part=status", HTTP_HX_REQUEST="true")
    assert count == 1 and "Waiting to be sent: 0 items" in status and "<html" not in status


def test_the_draw_centre_publishes_and_types_its_racks(console: Client, played: dict[str, Any]) -> None:
    binche = played["events"]["Binche"]
    play(last_round(binche), 1)
    page = console.get(url(binche)).content.decode()
    assert (
        "This event is the draw centre (Binche): its racks and placed moves are published to the hub." in page
    )
    assert 'name="typed"' in page and "comes from the hub" not in page


def test_the_merged_standings_sheet_has_a_centre_column(
    console: Client,
    hub_event: Event,
    played: dict[str, Any],
) -> None:
    from multiplex.selectors import multiplex_standings
    from tests.helpers import pdf_text
    from tournaments.printing import SheetError, render_sheet

    rows, centres = multiplex_standings(hub_event.multiplex)
    (page,) = pdf_text(render_sheet("standings", event=hub_event, language="en"))
    assert "Merged ranking: the results of 2 centre(s) of 3, received by " in page
    cells = page.splitlines()
    assert cells[cells.index("Name") + 1] == "Centre"
    for row in rows:  # each player's centre after the name
        assert cells[cells.index(row.player.name) + 1] == centres[row.player.id]
    with pytest.raises(SheetError, match="has no game 2"):
        render_sheet("standings", event=hub_event, game_number=2)
    response = console.get(url(hub_event, "sheets/"))
    assert response.status_code == 200


def test_a_simultane_shows_its_keys_from_the_start_and_a_centre_types_one(
    console: Client,
    event: Event,
    simultane: dict[str, Any],
    arbitrator: User,
) -> None:
    lome = simultane["events"]["Lomé"]
    Event.objects.filter(pk=lome.pk).update(created_by=arbitrator)
    centre_service.hub_sync(event=lome)
    page = console.get(url(event, "multiplex/")).content.decode()
    assert "given at the start" in page and "<code>" not in page
    page = console.get(url(lome)).content.decode()
    assert "Game 1: fetched sealed ahead, opens at its start" in page

    started(simultane["multiplex"], 1)
    key = HubGame.objects.get(multiplex=simultane["multiplex"], number=1).seal_key
    assert f"<code>{key}</code>" in console.get(url(event, "multiplex/")).content.decode()
    namur = simultane["multiplex"].centres.get(name="Namur")
    said = messages(console.post(url(event, "multiplex/key/"), {"game": "1", "centre": "x"}, follow=True))
    assert said == ["Which centre, which game? Choose them in the list."]
    said = messages(
        console.post(url(event, "multiplex/key/"), {"game": "1", "centre": namur.pk}, follow=True)
    )
    assert said == ["Game 1: the key read out to Namur is on the record."]
    assert Serving.objects.filter(centre=namur).count() == 3
    said = messages(console.post(url(lome, "hub/unseal/"), {"game": "1", "key": "nope"}, follow=True))
    assert said == ["this key does not open the sealed game 1"]
    said = messages(console.post(url(lome, "hub/unseal/"), {"game": "x", "key": key}, follow=True))
    assert said == ["Which game? Its number is missing."]
    said = messages(console.post(url(lome, "hub/unseal/"), {"game": "1", "key": key}, follow=True))
    assert said == ["Game 1 opened: 3 round(s)."]
    assert "Game 1: fetched sealed ahead, opened." in console.get(url(lome)).content.decode()


def test_the_hub_prints_its_round_by_round_and_exports_every_centres_rulings(
    console: Client,
    hub_event: Event,
    played: dict[str, Any],
) -> None:
    from multiplex.models import CentreRuling
    from tests.helpers import pdf_text
    from tournaments.printing import SheetError, render_sheet

    text = "\n".join(pdf_text(render_sheet("rounds", event=hub_event, language="en")))
    assert "Round by round, game 1" in text and "Dakar 1 · Dakar" in text and "Binche 2 · Binche" in text
    with pytest.raises(SheetError, match="printed at each centre"):
        render_sheet("game", event=hub_event)
    with pytest.raises(SheetError, match="has no game 3"):
        render_sheet("rounds", event=hub_event, game_number=3)
    page = console.get(url(hub_event, "sheets/")).content.decode()
    assert '<option value="rounds">' in page and '<option value="game">' not in page
    assert "Every centre's rulings (CSV)" in page
    csv = console.get(url(hub_event, "export/slips.csv")).content.decode("utf-8-sig").splitlines()
    assert csv[0].startswith(
        "partie;coup;centre;table;nom;décision;solution;score de la solution;points au centre;points"
    )
    assert len(csv) == 1 + CentreRuling.objects.count() == 1 + 3 * 2 + 3 * 1  # Binche 2 rounds, Dakar 1
    assert {line.split(";")[2] for line in csv[1:]} == {"Binche", "Dakar"}


def test_the_hub_arbitrator_removes_a_player_from_the_merged_ranking_on_the_page(
    console: Client,
    hub_event: Event,
    played: dict[str, Any],
) -> None:
    from multiplex.models import CentrePlayer
    from tournaments.models import HistoryEntry

    page = console.get(url(hub_event, "multiplex/")).content.decode()
    assert "Every player of the centres' rosters is in the ranking." in page
    dakar_2 = CentrePlayer.objects.get(centre__name="Dakar", table=2)
    assert f'<option value="{dakar_2.pk}">Dakar · 2 · Dakar 2</option>' in page
    remove = url(hub_event, "multiplex/players/remove/")
    said = messages(console.post(remove, {"player": dakar_2.pk, "reason": ""}, follow=True))
    assert said == ["say why the player is removed from the merged ranking"]
    said = messages(console.post(remove, {"player": "x", "reason": "why"}, follow=True))
    assert said == ["Which player? Choose them in the list."]
    response = console.post(remove, {"player": dakar_2.pk, "reason": "registered twice"}, follow=True)
    assert messages(response) == ["Dakar 2 (Dakar, table 2) is removed from the merged ranking."]
    page = response.content.decode()
    assert "<td>Dakar 2</td>" in page.split('id="off-title"')[1]  # listed off the ranking...
    assert "Dakar 2" not in page.split('id="ranking-title"')[1].split('id="off-title"')[0]  # ...not in it
    assert "removed by the hub: registered twice" in page
    csv = console.get(url(hub_event, "export/standings.csv")).content.decode("utf-8-sig")
    assert "Dakar 2" not in csv and csv.count("\r\n") == 1 + 5
    said = messages(console.post(remove, {"player": dakar_2.pk, "restore": "1"}, follow=True))
    assert said == ["Dakar 2 (Dakar, table 2) is back in the merged ranking."]
    assert "Dakar 2" in console.get(url(hub_event, "export/standings.csv")).content.decode("utf-8-sig")
    actions = HistoryEntry.objects.filter(entity="centre_player", object_id=dakar_2.pk).values_list(
        "action", flat=True
    )
    assert sorted(actions) == ["add", "remove", "restore"]
