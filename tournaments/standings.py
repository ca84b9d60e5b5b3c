"""Standings read from the database: rulings in, :mod:`scoring.standings` rows out."""

from __future__ import annotations

from collections import Counter, defaultdict
from typing import Any

from django.db.models import Count, Exists, OuterRef, Q, QuerySet, Sum

from scoring.standings import PlayerInfo, PlayerSums, RoundResult, Row, standings, standings_of_sums
from tournaments.models import (
    CentrePlayer,
    CentreRuling,
    Event,
    Game,
    HubRound,
    Multiplex,
    Player,
    Ruling,
    counted_rounds,
)


def _players(event: Event) -> list[PlayerInfo]:
    # Plain tuples, not 2,000 model instances (a hall's projector reads them at each change).
    rows = Player.objects.filter(event=event).values_list("pk", "name", "club", "category", "table")
    return [
        PlayerInfo(id=pk, name=name, club=club, category=category, table=table)
        for pk, name, club, category, table in rows
    ]


#: The columns of a ruling the standings need, read as plain tuples: building 30,000
#: model instances (300 players x 5 games) took seconds, the tuples a tenth of that.
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


#: The same columns of a multiplex's merged ruling (its solo given over every centre).
MERGED_FIELDS = (
    "player_id",
    "serving__round__game",
    "serving__round__number",
    "merged_credited",
    "is_top",
    "merged_solo",
    "warnings",
    "penalty",
    "letterpoints",
)


def _results(rulings: QuerySet[Any], fields: tuple[str, ...] = RESULT_FIELDS) -> list[RoundResult]:
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
    the standings at each public change: 46,000 rulings read one by one took 0.2 s), and,
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
    return standings(_results(rulings), _players(event), total, tie_break=event.tie_break, category=category)


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


#: A centre's player in the merged ranking: on their centre's roster (not taken off by a
#: roster update) and not removed by the hub's arbitrator (docs/rules.md#multiplex).
RANKED = Q(left_at__isnull=True, removed_at__isnull=True)


def multiplex_standings(
    multiplex: Multiplex, *, game: int | None = None, centre: int | None = None, category: str | None = None
) -> tuple[list[Row], dict[int, str]]:
    """The merged ranking of a multiplex (every centre's players, the solos given over
    all of them: scoring.multiplex), of one game or all, of one centre or all; and the
    centre of each ranked player (the sheets' centre column). The top total is the hub's:
    the sum of the tops of its placed rounds. Players off the ranking are left out
    (docs/rules.md#multiplex)."""
    rulings = CentreRuling.objects.filter(
        serving__round__multiplex=multiplex, player__left_at__isnull=True, player__removed_at__isnull=True
    )
    if game is not None:
        rulings = rulings.filter(serving__round__game=game)
    # From their first ruling received: a roster's player who has played nothing yet (a
    # centre still to start) is not ranked last meanwhile.
    players = CentrePlayer.objects.filter(
        RANKED, Exists(CentreRuling.objects.filter(player=OuterRef("pk"))), centre__multiplex=multiplex
    ).select_related("centre")
    if centre is not None:
        players = players.filter(centre_id=centre)
        rulings = rulings.filter(player__centre_id=centre)
    listed = list(players)
    infos = [
        PlayerInfo(id=p.pk, name=p.name, club=p.club, category=p.category, table=p.table) for p in listed
    ]
    total = multiplex_top_total(multiplex, game=game)
    rows = standings(
        _results(rulings, MERGED_FIELDS), infos, total, tie_break=multiplex.event.tie_break, category=category
    )
    return rows, {p.pk: p.centre.name for p in listed}


def multiplex_top_total(multiplex: Multiplex, *, game: int | None = None) -> int:
    """The common top total: the sum of the tops of the hub's placed rounds."""
    rounds = HubRound.objects.filter(multiplex=multiplex, placed_at__isnull=False)
    if game is not None:
        rounds = rounds.filter(game=game)
    return rounds.aggregate(t=Sum("top_score"))["t"] or 0
