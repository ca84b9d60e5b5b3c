"""Standings read from the database (tournaments.standings): per game, cumulated, by
category, and a whole simulated event that adds up."""

from __future__ import annotations

import json

import pytest
from django.core.management import call_command
from django.db.models import Sum
from django.utils import timezone

from tournaments.models import Event, Ruling
from tournaments.standings import event_standings, game_standings, top_total

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def simulated(capsys: pytest.CaptureFixture[str]) -> Event:
    call_command("simulate_event", "--players", "8", "--games", "2", "--seed", "3", "--json")
    return Event.objects.get(pk=json.loads(capsys.readouterr().out)["event_id"])


def test_the_cumulated_standings_add_the_games(simulated: Event) -> None:
    games = list(simulated.games.all())
    per_game = {g.number: {r.player.id: r.total for r in game_standings(g)} for g in games}
    for row in event_standings(simulated):
        assert row.total == sum(per_game[g.number][row.player.id] for g in games)
        assert row.diff == row.total - sum(top_total(g) for g in games)


def test_a_category_list_keeps_its_players_and_ranks_them_from_one(simulated: Event) -> None:
    rows = event_standings(simulated, category="B")
    assert rows and {r.player.category for r in rows} == {"B"}
    assert rows[0].rank == 1
    assert len(rows) == simulated.players.filter(category="B").count()


def test_the_top_total_is_the_sum_of_the_placed_tops(simulated: Event) -> None:
    for game in simulated.games.all():
        placed = game.rounds.filter(state="placed")
        assert top_total(game) == placed.aggregate(s=Sum("top_score"))["s"]
        credited = Ruling.objects.filter(round__game=game).aggregate(s=Sum("credited"))["s"]
        assert credited == sum(r.total for r in game_standings(game))


def test_a_simulated_event_adds_up(capsys) -> None:
    import json

    from django.core.management import call_command

    call_command("simulate_event", "--players", "18", "--games", "2", "--seed", "7", "--json")
    out = json.loads(capsys.readouterr().out)
    event = Event.objects.get(pk=out["event_id"])
    assert len(out["games"]) == 2 and all(g["rounds"] for g in out["games"])
    for g in out["games"]:
        assert g["top_total"] == sum(r["top_score"] for r in g["rounds"])
        game = event.games.get(number=g["number"])
        assert top_total(game) == g["top_total"]
        for row in game_standings(game):
            credited = Ruling.objects.filter(round__game=game, player_id=row.player.id).aggregate(
                s=Sum("credited")
            )
            assert row.total == (credited["s"] or 0)
    rows = event_standings(event)
    assert rows[0].rank == 1 and rows[0].total == out["standings"][0]["total"]
    assert (
        sum(r.total for r in rows)
        == Ruling.objects.filter(round__game__event=event).aggregate(s=Sum("credited"))["s"]
    )
    assert out["standings"][0]["percent"] <= 100.0 + 1e-9 or any(r.solos for r in rows)
    assert timezone.now()
