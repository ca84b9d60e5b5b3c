"""Standings read from the database: rulings in, :mod:`scoring.standings` rows out."""

from __future__ import annotations

from collections import Counter, defaultdict
from typing import Any

from django.db.models import Count, Q, QuerySet, Sum

from scoring.standings import PlayerInfo, PlayerSums, RoundResult, Row, standings, standings_of_sums
from tournaments.models import Event, Game, Player, Ruling
from tournaments.models.rounds import counted_rounds


def _players(event: Event) -> list[PlayerInfo]:
    # Plain tuples, not 2,000 model instances (a hall's projector reads them at each change).
    rows = Player.objects.filter(event=event).values_list("pk", "name", "club", "category", "table")
    return [
        PlayerInfo(id=pk, name=name, club=club, category=category, table=table)
        for pk, name, club, category, table in rows
    ]


#: The columns of a ruling the standings need, read as plain tuples, not model instances
#: (a big event's standings, docs/decisions.md).
RESULT_FIELDS = (
    "player_id",
    "round__game__number",
    "round__number",
    "credited",
    "is_top",
    "solo",
    "warnings",
    "penalty",
    "letterpoints",
)


def read_results(rulings: QuerySet[Any], fields: tuple[str, ...] = RESULT_FIELDS) -> list[RoundResult]:
    # Unordered: the standings add them up whatever their order, and the rulings' own
    # ordering sorted a game's 46,000 through four joins (a quarter of the projector's reload).
    rows = rulings.order_by().values_list(*fields)
    return [
        RoundResult(
            player=player,
            game=game,
            round=number,
            credited=credited,
            is_top=is_top,
            solo=solo,
            warnings=warnings,
            penalty=penalty,
            letterpoints=letterpoints,
        )
        for player, game, number, credited, is_top, solo, warnings, penalty, letterpoints in rows
    ]


def top_total(game: Game, *, after_round: int | None = None) -> int:
    """Sum of the top scores of the counted rounds (placed or published: even where the
    arbitrator placed a lower move, the players are measured against the best score the
    rack allowed), up to ``after_round`` when given."""
    rounds = game.rounds.filter(counted_rounds())
    if after_round is not None:
        rounds = rounds.filter(number__lte=after_round)
    return rounds.aggregate(t=Sum("top_score"))["t"] or 0


def game_standings(game: Game, *, category: str | None = None, after_round: int | None = None) -> list[Row]:
    """The standings of ``game``; ``after_round``: as they stood after that round (a
    ranking after each round, as DupliTop prints it)."""
    rulings = Ruling.objects.filter(counted_rounds("round__"), round__game=game).order_by()
    if after_round is not None:
        rulings = rulings.filter(round__number__lte=after_round)
    return standings_of_sums(
        _sums(rulings, game.number, fisf=game.event.tie_break == "fisf"),
        [(game.number, number) for number in rulings.values_list("round__number", flat=True).distinct()],
        _players(game.event),
        top_total(game, after_round=after_round),
        tie_break=game.event.tie_break,
        category=category,
    )


def _sums(rulings: QuerySet[Ruling], game_number: int, *, fisf: bool) -> list[PlayerSums]:
    """Each player's rulings of one game added up by the database (a hall's projector reads
    the standings at each public change, docs/decisions.md), and,
    for the FISF tie-break, the round by round points of the players who share a total."""
    added = rulings.values("player_id").annotate(
        total=Sum("credited"),
        tops=Count("pk", filter=Q(is_top=True)),
        solos=Count("pk", filter=Q(solo=True)),
        warned=Sum("warnings"),
        penalties=Sum("penalty"),
        letters=Sum("letterpoints"),
        rounds=Count("pk"),
    )
    rows = list(
        added.values_list("player_id", "total", "tops", "solos", "warned", "penalties", "letters", "rounds")
    )
    credits: dict[int, dict[tuple[int, int], int]] = defaultdict(dict)
    if fisf:
        shared = Counter(total for _player, total, *_rest in rows)
        # 0 as well: a player without a ruling shares it, unsummed.
        tied = [player for player, total, *_rest in rows if shared[total] > 1 or total == 0]
        points = rulings.filter(player_id__in=tied).values_list("player_id", "round__number", "credited")
        for player, number, credited in points:
            credits[player][game_number, number] = credited
    return [
        PlayerSums(player, total, tops, solos, warned, penalties, letters, rounds, credits.get(player, {}))
        for player, total, tops, solos, warned, penalties, letters, rounds in rows
    ]


def counted_round_numbers(game: Game) -> list[int]:
    """The numbers of the rounds of ``game`` that count, in order (a standings' "after")."""
    return list(game.rounds.filter(counted_rounds()).order_by("number").values_list("number", flat=True))


def event_standings(event: Event, *, category: str | None = None) -> list[Row]:
    rulings = Ruling.objects.filter(counted_rounds("round__"), round__game__event=event)
    total = sum(top_total(g) for g in event.games.all())
    return standings(
        read_results(rulings), _players(event), total, tie_break=event.tie_break, category=category
    )


def game_scores(game: Game, players: list[int]) -> tuple[list[int], dict[int, list[int | None]]]:
    """The top of each counted round of ``game`` and what each of ``players`` (ids) scored
    in it (None: no ruling), in round order: the chart of a game (scoring/charts.py)."""
    rounds = list(game.rounds.filter(counted_rounds()).order_by("number").values_list("pk", "top_score"))
    place = {pk: i for i, (pk, _top) in enumerate(rounds)}
    scores: dict[int, list[int | None]] = {pk: [None] * len(rounds) for pk in players}
    rulings = Ruling.objects.filter(round__in=list(place), player_id__in=players).order_by()
    for player_id, round_id, credited in rulings.values_list("player_id", "round_id", "credited"):
        scores[player_id][place[round_id]] = credited
    return [top or 0 for _pk, top in rounds], scores
