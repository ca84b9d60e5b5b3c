"""The guides' commands on a fresh checkout, each the very first thing run in its data
folder, in any order: no traceback, no "no such table". The embedded default (SQLite) is
prepared on first use; a PostgreSQL database nobody migrated says in one line what to run.
Each command runs as a newcomer's would, in a process of its own."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from tests.integration.conftest import ROOT, child_env, manage, require_postgres, scratch_database

pytestmark = pytest.mark.integration

TIMEOUT = 300


def _run(tmp_path: Path, name: str, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    folder = tmp_path / name
    done = subprocess.run(
        manage(*args),
        env=child_env(folder / "var", **env),
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        check=False,
    )
    said = done.stdout + done.stderr
    assert "Traceback" not in said and "no such table" not in said, said
    return done


def test_every_command_works_first_on_a_fresh_data_folder(tmp_path: Path) -> None:
    demo = _run(tmp_path, "demo", "simulate_event", "--players", "4", "--games", "1", "--seed", "7", "--json")
    assert demo.returncode == 0, demo.stderr
    assert json.loads(demo.stdout)["standings"]  # stdout stays JSON: the note went to stderr
    assert "first use" in demo.stderr

    login = _run(
        tmp_path, "login", "createsuperuser", "--noinput", "--username", "chef", "--email", "",
        DJANGO_SUPERUSER_PASSWORD="a-long-pass-phrase",
    )  # fmt: skip
    assert login.returncode == 0 and "Superuser created" in login.stdout, login.stderr

    created = _run(tmp_path, "create", "event_create", "Club de Vichy", "--lexicon", "enable")
    assert created.returncode == 0 and "join code" in created.stdout.lower(), created.stderr

    # Commands about an event that is not there: a one-line refusal, the database prepared.
    for name, args in {
        "status": ("event_status", "--event", "1"),
        "standings": ("standings", "--event", "1"),
        "export": ("export", "standings", "--event", "1"),
        "draw": ("round_draw", "--event", "1", "--new-game"),
    }.items():
        refused = _run(tmp_path, name, *args)
        lines = refused.stderr.strip().splitlines()
        assert refused.returncode == 1 and "first use" in lines[0], refused.stderr
        assert len(lines) == 2 and lines[1].startswith("CommandError: ") and "event" in lines[1], lines


def test_a_postgresql_database_nobody_migrated_says_what_to_run(tmp_path: Path) -> None:
    require_postgres()
    with scratch_database("arbiter_fresh") as url:
        done = _run(tmp_path, "pg", "event_status", "--event", "1", DATABASE_URL=url)
        assert done.returncode == 1
        assert "run `python manage.py migrate` first" in done.stderr, done.stderr
        assert len(done.stderr.strip().splitlines()) == 1, done.stderr
