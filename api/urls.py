from __future__ import annotations

from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularRedocView, SpectacularSwaggerView
from rest_framework.authtoken.views import ObtainAuthToken

from api import views

app_name = "api"

event_patterns = [
    path("", views.EventDetailView.as_view(), name="event-detail"),
    path("join/", views.JoinView.as_view(), name="event-join"),
    path("rounds/current/", views.CurrentRoundView.as_view(), name="round-current"),
    path("rounds/current/slips/", views.RoundSlipsView.as_view(), name="round-slips"),
    path("rounds/current/close/", views.CloseRoundView.as_view(), name="round-close"),
    path("standings/", views.StandingsView.as_view(), name="event-standings"),
]

urlpatterns = [
    path("auth/token/", ObtainAuthToken.as_view(), name="auth-token"),
    path("events/", views.EventListView.as_view(), name="event-list"),
    path("events/<int:event_id>/", include(event_patterns)),
    path("schema/", SpectacularAPIView.as_view(), name="schema"),
    path("docs/", SpectacularSwaggerView.as_view(url_name="api:schema"), name="docs"),
    path("redoc/", SpectacularRedocView.as_view(url_name="api:schema"), name="redoc"),
]
