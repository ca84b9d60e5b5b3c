"""Players: added one by one or from a CSV file, and the join token of a table
(tournaments.services.players)."""

from __future__ import annotations

import pytest

from tournaments import services
from tournaments.models import Event
from tournaments.services import ApplicationError

pytestmark = pytest.mark.django_db(transaction=True)


def test_players_import_reads_a_csv_with_optional_columns(event: Event) -> None:
    created = services.players_import(
        event=event, csv_text="name;club;category;table\nAnne Martin;Paris;A;4\nBruno Petit;Lyon;B;\n"
    )
    assert [(p.name, p.club, p.category, p.table) for p in created] == [
        ("Anne Martin", "Paris", "A", 4),
        ("Bruno Petit", "Lyon", "B", 5),
    ]


def test_players_import_is_all_or_nothing_and_names_the_bad_line(event: Event) -> None:
    with pytest.raises(ApplicationError, match="line 3: table 1 already has a player"):
        services.players_import(event=event, csv_text="name,table\nAnne,1\nBruno,1\n")
    assert not event.players.exists()
    with pytest.raises(ApplicationError, match="'name' column"):
        services.players_import(event=event, csv_text="nom,club\nAnne,Paris\n")
    with pytest.raises(ApplicationError, match="line 2: table 'x' is not a number"):
        services.players_import(event=event, csv_text="name,table\nAnne,x\n")


@pytest.mark.django_db(transaction=True)
def test_player_fields_longer_than_the_columns_are_refused(event) -> None:
    with pytest.raises(ApplicationError, match="too long"):
        services.player_add(event=event, name="x" * 121)
    with pytest.raises(ApplicationError, match="table number"):
        services.player_add(event=event, name="Anne", table=0)
    assert not event.players.exists()
