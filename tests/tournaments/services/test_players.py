"""Players: added one by one or from a CSV file, corrected, removed, withdrawn, and the join token of a table
(tournaments.services.players)."""

from __future__ import annotations

import pytest
from django.utils import timezone

from tournaments.core import ApplicationError
from tournaments.models import Event, Game, HistoryEntry, Player, PlayerToken, Round, Ruling, Slip
from tournaments.models.players import JOIN_WAIT
from tournaments.selectors.players import join_requests, player_token, waiting_token
from tournaments.services.games import round_draw
from tournaments.services.players import (
    PENDING_LIMIT,
    join_number,
    player_add,
    player_join_confirm,
    player_release,
    player_remove,
    player_token_issue,
    player_update,
    player_withdraw,
    players_import,
    seat_code_renew,
)
from tournaments.services.rounds import round_close, round_open, round_place
from tournaments.services.slips import slip_submit

pytestmark = pytest.mark.django_db


def test_players_import_reads_a_csv_with_optional_columns(event: Event) -> None:
    created = players_import(
        event=event, csv_text="name;club;category;table\nAnne Martin;Paris;A;4\nBruno Petit;Lyon;B;\n"
    )
    assert [(p.name, p.club, p.category, p.table) for p in created] == [
        ("Anne Martin", "Paris", "A", 4),
        ("Bruno Petit", "Lyon", "B", 5),
    ]


def test_players_import_marks_the_paper_only_players_in_french_or_english(event: Event) -> None:
    created = players_import(event=event, csv_text="nom;papier\nAnne;oui\nBruno;\nChloé;X\nDan;non\n")
    assert [p.paper_only for p in created] == [True, False, True, False]
    assert players_import(event=event, csv_text="name,paper\nEve,yes\n")[0].paper_only


def test_players_import_is_all_or_nothing_and_names_the_bad_line(event: Event) -> None:
    with pytest.raises(ApplicationError, match="line 3: table 1 already has a player"):
        players_import(event=event, csv_text="name,table\nAnne,1\nBruno,1\n")
    assert not event.players.exists()
    with pytest.raises(
        ApplicationError, match=r"'name' \(or 'nom'\) column"
    ):  # French "nom" is read (issue 29)
        players_import(event=event, csv_text="player,club\nAnne,Paris\n")
    with pytest.raises(ApplicationError, match="line 2: table 'x' is not a number"):
        players_import(event=event, csv_text="name,table\nAnne,x\n")


@pytest.mark.django_db
def test_player_fields_longer_than_the_columns_are_refused(event) -> None:
    with pytest.raises(ApplicationError, match="too long"):
        player_add(event=event, name="x" * 121)
    with pytest.raises(ApplicationError, match="table number"):
        player_add(event=event, name="Anne", table=0)
    assert not event.players.exists()


def test_a_table_joins_on_one_phone_until_it_is_released(event: Event, players: list[Player]) -> None:
    seat = players[1].seat_code
    with pytest.raises(ApplicationError, match="wrong join code, table or seat code") as wrong_code:
        player_token_issue(event=event, code="NOPE99", seat=seat)
    with pytest.raises(ApplicationError, match="wrong join code, table or seat code") as wrong_seat:
        player_token_issue(event=event, code=event.code, seat="XXXXXX")
    # Nothing tells which one was wrong.
    assert (wrong_code.value.message, wrong_code.value.extra) == (
        wrong_seat.value.message,
        wrong_seat.value.extra,
    )
    token = player_token_issue(event=event, code=event.code.lower(), seat=seat.lower())
    assert token.player == players[1] and token.confirmed_at is not None
    assert player_token(token.key) is not None
    with pytest.raises(ApplicationError, match="already joined on another phone"):
        player_token_issue(event=event, code=event.code, seat=seat)
    # The same phone, holding its token, joins again.
    again = player_token_issue(event=event, code=event.code, seat=seat, held=token.key)
    assert again.pk == token.pk
    assert player_release(player=players[1], by=None) == 1
    assert not PlayerToken.objects.filter(key=token.key).exists()
    fresh = player_token_issue(event=event, code=event.code, seat=seat)
    assert fresh.key != token.key
    actions = HistoryEntry.objects.filter(entity="player", object_id=players[1].pk)
    assert [a.action for a in actions.order_by("pk")] == ["add", "join", "release", "join"]
    # The history tells who joined from where, never the seat code itself.
    assert all(seat not in str(a.new) + str(a.old) for a in actions)


def test_the_event_code_and_a_table_take_no_seat_unless_the_arbitrator_confirms(
    event: Event, players: list[Player]
) -> None:
    with pytest.raises(ApplicationError, match="seat code printed on your table card") as refused:
        player_token_issue(event=event, code=event.code, table=1)
    assert refused.value.extra == {"reason": "seat_code_needed"}
    assert not PlayerToken.objects.exists()
    event.seating = Event.Seating.CONFIRM
    event.save()
    first = player_token_issue(event=event, code=event.code, table=1, address="10.0.0.7")
    second = player_token_issue(event=event, code=event.code, table=1)
    assert first.confirmed_at is None and second.confirmed_at is None
    assert join_number(first) != join_number(second) or first.key != second.key
    # Waiting tokens do nothing: no slip, no stream (the selector every slip reads).
    assert player_token(first.key) is None
    # The same phone asking again keeps its place (and its number).
    assert player_token_issue(event=event, code=event.code, table=1, held=first.key).pk == first.pk
    player_join_confirm(token=first, by=None)
    assert player_token(first.key) is not None
    assert not PlayerToken.objects.filter(pk=second.pk).exists()  # refused with the confirmation
    with pytest.raises(ApplicationError, match="no longer waits"):
        player_join_confirm(token=second, by=None)
    with pytest.raises(ApplicationError, match="already joined"):
        player_token_issue(event=event, code=event.code, table=1)


def test_the_seat_code_takes_the_table_from_phones_still_waiting_for_it(
    event: Event, players: list[Player]
) -> None:
    event.seating = Event.Seating.CONFIRM
    event.save()
    asking = [player_token_issue(event=event, code=event.code, table=1) for _ in range(PENDING_LIMIT)]
    with pytest.raises(ApplicationError, match="too many phones wait"):
        player_token_issue(event=event, code=event.code, table=1)
    card = player_token_issue(event=event, code=event.code, seat=players[0].seat_code)
    assert card.confirmed_at is not None
    assert list(PlayerToken.objects.filter(player=players[0])) == [card]
    assert not PlayerToken.objects.filter(pk__in=[t.pk for t in asking]).exists()


def test_a_paper_only_player_joins_on_no_phone(event: Event, players: list[Player]) -> None:
    token = player_token_issue(event=event, code=event.code, seat=players[0].seat_code)
    player_update(player=players[0], name=players[0].name, table=1, paper_only=True, by=None)
    assert not PlayerToken.objects.filter(pk=token.pk).exists()
    assert HistoryEntry.objects.filter(action="release", object_id=players[0].pk).exists()
    with pytest.raises(ApplicationError, match="paper slips") as refused:
        player_token_issue(event=event, code=event.code, seat=players[0].seat_code)
    assert refused.value.extra == {"reason": "paper_only"}
    edit = HistoryEntry.objects.filter(action="edit", object_id=players[0].pk).get()
    assert (edit.old, edit.new) == ({"paper_only": False}, {"paper_only": True})
    # A correction that does not mention the mark (the API's partial update) keeps it.
    player_update(player=players[0], name="Anne B.", table=1, by=None)
    assert Player.objects.get(pk=players[0].pk).paper_only
    added = player_add(event=event, name="Dan", paper_only=True)
    assert added.paper_only


def test_a_new_seat_code_ends_the_old_card_and_its_phone(event: Event, players: list[Player]) -> None:
    old = players[0].seat_code
    token = player_token_issue(event=event, code=event.code, seat=old)
    renewed = seat_code_renew(player=players[0], by=None)
    assert renewed.seat_code != old
    assert not PlayerToken.objects.filter(pk=token.pk).exists()
    with pytest.raises(ApplicationError, match="wrong join code"):
        player_token_issue(event=event, code=event.code, seat=old)
    assert player_token_issue(event=event, code=event.code, seat=renewed.seat_code).player == players[0]


def test_seat_codes_are_unique_in_an_event_even_when_the_dice_repeat(
    event: Event, monkeypatch: pytest.MonkeyPatch
) -> None:
    drawn = iter(["AAAAAA", "AAAAAA", "CCCCCC"])
    monkeypatch.setattr("tournaments.services.players.new_seat_code", lambda: next(drawn))
    first = player_add(event=event, name="Anne")
    second = player_add(event=event, name="Bruno")
    assert (first.seat_code, second.seat_code) == ("AAAAAA", "CCCCCC")
    code = Player._meta.get_field("seat_code").default()
    assert len(code) == 6 and set(code) <= set("ACDEFGHJKMNPQRTUVWXY234679")


def test_a_virtual_player_has_no_join_token(event: Event) -> None:
    bot = player_add(event=event, name="Bot", virtual_level=3)
    with pytest.raises(ApplicationError, match="wrong join code"):
        player_token_issue(event=event, code=event.code, seat=bot.seat_code)
    assert not PlayerToken.objects.exists()


def test_a_csv_with_old_mac_line_ends_imports_and_an_unreadable_one_is_refused(event: Event) -> None:
    # Found by the API fuzzer: a lone "\r" was a 500 (csv.Error), not a message.
    players = players_import(event=event, csv_text="name;club\rAnne;Vichy\rBruno;Cusset\r")
    assert [(p.name, p.club) for p in players] == [("Anne", "Vichy"), ("Bruno", "Cusset")]
    with pytest.raises(ApplicationError, match="the CSV cannot be read at line 3: field larger"):
        players_import(event=event, csv_text="name\nChloé\n" + "D" * 200_000 + "\n")  # too long
    assert event.players.count() == 2  # all or nothing: Chloé is not added either


# ------------------------------------------------------------------ corrected, removed, withdrawn


def _top_slip(round: Round, player: Player) -> Slip:
    coords, word = round.tops[0].split()
    return slip_submit(round=round, player=player, coordinates=coords, word=word, announced_score=None).slip


def test_a_player_is_corrected_and_the_change_kept(event: Event, players: list[Player], arbitrator) -> None:
    anne = players[0]
    fixed = player_update(
        player=anne, name="  Anne Martin ", club="Vichy", licence="F1", category="V", table=12, by=arbitrator
    )
    assert (fixed.name, fixed.club, fixed.table) == ("Anne Martin", "Vichy", 12)
    entry = HistoryEntry.objects.get(entity="player", object_id=anne.pk, action="edit")
    assert entry.old == {"name": "Player 1", "club": "", "licence": "", "category": "", "table": 1}
    assert entry.new["name"] == "Anne Martin" and entry.actor == arbitrator
    with pytest.raises(ApplicationError, match="table 2 already has a player"):
        player_update(player=fixed, name="Anne Martin", table=2, by=arbitrator)
    with pytest.raises(ApplicationError, match="needs a name"):
        player_update(player=fixed, name=" ", table=12, by=arbitrator)
    # Saved again unchanged: no second entry.
    player_update(
        player=fixed, name="Anne Martin", club="Vichy", licence="F1", category="V", table=12, by=arbitrator
    )
    assert HistoryEntry.objects.filter(entity="player", object_id=anne.pk, action="edit").count() == 1


def test_a_player_with_a_slip_keeps_their_table_and_cannot_be_removed(
    game: Game, players: list[Player], arbitrator
) -> None:
    round = round_open(round=round_draw(game=game))
    anne = players[0]
    _top_slip(round, anne)
    with pytest.raises(ApplicationError, match="has handed in 1 slip at table 1: the table stays"):
        player_update(player=anne, name="Anne", table=40, by=arbitrator)
    renamed = player_update(player=anne, name="Anne Martin", table=1, by=arbitrator)
    assert renamed.name == "Anne Martin"  # the name may change all the same
    with pytest.raises(ApplicationError, match="withdraw them from the later rounds instead"):
        player_remove(player=anne, by=arbitrator)
    assert Player.objects.filter(pk=anne.pk).exists()


def test_a_player_without_a_slip_is_removed_with_their_missing_rulings(
    game: Game, players: list[Player], arbitrator
) -> None:
    round = round_open(round=round_draw(game=game))
    round_close(round=round)
    absent = players[3]
    assert Ruling.objects.filter(player=absent).count() == 1  # missing, 0
    player_remove(player=absent, by=arbitrator)
    assert not Player.objects.filter(pk=absent.pk).exists()
    entry = HistoryEntry.objects.get(entity="player", object_id=absent.pk, action="remove")
    assert entry.old["name"] == "Player 4" and entry.old["rulings"] == 1


def test_a_withdrawn_player_hands_in_nothing_and_is_not_ruled_in_later_rounds(
    game: Game, players: list[Player], arbitrator
) -> None:
    from tournaments.selectors.slips import slip_watch

    first = round_open(round=round_draw(game=game))
    anne = players[0]
    _top_slip(first, anne)
    player_withdraw(player=anne, by=arbitrator)  # leaves during round 1
    round_close(round=first)
    # Round 1 was open before she left: ruled, her top kept.
    assert Ruling.objects.get(round=first, player=anne).credited == first.top_score
    second = round_place(round=Round.objects.get(pk=first.pk))
    assert second is not None
    round_open(round=second)
    anne = Player.objects.get(pk=anne.pk)
    with pytest.raises(ApplicationError, match="table 1 has withdrawn"):
        _top_slip(Round.objects.get(pk=second.pk), anne)
    watch = slip_watch(Round.objects.get(pk=second.pk))
    assert watch.expected == 3 and 1 not in watch.missing_tables
    round_close(round=Round.objects.get(pk=second.pk))
    assert not Ruling.objects.filter(round=second, player=anne).exists()
    # Back for round 3.
    player_withdraw(player=anne, by=arbitrator, withdrawn=False)
    actions = list(
        HistoryEntry.objects.filter(entity="player", object_id=anne.pk).values_list("action", flat=True)
    )
    assert actions[-2:] == ["withdraw", "reinstate"]
    third = round_place(round=Round.objects.get(pk=second.pk))
    assert third is not None
    round_open(round=third)
    assert not _top_slip(Round.objects.get(pk=third.pk), Player.objects.get(pk=anne.pk)).late


def test_two_phones_waiting_for_one_table_never_show_the_same_number(
    event: Event, players: list[Player], monkeypatch: pytest.MonkeyPatch
) -> None:
    event.seating = Event.Seating.CONFIRM
    event.save()
    # Keys whose four digits collide, then one that does not.
    keys = iter(["a" * 40, "a" * 40, "b" * 40])
    monkeypatch.setattr("tournaments.services.players.new_token_key", lambda: next(keys))
    first = player_token_issue(event=event, code=event.code, table=1)
    second = player_token_issue(event=event, code=event.code, table=1)
    assert (first.key, second.key) == ("a" * 40, "b" * 40)
    assert join_number(first) != join_number(second)


def test_one_address_cannot_fill_a_tables_waiting_list_and_requests_go_stale(
    event: Event, players: list[Player]
) -> None:
    """Found by the probe of issue 30: five requests from one address blocked the table's
    real player ("too many phones wait")."""
    event.seating = Event.Seating.CONFIRM
    event.save()
    for _ in range(PENDING_LIMIT + 3):
        player_token_issue(event=event, code=event.code, table=1, address="10.0.0.66")
    assert PlayerToken.objects.filter(player=players[0]).count() == 1
    real = player_token_issue(event=event, code=event.code, table=1, address="10.0.0.7")
    assert real.confirmed_at is None
    PlayerToken.objects.filter(player=players[0]).update(created_at=timezone.now() - JOIN_WAIT)
    # Stale: listed nowhere, confirmed by nobody.
    assert join_requests(event) == [] and waiting_token(real.key) is None
    with pytest.raises(ApplicationError, match="no longer waits"):
        player_join_confirm(token=real, by=None)
    player_token_issue(event=event, code=event.code, table=1, address="10.0.0.8")
    assert [t.address for t in PlayerToken.objects.filter(player=players[0])] == ["10.0.0.8"]
