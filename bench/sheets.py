"""Printed sheets benchmark: ``python -m bench.sheets [--players 300] [--games 5] [--rounds 22]``
or ``python -m bench.sheets --event ID_OR_CODE``.

Without ``--event``: renders, from synthetic results of that size, the cumulated standings
sheet and each game's round-by-round sheet, and prints the time and the page count of
each: the sheets' own work (ReportLab layout and the embedded fonts).

With ``--event``: the whole path the console's task takes for an event in the database
(for instance ``simulate_event --players 300 --games 5``): the standings read from the
rulings, then each sheet as ``print_sheet`` prints it.

A script, not a timed test: the figures go into the README by hand."""

from __future__ import annotations

import argparse
import io
import os
import random
import time
from decimal import Decimal


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=300)
    parser.add_argument("--games", type=int, default=5)
    parser.add_argument("--rounds", type=int, default=22)
    parser.add_argument("--event", metavar="ID_OR_CODE", help="time the sheets of this event in the database")
    args = parser.parse_args(argv)

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "arbiter.settings.local")
    import django

    django.setup()
    if args.event:
        _event(args.event)
        return
    from django.utils import translation
    from pypdf import PdfReader

    from scoring.sheets.rounds import PlayerLine, RoundsSheet
    from scoring.sheets.standings import StandingsSheet
    from scoring.standings import PlayerInfo, Row
    from tournaments.printing import WORDS

    rng = random.Random(7)
    names = [f"Joueur {i:03d} Éloïse-Gaëtan" for i in range(1, args.players + 1)]
    tops = [[rng.randint(20, 90) for _ in range(args.rounds)] for _ in range(args.games)]
    top_total = sum(map(sum, tops))
    scores = [[[rng.randint(0, t) for t in game] for game in tops] for _ in names]
    totals = sorted(((sum(map(sum, s)), i) for i, s in enumerate(scores)), reverse=True)

    def pages(pdf: bytes) -> int:
        return len(PdfReader(io.BytesIO(pdf)).pages)

    with translation.override("fr"):
        rows = [
            Row(
                rank=rank,
                player=PlayerInfo(id=i, name=names[i], club="Club de Vichy", category="A", table=i + 1),
                total=total,
                tops=0,
                solos=0,
                warnings=1,
                penalties=0,
                diff=total - top_total,
                percent=(Decimal(100 * total) / top_total).quantize(Decimal("0.01")),
                letterpoints=0,
                ratio=None,
                rounds=args.games * args.rounds,
            )
            for rank, (total, i) in enumerate(totals, start=1)
        ]
        started = time.perf_counter()
        pdf = StandingsSheet(
            event_name="Simultané", rows=rows, top_total=top_total, game=None, words=WORDS
        ).render()
        took = time.perf_counter() - started
        print(
            f"standings, {args.players} players, {args.games} games: {took * 1000:.0f} ms, {pages(pdf)} pages"
        )
        for g in range(args.games):
            lines = [
                PlayerLine(rank, names[i], scores[i][g], sum(scores[i][g]))
                for rank, (_t, i) in enumerate(totals, 1)
            ]
            started = time.perf_counter()
            pdf = RoundsSheet(
                event_name="Simultané", game=g + 1, tops=tops[g], lines=lines, words=WORDS
            ).render()
            took = time.perf_counter() - started
            print(
                f"round by round, game {g + 1}, {args.rounds} rounds:"
                f" {took * 1000:.0f} ms, {pages(pdf)} pages"
            )


def _event(text: str) -> None:
    from pypdf import PdfReader

    from rooms.management.commands._common import find_event
    from tournaments.models import Ruling
    from tournaments.printing import render_sheet
    from tournaments.standings import event_standings

    event = find_event(text)
    games = list(event.games.order_by("number"))
    rulings = Ruling.objects.filter(round__game__event=event).count()
    print(f"event {event.pk}: {event.players.count()} players, {len(games)} games, {rulings} rulings")
    started = time.perf_counter()
    event_standings(event)
    print(f"standings read from the rulings: {(time.perf_counter() - started) * 1000:.0f} ms")
    last = games[-1].number
    jobs = [("standings", None)] + [("rounds", g.number) for g in games] + [("game", last), ("player", last)]
    names = set(event.players.values_list("name", flat=True))
    for kind, number in jobs:
        started = time.perf_counter()
        pdf = render_sheet(kind, event=event, game_number=number, language="en")
        took = time.perf_counter() - started
        pages = [page.extract_text() for page in PdfReader(io.BytesIO(pdf)).pages]
        what = kind if number is None else f"{kind}, game {number}"
        if kind == "player":
            what = f"every player's sheet, game {number}"
        print(f"{what}: {took * 1000:.0f} ms, {len(pages)} pages")
        # The figures are only worth something for sheets that print everyone, numbered.
        text = "\n".join(pages)
        missing = [] if kind == "game" else [n for n in names if n not in text]
        unnumbered = [i for i, p in enumerate(pages, 1) if f"page {i} of {len(pages)}" not in p]
        if missing or unnumbered:
            raise SystemExit(
                f"{what}: {len(missing)} players missing, pages without their number: {unnumbered}"
            )


if __name__ == "__main__":
    main()
