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

pytestmark = pytest.mark.django_db


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


@pytest.mark.parametrize("tie_break", ["fisf", "shared", "letterpoints"])
def test_a_games_standings_summed_by_the_database_are_the_rulings_own(
    simulated: Event, tie_break: str
) -> None:
    """game_standings adds the rulings up in the database (scoring.standings_of_sums); the
    rows are the ones scoring.standings makes of the rulings one by one, ties included:
    points from a few values, a player without any ruling, one whose rulings add up to 0."""
    import random

    from scoring.standings import standings
    from tournaments.models import Player
    from tournaments.models.rounds import counted_rounds
    from tournaments.services.players import player_add
    from tournaments.standings import _players, read_results

    Event.objects.filter(pk=simulated.pk).update(tie_break=tie_break)
    simulated.refresh_from_db()
    player_add(event=simulated, name="Sans bulletin")  # no ruling at all
    chance = random.Random(11)
    game = simulated.games.order_by("number").last()
    assert game is not None
    for attempt in range(4):
        for ruling in Ruling.objects.filter(round__game__event=simulated):
            ruling.credited = chance.choice([0, 0, 5, 10, -5])
            ruling.is_top, ruling.solo = chance.random() < 0.3, chance.random() < 0.1
            ruling.warnings, ruling.penalty = chance.choice([0, 0, 1]), chance.choice([0, 5])
            ruling.letterpoints = chance.choice([0, 7, 12])
            ruling.save()
        numbers = list(game.rounds.filter(counted_rounds()).values_list("number", flat=True))
        for after in (None, *numbers[:2]):
            for category in (None, "B"):
                summed = game_standings(simulated.games.get(pk=game.pk), category=category, after_round=after)
                rulings = Ruling.objects.filter(counted_rounds("round__"), round__game=game)
                if after is not None:
                    rulings = rulings.filter(round__number__lte=after)
                one_by_one = standings(
                    read_results(rulings),
                    _players(simulated),
                    top_total(game, after_round=after),
                    tie_break=tie_break,
                    category=category,
                )
                assert summed == one_by_one, (attempt, after, category)
                assert len({r.total for r in summed}) < len(summed)  # equal totals there were
    assert Player.objects.filter(event=simulated, rulings__isnull=True).exists()
    # The only player whose rulings add up to 0 shares that total with the one who has none.
    Ruling.objects.filter(round__game=game).update(credited=10)
    alone = Ruling.objects.filter(round__game=game).order_by("player__table", "round__number")
    first = alone.first()
    assert first is not None
    for n, ruling in enumerate(alone.filter(player_id=first.player_id)):
        Ruling.objects.filter(pk=ruling.pk).update(credited=5 if n % 2 else -5)
    rulings = Ruling.objects.filter(counted_rounds("round__"), round__game=game)
    summed = game_standings(simulated.games.get(pk=game.pk))
    assert summed == standings(
        read_results(rulings), _players(simulated), top_total(game), tie_break=tie_break
    )
