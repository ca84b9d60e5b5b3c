from django.test import Client


def test_the_home_page_names_the_four_boards(client: Client) -> None:
    response = client.get("/")
    assert response.status_code == 200
    text = response.content.decode()
    for name in ("standard 15x15", "large 19x19", "broad 21x21", "grand 21x21"):
        assert name in text
