"""A hub's sheets and exports: the merged ranking of every centre's players, the round by
round of the rounds it placed, every centre's rulings. The other sheets are printed at
each centre."""

from __future__ import annotations

from collections.abc import Sequence

from django.utils import formats, timezone, translation

from multiplex.models import CentrePlayer, CentreRuling, HubRound, Multiplex
from multiplex.selectors import hub_game, multiplex_standings, multiplex_top_total
from tournaments.display import shown_move
from tournaments.exports import STANDINGS_HEADER, csv_bytes, standings_line
from tournaments.printing import WORDS, SheetError


class HubSheets:
    """The sheets of a multiplex's hub (tournaments.linked.OwnSheets)."""

    kinds: Sequence[str] = ("standings", "rounds")

    def __init__(self, multiplex: Multiplex) -> None:
        self.multiplex = multiplex

    def games(self) -> Sequence[int]:
        return list(self.multiplex.games.order_by("number").values_list("number", flat=True))

    def sheet(self, kind: str, *, game_number: int | None, category: str | None, date: str) -> bytes:
        if kind == "standings":
            return _merged_standings(self.multiplex, game_number, category, date)
        if kind == "rounds":
            return _merged_rounds(self.multiplex, game_number, date)
        raise SheetError(
            f"{self.multiplex.event.name} is a multiplex's hub: its sheets are the standings and the round by"
            " round; the others are printed at each centre"
        )

    def export(self, kind: str, *, game_number: int | None, language: str) -> bytes | None:
        if kind == "standings":
            return _merged_csv(self.multiplex, game_number, language)
        if kind == "slips":
            return merged_rulings_csv(self.multiplex, language)
        return None


def _merged_standings(
    multiplex: Multiplex, game_number: int | None, category: str | None, date: str
) -> bytes:
    """A hub's merged ranking, with the centre of each player."""
    from scoring.sheets.standings import StandingsSheet

    if game_number is not None and hub_game(multiplex, game_number) is None:
        raise SheetError(f"{multiplex.event.name} has no game {game_number}")
    rows, centres = multiplex_standings(multiplex, game=game_number, category=category)
    sent = multiplex.centres.filter(servings__results_at__isnull=False)
    if game_number is not None:
        sent = sent.filter(servings__round__game=game_number)
    received = sent.distinct().count()
    # Printed while centres still play: say from how many centres' results it was merged.
    progress = translation.gettext(
        "Merged ranking: the results of %(received)s centre(s) of %(centres)s, received by %(time)s"
    ) % {
        "received": received,
        "centres": multiplex.centres.count(),
        "time": formats.time_format(timezone.localtime(), "TIME_FORMAT"),
    }
    sheet = StandingsSheet(
        event_name=multiplex.event.name,
        rows=rows,
        top_total=multiplex_top_total(multiplex, game=game_number),
        game=game_number,
        category=category,
        date=date,
        words=WORDS,
        progress=progress,
        centres=centres,
    )
    return sheet.render()


def _merged_rounds(multiplex: Multiplex, game_number: int | None, date: str) -> bytes:
    """A hub's round by round: every centre's players, each named with their centre, and
    their merged points (the solos given over every centre) of each round the hub placed."""
    from scoring.sheets.rounds import PlayerLine, RoundsSheet

    game = hub_game(multiplex, game_number)
    if game is None:
        raise SheetError(f"{multiplex.event.name} has no game {game_number or ''}".rstrip())
    placed = HubRound.objects.filter(multiplex=multiplex, game=game.number, placed_at__isnull=False)
    rounds = list(placed.order_by("number"))
    index = {r.pk: i for i, r in enumerate(rounds)}
    scores: dict[int, list[int | None]] = {}
    merged = CentreRuling.objects.filter(serving__round__in=rounds)
    for player_id, round_id, credited in merged.values_list(
        "player_id", "serving__round_id", "merged_credited"
    ):
        scores.setdefault(player_id, [None] * len(rounds))[index[round_id]] = credited
    rows, centres = multiplex_standings(multiplex, game=game.number)
    lines = [
        PlayerLine(
            row.rank,
            f"{row.player.name} · {centres[row.player.id]}",
            scores.get(row.player.id, [None] * len(rounds)),
            row.total,
        )
        for row in rows
    ]
    return RoundsSheet(
        event_name=multiplex.event.name,
        game=game.number,
        tops=[r.top_score or 0 for r in rounds],
        lines=lines,
        date=date,
        words=WORDS,
    ).render()


def _merged_csv(multiplex: Multiplex, game_number: int | None, language: str) -> bytes:
    if game_number is not None and hub_game(multiplex, game_number) is None:
        raise ValueError(f"{multiplex.event.name} has no game {game_number}")
    rows, centres = multiplex_standings(multiplex, game=game_number)
    licences = dict(CentrePlayer.objects.filter(centre__multiplex=multiplex).values_list("pk", "licence"))
    header = [STANDINGS_HEADER[0], "centre", *STANDINGS_HEADER[1:]]
    body = [
        [line[0], centres[r.player.id], *line[1:]]
        for r in rows
        for line in [standings_line(r, licences, language)]
    ]
    return csv_bytes(header, body, language)


def merged_rulings_csv(multiplex: Multiplex, language: str | None = None) -> bytes:
    """A hub's slips export: every centre's ruling of every round, as the centre ruled it
    (its move in the hub's notation, its credited points) and as merged (the solo given
    over every centre)."""
    event = multiplex.event
    rulings = (
        CentreRuling.objects.filter(serving__round__multiplex=multiplex)
        .select_related("serving__round", "serving__centre", "player")
        .order_by("serving__round__game", "serving__round__number", "serving__centre__name", "player__table")
    )
    header = [
        *("game", "round", "centre", "table", "name", "reason", "move", "move score"),
        *("credited at the centre", "credited", "warnings", "penalty", "top", "solo", "corrected"),
    ]
    body: list[list[object]] = [
        [
            r.serving.round.game,
            r.serving.round.number,
            r.serving.centre.name,
            r.player.table,
            r.player.name,
            r.reason,
            shown_move(r.move, event.board, event.notation) if r.move else "",
            r.move_score,
            r.credited,
            r.merged_credited,
            r.warnings,
            r.penalty,
            int(r.is_top),
            int(r.merged_solo),
            int(r.overridden),
        ]
        for r in rulings
    ]
    return csv_bytes(header, body, language or event.hall_language)
