"""Fixtures of the tests that go through the pages and the API (tests/rooms, tests/multiplex,
tests/api): the English messages, a fresh cache, the event's arbitrator logged in on the
console. Each conftest that wants them imports them."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.core.cache import cache
from django.test import Client

from tournaments.models import Event


@pytest.fixture(autouse=True)
def _english(settings) -> None:
    """These tests match the English messages (the msgids): they run in English, for the
    pages as for the terminal commands (no Accept-Language: the default language).
    tests/test_i18n.py checks the French side."""
    settings.LANGUAGE_CODE = "en"


@pytest.fixture(autouse=True)
def _fresh_cache() -> None:
    """The cache holds the API's throttles and the pages' cached parts."""
    from django.core.cache import caches

    from rooms.views import live, phone

    cache.clear()
    caches["fragments"].clear()
    live.forget()
    phone.forget_shared()


@pytest.fixture
def arbitrator(event: Event) -> User:
    user = get_user_model().objects.create_user("arbitre", password="secret-pass")
    Event.objects.filter(pk=event.pk).update(created_by=user)
    event.refresh_from_db()
    return user


@pytest.fixture
def console(arbitrator: User) -> Client:
    client = Client()
    client.force_login(arbitrator)
    return client
