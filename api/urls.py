from __future__ import annotations

from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularRedocView, SpectacularSwaggerView

from api.views import events, games, players, results, rounds, rulings, slips

app_name = "api"

event_patterns = [
    path("", events.EventDetailView.as_view(), name="event-detail"),
    path("join/", players.JoinView.as_view(), name="event-join"),
    path("live/", events.LiveView.as_view(), name="event-live"),
    path("history/", events.HistoryView.as_view(), name="event-history"),
    path("players/", players.PlayersView.as_view(), name="players"),
    path("players/import/", players.PlayersImportView.as_view(), name="players-import"),
    path("players/<int:player_id>/", players.PlayerView.as_view(), name="player"),
    path("players/<int:player_id>/withdraw/", players.PlayerWithdrawView.as_view(), name="player-withdraw"),
    path("players/<int:player_id>/release/", players.PlayerReleaseView.as_view(), name="player-release"),
    path("players/<int:player_id>/seat-code/", players.PlayerSeatCodeView.as_view(), name="player-seat-code"),
    path("joins/", players.JoinRequestsView.as_view(), name="join-requests"),
    path("joins/<int:token_id>/confirm/", players.JoinRequestView.as_view(confirm=True), name="join-confirm"),
    path("joins/<int:token_id>/refuse/", players.JoinRequestView.as_view(confirm=False), name="join-refuse"),
    path("games/", games.GamesView.as_view(), name="games"),
    path("games/current/end/", games.GameEndView.as_view(), name="game-end"),
    path("game/", games.CurrentGameView.as_view(), name="game-current"),
    path("rounds/draw/", rounds.DrawView.as_view(), name="round-draw"),
    path("rounds/current/", rounds.CurrentRoundView.as_view(), name="round-current"),
    path("rounds/current/open/", rounds.OpenRoundView.as_view(), name="round-open"),
    path("rounds/current/slips/", slips.round_slips, name="round-slips"),
    path("rounds/current/preview/", slips.PreviewView.as_view(), name="round-preview"),
    path("rounds/current/watch/", rounds.WatchView.as_view(), name="round-watch"),
    path("rounds/current/close/", rounds.CloseRoundView.as_view(), name="round-close"),
    path("rounds/current/reopen/", rounds.ReopenRoundView.as_view(), name="round-reopen"),
    path("rounds/current/pause/", rounds.PauseClockView.as_view(), name="round-pause"),
    path("rounds/current/resume/", rounds.ResumeClockView.as_view(), name="round-resume"),
    path("rounds/current/add-time/", rounds.AddTimeView.as_view(), name="round-add-time"),
    path("rounds/current/publish/", rounds.PublishView.as_view(), name="round-publish"),
    path("rounds/undo-placement/", rounds.UndoPlacementView.as_view(), name="round-undo-placement"),
    path("rounds/current/rule-again/", rounds.RuleAgainView.as_view(), name="round-rule-again"),
    path("rounds/current/review/", rounds.ReviewView.as_view(), name="round-review"),
    path("rounds/current/ruling/", rounds.RoundRulingView.as_view(), name="round-ruling"),
    path("rounds/current/top/", rounds.TopView.as_view(), name="round-top"),
    path("rounds/current/place/", rounds.PlaceView.as_view(), name="round-place"),
    path("rulings/<int:ruling_id>/override/", rulings.OverrideView.as_view(), name="ruling-override"),
    path("rulings/<int:ruling_id>/average/", rulings.AverageView.as_view(), name="ruling-average"),
    path(
        "rulings/<int:ruling_id>/accept-shift/", rulings.AcceptShiftView.as_view(), name="ruling-accept-shift"
    ),
    path("standings/", results.StandingsView.as_view(), name="event-standings"),
    path("exports/<str:kind>/", results.ExportView.as_view(), name="event-export"),
]

urlpatterns = [
    path("auth/token/", events.TokenView.as_view(), name="auth-token"),
    path("events/", events.EventListView.as_view(), name="event-list"),
    path("events/<int:event_id>/", include(event_patterns)),
    path("schema/", SpectacularAPIView.as_view(), name="schema"),
    path("docs/", SpectacularSwaggerView.as_view(url_name="api:schema"), name="docs"),
    path("redoc/", SpectacularRedocView.as_view(url_name="api:schema"), name="redoc"),
]
