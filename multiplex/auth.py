"""``Authorization: Centre <key>``: a centre of a multiplex, on its hub (the key is given
once, when the hub's arbitrator adds the centre)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy
from drf_spectacular.extensions import OpenApiAuthenticationExtension

from api.auth import KeyAuthentication, KeyPrincipal
from multiplex.models import Centre
from multiplex.services.hub import centre_for_key

CENTRE_KEYWORD = "Centre"


class CentrePrincipal(KeyPrincipal):
    """The software of one hall of a multiplex (services record the centre's name)."""

    def __init__(self, centre: Centre) -> None:
        self.centre = centre

    def __str__(self) -> str:
        return f"centre {self.centre}"


class CentreKeyAuthentication(KeyAuthentication):
    """``Authorization: Centre <key>``: the key given when the centre was added."""

    keyword = CENTRE_KEYWORD
    kind = gettext_lazy("centre key")

    def look_up(self, key: str) -> tuple[Any, Any] | None:
        centre = centre_for_key(key)
        return None if centre is None else (CentrePrincipal(centre), centre)


class CentreKeyScheme(OpenApiAuthenticationExtension):  # type: ignore[no-untyped-call]
    target_class = "multiplex.auth.CentreKeyAuthentication"
    name = "centreKey"

    def get_security_definition(self, auto_schema: Any) -> dict[str, Any]:
        return {
            "type": "apiKey",
            "in": "header",
            "name": "Authorization",
            "description": 'Given once when the hub\'s arbitrator adds the centre; send "Centre <key>".',
        }
