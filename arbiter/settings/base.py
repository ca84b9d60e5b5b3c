"""Settings shared by every environment.

With nothing configured: SQLite in ``var/`` and a Celery broker on the local file system
(kombu's filesystem transport), so one laptop runs everything with no server. With
``DATABASE_URL`` (PostgreSQL) and ``REDIS_URL`` set, workers on other machines share the
database and the broker.
"""

from __future__ import annotations

import datetime as dt
import os
from pathlib import Path

import django_stubs_ext
from django.core.exceptions import ImproperlyConfigured

from arbiter.settings.database import database_from_url
from arbiter.settings.env import env
from arbiter.settings.secret import installation_secret
from plumbing.datadir import PRIVATE_FOLDER, UMASK

# Lets the admin classes be written ModelAdmin[Event] for the type checker.
django_stubs_ext.monkeypatch()

BASE_DIR = Path(__file__).resolve().parent.parent.parent

DEBUG = env.bool("DJANGO_DEBUG", default=False)
ALLOWED_HOSTS = env.list("DJANGO_ALLOWED_HOSTS", default=["localhost", "127.0.0.1", "[::1]"])

INSTALLED_APPS = [
    # First: the first app with a command of a name wins. rooms' runserver (a listen queue
    # of 1,024, not 10) must be the one `serve` starts, and its createsuperuser prepares
    # the embedded default's database on a fresh checkout before auth's runs.
    "rooms",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django_htmx",
    "csp",
    "axes",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "tournaments",
    "api",
    "multiplex",
]

MIDDLEWARE = [
    # First: the moment a request reached the server, before anything makes it wait.
    "plumbing.middleware.ReceivedAtMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "csp.middleware.CSPMiddleware",
    # Static files (htmx, the pages' CSS and scripts) from the app folders, no collectstatic
    # needed on a laptop: runserver without DEBUG serves none.
    "plumbing.middleware.StaticFilesMiddleware",  # WhiteNoise, async-capable
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # Last: the answer to a login that reached the limit (plumbing/logins.py).
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "arbiter.urls"
TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "arbiter.context_processors.live",
            ],
        },
    },
]
WSGI_APPLICATION = "arbiter.wsgi.application"

VAR_DIR = env.folder("ARBITER_VAR_DIR", default=BASE_DIR / "var")
# Every file a process of Arbiter makes (the database, backups, logs, the broker's messages)
# is its owner's alone: the data folder holds tokens and sessions (plumbing/datadir.py).
os.umask(UMASK)
# Set it on several machines that share one database (they must agree); otherwise each
# installation makes its own once, in its data folder (never a key published with the code).
SECRET_KEY = env.str("DJANGO_SECRET_KEY", default="") or installation_secret(VAR_DIR)

_database_url = env.str("DATABASE_URL", default="")
if _database_url:
    DATABASES = {"default": database_from_url("DATABASE_URL", _database_url)}
else:
    # The embedded default keeps its files here; nothing to install or create by hand.
    VAR_DIR.mkdir(parents=True, exist_ok=True, mode=PRIVATE_FOLDER)
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": VAR_DIR / "arbiter.sqlite3",
            "OPTIONS": {
                # The web server and the worker write to the same file: WAL lets readers go
                # on while one writes, IMMEDIATE takes the write lock at BEGIN so two writers
                # queue (the timeout) instead of failing half-way through a transaction.
                "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
                "transaction_mode": "IMMEDIATE",
                "timeout": 30,
            },
        }
    }

_redis_url = env.str("REDIS_URL", default="")
# Checked here, not by django-environ's cache_url: the one URL goes as it is to Celery,
# redis-py and the cache, and cache_url knows no unix:// (a socket) and moves the query
# string out of the URL.
if _redis_url and not _redis_url.startswith(("redis://", "rediss://", "unix://")):
    raise ImproperlyConfigured(f"REDIS_URL={_redis_url!r}: expected redis://host:6379/0")
#: Live changes published to every web process (tournaments/notify.py); none without Redis.
ARBITER_LIVE_REDIS_URL = _redis_url
if _redis_url:
    # Sessions read from Redis, written to both: read from PostgreSQL at each of a hall's
    # panel reloads, they would take a good share of a web process (docs/decisions.md).
    SESSION_ENGINE = "django.contrib.sessions.backends.cached_db"
    CELERY_BROKER_URL = _redis_url
    CELERY_BROKER_TRANSPORT_OPTIONS: dict[str, object] = {
        "visibility_timeout": 3600,
        "socket_connect_timeout": 2,
    }
    # Redis down at the close: the close answers within about a second (the round is saved
    # closed, the watchdog sends its task again), not after Celery's own retries.
    CELERY_TASK_PUBLISH_RETRY_POLICY = {
        "max_retries": 2,
        "interval_start": 0,
        "interval_step": 0.2,
        "interval_max": 0.5,
    }
    CACHES = {
        "default": {
            # Redis down: the rate limits count in each process meanwhile (arbiter/cache.py).
            "BACKEND": "arbiter.cache.FallbackRedisCache",
            "LOCATION": _redis_url,
            # A Redis that does not answer costs a request half a second at most, once.
            "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5},
        }
    }
else:
    _broker = VAR_DIR / "broker"
    for _folder in ("queue", "processed", "control"):
        (_broker / _folder).mkdir(parents=True, exist_ok=True)
    # kombu's file-system transport with its race closed (arbiter/broker.py registers the
    # name; the worker's banner says it).
    CELERY_BROKER_URL = "arbiterfs://"
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": str(_broker / "queue"),
        "data_folder_out": str(_broker / "queue"),
        "processed_folder": str(_broker / "processed"),
        "control_folder": str(_broker / "control"),
        "store_processed": False,
        # The worker looks for new messages this often (seconds): at the default 1 s every
        # task waits up to a second, which a round of a live event should not.
        "polling_interval": 0.1,
    }
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

# Rendered fragments the same on every phone (the board at one version of the event): kept
# in each process, not sent to and fro Redis at each of a hall's 2,000 panel reloads; the
# key holds the version, so no process can show an outdated one.
CACHES["fragments"] = {
    "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
    "LOCATION": "arbiter-fragments",
    "OPTIONS": {"MAX_ENTRIES": 200},
}

# Results live in the models (Round.solved_at, rulings): no result backend to run.
CELERY_RESULT_BACKEND = None
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_SOFT_TIME_LIMIT = env.int("ARBITER_TASK_SOFT_TIME_LIMIT", default=120)
CELERY_TASK_TIME_LIMIT = env.int("ARBITER_TASK_TIME_LIMIT", default=180)
CELERY_TASK_ROUTES = {
    "tournaments.tasks.round_solve_task": {"queue": "solve"},
    "tournaments.tasks.round_adjudicate_task": {"queue": "adjudicate"},
    "tournaments.tasks.round_rule_when_quiet_task": {"queue": "adjudicate"},
    # Work done early, not waited for: never ahead of a close's ruling in its queue.
    "tournaments.tasks.round_rule_ahead_task": {"queue": "default"},
    "tournaments.tasks.sheet_print_task": {"queue": "default"},
    # A minute's compile must not hold up the rulings of a close.
    "tournaments.tasks.lexicon_import_task": {"queue": "default"},
}
CELERY_TASK_DEFAULT_QUEUE = "default"
CELERY_TASK_ALWAYS_EAGER = env.bool("ARBITER_TASKS_EAGER", default=False)

LANGUAGE_CODE = "fr"
LANGUAGES = [("fr", "Français"), ("en", "English")]
TIME_ZONE = "Europe/Paris"
USE_I18N = True
USE_TZ = True
LOCALE_PATHS = [BASE_DIR / "locale"]
STATIC_URL = "static/"
STATIC_ROOT = VAR_DIR / "static"
# WhiteNoise warns at every start without it; collectstatic fills it for production.
STATIC_ROOT.mkdir(parents=True, exist_ok=True)
WHITENOISE_USE_FINDERS = True
# Passwords are checked only within the login limits (django-axes, plumbing/logins.py):
# failures counted in the cache per account at an address and per address alone; past a
# limit every password from there is refused until the cool-off passes without a failure.
AUTHENTICATION_BACKENDS = ["axes.backends.AxesStandaloneBackend", "django.contrib.auth.backends.ModelBackend"]
AXES_HANDLER = "axes.handlers.cache.AxesCacheHandler"
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"], "ip_address"]
AXES_FAILURE_LIMIT = "plumbing.logins.failure_limit"
AXES_COOLOFF_TIME = dt.timedelta(minutes=15)
AXES_USERNAME_CALLABLE = "plumbing.logins.login_name"
# The address the other rate limits count by, through ARBITER_TRUSTED_PROXIES.
AXES_CLIENT_IP_CALLABLE = "plumbing.middleware.client_address"
AXES_LOCKOUT_CALLABLE = "plumbing.logins.lockout_response"
# Refused tries do not count: a lockout ends 15 minutes after the last failure, whatever
# is typed meanwhile.
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False
# Axes' admin pages show its database tables, which the cache handler leaves empty.
AXES_ENABLE_ADMIN = False
# Without Redis the counts live in each process's memory, as every rate limit's do
# (axes warns of it).
SILENCED_SYSTEM_CHECKS = [] if _redis_url else ["axes.W001"]
# An arbitrator's account guards every event of the laptop, which may serve a hall's open
# Wi-Fi: Django's checks (not like the name, at least 10 characters, not a common
# password, not only digits) for the first account, createsuperuser and password changes.
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator", "OPTIONS": {"min_length": 10}},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "console:events"
LOGOUT_REDIRECT_URL = "home"
# The address phones use to reach this server, for the projector's join QR code (set by
# `serve --host 0.0.0.0`); empty: the address the projector's browser used.
ARBITER_PUBLIC_URL = env.str("ARBITER_PUBLIC_URL", default="").rstrip("/")
# How often the pages ask whether something changed (milliseconds): docs/architecture.md.
ARBITER_POLL_MS = env.int("ARBITER_POLL_MS", default=1000)
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Content Security Policy (django-csp): the pages load scripts, styles and images from this
# site only and run no inline script, so an injected one (a player's name, say) cannot run;
# the QR code is inline SVG, the board's tiles plain HTML. The API's documentation pages
# (Swagger UI, ReDoc) start their viewers with inline scripts: left out.
CONTENT_SECURITY_POLICY = {
    "EXCLUDE_URL_PREFIXES": ["/api/docs/", "/api/redoc/"],
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:"],
        "connect-src": ["'self'"],
        "font-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    },
}

# Reverse proxies in front of the site (nginx...): with N, a caller's address is the N-th
# address from the right of X-Forwarded-For (the pages' and the API's rate limits, the
# first account's "from this laptop" check). 0: the connection's own address, the header
# ignored (anyone can write it).
ARBITER_TRUSTED_PROXIES = env.int("ARBITER_TRUSTED_PROXIES", default=0)

# While a round is open, a worker rules the slips handed in so far every 2 s, so that its
# close writes only what changed since (tournaments/services/rulings.py, round_rule_ahead).
ARBITER_RULE_AHEAD = env.bool("ARBITER_RULE_AHEAD", default=True)

# Backups (docs/operator-guide.md, "Backups"): each game's file after every
# placed round, in the data folder and also in ARBITER_BACKUP_DIR when it is set (a folder
# on a USB stick, made once by hand: never created here, so that a stick pulled out is
# reported); the files of the last ARBITER_BACKUP_KEEP rounds of each game are kept.
ARBITER_BACKUP_LOCAL_DIR = VAR_DIR / "backups"
ARBITER_BACKUP_DIR = (
    env.folder("ARBITER_BACKUP_DIR", default=VAR_DIR) if env.str("ARBITER_BACKUP_DIR", default="") else None
)
ARBITER_BACKUP_KEEP = env.int("ARBITER_BACKUP_KEEP", default=10)
if ARBITER_BACKUP_KEEP < 1:
    raise ImproperlyConfigured(
        f"ARBITER_BACKUP_KEEP={ARBITER_BACKUP_KEEP}: keep at least one backup of each game"
    )

# The largest word list that may be imported (docs/operator-guide.md, "Word lists"), in MB
# of 2^20 bytes, checked before the file is read and again once it is unpacked: the French
# ODS (about 410,000 words) is about 4.5 MB; what a list costs a worker: docs/benchmarks.md.
ARBITER_LEXICON_MAX_MB = env.int("ARBITER_LEXICON_MAX_MB", default=16)
if ARBITER_LEXICON_MAX_MB < 1:
    raise ImproperlyConfigured(f"ARBITER_LEXICON_MAX_MB={ARBITER_LEXICON_MAX_MB}: allow at least 1 MB")

# A phone's slip counts from when the phone sent it, by its clock corrected to the
# server's (live.js measures the offset), when the server got it at most this many seconds
# later: a hall's slips queued in an overloaded server are not late for it, and a phone
# whose clock is wrong or whose time is forged gains no more (docs/rules.md#slips).
ARBITER_SLIP_GRACE_SECONDS = env.int("ARBITER_SLIP_GRACE_SECONDS", default=5)
if not 0 <= ARBITER_SLIP_GRACE_SECONDS <= 30:
    raise ImproperlyConfigured(
        f"ARBITER_SLIP_GRACE_SECONDS={ARBITER_SLIP_GRACE_SECONDS}: between 0 and 30 seconds"
    )

# A request body (files aside) larger than this is refused: 413 on the API. Django's
# default, written here because the API's refusal names it; a CSV of 2,000 players is
# about 100 kB.
DATA_UPLOAD_MAX_MEMORY_SIZE = 2_621_440

# The API (api/): player tokens from the join flow, DRF tokens or the session for arbitrators.
REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "api.auth.PlayerTokenAuthentication",
        "rest_framework.authentication.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    # JSON checked for depth and number ranges before it is decoded (api/parsers.py).
    "DEFAULT_PARSER_CLASSES": [
        "api.parsers.JSONParser",
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
    "EXCEPTION_HANDLER": "api.errors.exception_handler",
    "NUM_PROXIES": ARBITER_TRUSTED_PROXIES,
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "DEFAULT_THROTTLE_RATES": {
        "join": env.str("ARBITER_JOIN_RATE", default="10/min"),
        "slips": env.str("ARBITER_SLIP_RATE", default="30/min"),
    },
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Arbiter API",
    "DESCRIPTION": "Duplicate Scrabble arbitration: events, rounds, slips, standings.",
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    # The event's mode (tournament, training) and the multiplex's (live, prepared).
    "ENUM_NAME_OVERRIDES": {"MultiplexModeEnum": "multiplex.models.Multiplex.Mode"},
    # Served from the sidecar's static files: the docs load nothing from the internet.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
}
