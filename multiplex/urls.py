"""The multiplex's addresses: the console's pages and the API, under the same paths as
the rest of the console and the API (included by arbiter/urls.py)."""

from __future__ import annotations

from django.urls import path

from multiplex import api, console

app_name = "multiplex"

CONSOLE = "console/<int:event_id>/"
EVENT = "api/events/<int:event_id>/"
HUB = "api/hub/"

console_patterns = [
    path(f"{CONSOLE}multiplex/", console.multiplex, name="multiplex"),
    path(f"{CONSOLE}hub/sync/", console.hub_sync, name="hub_sync"),
    path(f"{CONSOLE}hub/unseal/", console.hub_unseal, name="hub_unseal"),
    path(f"{CONSOLE}multiplex/key/", console.key_read_out, name="key_read_out"),
    path(
        f"{CONSOLE}multiplex/players/remove/",
        console.multiplex_player_remove,
        name="multiplex_player_remove",
    ),
]

#: The hub's arbitrator, on the API.
api_event_patterns = [
    path(f"{EVENT}multiplex/", api.MultiplexView.as_view(), name="api-multiplex"),
    path(f"{EVENT}multiplex/centres/", api.CentresView.as_view(), name="api-multiplex-centres"),
    path(
        f"{EVENT}multiplex/standings/", api.MultiplexStandingsView.as_view(), name="api-multiplex-standings"
    ),
    path(f"{EVENT}multiplex/players/", api.MultiplexPlayersView.as_view(), name="api-multiplex-players"),
    path(
        f"{EVENT}multiplex/players/<int:player_id>/remove/",
        api.MultiplexPlayerRemoveView.as_view(),
        name="api-multiplex-player-remove",
    ),
    path(
        f"{EVENT}multiplex/games/<int:game>/schedule/",
        api.GameScheduleView.as_view(),
        name="api-multiplex-game-schedule",
    ),
]

#: The hub's answers to a centre's software.
ROUND = f"{HUB}games/<int:game>/rounds/<int:number>/"
hub_patterns = [
    path(f"{HUB}", api.HubInfoView.as_view(), name="api-hub"),
    path(f"{HUB}roster/", api.HubRosterView.as_view(), name="api-hub-roster"),
    path(f"{HUB}games/<int:game>/end/", api.HubEndView.as_view(), name="api-hub-end"),
    path(f"{HUB}games/<int:game>/sealed/", api.HubSealedView.as_view(), name="api-hub-sealed"),
    path(f"{HUB}games/<int:game>/key/", api.HubKeyView.as_view(), name="api-hub-key"),
    path(ROUND, api.HubRoundView.as_view(), name="api-hub-round"),
    path(f"{ROUND}close/", api.HubCloseView.as_view(), name="api-hub-close"),
    path(f"{ROUND}results/", api.HubResultsView.as_view(), name="api-hub-results"),
    path(f"{ROUND}draw/", api.HubDrawView.as_view(), name="api-hub-draw"),
    path(f"{ROUND}top/", api.HubTopView.as_view(), name="api-hub-top"),
]


urlpatterns = console_patterns + api_event_patterns + hub_patterns
