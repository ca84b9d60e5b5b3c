"""A FISF event through the API (issue 11): the fields for people (a ruling's move, the
review's ``shown``, the game view's tops, Try Move) and every ``message`` name moves and
squares in FISF; the machine fields documented as GCG (a round's ``tops`` and ``chosen``,
the review's ``move``) keep the stored spelling. Every move's two spellings differ
(tests.tournaments.helpers.fisf).

Seed 7, game 1: round 1 has one top, stored as 8H PROOF, written H8 PROOF in FISF; round
2 two tops for 19, stored as 9D BOOGIE and 7K BOGIE."""

from __future__ import annotations

import dataclasses
import datetime as dt
from typing import Any

import pytest
from rest_framework.test import APIClient

from scoring import adjudication as adj
from solver.notation import format_move
from tests.api.helpers import assert_error, event_url
from tests.tournaments.helpers import fisf as _fisf
from tests.tournaments.helpers import letter_conflict
from tournaments.models import Event, Lexicon, Player, Round, Ruling
from tournaments.services.events import event_create
from tournaments.services.rounds import analysis_for, round_close, round_open, round_place, round_publish
from tournaments.services.slips import slip_submit

pytestmark = pytest.mark.django_db


@pytest.fixture
def event(enable_lexicon: Lexicon) -> Event:
    """The API's event in FISF notation (tests/conftest.py's is in GCG)."""
    return event_create(
        name="Soirée FISF",
        starts_on=dt.date(2026, 11, 21),
        lexicon=enable_lexicon,
        language="english",
        notation="fisf",
        random_seed=7,
    )


def _slip(round: Round, player: Player, gcg: str, announced: int | None = None) -> None:
    coordinates, word = _fisf(gcg).split()
    slip_submit(round=round, player=player, coordinates=coordinates, word=word, announced_score=announced)


@pytest.fixture
def second(open_round: Round, players: list[Player]) -> Round:
    """Round 1 ruled and 8H PROOF placed; round 2 open, tables 1 and 2 on its first top,
    closed, ruled and published."""
    assert open_round.tops == ["8H PROOF"]
    _slip(open_round, players[0], "8H PROOF", 28)
    round_close(round=open_round)
    following = round_place(round=Round.objects.get(pk=open_round.pk))
    assert following is not None
    round = round_open(round=following)
    round.refresh_from_db()
    _slip(round, players[0], round.tops[0], round.top_score)
    _slip(round, players[1], round.tops[0])
    round_close(round=round)
    round = round_publish(round=round)
    assert round.state == Round.State.ADJUDICATED
    return round


def test_the_top_choice_refusals_and_warning_speak_fisf(
    event: Event, second: Round, arbitrator_client: APIClient
) -> None:
    url = event_url(event, "rounds/current/top/")
    move, square, gcg_square = letter_conflict("8H PROOF")
    message = assert_error(
        arbitrator_client.post(url, {"move": move}, format="json"), 400, "application_error"
    )["message"]
    assert f"{square} already holds" in message and gcg_square not in message, message

    lower = next(m for m in analysis_for(second).ranked if m.score < second.top_score)
    gcg = format_move(lower, "gcg")
    error = assert_error(
        arbitrator_client.post(url, {"move": _fisf(gcg)}, format="json"), 400, "application_error"
    )
    for text in (error["message"], error["detail"]["warning"]):
        assert _fisf(gcg) in text and gcg not in text, text
    body = arbitrator_client.post(url, {"move": _fisf(gcg), "confirm_lower": True}, format="json").json()
    assert _fisf(gcg) in body["warning"] and gcg not in body["warning"]
    assert body["round"]["chosen"] == gcg  # a machine field: GCG, as the schema says


def test_the_fields_for_people_name_the_moves_in_fisf(
    event: Event, second: Round, arbitrator_client: APIClient, p1: APIClient
) -> None:
    top = second.tops[0]
    review = arbitrator_client.get(event_url(event, "rounds/current/review/")).json()
    assert review["round"]["tops"] == second.tops  # GCG, documented
    (group,) = review["groups"]
    assert (group["move"], group["shown"]) == (top, _fisf(top))
    assert {r["move"] for r in group["rulings"]} == {_fisf(top)}
    ruling = arbitrator_client.get(event_url(event, "rounds/current/ruling/") + "?table=2").json()
    assert ruling["move"] == _fisf(top) and top not in ruling["detail"]
    for client in (arbitrator_client, p1):
        game = client.get(event_url(event, "game/")).json()
        assert game["tops"] == [_fisf(t) for t in second.tops] and game["chosen"] == _fisf(top)
        assert game["placed"][0]["move"] == "H8 PROOF"
    own = p1.get(event_url(event, "rounds/current/ruling/")).json()
    assert own["move"] == _fisf(top)


def test_try_move_names_the_move_in_fisf(
    event: Event, open_round: Round, arbitrator_client: APIClient
) -> None:
    body = arbitrator_client.post(
        event_url(event, "rounds/current/preview/"),
        {"coordinates": "H8", "word": "PROOF", "announced_score": 28},
        format="json",
    ).json()
    assert body["move"] == "H8 PROOF" and "8H PROOF" not in str(body)


def test_a_stale_shift_names_the_placement_in_fisf(
    event: Event, second: Round, players: list[Player], arbitrator_client: APIClient, monkeypatch
) -> None:
    # As tests/api/test_arbitrator_api.py forces it: a shifted placement offered, then
    # found stale when the arbitrator accepts it.
    offered = second.tops[-1]
    ruling = Ruling.objects.get(round=second, player=players[1])
    Ruling.objects.filter(pk=ruling.pk).update(shift_candidate=offered)
    real = adj.adjudicate_slips

    def with_candidate(*args: Any, **kwargs: Any) -> adj.Verdict:
        return dataclasses.replace(real(*args, **kwargs), shift_candidate=offered)

    def stale(*args: object, **kwargs: object) -> None:
        raise ValueError(f"{offered} is not the shifted placement of this slip on this board")

    monkeypatch.setattr(adj, "adjudicate_slips", with_candidate)
    monkeypatch.setattr(adj, "accept_shift", stale)
    error = assert_error(
        arbitrator_client.post(event_url(event, f"rulings/{ruling.pk}/accept-shift/"), {}, format="json"),
        400,
        "application_error",
    )
    assert error["message"] == f"the shifted placement no longer fits: {_fisf(offered)}"
    assert offered not in error["message"] and error["detail"] == {"reason": "stale_shift"}
