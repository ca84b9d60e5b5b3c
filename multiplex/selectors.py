"""What the multiplex's pages, API and sheets read: the hub's games, centres and players,
and the merged ranking (every centre's rulings, the solos given over all of them:
:mod:`scoring.multiplex`)."""

from __future__ import annotations

from django.db.models import Count, Exists, OuterRef, Q, QuerySet, Sum

from multiplex.models import Centre, CentrePlayer, CentreRuling, HubGame, HubRound, Multiplex
from scoring.standings import PlayerInfo, Row, standings
from tournaments.models import Event
from tournaments.standings import read_results


def multiplex_of(event: Event) -> Multiplex | None:
    """The multiplex whose hub ``event`` is, if it is one."""
    return Multiplex.objects.filter(event_id=event.pk).first()


def hub_game(multiplex: Multiplex, number: int | None) -> HubGame | None:
    """Game ``number`` of the multiplex (None: its last), if it has it."""
    games = HubGame.objects.filter(multiplex=multiplex).order_by("number")
    return games.last() if number is None else games.filter(number=number).first()


def hub_games(multiplex: Multiplex) -> QuerySet[HubGame]:
    """The multiplex's games, the first first."""
    return HubGame.objects.filter(multiplex=multiplex).order_by("number")


def multiplex_centre(multiplex: Multiplex, centre_id: int) -> Centre | None:
    """A centre of ``multiplex`` only: an id of another multiplex's is not found."""
    return multiplex.centres.filter(pk=centre_id).first()


def centre_named(multiplex: Multiplex, name: str) -> Centre | None:
    return multiplex.centres.filter(name=name).first()


def multiplex_player(multiplex: Multiplex, player_id: int) -> CentrePlayer | None:
    """A player of one of the multiplex's centres (:func:`multiplex_players`), by id."""
    return multiplex_players(multiplex).filter(pk=player_id).first()


def multiplex_categories(multiplex: Multiplex) -> list[str]:
    """The categories of the centres' players, in alphabetical order."""
    found = CentrePlayer.objects.filter(centre__multiplex=multiplex).values_list("category", flat=True)
    return sorted({c for c in found if c})


def multiplex_players(multiplex: Multiplex) -> QuerySet[CentrePlayer]:
    """Every centre's players as their rosters name them (off the ranking too), by centre."""
    return (
        CentrePlayer.objects.filter(centre__multiplex=multiplex)
        .select_related("centre")
        .order_by("centre__name", "table")
    )


def multiplex_centres(multiplex: Multiplex) -> QuerySet[Centre]:
    """The hub's centres with, each, the rounds it was served, closed, and sent results of."""
    return multiplex.centres.annotate(
        served=Count("servings"),
        closed=Count("servings", filter=Q(servings__closed_at__isnull=False)),
        results=Count("servings", filter=Q(servings__results_at__isnull=False)),
    ).order_by("-draws", "name")


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
        read_results(rulings, MERGED_FIELDS),
        infos,
        total,
        tie_break=multiplex.event.tie_break,
        category=category,
    )
    return rows, {p.pk: p.centre.name for p in listed}


def multiplex_top_total(multiplex: Multiplex, *, game: int | None = None) -> int:
    """The common top total: the sum of the tops of the hub's placed rounds."""
    rounds = HubRound.objects.filter(multiplex=multiplex, placed_at__isnull=False)
    if game is not None:
        rounds = rounds.filter(game=game)
    return rounds.aggregate(t=Sum("top_score"))["t"] or 0
