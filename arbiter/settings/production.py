"""Production: every secret from the environment, nothing guessed.

HTTPS by default (``ARBITER_HTTPS=1``): secure cookies, HTTP redirected to HTTPS, HSTS
for a year (``ARBITER_HSTS_SECONDS``; subdomains only with ``ARBITER_HSTS_SUBDOMAINS=1``).
A hall's server reached over plain HTTP on its own Wi-Fi sets ``ARBITER_HTTPS=0``. Behind
a reverse proxy that ends TLS (``ARBITER_TRUSTED_PROXIES`` >= 1), its X-Forwarded-Proto
says whether the request came over HTTPS.
"""

from django.core.exceptions import ImproperlyConfigured

from arbiter.settings.base import *  # noqa: F403
from arbiter.settings.base import ARBITER_TRUSTED_PROXIES, SILENCED_SYSTEM_CHECKS
from arbiter.settings.env import env

DEBUG = False
SECRET_KEY = env.str("DJANGO_SECRET_KEY", default="")
if len(SECRET_KEY) < 32:
    raise ImproperlyConfigured(
        "DJANGO_SECRET_KEY must be set to a random string of 32+ characters in production"
    )
ALLOWED_HOSTS = env.list("DJANGO_ALLOWED_HOSTS", default=[])
if not ALLOWED_HOSTS:
    raise ImproperlyConfigured("DJANGO_ALLOWED_HOSTS must list the host names of the server in production")

HTTPS = env.bool("ARBITER_HTTPS", default=True)
SESSION_COOKIE_SECURE = env.bool("DJANGO_SECURE_COOKIES", default=HTTPS)
CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
SECURE_SSL_REDIRECT = env.bool("ARBITER_SSL_REDIRECT", default=HTTPS)
SECURE_HSTS_SECONDS = env.int("ARBITER_HSTS_SECONDS", default=365 * 24 * 3600 if HTTPS else 0)
if SECURE_HSTS_SECONDS < 0:
    raise ImproperlyConfigured("ARBITER_HSTS_SECONDS cannot be negative (0: no HSTS header)")
SECURE_HSTS_INCLUDE_SUBDOMAINS = env.bool("ARBITER_HSTS_SUBDOMAINS", default=False)
if ARBITER_TRUSTED_PROXIES > 0:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
# Subdomains and the browsers' preload list are the domain owner's decision, not ours:
# ARBITER_HSTS_SUBDOMAINS opts in; `check --deploy` is otherwise clean.
SILENCED_SYSTEM_CHECKS = [
    *SILENCED_SYSTEM_CHECKS,
    "security.W021",
    *([] if SECURE_HSTS_INCLUDE_SUBDOMAINS else ["security.W005"]),
]
