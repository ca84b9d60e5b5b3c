"""Production: every secret from the environment, nothing guessed."""

from arbiter.settings.base import *  # noqa: F403
from arbiter.settings.env import EnvError, env_bool, env_list, env_str

DEBUG = False
SECRET_KEY = env_str("DJANGO_SECRET_KEY", "")
if len(SECRET_KEY) < 32:
    raise EnvError("DJANGO_SECRET_KEY must be set to a random string of 32+ characters in production")
ALLOWED_HOSTS = env_list("DJANGO_ALLOWED_HOSTS", [])
if not ALLOWED_HOSTS:
    raise EnvError("DJANGO_ALLOWED_HOSTS must list the host names of the server in production")
SESSION_COOKIE_SECURE = env_bool("DJANGO_SECURE_COOKIES", True)
CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
