import pytest
from django.test import Client

pytestmark = pytest.mark.django_db


def test_the_home_page_tells_a_newcomer_how_to_start(client: Client) -> None:
    text = client.get("/").content.decode()
    assert "createsuperuser" in text and "simulate_event" in text and "event_create" in text
    assert 'href="/admin/"' in text and 'href="/api/docs/"' in text


def test_the_home_page_names_the_four_boards(client: Client) -> None:
    response = client.get("/")
    assert response.status_code == 200
    text = response.content.decode()
    for name in ("standard 15x15", "large 19x19", "broad 21x21", "grand 21x21"):
        assert name in text
