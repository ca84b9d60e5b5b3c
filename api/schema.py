"""drf-spectacular: the player token scheme, the game state enum of the schema."""

from __future__ import annotations

from typing import Any

from drf_spectacular.extensions import OpenApiAuthenticationExtension, OpenApiSerializerFieldExtension
from drf_spectacular.plumbing import ResolvedComponent

from tournaments.models import Game


class PlayerTokenScheme(OpenApiAuthenticationExtension):  # type: ignore[no-untyped-call]
    target_class = "api.auth.PlayerTokenAuthentication"
    name = "playerToken"

    def get_security_definition(self, auto_schema: Any) -> dict[str, Any]:
        return {
            "type": "apiKey",
            "in": "header",
            "name": "Authorization",
            "description": 'Issued by POST /api/events/{id}/join/; send "Player <token>".',
        }


class GameStateFieldExtension(OpenApiSerializerFieldExtension):  # type: ignore[no-untyped-call]
    """Games and rounds both have a ``state``: left to drf-spectacular, the two choice sets
    would be named after the field and collide. A component of its own gives the game's
    one a stable name without touching the project's settings."""

    target_class = "api.serializers.games.GameStateField"

    def map_serializer_field(self, auto_schema: Any, direction: Any) -> dict[str, Any]:
        component = ResolvedComponent(  # type: ignore[no-untyped-call]
            name="GameStateEnum",
            type=ResolvedComponent.SCHEMA,
            object="GameStateEnum",
            schema={"type": "string", "enum": list(Game.State.values), "description": "playing or ended"},
        )
        auto_schema.registry.register_on_missing(component)
        ref: dict[str, Any] = component.ref
        return ref
