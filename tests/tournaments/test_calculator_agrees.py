"""Same rulings everywhere: golden cases of tests/data/rulings played through the event
services (an event with the case's settings and players, the board moves placed as the
rounds' moves, the rack typed, the slips handed in, the round closed and adjudicated, the
arbitrator's corrections made) give the stored rulings ``python -m scoring rule`` prints;
and the API (the arbitrator's review) and the terminal (``rulings --players``) show the
same figures."""

from __future__ import annotations

import datetime as dt
import io
import json
import re
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.core.management import call_command
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from scoring.calculator import rule_case
from solver.boards import layout
from solver.notation import parse_move
from tournaments.display import shown_move
from tournaments.models import Event, Game, Player, Round, Ruling, Slip
from tournaments.services.corrections import ruling_accept_shift, ruling_average, ruling_override
from tournaments.services.events import event_create
from tournaments.services.games import game_start, round_draw
from tournaments.services.lexicons import lexicon_bundled
from tournaments.services.players import player_add
from tournaments.services.rounds import round_close, round_open, round_place, top_choose
from tournaments.services.slips import SECOND_SLIP, paper_slip_submit, slip_submit

pytestmark = pytest.mark.django_db

GOLDEN = Path(__file__).resolve().parents[1] / "data" / "rulings"
CASES = [
    "first-round-best-placement",
    "ok-top-and-solo",
    "solo-below-the-top",
    "reason-late",
    "reason-several-slips",
    "wrong-reference-right-score",
    "omitted-last-letter",
    "blank-circled-on-the-wrong-letter",
    "unmarked-blank-announced-reading",
    "shift-accepted-nearby",
    "override-removes-a-top",
    "average",
    "english-score-policy",
    "warnings-beyond-the-free-ones",
    "big-board-column-18",
    "event-rules-bingo-and-first-move",
    "event-rules-first-round-down",
    "wrong-reference-rules-examples",
    "last-letter-rules-examples",
    "raccord-rules-examples",
    "prolongation-rules-examples",
    "blank-circled-with-no-blank",
]
#: Where the calculator's "score" is no field of the stored ruling, the rest is compared.
COMPARED = ("points", "warnings", "penalty", "solo", "top", "reason", "move", "message")


def _case(name: str) -> dict[str, Any]:
    case: dict[str, Any] = json.loads((GOLDEN / f"{name}.json").read_text("utf-8"))["case"]
    return case


def _first_rack(move: str, next_rack: str, case: dict[str, Any]) -> str:
    """A full rack that plays ``move`` (its new tiles) and leaves a reliquat the next rack
    holds: the move's tiles, then the next rack's first letters."""
    board = layout(case.get("board", "standard"))
    placed = parse_move(move, case.get("notation", "fisf"), board.size).word.upper()
    return placed + next_rack[: board.rack_size - len(placed)]


def _event(case: dict[str, Any], arbitrator: User) -> tuple[Event, dict[int, Player]]:
    lexicon = lexicon_bundled(name=case["lexicon"])
    tables = list(dict.fromkeys(slip["table"] for slip in case["slips"]))
    event = event_create(
        name="Golden case",
        starts_on=dt.date(2026, 11, 21),
        lexicon=lexicon,
        created_by=arbitrator,
        language=case.get("tiles", "french" if case["lexicon"] == "french" else "english"),
        board=case.get("board", "standard"),
        notation=case.get("notation", "fisf"),
        random_seed=7,
        # The case says how many players the solo counts; the event counts them all.
        solo_players=Event.SoloPlayers.REGISTERED,
        **case.get("settings", {}),
    )
    players = {table: player_add(event=event, name=f"Table {table}", table=table) for table in tables}
    for extra in range(case.get("players", len(tables)) - len(tables)):
        player_add(event=event, name=f"Absent {extra}", table=100 + extra)
    return event, players


def _place(game: Game, move: str, rack: str, warnings: dict[Player, int], arbitrator: User) -> None:
    """The round before the case's: its rack typed, no slip but the warnings the case says the
    players had (the arbitrator's override, a service), its move placed."""
    round = round_draw(game=game, typed=rack)
    assert round is not None
    round_open(round=round)
    round_close(round=round)
    for player, count in warnings.items():
        ruling = Ruling.objects.get(round=round, player=player)
        ruling_override(
            ruling=ruling, by=arbitrator, reason="warnings earlier in the game", credited=0, warnings=count
        )
    top_choose(round=Round.objects.get(pk=round.pk), move_text=move, confirm_lower=True)
    round_place(round=Round.objects.get(pk=round.pk), draw_next=False)


def _play(case: dict[str, Any], arbitrator: User) -> tuple[Event, Round, dict[int, Player]]:
    """The case through the services, up to the adjudicated round and its corrections."""
    event, players = _event(case, arbitrator)
    game = game_start(event=event)
    moves = case.get("board_moves", [])
    warned = {players[s["table"]]: s["warnings_before"] for s in case["slips"] if s.get("warnings_before")}
    assert len(moves) == 1 or not (moves or warned), "these tests place one board move, before round 2"
    for move in moves:
        _place(game, move, _first_rack(move, case["rack"], case), warned, arbitrator)
    round = round_draw(game=game, typed=case["rack"])
    assert round is not None
    round = round_open(round=round)
    assert round.opened_at is not None and round.deadline is not None
    handed: set[int] = set()
    for index, slip in enumerate(case["slips"]):
        if slip.get("missing"):
            continue
        late = slip.get("late", False)
        fields = {
            "round": round,
            "player": players[slip["table"]],
            "coordinates": slip.get("coordinates", ""),
            "word": slip.get("word", ""),
            "announced_score": slip.get("announced"),
            # In the order of the case, on time or after the deadline.
            "now": (round.deadline if late else round.opened_at) + dt.timedelta(seconds=index + 1),
        }
        if slip["table"] in handed and not late:
            # A second slip handed in on time: typed by the arbitrator, said to be a second one.
            paper_slip_submit(**fields, by=arbitrator, second=SECOND_SLIP)
        else:
            # On paper, as the FISF's examples are written: a phone refuses a slip it cannot
            # read at all (no coordinates, say), which these cases rule.
            slip_submit(**fields, source=Slip.Source.PAPER, entered_by=arbitrator)
        if not late:
            handed.add(slip["table"])
    round_close(round=round)
    round.refresh_from_db()
    assert round.state == Round.State.ADJUDICATED
    for slip in case["slips"]:
        ruling = Ruling.objects.get(round=round, player=players[slip["table"]])
        if slip.get("accept_shift"):
            ruling_accept_shift(ruling=ruling, by=arbitrator)
        if "override" in slip:
            ruling_override(ruling=ruling, by=arbitrator, reason="golden case", **slip["override"])
        if "average" in slip:
            given = ruling_average(ruling=ruling, by=arbitrator)
            assert given.credited == slip["average"], "the case's average is not the services' average"
    round.refresh_from_db()
    return event, round, players


def _stored(ruling: Ruling, event: Event) -> dict[str, Any]:
    return {
        "points": ruling.credited,
        "warnings": ruling.warnings,
        "penalty": ruling.penalty,
        "solo": event.solo_bonus if ruling.solo else 0,
        "top": ruling.is_top,
        "reason": ruling.reason,
        "move": shown_move(ruling.move, event.board, event.notation),
        "message": ruling.detail,
    }


def _expected(output: dict[str, Any]) -> dict[int, dict[str, Any]]:
    return {r["table"]: {key: r[key] for key in COMPARED} for r in output["rulings"]}


@pytest.fixture
def arbitrator() -> User:
    return get_user_model().objects.create_user("arbitre", password="x")


@pytest.mark.parametrize("name", CASES)
def test_the_services_rule_a_golden_case_as_the_calculator(name: str, arbitrator: User) -> None:
    case = _case(name)
    expected = rule_case(case)
    event, round, players = _play(case, arbitrator)

    assert round.top_score == expected["top_score"]
    assert [shown_move(t, event.board, event.notation) for t in round.tops] == expected["tops"]
    stored = {
        table: _stored(Ruling.objects.get(round=round, player=player), event)
        for table, player in players.items()
    }
    assert stored == _expected(expected)


@pytest.mark.parametrize(
    "name", ["override-removes-a-top", "shift-accepted-nearby", "warnings-beyond-the-free-ones"]
)
def test_the_api_and_the_terminal_show_the_calculators_rulings(name: str, arbitrator: User) -> None:
    case = _case(name)
    expected = _expected(rule_case(case))
    event, _round, players = _play(case, arbitrator)

    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=arbitrator).key}")
    response = client.get(f"/api/events/{event.pk}/rounds/current/review/")
    assert response.status_code == 200, response.content
    shown = {
        r["player"]["table"]: {
            "points": r["credited"],
            "warnings": r["warnings"],
            "penalty": r["penalty"],
            "solo": event.solo_bonus if r["solo"] else 0,
            "top": r["is_top"],
            "reason": r["reason"],
            "move": r["move"],
            "message": r["detail"],
        }
        for r in response.json()["rulings"]
        if r["player"]["table"] in players
    }
    assert shown == expected

    out = io.StringIO()
    call_command("rulings", "--event", str(event.code), "--players", stdout=out)
    # The --players lines: table, name (24), move (22), move score, credited, warnings,
    # penalty, reason and the flags.
    line = re.compile(r"^ *(\d+)  .{24} .{22} +-?\d+ +(-?\d+) +(\d+) +(\d+)  (\w+) ?(.*)$")
    printed = {}
    for text in out.getvalue().splitlines():
        found = line.match(text)
        if found and int(found[1]) in players:
            flags = found[6].split()
            printed[int(found[1])] = (
                int(found[2]),
                int(found[3]),
                int(found[4]),
                found[5],
                "top" in flags,
                "solo" in flags,
            )
    assert printed == {
        table: (r["points"], r["warnings"], r["penalty"], r["reason"], r["top"], bool(r["solo"]))
        for table, r in expected.items()
    }
