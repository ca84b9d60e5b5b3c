"""``Authorization: Player <key>``: a player of one event, never a user of the site."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AnonymousUser
from rest_framework import exceptions
from rest_framework.authentication import BaseAuthentication, get_authorization_header
from rest_framework.request import Request

from tournaments import selectors
from tournaments.models import Player

KEYWORD = "Player"


class PlayerPrincipal(AnonymousUser):
    """``request.user`` of a player token: authenticated, but no staff, no permissions,
    and not an :class:`~django.contrib.auth.models.User` (services record it as "system")."""

    def __init__(self, player: Player) -> None:
        self.player = player

    @property
    def is_anonymous(self) -> bool:  # type: ignore[override]
        return False

    @property
    def is_authenticated(self) -> bool:  # type: ignore[override]
        return True

    def __str__(self) -> str:
        return f"player {self.player}"


class PlayerTokenAuthentication(BaseAuthentication):
    def authenticate(self, request: Request) -> tuple[Any, Any] | None:
        parts = get_authorization_header(request).split()
        if not parts or parts[0].lower() != KEYWORD.lower().encode():
            return None
        if len(parts) != 2:
            raise exceptions.AuthenticationFailed("Invalid player token header.")
        try:
            key = parts[1].decode()
        except UnicodeError as exc:
            raise exceptions.AuthenticationFailed("Invalid player token.") from exc
        token = selectors.player_token(key)
        if token is None:
            raise exceptions.AuthenticationFailed("Invalid player token.")
        return PlayerPrincipal(token.player), token

    def authenticate_header(self, request: Request) -> str:
        return KEYWORD
