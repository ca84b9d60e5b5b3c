"""The settings' reading of the environment (django-environ, made strict): a bad value is
refused by name, not guessed."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured

from arbiter.settings.database import database_from_url
from arbiter.settings.env import env
from arbiter.settings.secret import installation_secret


def test_database_url_keeps_the_query_string_as_options() -> None:
    entry = database_from_url(
        "DATABASE_URL", "postgresql://u:p%40ss@db:5433/arbiter?sslmode=require&pool_size=0"
    )
    assert entry["OPTIONS"] == {"sslmode": "require"}
    assert (entry["NAME"], entry["USER"], entry["PASSWORD"], entry["HOST"], entry["PORT"]) == (
        "arbiter",
        "u",
        "p@ss",
        "db",
        "5433",
    )
    assert entry["CONN_MAX_AGE"] == 60
    entry = database_from_url(
        "DATABASE_URL",
        "postgres://db/arbiter?sslmode=verify-full&sslrootcert=%2Fetc%2Fca.pem&connect_timeout=5&pool_size=0",
    )
    assert entry["OPTIONS"] == {
        "sslmode": "verify-full",
        "sslrootcert": "/etc/ca.pem",
        "connect_timeout": "5",
    }
    assert database_from_url("DATABASE_URL", "postgresql://db/arbiter?pool_size=0")["OPTIONS"] == {}


def test_postgresql_gets_a_connection_pool_by_default() -> None:
    # One connection per server thread (CONN_MAX_AGE) exhausted PostgreSQL with 400 phones.
    entry = database_from_url("DATABASE_URL", "postgresql://db/arbiter?sslmode=require")
    pool = {"min_size": 1, "max_size": 16, "timeout": 2, "reconnect_timeout": 5}
    assert entry["OPTIONS"] == {"sslmode": "require", "pool": pool}
    assert entry["CONN_MAX_AGE"] == 0  # Django refuses persistent connections beside a pool
    assert entry["CONN_HEALTH_CHECKS"] is True  # PostgreSQL restarted: new connections, not errors
    sized = database_from_url("DATABASE_URL", "postgresql://db/arbiter?pool_size=40")
    assert sized["OPTIONS"] == {"pool": {**pool, "max_size": 40}}
    # conn_max_age alone asks for connections kept per thread: no pool then.
    kept = database_from_url("DATABASE_URL", "postgresql://db/arbiter?conn_max_age=30")
    assert kept["OPTIONS"] == {} and kept["CONN_MAX_AGE"] == 30
    with pytest.raises(ImproperlyConfigured, match="give one of them"):
        database_from_url("DATABASE_URL", "postgresql://db/arbiter?conn_max_age=30&pool_size=8")
    with pytest.raises(ImproperlyConfigured, match="pool_size is for PostgreSQL"):
        database_from_url("DATABASE_URL", "sqlite:////srv/a.sqlite3?pool_size=8")
    with pytest.raises(ImproperlyConfigured, match="pool_size cannot be negative"):
        database_from_url("DATABASE_URL", "postgresql://db/arbiter?pool_size=-1")


def test_conn_max_age_in_the_url_is_djangos_not_the_drivers() -> None:
    entry = database_from_url("DATABASE_URL", "postgresql://db/arbiter?conn_max_age=0&sslmode=disable")
    assert entry["CONN_MAX_AGE"] == 0
    assert entry["OPTIONS"] == {"sslmode": "disable"}
    sqlite = database_from_url("DATABASE_URL", "sqlite:////srv/arbiter.sqlite3?timeout=30&conn_max_age=5")
    assert sqlite == {
        "ENGINE": "django.db.backends.sqlite3",
        "NAME": "/srv/arbiter.sqlite3",
        "OPTIONS": {"timeout": 30.0},
        "CONN_MAX_AGE": 5,
    }
    assert database_from_url("DATABASE_URL", "sqlite:////srv/a.sqlite3") == {
        "ENGINE": "django.db.backends.sqlite3",
        "NAME": "/srv/a.sqlite3",
    }


def test_database_names_are_read_as_they_always_were() -> None:
    # Three slashes: absolute here, where django-environ reads from the working folder; the
    # file's name is not %-decoded.
    for url, file in [
        ("sqlite:///srv/a.sqlite3", "/srv/a.sqlite3"),
        ("sqlite:////srv/my%20db.sqlite3", "/srv/my%20db.sqlite3"),
        ("sqlite:////srv/c++;v2.sqlite3", "/srv/c++;v2.sqlite3"),
    ]:
        assert database_from_url("DATABASE_URL", url)["NAME"] == file
    # "+" is not a space in a path, ";" does not end the name; escapes are decoded.
    entry = database_from_url("DATABASE_URL", "postgresql://u%2B:p+w@DB:5432/a+b;c%20d?pool_size=0")
    assert (entry["NAME"], entry["USER"], entry["PASSWORD"], entry["HOST"]) == ("a+b;c d", "u+", "p+w", "db")


@pytest.mark.parametrize(
    ("url", "message"),
    [
        ("postgresql://db/arbiter?sslmode=", "'sslmode' has no value"),
        ("postgresql://db/arbiter?sslmode=require&sslmode=disable", "'sslmode' is given twice"),
        ("postgresql://db/arbiter?conn_max_age=soon", "conn_max_age must be a whole number"),
        ("postgresql://db/arbiter?pool_size=many", "pool_size must be a whole number"),
        ("postgresql://db/arbiter?conn_max_age=-1", "conn_max_age cannot be negative"),
        ("postgresql://db/arbiter?sslmode", "cannot read the options"),
        ("sqlite:////srv/a.sqlite3?timeout=long", "timeout must be a number"),
        ("mysql://db/arbiter", "the scheme must be"),
        ("psql://db/arbiter", "the scheme must be"),
        ("postgresql://db:5432/", "the database name is missing"),
        ("postgresql://db:port/arbiter", "Port could not be cast"),
        ("sqlite://", "give the database file"),
        ("sqlite://:memory:", "give the database file"),
    ],
)
def test_database_url_refusals(url: str, message: str) -> None:
    with pytest.raises(ImproperlyConfigured, match=message):
        database_from_url("DATABASE_URL", url)


def test_env_folder(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("ARBITER_VAR_DIR", raising=False)
    assert env.folder("ARBITER_VAR_DIR", default=tmp_path) == tmp_path
    monkeypatch.setenv("ARBITER_VAR_DIR", "/srv/arbiter/var")
    assert env.folder("ARBITER_VAR_DIR", default=tmp_path) == Path("/srv/arbiter/var")
    for empty in ("", "   "):
        monkeypatch.setenv("ARBITER_VAR_DIR", empty)
        with pytest.raises(ImproperlyConfigured, match=r"ARBITER_VAR_DIR=.*: empty path"):
            env.folder("ARBITER_VAR_DIR", default=tmp_path)


def test_the_settings_refuse_an_empty_var_dir() -> None:
    # In a child process: the settings are read once per process.
    env = {**os.environ, "ARBITER_VAR_DIR": "", "DATABASE_URL": ""}
    done = subprocess.run(
        [sys.executable, "-c", "import arbiter.settings.base"],
        env=env,
        capture_output=True,
        text=True,
        check=False,
        cwd=Path(__file__).resolve().parents[2],
    )
    assert done.returncode != 0
    assert "ImproperlyConfigured: ARBITER_VAR_DIR='': empty path" in done.stderr


def test_env_list(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("DJANGO_ALLOWED_HOSTS", raising=False)
    assert env.list("DJANGO_ALLOWED_HOSTS", default=["localhost"]) == ["localhost"]
    monkeypatch.setenv("DJANGO_ALLOWED_HOSTS", " arbiter.example.org , ,10.0.0.2,")
    assert env.list("DJANGO_ALLOWED_HOSTS", default=["localhost"]) == ["arbiter.example.org", "10.0.0.2"]
    refused = r"DJANGO_ALLOWED_HOSTS=.*: expected comma-separated items"
    for empty in ("", " ", " , ", ",,"):
        monkeypatch.setenv("DJANGO_ALLOWED_HOSTS", empty)
        with pytest.raises(ImproperlyConfigured, match=refused):
            env.list("DJANGO_ALLOWED_HOSTS", default=["localhost"])


def test_env_bool_refuses_a_word_it_does_not_know(monkeypatch: pytest.MonkeyPatch) -> None:
    # django-environ alone reads any unknown word as False: DEBUG would go off unnoticed.
    monkeypatch.delenv("DJANGO_DEBUG", raising=False)
    assert env.bool("DJANGO_DEBUG", default=True) is True
    for word, value in [("1", True), (" Yes ", True), ("on", True), ("TRUE", True)]:
        monkeypatch.setenv("DJANGO_DEBUG", word)
        assert env.bool("DJANGO_DEBUG", default=False) is value
    for word in ("0", "no", "Off", "false", "", " "):
        monkeypatch.setenv("DJANGO_DEBUG", word)
        assert env.bool("DJANGO_DEBUG", default=True) is False
    for word in ("maybe", "2", "ok", "y", "$HOME"):
        monkeypatch.setenv("DJANGO_DEBUG", word)
        with pytest.raises(ImproperlyConfigured, match=r"DJANGO_DEBUG=.*: expected one of"):
            env.bool("DJANGO_DEBUG", default=False)


def test_env_int_names_the_variable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ARBITER_POLL_MS", " 500 ")
    assert env.int("ARBITER_POLL_MS", default=1000) == 500
    for bad in ("fast", "", "1.5", "$HOME"):
        monkeypatch.setenv("ARBITER_POLL_MS", bad)
        with pytest.raises(ImproperlyConfigured, match=r"ARBITER_POLL_MS=.*: expected a whole number"):
            env.int("ARBITER_POLL_MS", default=1000)


def test_a_value_starting_with_a_dollar_is_read_as_written(monkeypatch: pytest.MonkeyPatch) -> None:
    # django-environ alone reads "$NAME" as NAME's value (or the default when NAME is unset).
    monkeypatch.setenv("DJANGO_SECRET_KEY", "$HOME-" + "k" * 40)
    assert env.str("DJANGO_SECRET_KEY", default="") == "$HOME-" + "k" * 40
    monkeypatch.setenv("ARBITER_VAR_DIR", "$HOME")
    assert env.folder("ARBITER_VAR_DIR", default=Path("/")) == Path("$HOME")


def test_each_installation_makes_its_secret_key_once(tmp_path: Path) -> None:
    # The public default key once signed every laptop's sessions.
    key = installation_secret(tmp_path / "var")
    path = tmp_path / "var" / "secret_key"
    assert len(key) >= 50 and path.read_text("ascii").strip() == key
    assert path.stat().st_mode & 0o777 == 0o600  # only its owner reads it
    assert installation_secret(tmp_path / "var") == key  # kept across restarts
    assert installation_secret(tmp_path / "other") != key
    path.write_text("")
    with pytest.raises(ImproperlyConfigured, match="holds no usable key"):
        installation_secret(tmp_path / "var")


def test_the_settings_use_the_installation_key_unless_one_is_given(tmp_path: Path) -> None:
    code = "from django.conf import settings; print(settings.SECRET_KEY)"

    def key(**extra: str) -> str:
        env = {k: v for k, v in os.environ.items() if k != "DJANGO_SECRET_KEY"}
        env.update(ARBITER_VAR_DIR=str(tmp_path), DJANGO_SETTINGS_MODULE="arbiter.settings.local", **extra)
        argv = [sys.executable, "-c", f"import django; django.setup(); {code}"]
        return subprocess.run(argv, env=env, capture_output=True, text=True, check=True).stdout.strip()

    made = key()
    assert made == (tmp_path / "secret_key").read_text("ascii").strip()
    assert "change-me" not in made and key() == made
    assert key(DJANGO_SECRET_KEY="x" * 40) == "x" * 40


def test_with_redis_sessions_are_read_from_it_and_live_changes_published(tmp_path) -> None:
    # The settings as a process started with REDIS_URL reads them (a fresh interpreter:
    # the settings module is read once per process).
    import json
    import subprocess
    import sys

    code = (
        "import json, django; from django.conf import settings; django.setup();"
        "print(json.dumps([settings.SESSION_ENGINE, settings.ARBITER_LIVE_REDIS_URL]))"
    )
    env = {
        **__import__("os").environ,
        "DJANGO_SETTINGS_MODULE": "arbiter.settings.local",
        "ARBITER_VAR_DIR": str(tmp_path),
    }
    env.pop("DATABASE_URL", None)
    with_redis = {**env, "REDIS_URL": "redis://127.0.0.1:6379/9"}
    without = {k: v for k, v in env.items() if k != "REDIS_URL"}

    def run(environ: dict[str, str]) -> list[str]:
        done = subprocess.run(
            [sys.executable, "-c", code], env=environ, capture_output=True, text=True, check=True
        )
        return list(json.loads(done.stdout))

    assert run(with_redis) == ["django.contrib.sessions.backends.cached_db", "redis://127.0.0.1:6379/9"]
    assert run(without) == ["django.contrib.sessions.backends.db", ""]
