from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "tournaments"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # The services send the tasks by name (tournaments/queue.py): registered in every
        # process that sends them, not only in the workers that discover them.
        from tournaments import tasks  # noqa: F401
