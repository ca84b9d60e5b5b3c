"""Live changes published after the commit (tournaments/notify.py): public changes only,
nothing without Redis (the real Redis: tests/integration/test_live_messages.py)."""

from __future__ import annotations

import pytest

from tests.tournaments.helpers import draw_and_open
from tournaments import notify
from tournaments.models import Game, Player
from tournaments.services.rounds import round_close
from tournaments.services.slips import slip_submit

pytestmark = pytest.mark.django_db


@pytest.fixture
def published(settings, monkeypatch) -> list[int]:
    settings.ARBITER_LIVE_REDIS_URL = "redis://redis.invalid:6379/0"
    sent: list[int] = []

    class Client:
        def publish(self, channel: str, message: str) -> None:
            assert channel == notify.CHANNEL
            sent.append(int(message))

    monkeypatch.setattr(notify, "_client", lambda url: Client())
    return sent


def test_public_changes_are_published_after_the_commit_slips_are_not(
    game: Game, players: list[Player], published: list[int], django_capture_on_commit_callbacks
) -> None:
    from django.db import transaction

    event_id = game.event_id
    with transaction.atomic():
        round = draw_and_open(game)
        assert published == []  # not before the commit: another process would read the old state
    assert published and set(published) == {event_id}
    published.clear()
    top_coords, top_word = round.tops[0].split() if round.tops else ("H8", "A")
    with django_capture_on_commit_callbacks(execute=True):
        slip_submit(round=round, player=players[0], coordinates=top_coords, word=top_word, announced_score=1)
    assert published == []  # a slip: the arbitrator's console only
    with django_capture_on_commit_callbacks(execute=True):
        round_close(round=round)
    assert event_id in published  # the close, and the ruling that follows (eager task)


def test_nothing_is_published_without_redis(settings, game: Game, monkeypatch) -> None:
    settings.ARBITER_LIVE_REDIS_URL = ""
    monkeypatch.setattr(notify, "_client", lambda url: pytest.fail("no Redis to publish to"))
    assert notify.publish(game.event_id) is False
    draw_and_open(game)
