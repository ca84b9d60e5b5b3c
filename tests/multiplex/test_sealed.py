"""A prepared multiplex (a simultané): the master game sent ahead to the centres,
encrypted, and its key given from the game's start; each game with its own start; a
centre that cannot reach the hub at the start opens its game with the key read out to
it, and the hub takes its results once it is reached again."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from cryptography.fernet import Fernet, InvalidToken
from django.utils import timezone

from multiplex.models import CentreRuling, HubCopy, HubGame, HubLink, HubOutbox, HubSealed, Multiplex, Serving
from multiplex.services import centre as centre_service
from multiplex.services.hub import multiplex_create
from multiplex.services.serving import game_schedule, key_read_out
from tests.multiplex.helpers import ROUNDS, ClientHub, centre_event, play, started
from tournaments.core import ApplicationError
from tournaments.models import Event, Game, HistoryEntry, Round
from tournaments.services.games import game_end, game_start, round_draw
from tournaments.services.rounds import round_place


def _play_all(event: Event) -> Game:
    """The centre plays the hub's game to its end."""
    playing = Game.objects.filter(event=event, state=Game.State.PLAYING).first()
    game = playing or game_start(event=event)
    round = round_draw(game=game)
    while round is not None:
        round = round_place(round=play(round, 2))
    game.refresh_from_db()
    return game


def test_the_game_is_fetched_sealed_and_opened_at_its_start(simultane: dict[str, Any]) -> None:
    lome = simultane["events"]["Lomé"]
    assert HubLink.objects.get(event=lome).prepared
    report = centre_service.hub_sync(event=lome)
    sealed = HubSealed.objects.get(link__event=lome)
    assert (sealed.game, sealed.starts_at, sealed.opened_at) == (1, simultane["start"], None)
    assert report.fetched == 0 and not HubCopy.objects.filter(link__event=lome).exists()
    # What a centre holds before the start says nothing without the key.
    with pytest.raises(InvalidToken):
        Fernet(Fernet.generate_key()).decrypt(sealed.token.encode())
    assert not Serving.objects.exists()  # nothing served: no rack, no top seen
    with pytest.raises(ApplicationError, match="has not published round 1"):
        round_draw(game=game_start(event=lome))

    hub_game = HubGame.objects.get(multiplex=simultane["multiplex"], number=1)
    started(simultane["multiplex"], 1)
    assert HistoryEntry.objects.filter(entity="hub_game", object_id=hub_game.pk, action="schedule").exists()
    report = centre_service.hub_sync(event=lome)
    assert report.fetched == ROUNDS and report.refused == []
    assert HubCopy.objects.filter(link__event=lome, top__isnull=False).count() == ROUNDS
    # From the key on, every round counts as served to the centre, rack and top.
    servings = Serving.objects.filter(centre__name="Lomé")
    assert servings.count() == ROUNDS and all(s.top_at is not None for s in servings)

    played = _play_all(lome)  # the game started before the start, its racks drawn now
    assert (played.number, played.end_reason) == (1, "stopped")
    centre_service.hub_sync(event=lome)
    assert CentreRuling.objects.filter(player__centre__name="Lomé").count() == ROUNDS


def test_a_centre_cut_off_at_the_start_opens_its_game_with_the_key_read_out(
    simultane: dict[str, Any],
) -> None:
    namur = simultane["events"]["Namur"]
    centre_service.hub_sync(event=namur)  # fetched ahead, the evening before
    started(simultane["multiplex"], 1)
    simultane["hubs"]["Namur"].online = False
    with pytest.raises(ApplicationError, match="does not open the sealed game 1"):
        centre_service.hub_unseal(event=namur, game=1, key=Fernet.generate_key().decode())
    with pytest.raises(ApplicationError, match="game 2 was not fetched"):
        centre_service.hub_unseal(event=namur, game=2, key="x")
    key = HubGame.objects.get(multiplex=simultane["multiplex"], number=1).seal_key  # read out by phone
    assert centre_service.hub_unseal(event=namur, game=1, key=key) == ROUNDS
    game = _play_all(namur)
    assert game.rounds.filter(state=Round.State.PLACED).count() == ROUNDS and game.end_reason == "stopped"
    assert not Serving.objects.filter(centre__name="Namur").exists()

    simultane["hubs"]["Namur"].online = True
    report = centre_service.hub_sync(event=namur)
    assert report.refused == [] and report.sent == 2 * ROUNDS  # each round's close and results
    assert CentreRuling.objects.filter(player__centre__name="Namur").count() == ROUNDS


def test_a_game_is_keyed_no_later_than_the_maximum_delay_and_starts_move_until_then(
    simultane: dict[str, Any],
) -> None:
    multiplex = simultane["multiplex"]
    lome = simultane["events"]["Lomé"]
    with pytest.raises(ApplicationError, match="needs its time zone"):
        game_schedule(multiplex=multiplex, game=1, starts_at=dt.datetime(2026, 12, 5, 14))
    with pytest.raises(ApplicationError, match="no game 2"):
        game_schedule(multiplex=multiplex, game=2, starts_at=simultane["start"])
    with pytest.raises(ApplicationError, match="the start must be to come"):
        game_schedule(multiplex=multiplex, game=1, starts_at=timezone.now())
    started(multiplex, 1, ago=dt.timedelta(minutes=91))
    with pytest.raises(ApplicationError, match="has started: its start cannot move"):
        game_schedule(multiplex=multiplex, game=1, starts_at=simultane["start"])
    report = centre_service.hub_sync(event=lome)
    assert report.refused and "at most 90 minutes late" in report.refused[0]
    assert not HubCopy.objects.filter(link__event=lome).exists()
    live = Multiplex.objects.filter(pk=multiplex.pk)
    live.update(mode=Multiplex.Mode.LIVE)
    with pytest.raises(ApplicationError, match="only a prepared multiplex"):
        game_schedule(multiplex=live.get(), game=1, starts_at=simultane["start"])


def test_the_api_serves_sealed_games_to_the_centres_of_a_prepared_multiplex_only(
    simultane: dict[str, Any], event: Event
) -> None:
    hub = simultane["hubs"]["Lomé"]
    sealed = hub.client.get("/api/hub/games/1/sealed/")
    assert sealed.status_code == 200 and sealed.json()["cipher"] == "fernet"
    assert hub.client.get("/api/hub/games/1/key/").status_code == 404  # before the start
    assert hub.client.get("/api/hub/games/2/sealed/").status_code == 404
    Multiplex.objects.filter(pk=simultane["multiplex"].pk).update(mode=Multiplex.Mode.LIVE)
    refused = hub.client.get("/api/hub/games/1/sealed/")
    assert refused.status_code == 400 and "prepared multiplex" in refused.json()["error"]["message"]


@pytest.mark.parametrize("games", [2])
def test_a_key_refused_as_too_late_does_not_hold_back_the_results(simultane: dict[str, Any]) -> None:
    multiplex, lome = simultane["multiplex"], simultane["events"]["Lomé"]
    HubGame.objects.filter(multiplex=multiplex, number=2).update(
        started_at=simultane["start"] + dt.timedelta(hours=1)
    )
    with pytest.raises(ApplicationError, match="game 2 cannot start before game 1"):
        game_schedule(multiplex=multiplex, game=2, starts_at=simultane["start"] - dt.timedelta(minutes=1))
    with pytest.raises(ApplicationError, match="game 1 cannot start after game 2"):
        game_schedule(multiplex=multiplex, game=1, starts_at=simultane["start"] + dt.timedelta(hours=2))
    started(multiplex, 1, ago=dt.timedelta(minutes=95))
    started(multiplex, 2, ago=dt.timedelta(seconds=1))
    report = centre_service.hub_sync(event=lome)
    assert HubSealed.objects.filter(link__event=lome).count() == 2
    # Game 1 refused as too late; game 2's key still asked for, and given.
    assert report.refused == ["game 1 began 95 minutes ago: a centre may start it at most 90 minutes late"]
    assert report.fetched == ROUNDS and HubSealed.objects.get(link__event=lome, game=2).keyed_at is not None
    game_end(game=game_start(event=lome), reason="stopped")  # its game 1, skipped
    played = _play_all(lome)  # its game 2 is the hub's: each close and placement syncs, results at once
    assert played.number == 2
    assert CentreRuling.objects.filter(player__centre__name="Lomé", serving__round__game=2).count() == ROUNDS
    report = centre_service.hub_sync(event=lome)
    assert report.refused == [] and not HubLink.objects.get(event=lome).last_error  # game 1 no longer asked


def test_a_key_read_out_makes_the_results_taken_however_late_the_centre_comes_back(
    simultane: dict[str, Any],
) -> None:
    multiplex, namur = simultane["multiplex"], simultane["events"]["Namur"]
    centre_service.hub_sync(event=namur)
    started(multiplex, 1)
    simultane["hubs"]["Namur"].online = False
    centre = multiplex.centres.get(name="Namur")
    key_read_out(multiplex=multiplex, game=1, centre=centre)  # the hub's arbitrator, on the phone
    assert Serving.objects.filter(centre=centre, top_at__isnull=False).count() == ROUNDS
    assert HistoryEntry.objects.filter(entity="hub_game", action="key_read_out").get().new == {
        "centre": "Namur"
    }
    key = HubGame.objects.get(multiplex=multiplex, number=1).seal_key
    centre_service.hub_unseal(event=namur, game=1, key=key)
    _play_all(namur)
    # Back two hours later: past the maximum delay, but its rounds were served at the read-out.
    HubGame.objects.filter(multiplex=multiplex).update(started_at=timezone.now() - dt.timedelta(hours=2))
    simultane["hubs"]["Namur"].online = True
    report = centre_service.hub_sync(event=namur)
    assert (
        report.refused == [] and CentreRuling.objects.filter(player__centre__name="Namur").count() == ROUNDS
    )
    with pytest.raises(ApplicationError, match="not a centre of this multiplex"):
        other = multiplex_create(
            event=centre_event(multiplex.event, "Another hub", 5), mode=Multiplex.Mode.LIVE
        )
        key_read_out(multiplex=other, game=1, centre=centre)


def test_a_top_first_served_without_it_is_recorded_when_the_key_gives_it(simultane: dict[str, Any]) -> None:
    multiplex = simultane["multiplex"]
    started(multiplex, 1)
    hub = simultane["hubs"]["Lomé"]
    assert hub.client.get("/api/hub/games/1/rounds/1/").status_code == 200  # the rack alone
    centre = multiplex.centres.get(name="Lomé")
    assert Serving.objects.get(centre=centre, round__number=1).top_at is None
    assert hub.client.get("/api/hub/games/1/key/").status_code == 200
    assert not Serving.objects.filter(centre=centre, top_at__isnull=True).exists()


class Garbled(ClientHub):
    """A hub (or what answers in its place) whose answers cannot be read."""

    def __init__(self, key: str, answer: Any) -> None:
        super().__init__(key)
        self.answer = answer

    def get(self, path: str) -> Any:
        return self.answer if "sealed" in path else super().get(path)


@pytest.mark.parametrize(
    "answer",
    [
        [],
        {"token": "x"},
        {"starts_at": "tomorrow", "token": "x"},
        {"starts_at": "2026-12-05T14:00", "token": "x"},
    ],
)
def test_an_answer_that_cannot_be_read_is_said_and_the_results_still_go(
    simultane: dict[str, Any], answer: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    lome = simultane["events"]["Lomé"]
    link = HubLink.objects.get(event=lome)
    garbled = Garbled(link.key, answer)
    monkeypatch.setattr(centre_service, "hub_client", lambda link: garbled)
    HubOutbox.objects.create(link=link, kind="close", game=1, number=1, payload={"slips_digest": "0" * 64},
                             digest="d", queued_at=timezone.now())  # fmt: skip
    report = centre_service.hub_sync(event=lome)
    assert report.refused[0] == "the hub's answer about game 1 cannot be read"
    assert HubLink.objects.get(event=lome).last_error.startswith(
        "the hub's answer about game 1 cannot be read"
    )
    assert HubOutbox.objects.get(link=link, kind="close").attempts == 1  # still sent (refused: never served)


def test_a_games_key_never_starts_with_a_dash(monkeypatch: pytest.MonkeyPatch) -> None:
    from multiplex.services import hub as hub_service

    drawn = iter([b"-first" + b"x" * 38, b"A" * 43 + b"="])
    monkeypatch.setattr(hub_service.Fernet, "generate_key", staticmethod(lambda: next(drawn)))
    assert hub_service.new_seal_key() == "A" * 43 + "="
