"""``serve``'s choices that need no process started: which web server, which settings
(the processes themselves: tests/integration)."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.core.management import call_command, get_commands, load_command_class
from django.core.management.base import CommandError

from rooms.management.commands import serve


def test_runserver_is_the_halls_with_a_long_listen_queue() -> None:
    # django.contrib.staticfiles once came first in INSTALLED_APPS and its runserver won:
    # a queue of 10, and 49 of 200 phones reconnecting at once timed out.
    assert get_commands()["runserver"] == "rooms"
    command = load_command_class("rooms", "runserver")
    assert command.server_cls.request_queue_size == 1024  # type: ignore[attr-defined]


@pytest.mark.parametrize("host", ["0.0.0.0", "192.168.1.20", "::", "arbiter.local"])
def test_debug_pages_only_on_this_machine(host: str) -> None:
    with pytest.raises(CommandError, match="only on this machine"):
        call_command("serve", "--host", host, "--debug")


def _env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, *argv: str) -> dict[str, str]:
    command = serve.Command()
    parser = command.create_parser("manage.py", "serve")
    options = vars(parser.parse_args(argv))
    command.host, command.port, command.debug = options["host"], options["port"], options["debug"]
    command.var_dir = tmp_path
    command.lan = []
    monkeypatch.setenv("DJANGO_DEBUG", "1")  # a developer's shell: serve decides, not it
    return command._child_env()


def test_serve_runs_its_children_without_debug(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    # DEBUG once showed the environment (DATABASE_URL with its password) to any phone.
    assert _env(monkeypatch, tmp_path)["DJANGO_DEBUG"] == "0"
    assert _env(monkeypatch, tmp_path, "--host", "0.0.0.0")["DJANGO_DEBUG"] == "0"
    assert _env(monkeypatch, tmp_path, "--debug")["DJANGO_DEBUG"] == "1"


@pytest.mark.parametrize(
    ("host", "loopback"),
    [
        ("127.0.0.1", True),
        ("::1", True),
        ("[::1]", True),
        ("localhost", True),
        ("0.0.0.0", False),
        ("10.0.0.2", False),
    ],
)
def test_loopback(host: str, loopback: bool) -> None:
    assert serve._loopback(host) is loopback
