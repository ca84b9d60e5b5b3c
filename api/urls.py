from __future__ import annotations

from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularRedocView, SpectacularSwaggerView

from api import multiplex, views

app_name = "api"

event_patterns = [
    path("", views.EventDetailView.as_view(), name="event-detail"),
    path("join/", views.JoinView.as_view(), name="event-join"),
    path("live/", views.LiveView.as_view(), name="event-live"),
    path("history/", views.HistoryView.as_view(), name="event-history"),
    path("players/", views.PlayersView.as_view(), name="players"),
    path("players/import/", views.PlayersImportView.as_view(), name="players-import"),
    path("players/<int:player_id>/", views.PlayerView.as_view(), name="player"),
    path("players/<int:player_id>/withdraw/", views.PlayerWithdrawView.as_view(), name="player-withdraw"),
    path("players/<int:player_id>/release/", views.PlayerReleaseView.as_view(), name="player-release"),
    path("players/<int:player_id>/seat-code/", views.PlayerSeatCodeView.as_view(), name="player-seat-code"),
    path("joins/", views.JoinRequestsView.as_view(), name="join-requests"),
    path("joins/<int:token_id>/confirm/", views.JoinRequestView.as_view(confirm=True), name="join-confirm"),
    path("joins/<int:token_id>/refuse/", views.JoinRequestView.as_view(confirm=False), name="join-refuse"),
    path("games/", views.GamesView.as_view(), name="games"),
    path("games/current/end/", views.GameEndView.as_view(), name="game-end"),
    path("game/", views.CurrentGameView.as_view(), name="game-current"),
    path("rounds/draw/", views.DrawView.as_view(), name="round-draw"),
    path("rounds/current/", views.CurrentRoundView.as_view(), name="round-current"),
    path("rounds/current/open/", views.OpenRoundView.as_view(), name="round-open"),
    path("rounds/current/slips/", views.round_slips, name="round-slips"),
    path("rounds/current/preview/", views.PreviewView.as_view(), name="round-preview"),
    path("rounds/current/watch/", views.WatchView.as_view(), name="round-watch"),
    path("rounds/current/close/", views.CloseRoundView.as_view(), name="round-close"),
    path("rounds/current/reopen/", views.ReopenRoundView.as_view(), name="round-reopen"),
    path("rounds/current/pause/", views.PauseClockView.as_view(), name="round-pause"),
    path("rounds/current/resume/", views.ResumeClockView.as_view(), name="round-resume"),
    path("rounds/current/add-time/", views.AddTimeView.as_view(), name="round-add-time"),
    path("rounds/current/publish/", views.PublishView.as_view(), name="round-publish"),
    path("rounds/undo-placement/", views.UndoPlacementView.as_view(), name="round-undo-placement"),
    path("rounds/current/rule-again/", views.RuleAgainView.as_view(), name="round-rule-again"),
    path("rounds/current/review/", views.ReviewView.as_view(), name="round-review"),
    path("rounds/current/ruling/", views.RoundRulingView.as_view(), name="round-ruling"),
    path("rounds/current/top/", views.TopView.as_view(), name="round-top"),
    path("rounds/current/place/", views.PlaceView.as_view(), name="round-place"),
    path("rulings/<int:ruling_id>/override/", views.OverrideView.as_view(), name="ruling-override"),
    path("rulings/<int:ruling_id>/average/", views.AverageView.as_view(), name="ruling-average"),
    path(
        "rulings/<int:ruling_id>/accept-shift/", views.AcceptShiftView.as_view(), name="ruling-accept-shift"
    ),
    path("standings/", views.StandingsView.as_view(), name="event-standings"),
    path("exports/<str:kind>/", views.ExportView.as_view(), name="event-export"),
    path("multiplex/", multiplex.MultiplexView.as_view(), name="multiplex"),
    path("multiplex/centres/", multiplex.CentresView.as_view(), name="multiplex-centres"),
    path("multiplex/standings/", multiplex.MultiplexStandingsView.as_view(), name="multiplex-standings"),
    path("multiplex/players/", multiplex.MultiplexPlayersView.as_view(), name="multiplex-players"),
    path(
        "multiplex/players/<int:player_id>/remove/",
        multiplex.MultiplexPlayerRemoveView.as_view(),
        name="multiplex-player-remove",
    ),
    path(
        "multiplex/games/<int:game>/schedule/",
        multiplex.GameScheduleView.as_view(),
        name="multiplex-game-schedule",
    ),
]

#: The hub's answers to a centre's software (api/multiplex.py).
ROUND = "games/<int:game>/rounds/<int:number>/"
hub_patterns = [
    path("", multiplex.HubInfoView.as_view(), name="hub"),
    path("roster/", multiplex.HubRosterView.as_view(), name="hub-roster"),
    path("games/<int:game>/end/", multiplex.HubEndView.as_view(), name="hub-end"),
    path("games/<int:game>/sealed/", multiplex.HubSealedView.as_view(), name="hub-sealed"),
    path("games/<int:game>/key/", multiplex.HubKeyView.as_view(), name="hub-key"),
    path(ROUND, multiplex.HubRoundView.as_view(), name="hub-round"),
    path(f"{ROUND}close/", multiplex.HubCloseView.as_view(), name="hub-close"),
    path(f"{ROUND}results/", multiplex.HubResultsView.as_view(), name="hub-results"),
    path(f"{ROUND}draw/", multiplex.HubDrawView.as_view(), name="hub-draw"),
    path(f"{ROUND}top/", multiplex.HubTopView.as_view(), name="hub-top"),
]

urlpatterns = [
    path("auth/token/", views.TokenView.as_view(), name="auth-token"),
    path("events/", views.EventListView.as_view(), name="event-list"),
    path("events/<int:event_id>/", include(event_patterns)),
    path("hub/", include(hub_patterns)),
    path("schema/", SpectacularAPIView.as_view(), name="schema"),
    path("docs/", SpectacularSwaggerView.as_view(url_name="api:schema"), name="docs"),
    path("redoc/", SpectacularRedocView.as_view(url_name="api:schema"), name="redoc"),
]
