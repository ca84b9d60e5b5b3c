"""The environment helpers of the settings: a bad value is refused by name, not guessed."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from arbiter.settings.env import EnvError, database_from_url, env_list, env_path


def test_database_url_keeps_the_query_string_as_options() -> None:
    entry = database_from_url("DATABASE_URL", "postgresql://u:p%40ss@db:5433/arbiter?sslmode=require")
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
        "postgres://db/arbiter?sslmode=verify-full&sslrootcert=%2Fetc%2Fca.pem&connect_timeout=5",
    )
    assert entry["OPTIONS"] == {
        "sslmode": "verify-full",
        "sslrootcert": "/etc/ca.pem",
        "connect_timeout": "5",
    }
    assert database_from_url("DATABASE_URL", "postgresql://db/arbiter")["OPTIONS"] == {}


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


@pytest.mark.parametrize(
    ("url", "message"),
    [
        ("postgresql://db/arbiter?sslmode=", "'sslmode' has no value"),
        ("postgresql://db/arbiter?sslmode=require&sslmode=disable", "'sslmode' is given twice"),
        ("postgresql://db/arbiter?conn_max_age=soon", "conn_max_age must be a whole number"),
        ("postgresql://db/arbiter?conn_max_age=-1", "conn_max_age cannot be negative"),
        ("postgresql://db/arbiter?sslmode", "cannot read the options"),
        ("sqlite:////srv/a.sqlite3?timeout=long", "timeout must be a number"),
        ("mysql://db/arbiter", "the scheme must be"),
    ],
)
def test_database_url_refusals(url: str, message: str) -> None:
    with pytest.raises(EnvError, match=message):
        database_from_url("DATABASE_URL", url)


def test_env_path(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("ARBITER_VAR_DIR", raising=False)
    assert env_path("ARBITER_VAR_DIR", tmp_path) == tmp_path
    monkeypatch.setenv("ARBITER_VAR_DIR", "/srv/arbiter/var")
    assert env_path("ARBITER_VAR_DIR", tmp_path) == Path("/srv/arbiter/var")
    for empty in ("", "   "):
        monkeypatch.setenv("ARBITER_VAR_DIR", empty)
        with pytest.raises(EnvError, match=r"ARBITER_VAR_DIR=.*: empty path"):
            env_path("ARBITER_VAR_DIR", tmp_path)


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
    assert "EnvError: ARBITER_VAR_DIR='': empty path" in done.stderr


def test_env_list(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("DJANGO_ALLOWED_HOSTS", raising=False)
    assert env_list("DJANGO_ALLOWED_HOSTS", ["localhost"]) == ["localhost"]
    monkeypatch.setenv("DJANGO_ALLOWED_HOSTS", " arbiter.example.org , ,10.0.0.2,")
    assert env_list("DJANGO_ALLOWED_HOSTS", ["localhost"]) == ["arbiter.example.org", "10.0.0.2"]
    for empty in ("", " ", " , ", ",,"):
        monkeypatch.setenv("DJANGO_ALLOWED_HOSTS", empty)
        with pytest.raises(EnvError, match=r"DJANGO_ALLOWED_HOSTS=.*: expected comma-separated items"):
            env_list("DJANGO_ALLOWED_HOSTS", ["localhost"])
