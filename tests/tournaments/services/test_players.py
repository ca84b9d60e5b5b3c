"""Players: added one by one or from a CSV file, and the join token of a table
(tournaments.services.players)."""

from __future__ import annotations

import pytest

from tournaments import services
from tournaments.models import Event, HistoryEntry, Player, PlayerToken
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


def test_a_table_joins_on_one_phone_until_it_is_released(event: Event, players: list[Player]) -> None:
    with pytest.raises(ApplicationError, match="wrong join code or table") as wrong_code:
        services.player_token_issue(event=event, code="NOPE99", table=1)
    with pytest.raises(ApplicationError, match="wrong join code or table") as wrong_table:
        services.player_token_issue(event=event, code=event.code, table=99)
    # Nothing tells which one was wrong.
    assert (wrong_code.value.message, wrong_code.value.extra) == (
        wrong_table.value.message,
        wrong_table.value.extra,
    )
    token = services.player_token_issue(event=event, code=event.code.lower(), table=2)
    assert token.player == players[1]
    with pytest.raises(ApplicationError, match="already joined on another phone"):
        services.player_token_issue(event=event, code=event.code, table=2)
    # The same phone, holding its token, joins again.
    again = services.player_token_issue(event=event, code=event.code, table=2, held=token.key)
    assert again.pk == token.pk
    assert services.player_release(player=players[1], by=None) == 1
    assert not PlayerToken.objects.filter(key=token.key).exists()
    fresh = services.player_token_issue(event=event, code=event.code, table=2)
    assert fresh.key != token.key
    actions = HistoryEntry.objects.filter(entity="player", object_id=players[1].pk)
    assert [a.action for a in actions.order_by("pk")] == ["add", "join", "release", "join"]


def test_a_virtual_player_has_no_join_token(event: Event) -> None:
    bot = services.player_add(event=event, name="Bot", virtual_level=3)
    with pytest.raises(ApplicationError, match="wrong join code or table"):
        services.player_token_issue(event=event, code=event.code, table=bot.table)
    assert not PlayerToken.objects.exists()


def test_a_csv_with_old_mac_line_ends_imports_and_an_unreadable_one_is_refused(event: Event) -> None:
    # Found by the API fuzzer: a lone "\r" was a 500 (csv.Error), not a message.
    players = services.players_import(event=event, csv_text="name;club\rAnne;Vichy\rBruno;Cusset\r")
    assert [(p.name, p.club) for p in players] == [("Anne", "Vichy"), ("Bruno", "Cusset")]
    with pytest.raises(ApplicationError, match="the CSV cannot be read at line 3: field larger"):
        services.players_import(event=event, csv_text="name\nChloé\n" + "D" * 200_000 + "\n")  # too long
    assert event.players.count() == 2  # all or nothing: Chloé is not added either
