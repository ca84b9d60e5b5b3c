"""Settings of the live-updates benchmark (``python -m bench.live``): the laptop's own
settings (what ``manage.py serve`` runs). Used by the bench process and by the
``runserver`` it starts; nothing outside bench/live/ imports this."""

from arbiter.settings.local import *  # noqa: F403

# The draw's solve task goes to the temporary broker folder and is never run: the live
# endpoint does not need the tops, and solving in the bench process would take the CPU
# the measured server needs.
CELERY_TASK_ALWAYS_EAGER = False
