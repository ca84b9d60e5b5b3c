from django.apps import AppConfig


class RoomsConfig(AppConfig):
    """The pages people use (the arbitrator's console, the players' phones, the hall's
    projector, the live stream) and the arbitrator's terminal commands."""

    name = "rooms"
    verbose_name = "Rooms"
    default_auto_field = "django.db.models.BigAutoField"
