"""Safe defaults of the site: a Content Security Policy, HTTPS settings for production,
password logins rate-limited (the audit of issue 12)."""

from __future__ import annotations

import os
import re
import secrets
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.test import Client

from arbiter import auth

ROOT = Path(settings.BASE_DIR)


@pytest.fixture(autouse=True)
def _fresh_counters() -> None:
    cache.clear()


@pytest.mark.django_db
def test_pages_carry_a_content_security_policy_without_inline_scripts() -> None:
    response = Client().get("/")
    policy = response["Content-Security-Policy"]
    assert "script-src 'self'" in policy and "unsafe-inline" not in policy
    assert "frame-ancestors 'none'" in policy and "object-src 'none'" in policy


def test_no_template_runs_an_inline_script_or_style() -> None:
    # The policy allows scripts and styles from files only: one inline <script> (the
    # console's round page had one) or style attribute would silently stop working.
    inline = re.compile(r"<script(?![^>]*\bsrc=)[^>]*>|<style\b|\sstyle=|\son[a-z]+=", re.IGNORECASE)
    found = [
        f"{path.relative_to(ROOT)}: {match.group(0)}"
        for path in (ROOT / "templates").rglob("*.html")
        for match in inline.finditer(path.read_text("utf-8"))
    ]
    assert found == []


def _production(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("ARBITER_H", "ARBITER_SSL", "DJANGO_"))}
    env.update(
        DJANGO_SETTINGS_MODULE="arbiter.settings.production",
        DJANGO_SECRET_KEY=secrets.token_urlsafe(50),
        DJANGO_ALLOWED_HOSTS="arbiter.example.org",
        **extra,
    )
    code = (
        "import django; django.setup(); from django.conf import settings as s; "
        "print(s.SECURE_SSL_REDIRECT, s.SECURE_HSTS_SECONDS, s.SESSION_COOKIE_SECURE,"
        " getattr(s, 'SECURE_PROXY_SSL_HEADER', None))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, cwd=ROOT, check=False
    )
    assert done.returncode == 0, done.stderr
    return {"out": done.stdout.strip()}


def test_production_is_https_with_hsts_unless_told_otherwise() -> None:
    assert _production()["out"] == "True 31536000 True None"
    assert _production(ARBITER_HTTPS="0")["out"] == "False 0 False None"
    assert _production(ARBITER_HSTS_SECONDS="600")["out"] == "True 600 True None"
    behind = _production(ARBITER_TRUSTED_PROXIES="1")["out"]
    assert behind == "True 31536000 True ('HTTP_X_FORWARDED_PROTO', 'https')"


def test_production_passes_djangos_deployment_checks(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("DJANGO_")}
    env.update(
        DJANGO_SETTINGS_MODULE="arbiter.settings.production",
        DJANGO_SECRET_KEY=secrets.token_urlsafe(50),
        DJANGO_ALLOWED_HOSTS="arbiter.example.org",
        ARBITER_VAR_DIR=str(tmp_path),
    )
    argv = [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"]
    done = subprocess.run(argv, env=env, capture_output=True, text=True, cwd=ROOT, check=False)
    assert done.returncode == 0, done.stdout + done.stderr


# ------------------------------------------------------------------ logins


@pytest.fixture
def arbitrator() -> str:
    get_user_model().objects.create_user("arbitre", password="the-right-one")
    return "arbitre"


def _login(client: Client, password: str, address: str = "10.0.0.7") -> str:
    response = client.post(
        "/accounts/login/", {"username": "arbitre", "password": password}, REMOTE_ADDR=address
    )
    return "in" if response.status_code == 302 else response.content.decode()


@pytest.mark.django_db
def test_logins_stop_after_too_many_wrong_passwords_even_the_right_one(arbitrator: str) -> None:
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    for _ in range(auth.ACCOUNT_LIMIT):
        assert "correct username and password" in _login(client, "guess")
    refused = _login(client, "the-right-one")
    assert "Too many failed logins from this address: wait 15 minutes" in refused
    # Another address (the arbitrator's own laptop) is not locked out by a phone's guesses.
    assert _login(Client(), "the-right-one", address="10.0.0.8") == "in"


@pytest.mark.django_db
def test_an_address_guessing_many_accounts_is_stopped(arbitrator: str) -> None:
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    for index in range(auth.ADDRESS_LIMIT):
        client.post("/accounts/login/", {"username": f"user{index}", "password": "x"}, REMOTE_ADDR="10.0.0.9")
    assert "Too many failed logins" in _login(client, "the-right-one", address="10.0.0.9")


@pytest.mark.django_db
def test_a_right_password_within_the_limit_logs_in(arbitrator: str) -> None:
    client = Client()
    for _ in range(auth.ACCOUNT_LIMIT - 1):
        _login(client, "guess")
    assert _login(client, "the-right-one") == "in"
