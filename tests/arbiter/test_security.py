"""Safe defaults of the site: a Content Security Policy, HTTPS settings for production,
password logins rate-limited (the audit of issue 12)."""

from __future__ import annotations

import datetime as dt
import os
import re
import secrets
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.test import Client, RequestFactory
from django.utils import translation

from plumbing import logins

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


def _login(client: Client, password: str, address: str = "10.0.0.7", username: str = "arbitre") -> str:
    response = client.post(
        "/accounts/login/", {"username": username, "password": password}, REMOTE_ADDR=address
    )
    return "in" if response.status_code == 302 else response.content.decode()


@pytest.mark.django_db
def test_logins_stop_after_too_many_wrong_passwords_even_the_right_one(arbitrator: str) -> None:
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    for _ in range(logins.ACCOUNT_LIMIT):
        assert "correct username and password" in _login(client, "guess")
    refused = _login(client, "the-right-one")
    assert "Too many failed logins from this address: wait 15 minutes" in refused
    # Another address (the arbitrator's own laptop) is not locked out by a phone's guesses.
    assert _login(Client(), "the-right-one", address="10.0.0.8") == "in"


@pytest.mark.django_db
def test_an_address_guessing_many_accounts_is_stopped(arbitrator: str) -> None:
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    for index in range(logins.ADDRESS_LIMIT):
        client.post("/accounts/login/", {"username": f"user{index}", "password": "x"}, REMOTE_ADDR="10.0.0.9")
    assert "Too many failed logins" in _login(client, "the-right-one", address="10.0.0.9")


@pytest.mark.django_db
def test_a_right_password_within_the_limit_logs_in(arbitrator: str) -> None:
    client = Client()
    for _ in range(logins.ACCOUNT_LIMIT - 1):
        _login(client, "guess")
    assert _login(client, "the-right-one") == "in"


def _token(password: str, address: str = "10.0.0.7", username: str = "arbitre") -> Any:
    body = {"username": username, "password": password}
    return Client().post("/api/auth/token/", body, "application/json", REMOTE_ADDR=address)


@pytest.mark.django_db
def test_a_locked_out_login_is_told_so_in_french_by_default(arbitrator: str) -> None:
    client = Client()
    for _ in range(logins.ACCOUNT_LIMIT):
        _login(client, "guess")
    assert "Trop de connexions échouées depuis cette adresse" in _login(client, "the-right-one")


@pytest.mark.django_db
def test_the_api_token_is_refused_during_a_lockout_even_for_the_right_password(arbitrator: str) -> None:
    for _ in range(logins.ACCOUNT_LIMIT - 1):
        assert _token("guess").status_code == 400
    # The last failure before the limit came from the login page: one count for both.
    _login(Client(), "guess")
    refused = _token("the-right-one")
    assert refused.status_code == 429 and refused["Retry-After"] == "900"
    error = refused.json()["error"]
    assert error["code"] == "locked_out" and error["detail"] == {"wait": 900}
    assert "token" in _token("the-right-one", address="10.0.0.8").json()


@pytest.mark.django_db
def test_failures_on_other_accounts_below_the_address_limit_leave_an_account_open(arbitrator: str) -> None:
    assert logins.ADDRESS_LIMIT > 2 * logins.ACCOUNT_LIMIT
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    for index in range(2 * logins.ACCOUNT_LIMIT):
        _login(client, "x", username=f"user{index % 2}")
    assert "Too many failed logins" in _login(client, "x", username="user0")
    assert _login(client, "the-right-one") == "in"


@pytest.mark.django_db
def test_an_address_past_its_limit_is_stopped_alone(arbitrator: str) -> None:
    for index in range(logins.ADDRESS_LIMIT):
        _login(Client(), "x", address="10.0.0.9", username=f"user{index}")
    assert _token("the-right-one", address="10.0.0.9").status_code == 429
    assert _login(Client(), "the-right-one", address="10.0.0.7") == "in"


@pytest.mark.django_db
def test_a_name_counts_as_one_account_whatever_its_case(arbitrator: str) -> None:
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    for index in range(logins.ACCOUNT_LIMIT):
        _login(client, "x", username="ARBITRE" if index % 2 else "arbitre")
    assert "Too many failed logins" in _login(client, "the-right-one")


@pytest.mark.django_db
def test_behind_a_proxy_each_caller_is_counted_by_its_own_address(arbitrator: str, settings) -> None:
    settings.ARBITER_TRUSTED_PROXIES = 1
    proxy = "10.0.0.1"  # every request comes from it; X-Forwarded-For names the caller
    phone = Client(HTTP_ACCEPT_LANGUAGE="en", HTTP_X_FORWARDED_FOR="203.0.113.5")
    for _ in range(logins.ACCOUNT_LIMIT):
        _login(phone, "guess", address=proxy)
    assert "Too many failed logins" in _login(phone, "the-right-one", address=proxy)
    laptop = Client(HTTP_X_FORWARDED_FOR="203.0.113.6")
    assert _login(laptop, "the-right-one", address=proxy) == "in"


@pytest.mark.django_db
def test_a_lockout_ends_once_the_cool_off_passed_without_a_failure(arbitrator: str, settings) -> None:
    settings.AXES_COOLOFF_TIME = dt.timedelta(seconds=1)
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    for _ in range(logins.ACCOUNT_LIMIT):
        _login(client, "guess")
    assert "Too many failed logins" in _login(client, "the-right-one")
    time.sleep(1.5)
    assert _login(client, "the-right-one") == "in"


def test_without_the_pages_answer_a_lockout_is_said_in_a_429() -> None:
    # Axes' asynchronous middleware hands the credentials where the page's answer belongs.
    request = RequestFactory().post("/accounts/login/")
    with translation.override("en"):
        response = logins.lockout_response(request, {"username": "arbitre"})
    assert response.status_code == 429
    assert response.content.decode().startswith("Too many failed logins from this address: wait 15 minutes")
