"""The admin shows every model; the history is read-only even for a superuser."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from tournaments import services
from tournaments.models import Event, HistoryEntry

pytestmark = pytest.mark.django_db(transaction=True)

MODELS = ("lexicon", "event", "player", "game", "round", "slip", "ruling", "historyentry")


@pytest.fixture
def admin_client_with_data(event: Event) -> Client:
    user = get_user_model().objects.create_superuser("admin", "admin@example.org", "pw")
    services.player_add(event=event, name="Anne")
    game = services.game_start(event=event)
    round = services.round_draw(game=game)
    assert round is not None
    services.round_close(round=services.round_open(round=round))
    client = Client()
    client.force_login(user)
    return client


@pytest.mark.parametrize("model", MODELS)
def test_every_model_has_an_admin_list(admin_client_with_data: Client, model: str) -> None:
    response = admin_client_with_data.get(reverse(f"admin:tournaments_{model}_changelist"))
    assert response.status_code == 200


def test_the_history_cannot_be_added_changed_or_deleted_in_the_admin(admin_client_with_data: Client) -> None:
    entry = HistoryEntry.objects.first()
    assert entry is not None
    assert admin_client_with_data.get(reverse("admin:tournaments_historyentry_add")).status_code == 403
    response = admin_client_with_data.post(
        reverse("admin:tournaments_historyentry_change", args=[entry.pk]), {"reason": "edited"}
    )
    assert response.status_code == 403
    assert (
        admin_client_with_data.post(
            reverse("admin:tournaments_historyentry_delete", args=[entry.pk]), {"post": "yes"}
        ).status_code
        == 403
    )
    entry.refresh_from_db()
    assert entry.reason == ""
