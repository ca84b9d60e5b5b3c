"""Who may call what: one test per rule, over every endpoint the rule covers."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from tests.api.helpers import assert_error, event_url, player_client, top_slip
from tournaments.models import Event, Game, HistoryEntry, Player, Round, Ruling, Slip
from tournaments.services.events import event_create
from tournaments.services.players import player_add
from tournaments.services.rounds import round_close
from tournaments.services.slips import slip_submit

pytestmark = pytest.mark.django_db

Call = tuple[str, str, dict[str, Any] | None]

#: The arbitrator's console: ``{ruling}`` is replaced by a ruling of the event.
ARBITRATOR_ONLY: list[Call] = [
    ("get", "players/", None),
    ("post", "players/", {"name": "Intruder"}),
    ("post", "players/import/", {"csv": "name\nIntruder\n"}),
    ("post", "players/{player}/seat-code/", None),
    ("post", "players/{player}/release/", None),
    ("get", "joins/", None),
    ("post", "games/", None),
    ("post", "games/current/end/", {"reason": "stopped"}),
    ("post", "rounds/draw/", {}),
    ("post", "rounds/current/open/", {}),
    ("get", "rounds/current/watch/", None),
    ("post", "rounds/current/close/", None),
    ("post", "rounds/current/rule-again/", None),
    ("get", "rounds/current/review/", None),
    ("post", "rounds/current/top/", {"move": "8H PROOF"}),
    ("post", "rounds/current/place/", {}),
    ("post", "rulings/{ruling}/override/", {"credited": 99, "reason": "friend"}),
    ("post", "rulings/{ruling}/accept-shift/", {"reason": "friend"}),
    ("get", "history/", None),
    ("get", "exports/slips/", None),
    ("get", "exports/record/", None),
]

#: What the phone page uses: the arbitrator and the event's players only.
SHARED: list[Call] = [
    ("get", "", None),
    ("get", "live/", None),
    ("get", "game/", None),
    ("get", "rounds/current/", None),
    ("get", "rounds/current/slips/", None),
    ("post", "rounds/current/slips/", {"table": 1, "coordinates": "8H", "word": "PROOF"}),
    ("post", "rounds/current/preview/", {"coordinates": "8H", "word": "PROOF"}),
    ("get", "rounds/current/ruling/", None),
    ("get", "standings/", None),
]


@pytest.fixture
def ruled(open_round: Round, players: list[Player]) -> Round:
    slip_submit(round=open_round, player=players[0], **top_slip(open_round))
    round_close(round=open_round)
    open_round.refresh_from_db()
    return open_round


def _call(client: APIClient, event: Event, call: Call) -> Any:
    method, tail, body = call
    ruling = Ruling.objects.filter(round__game__event=event).first()
    player = event.players.order_by("table").first()
    path = event_url(event, tail.format(ruling=ruling.pk if ruling else 0, player=player.pk if player else 0))
    return getattr(client, method)(path, body, format="json")


def _snapshot() -> tuple[int, ...]:
    """Counts that any successful write would change."""
    return (
        HistoryEntry.objects.count(),
        Player.objects.count(),
        Game.objects.count(),
        Round.objects.count(),
        Slip.objects.count(),
        Ruling.objects.filter(overridden=True).count(),
    )


def _refused_everywhere(client: APIClient, event: Event, calls: list[Call], status: int, code: str) -> None:
    before = _snapshot()
    for call in calls:
        response = _call(client, event, call)
        assert response.status_code == status, (call, response.content)
        assert_error(response, status, code)
    assert _snapshot() == before


def test_a_player_cannot_act_as_the_arbitrator(event: Event, ruled: Round, p1: APIClient) -> None:
    _refused_everywhere(p1, event, ARBITRATOR_ONLY, 403, "permission_denied")
    assert Round.objects.get(pk=ruled.pk).chosen == ""


def test_anonymous_callers_are_refused_everywhere(event: Event, ruled: Round) -> None:
    _refused_everywhere(APIClient(), event, ARBITRATOR_ONLY + SHARED, 401, "not_authenticated")


def test_a_token_of_another_event_is_refused_everywhere(event: Event, ruled: Round, enable_lexicon) -> None:
    other = event_create(name="Other", starts_on=event.starts_on, lexicon=enable_lexicon)
    stranger = player_client(player_add(event=other, name="Stranger"))
    _refused_everywhere(stranger, event, ARBITRATOR_ONLY + SHARED, 403, "permission_denied")


def test_a_user_who_is_not_the_arbitrator_is_refused_everywhere(event: Event, ruled: Round) -> None:
    client = APIClient()
    client.force_authenticate(User.objects.create_user("someone", password="x"))
    _refused_everywhere(client, event, ARBITRATOR_ONLY + SHARED, 403, "permission_denied")


def test_the_arbitrator_of_another_event_is_refused(event: Event, ruled: Round, enable_lexicon) -> None:
    rival = User.objects.create_user("rival", password="x")
    event_create(name="Other", starts_on=event.starts_on, lexicon=enable_lexicon, created_by=rival)
    client = APIClient()
    client.force_authenticate(rival)
    _refused_everywhere(client, event, ARBITRATOR_ONLY + SHARED, 403, "permission_denied")


def test_a_player_submits_only_for_themselves_whatever_the_table(
    event: Event, open_round: Round, players, p1: APIClient
) -> None:
    payload = top_slip(open_round, table=players[1].table)
    assert p1.post(event_url(event, "rounds/current/slips/"), payload, format="json").status_code == 201
    slip = Slip.objects.get()
    assert slip.player == players[0] and slip.source == Slip.Source.PHONE and slip.entered_by is None


def test_the_arbitrator_is_not_refused(event: Event, ruled: Round, arbitrator_client: APIClient) -> None:
    # The counterpart of the refusals above: the same calls pass the permission checks.
    for call in ARBITRATOR_ONLY + SHARED:
        response = _call(arbitrator_client, event, call)
        assert response.status_code not in (401, 403), (call, response.content)
