"""``Authorization: Player <key>``: a player of one event, never a user of the site.
:class:`KeyAuthentication` is the scheme's shape, which multiplex.auth's centre key shares."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AnonymousUser
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from rest_framework import exceptions
from rest_framework.authentication import BaseAuthentication, get_authorization_header
from rest_framework.request import Request

from tournaments.models import Player
from tournaments.selectors.players import player_token, waiting_token

KEYWORD = "Player"


class KeyPrincipal(AnonymousUser):
    """``request.user`` of a key that is not a user of the site: authenticated, but no
    staff, no permissions, and not an :class:`~django.contrib.auth.models.User` (services
    record it as "system")."""

    @property
    def is_anonymous(self) -> bool:  # type: ignore[override]
        return False

    @property
    def is_authenticated(self) -> bool:  # type: ignore[override]
        return True


class PlayerPrincipal(KeyPrincipal):
    def __init__(self, player: Player) -> None:
        self.player = player

    def __str__(self) -> str:
        return f"player {self.player}"


class KeyAuthentication(BaseAuthentication):
    """``Authorization: <keyword> <key>``; subclasses look the key up."""

    keyword = ""
    kind: Any = ""  # what the messages call the key (translated)

    def authenticate(self, request: Request) -> tuple[Any, Any] | None:
        parts = get_authorization_header(request).split()
        if not parts or parts[0].lower() != self.keyword.lower().encode():
            return None
        if len(parts) != 2:
            raise exceptions.AuthenticationFailed(_("Invalid %(kind)s header.") % {"kind": self.kind})
        try:
            key = parts[1].decode()
        except UnicodeError as exc:
            raise exceptions.AuthenticationFailed(_("Invalid %(kind)s.") % {"kind": self.kind}) from exc
        found = self.look_up(key)
        if found is None:
            raise exceptions.AuthenticationFailed(_("Invalid %(kind)s.") % {"kind": self.kind})
        return found

    def look_up(self, key: str) -> tuple[Any, Any] | None:
        raise NotImplementedError

    def authenticate_header(self, request: Request) -> str:
        return self.keyword


class PlayerTokenAuthentication(KeyAuthentication):
    keyword = KEYWORD
    kind = gettext_lazy("player token")

    def look_up(self, key: str) -> tuple[Any, Any] | None:
        token = player_token(key)
        if token is None and waiting_token(key) is not None:
            raise exceptions.AuthenticationFailed(
                _("Waiting for the arbitrator's confirmation of this phone.")
            )
        return None if token is None else (PlayerPrincipal(token.player), token)
