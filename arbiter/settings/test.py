from arbiter.settings.base import *  # noqa: F403
from arbiter.settings.database import database_from_url
from arbiter.settings.env import env

# Tests use SQLite in memory unless DATABASE_URL points at a PostgreSQL server (CI does).
if not env.str("DATABASE_URL", default=""):
    DATABASES = {"default": {"ENGINE": "django.db.backends.sqlite3", "NAME": ":memory:"}}
else:
    DATABASES = {"default": database_from_url("DATABASE_URL", env.str("DATABASE_URL"))}
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
# Unit tests run tasks in-process; the tests marked `worker` start a real Celery worker.
CELERY_TASK_ALWAYS_EAGER = True
CELERY_TASK_EAGER_PROPAGATES = True
# Eager, a pass would run at once and send the next one at once: the tests that rule ahead
# call the pass themselves.
ARBITER_RULE_AHEAD = False
