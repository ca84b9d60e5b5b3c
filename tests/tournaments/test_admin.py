"""The admin shows every model. Lexicons, events and players are edited there; the play
(games, rounds, slips, rulings) and the history are view-only even for a superuser: their
changes go through the services, which keep the history."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.db.models import Model
from django.test import Client
from django.urls import reverse

from tournaments.models import Event, Game, HistoryEntry, Lexicon, Player, Round, Ruling, Slip
from tournaments.services.games import game_start, round_draw
from tournaments.services.players import player_add
from tournaments.services.rounds import round_close, round_open
from tournaments.services.slips import slip_submit

pytestmark = pytest.mark.django_db

MODELS = ("lexicon", "event", "player", "game", "round", "slip", "ruling", "historyentry")
EDITABLE: tuple[type[Model], ...] = (Lexicon, Event, Player)
READ_ONLY: tuple[type[Model], ...] = (Game, Round, Slip, Ruling, HistoryEntry)


@pytest.fixture
def admin_client_with_data(event: Event) -> Client:
    user = get_user_model().objects.create_superuser("admin", "admin@example.org", "pw")
    anne = player_add(event=event, name="Anne")
    game = game_start(event=event)
    round = round_draw(game=game)
    assert round is not None
    round = round_open(round=round)
    slip_submit(round=round, player=anne, coordinates="8H", word="WORD", announced_score=8)
    round_close(round=round)
    client = Client()
    client.force_login(user)
    return client


def _url(model: type[Model], view: str, *args: object) -> str:
    return reverse(f"admin:tournaments_{model._meta.model_name}_{view}", args=args)


@pytest.mark.parametrize("model", MODELS)
def test_every_model_has_an_admin_list(admin_client_with_data: Client, model: str) -> None:
    response = admin_client_with_data.get(reverse(f"admin:tournaments_{model}_changelist"))
    assert response.status_code == 200


@pytest.mark.parametrize("model", EDITABLE, ids=lambda m: m.__name__)
def test_lexicons_events_and_players_are_edited_in_the_admin(
    admin_client_with_data: Client, model: type[Model]
) -> None:
    row = model._default_manager.first()
    assert row is not None
    client = admin_client_with_data
    assert client.get(_url(model, "add")).status_code == 200
    change = client.get(_url(model, "change", row.pk))
    assert change.status_code == 200 and b'name="_save"' in change.content


@pytest.mark.parametrize("model", READ_ONLY, ids=lambda m: m.__name__)
def test_the_play_and_the_history_are_view_only_in_the_admin(
    admin_client_with_data: Client, model: type[Model]
) -> None:
    row = model._default_manager.first()
    assert row is not None, f"the fixture makes no {model.__name__}"
    before = {f.attname: getattr(row, f.attname) for f in model._meta.concrete_fields}
    client = admin_client_with_data
    view = client.get(_url(model, "change", row.pk))
    assert view.status_code == 200 and b'name="_save"' not in view.content  # shown, no save button
    assert client.get(_url(model, "add")).status_code == 403
    assert client.post(_url(model, "add"), {}).status_code == 403
    assert client.post(_url(model, "change", row.pk), {"reason": "edited", "state": "x"}).status_code == 403
    assert client.get(_url(model, "delete", row.pk)).status_code == 403
    assert client.post(_url(model, "delete", row.pk), {"post": "yes"}).status_code == 403
    # The bulk "delete selected" action is not offered either.
    changelist = client.get(_url(model, "changelist"))
    assert b"delete_selected" not in changelist.content
    row.refresh_from_db()
    assert {f.attname: getattr(row, f.attname) for f in model._meta.concrete_fields} == before
