"""A hostile hall (issue 30): numbers too long for Python or the database are refused in
words, never a server error."""

from __future__ import annotations

import pytest
from django.test import Client

from rooms.views.common import number
from tests.rooms.helpers import messages as _messages
from tests.rooms.helpers import phone as _phone
from tests.rooms.helpers import url as _url
from tournaments.models import Event, Round, Slip

pytestmark = pytest.mark.django_db

HUGE = "9" * 5000


def test_a_number_typed_in_a_page_is_read_only_when_it_is_one() -> None:
    assert [number(v) for v in ("12", " 7 ", "0", "123456789")] == [12, 7, 0, 123456789]
    assert [number(v) for v in ("", None, "-3", "1.5", "1e3", "٣", "1234567890", HUGE)] == [None] * 8


def test_a_phones_score_of_five_thousand_digits_is_refused_in_words(event: Event, opened: Round) -> None:
    phone = _phone(event, 1)
    coordinates, word = opened.tops[0].split()
    response = phone.post(
        f"/p/{event.pk}/slip/",
        {"coordinates": coordinates, "word": word, "announced_score": HUGE, "game": HUGE, "round": "1"},
        follow=True,
    )
    assert response.status_code == 200
    assert any("whole number" in m for m in _messages(response)), _messages(response)
    assert not Slip.objects.exists()


def test_the_console_refuses_numbers_too_long_in_words(console: Client, event: Event, opened: Round) -> None:
    for tail, data in (
        ("clock/", {"action": "add", "seconds": HUGE, "round_key": f"{HUGE}-1"}),
        ("reopen/", {"seconds": HUGE}),
        ("sheets/", {"kind": "standings", "game": HUGE, "player": HUGE, "round": HUGE}),
    ):
        response = console.post(_url(event, tail), data, follow=True)
        assert response.status_code == 200, tail
    assert console.get(_url(event, "standings/"), {"game": HUGE, "round": HUGE}).status_code == 200
    assert console.get(_url(event, "export/standings.csv"), {"game": HUGE}).status_code in (200, 302)


def test_a_phone_gets_a_new_session_key_when_it_joins(event: Event, players) -> None:
    phone = Client()
    session = phone.session  # a session the phone had before it joined (a shared phone)
    session["seen"] = True
    session.save()
    phone.cookies["sessionid"] = session.session_key
    before = session.session_key
    response = phone.post("/j/", {"code": event.code, "who": players[0].seat_code})
    assert response.status_code == 302
    after = phone.cookies["sessionid"].value
    assert after and after != before
    assert phone.get(f"/p/{event.pk}/").status_code == 200  # the seat came with the new key
