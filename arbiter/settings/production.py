"""Production: every secret from the environment, nothing guessed.

HTTPS by default (``ARBITER_HTTPS=1``): secure cookies, HTTP redirected to HTTPS, HSTS
for a year (``ARBITER_HSTS_SECONDS``; subdomains only with ``ARBITER_HSTS_SUBDOMAINS=1``).
A hall's server reached over plain HTTP on its own Wi-Fi sets ``ARBITER_HTTPS=0``. Behind
a reverse proxy that ends TLS (``ARBITER_TRUSTED_PROXIES`` >= 1), its X-Forwarded-Proto
says whether the request came over HTTPS.
"""

from arbiter.settings.base import *  # noqa: F403
from arbiter.settings.base import ARBITER_TRUSTED_PROXIES
from arbiter.settings.env import EnvError, env_bool, env_int, env_list, env_str

DEBUG = False
SECRET_KEY = env_str("DJANGO_SECRET_KEY", "")
if len(SECRET_KEY) < 32:
    raise EnvError("DJANGO_SECRET_KEY must be set to a random string of 32+ characters in production")
ALLOWED_HOSTS = env_list("DJANGO_ALLOWED_HOSTS", [])
if not ALLOWED_HOSTS:
    raise EnvError("DJANGO_ALLOWED_HOSTS must list the host names of the server in production")

HTTPS = env_bool("ARBITER_HTTPS", True)
SESSION_COOKIE_SECURE = env_bool("DJANGO_SECURE_COOKIES", HTTPS)
CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
SECURE_SSL_REDIRECT = env_bool("ARBITER_SSL_REDIRECT", HTTPS)
SECURE_HSTS_SECONDS = env_int("ARBITER_HSTS_SECONDS", 365 * 24 * 3600 if HTTPS else 0)
if SECURE_HSTS_SECONDS < 0:
    raise EnvError("ARBITER_HSTS_SECONDS cannot be negative (0: no HSTS header)")
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("ARBITER_HSTS_SUBDOMAINS", False)
if ARBITER_TRUSTED_PROXIES > 0:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
# Subdomains and the browsers' preload list are the domain owner's decision, not ours:
# ARBITER_HSTS_SUBDOMAINS opts in; `check --deploy` is otherwise clean.
SILENCED_SYSTEM_CHECKS = ["security.W021", *([] if SECURE_HSTS_INCLUDE_SUBDOMAINS else ["security.W005"])]
