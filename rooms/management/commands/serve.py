"""``python manage.py serve [--host 127.0.0.1] [--port 8000] [--web uvicorn|runserver]
[--web-workers 1] [--no-worker] [--concurrency 1] [--debug]``

The run command, on a laptop and in production alike: migrate, start one Celery worker
(queues ``solve``, ``adjudicate`` and ``default``), wait until it is ready, then serve the
site with uvicorn (ASGI: the live streams are coroutines, not threads; ``--web-workers``
processes). Both run as child processes of this command, which watches them, restarts a
worker that died, runs the watchdog (tasks of rounds left waiting sent again) and stops
them cleanly on Ctrl-C, SIGTERM or SIGHUP: the web server at once, the worker after its
current task (warm shutdown). The site never runs with DEBUG here (``--debug``, for
developers, on loopback only).

With nothing configured the database is SQLite in ``var/`` and the broker is kombu's file
system transport in ``var/broker``: no server to install. With ``DATABASE_URL`` and
``REDIS_URL`` set the same command uses PostgreSQL and Redis, and more workers can run on
other machines (docs/operator-guide.md, "Several workers on several machines").

The worker uses the prefork pool, one child by default: the task time limits of the
settings are only enforced by prefork (the ``solo`` pool ignores them), and a crash in the
compiled move generator kills a child, not the worker (the task is redelivered, acks late).
One child is enough for one event on SQLite, whose writers queue anyway.
"""

from __future__ import annotations

import contextlib
import ipaddress
import os
import re
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from types import FrameType
from typing import IO, Any
from urllib.parse import urlsplit

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import connections

from plumbing.datadir import make_private
from tournaments.services.watchdog import Watchdog, tasks_requeue_pending

QUEUES = "solve,adjudicate,default"
#: Seconds the worker gets to finish its current task before it is killed.
STOP_TIMEOUT = 60.0
#: A worker that stops on its own this many times in a row, each within
#: FAST_CRASH seconds of its start, is not restarted again.
MAX_FAST_CRASHES = 3
FAST_CRASH = 30.0
#: Seconds between two looks of the watchdog (tournaments.services.watchdog).
WATCH_SECONDS = 2.0
_PR_SET_PDEATHSIG = 1


class _Stop(Exception):
    """Raised in the main loop by the signal handlers."""

    def __init__(self, signum: int):
        super().__init__(signal.Signals(signum).name)
        self.signum = signum


def _die_with_parent() -> None:
    """In the child, before exec: get SIGTERM if this command dies without cleaning up
    (kill -9), so that no worker is left behind consuming tasks. Linux only."""
    if sys.platform == "linux":
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGTERM)


def _loopback(host: str) -> bool:
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return host == "localhost"


def lan_addresses() -> list[str]:
    """This machine's IPv4 addresses other than loopback, read from the network
    interfaces (Linux ioctl; nothing is sent). Empty where that cannot be read."""
    if sys.platform != "linux":
        return []
    import fcntl
    import struct

    siocgifaddr = 0x8915
    found: list[str] = []
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
        for _index, name in socket.if_nameindex():
            try:
                packed = fcntl.ioctl(sock.fileno(), siocgifaddr, struct.pack("256s", name[:15].encode()))
            except OSError:  # an interface without an IPv4 address
                continue
            address = socket.inet_ntoa(packed[20:24])
            if not address.startswith("127.") and address not in found:
                found.append(address)
    return found


def _tail(path: Path, lines: int = 30) -> str:
    try:
        text = path.read_text("utf-8", errors="replace")
    except OSError:
        return f"(no log at {path})"
    return "\n".join(text.splitlines()[-lines:])


def _mask(url: str) -> str:
    parts = urlsplit(url)
    if parts.password:
        netloc = parts.netloc.replace(f":{parts.password}@", ":***@")
        return parts._replace(netloc=netloc).geturl()
    return url


class Command(BaseCommand):
    help = "Run Arbiter on this machine: migrate, a Celery worker and the web server (Ctrl-C stops both)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
        parser.add_argument("--port", type=int, default=8000, help="port of the site (default 8000)")
        parser.add_argument(
            "--no-worker",
            action="store_true",
            help="no Celery worker here: workers run elsewhere (DATABASE_URL and REDIS_URL set)",
        )
        parser.add_argument(
            "--concurrency", type=int, default=1, help="worker processes (prefork children), default 1"
        )
        parser.add_argument(
            "--worker-log", default="", help="the worker's log file (default: worker.log in the data folder)"
        )
        parser.add_argument(
            "--web",
            choices=("uvicorn", "runserver"),
            default="uvicorn",
            help="the web server: uvicorn (ASGI, default) or Django's runserver (threaded WSGI)",
        )
        parser.add_argument(
            "--web-workers",
            type=int,
            default=1,
            help="uvicorn's worker processes (default 1; 2 on a 2-core laptop on PostgreSQL)",
        )
        parser.add_argument(
            "--debug",
            action="store_true",
            help="Django's debug pages, for developers (only with a loopback --host)",
        )
        parser.add_argument(
            "--ready-timeout",
            type=float,
            default=120.0,
            help="seconds to wait for the worker and the site to start (default 120)",
        )

    # ------------------------------------------------------------------ main

    def handle(self, *args: Any, **opts: Any) -> None:
        self.var_dir = Path(settings.VAR_DIR)
        loose = make_private(self.var_dir)
        if loose:
            self.stdout.write(
                f"Data folder {self.var_dir}: {len(loose)} files and folders others could read"
                " (tokens, sessions, backups) are now yours only (folders 0700, files 0600)."
            )
        self.host: str = opts["host"]
        self.port: int = opts["port"]
        self.ready_timeout: float = opts["ready_timeout"]
        self.concurrency: int = opts["concurrency"]
        if self.concurrency < 1:
            raise CommandError("--concurrency is at least 1")
        self.worker_log = Path(opts["worker_log"] or self.var_dir / "worker.log").resolve()
        self.stopping = False
        self.force = False
        self.web: subprocess.Popen[bytes] | None = None
        self.worker: subprocess.Popen[bytes] | None = None
        self.worker_started = self.web_started = 0.0
        self.lan: list[str] = []
        self.web_server: str = opts["web"]
        self.web_workers: int = opts["web_workers"]
        if self.web_workers < 1:
            raise CommandError("--web-workers is at least 1")
        if self.web_workers > 1 and self.web_server != "uvicorn":
            raise CommandError("--web-workers needs --web uvicorn (runserver is one process)")
        self.debug: bool = opts["debug"]
        if self.debug and not _loopback(self.host):
            raise CommandError(
                "--debug shows the settings and the code of any error to whoever sees the page:"
                " only on this machine (--host 127.0.0.1), never on the hall's network"
            )
        self.watchdog = Watchdog()
        self.env = self._child_env()

        self._check_port()
        self.stdout.write("Migrating the database...")
        call_command("migrate", interactive=False, verbosity=1)
        connections.close_all()

        previous = {
            s: signal.signal(s, self._on_signal) for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)
        }
        try:
            if not opts["no_worker"]:
                self._start_worker()
                requeued = tasks_requeue_pending()
                if requeued:
                    self.stdout.write(f"Sent again {requeued} task(s) left unfinished by a previous run.")
                connections.close_all()
            self._start_web()
            self._banner(with_worker=not opts["no_worker"])
            self._supervise()
        except _Stop as stop:
            self.stdout.write(f"\n{stop.args[0]}: stopping.")
        finally:
            self.stopping = True
            try:
                self._stop_children()
            finally:
                for s, handler in previous.items():
                    signal.signal(s, handler)

    def _on_signal(self, signum: int, frame: FrameType | None) -> None:
        if self.stopping:
            # A second Ctrl-C while stopping: do not wait for the current task.
            self.force = True
            return
        self.stopping = True
        raise _Stop(signum)

    # ------------------------------------------------------------------ children

    def _child_env(self) -> dict[str, str]:
        env = dict(os.environ)
        env["DJANGO_SETTINGS_MODULE"] = settings.SETTINGS_MODULE
        env["ARBITER_VAR_DIR"] = str(self.var_dir)
        base = str(settings.BASE_DIR)
        env["PYTHONPATH"] = os.pathsep.join(p for p in (base, env.get("PYTHONPATH", "")) if p)
        env.setdefault("PYTHONUNBUFFERED", "1")
        # Never the debug pages on a hall's network: they show the settings to anyone.
        env["DJANGO_DEBUG"] = "1" if self.debug else "0"
        if self.host in ("0.0.0.0", "0", "::"):
            # Phones on the hall's Wi-Fi reach this laptop by its LAN address: the web server
            # must accept that Host, and the projector's QR code must point there, not at
            # 127.0.0.1 where the arbitrator's own browser opened it.
            self.lan = lan_addresses()
            if "DJANGO_ALLOWED_HOSTS" not in env:
                env["DJANGO_ALLOWED_HOSTS"] = ",".join(
                    [*settings.ALLOWED_HOSTS, *self.lan, socket.gethostname()]
                )
            if self.lan and not env.get("ARBITER_PUBLIC_URL"):
                env["ARBITER_PUBLIC_URL"] = f"http://{self.lan[0]}:{self.port}"
        return env

    def _spawn(self, argv: list[str], out: IO[bytes] | None) -> subprocess.Popen[bytes]:
        # Own process group: the children get their stop signal from this command only,
        # in order (web first, then the worker's warm shutdown), never twice.
        return subprocess.Popen(
            argv,
            env=self.env,
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=subprocess.STDOUT if out is not None else None,
            start_new_session=True,
            preexec_fn=_die_with_parent,  # noqa: PLW1509 (no thread runs in this process)
        )

    def _start_worker(self) -> None:
        self.worker_log.parent.mkdir(parents=True, exist_ok=True)
        node = f"arbiter-serve-{os.getpid()}"
        argv = [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "arbiter",
            "worker",
            "-Q",
            QUEUES,
            "--pool",
            "prefork",
            "--concurrency",
            str(self.concurrency),
            "--loglevel",
            "INFO",
            "--hostname",
            f"{node}@%h",
            # One worker per machine needs no start-up sync or gossip with others.
            "--without-mingle",
            "--without-gossip",
        ]
        offset = self.worker_log.stat().st_size if self.worker_log.exists() else 0
        with open(self.worker_log, "ab") as log:
            self.worker = self._spawn(argv, log)
        self.worker_started = time.monotonic()
        ready = re.compile(rf"{re.escape(node)}@\S+ ready\.")
        deadline = time.monotonic() + self.ready_timeout
        while True:
            with open(self.worker_log, "rb") as fh:
                fh.seek(offset)
                if ready.search(fh.read().decode("utf-8", errors="replace")):
                    return
            code = self.worker.poll()
            if code is not None:
                raise CommandError(
                    f"the Celery worker stopped while starting (exit {code}); "
                    f"the end of {self.worker_log}:\n{_tail(self.worker_log)}"
                )
            if time.monotonic() > deadline:
                raise CommandError(
                    f"the Celery worker was not ready after {self.ready_timeout:.0f} s; "
                    f"the end of {self.worker_log}:\n{_tail(self.worker_log)}"
                )
            time.sleep(0.1)

    def _web_argv(self, host: str) -> list[str]:
        if self.web_server == "runserver":
            manage = Path(settings.BASE_DIR) / "manage.py"
            return [sys.executable, str(manage), "runserver", f"{host}:{self.port}", "--noreload"]
        return [
            sys.executable,
            "-m",
            "uvicorn",
            "arbiter.asgi:application",
            "--host",
            self.host.strip("[]"),
            "--port",
            str(self.port),
            "--workers",
            str(self.web_workers),
            # A hall reconnecting at once: the kernel holds them until they are accepted.
            "--backlog",
            "4096",
            # The live streams would keep a stop waiting for minutes: they are cut after this
            # (the phones reconnect to the next server by themselves).
            "--timeout-graceful-shutdown",
            "3",
            "--lifespan",
            "off",
            "--no-access-log",
            "--log-level",
            "warning",
        ]

    def _start_web(self) -> None:
        host = f"[{self.host}]" if ":" in self.host and not self.host.startswith("[") else self.host
        self.web = self._spawn(self._web_argv(host), None)
        self.web_started = time.monotonic()
        deadline = time.monotonic() + self.ready_timeout
        probe = "127.0.0.1" if self.host in ("0.0.0.0", "0") else "::1" if self.host == "::" else self.host
        while True:
            code = self.web.poll()
            if code is not None:
                raise CommandError(f"the web server stopped while starting (exit {code})")
            try:
                with socket.create_connection((probe.strip("[]"), self.port), timeout=1):
                    return
            except OSError:
                pass
            if time.monotonic() > deadline:
                raise CommandError(f"the web server did not answer after {self.ready_timeout:.0f} s")
            time.sleep(0.1)

    def _check_port(self) -> None:
        family = socket.AF_INET6 if ":" in self.host else socket.AF_INET
        with socket.socket(family, socket.SOCK_STREAM) as sock:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            try:
                sock.bind((self.host.strip("[]"), self.port))
            except OSError as exc:
                raise CommandError(
                    f"cannot listen on {self.host}:{self.port} ({exc.strerror}): "
                    "is Arbiter already running? Choose another --port."
                ) from None

    def _watch(self) -> None:
        """One look of the watchdog: the tasks of rounds left waiting are sent again (a
        worker killed mid-ruling, the broker down at the close). Never stops ``serve``: a
        database that does not answer now is looked at again next time."""
        try:
            for kind, pk in self.watchdog.tick():
                self.stderr.write(f"Watchdog: sent again the {kind} task of #{pk} (it waited too long).")
        except Exception as exc:  # whatever it is, the hall goes on
            self.stderr.write(f"Watchdog: cannot look at the rounds now ({type(exc).__name__}: {exc}).")
        finally:
            connections.close_all()

    def _supervise(self) -> None:
        fast_crashes = web_crashes = 0
        last_watch = time.monotonic()
        while True:
            time.sleep(0.5)
            if time.monotonic() - last_watch >= WATCH_SECONDS:
                self._watch()
                last_watch = time.monotonic()
            assert self.web is not None
            code = self.web.poll()
            if code is not None:
                # Killed (the kernel's OOM killer, a kill -9): the phones retry their slips
                # (client_id: none is counted twice) and reconnect to the new one.
                lived = time.monotonic() - self.web_started
                web_crashes = web_crashes + 1 if lived < FAST_CRASH else 1
                self.stderr.write(f"The web server stopped (exit {code}) after {lived:.0f} s.")
                if web_crashes >= MAX_FAST_CRASHES:
                    raise CommandError(f"the web server stopped {web_crashes} times in a row: giving up")
                self.stderr.write("Restarting the web server...")
                self._start_web()
                self.stderr.write(f"Web server restarted (pid {self.web.pid}).")
            if self.worker is not None and (code := self.worker.poll()) is not None:
                lived = time.monotonic() - self.worker_started
                fast_crashes = fast_crashes + 1 if lived < FAST_CRASH else 1
                self.stderr.write(
                    f"The Celery worker stopped (exit {code}) after {lived:.0f} s; "
                    f"the end of {self.worker_log}:\n{_tail(self.worker_log)}"
                )
                if fast_crashes >= MAX_FAST_CRASHES:
                    raise CommandError(f"the Celery worker stopped {fast_crashes} times in a row: giving up")
                self.stderr.write("Restarting the worker...")
                self._start_worker()
                self.stderr.write(f"Worker restarted (pid {self.worker.pid}).")

    def _stop(self, proc: subprocess.Popen[bytes] | None, sig: int, name: str, timeout: float) -> None:
        if proc is None or proc.poll() is not None:
            return
        try:
            proc.send_signal(sig)
        except ProcessLookupError:
            return
        deadline = time.monotonic() + timeout
        while proc.poll() is None and time.monotonic() < deadline and not self.force:
            time.sleep(0.1)
        if proc.poll() is None:
            self.stderr.write(f"The {name} did not stop in time: killed.")
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGKILL)  # its own group: the prefork children too
            proc.wait(10)

    def _stop_children(self) -> None:
        self._stop(self.web, signal.SIGINT, "web server", 10.0)
        if self.worker is not None and self.worker.poll() is None:
            self.stdout.write(
                "Stopping the worker (it finishes its current task; Ctrl-C again to kill it)..."
            )
            self._stop(self.worker, signal.SIGTERM, "Celery worker", STOP_TIMEOUT)
            self.stdout.write(f"Worker stopped (exit {self.worker.returncode}).")

    # ------------------------------------------------------------------ what to look at

    def _banner(self, *, with_worker: bool) -> None:
        shown = "127.0.0.1" if self.host in ("0.0.0.0", "0", "::") else self.host
        if ":" in shown and not shown.startswith("["):
            shown = f"[{shown}]"
        url = f"http://{shown}:{self.port}/"
        db = settings.DATABASES["default"]
        if str(db["ENGINE"]).endswith("sqlite3"):
            database = f"SQLite {db['NAME']}"
        else:
            database = f"PostgreSQL {db.get('NAME')} on {db.get('HOST') or 'localhost'}"
        broker = str(settings.CELERY_BROKER_URL)
        if broker.startswith(("filesystem://", "arbiterfs://")):
            where = Path(str(settings.CELERY_BROKER_TRANSPORT_OPTIONS["data_folder_in"])).parent
            broker = f"file system, {where}"
        else:
            broker = _mask(broker)
        lines = [
            "",
            "Arbiter is running ("
            + (
                f"uvicorn, {self.web_workers} web process{'es' if self.web_workers > 1 else ''}"
                if self.web_server == "uvicorn"
                else "Django's development server"
            )
            + (" and a Celery worker)." if with_worker else ")."),
            f"  Site:      {url}",
            f"  Web:       pid {self.web.pid if self.web else '-'}, {self.web_server}",
            *(
                [f"  Phones:    http://{self.lan[0]}:{self.port}/j/   (on the same Wi-Fi as this laptop)"]
                if self.lan
                else []
            ),
            f"  Admin:     {url}admin/   (a login first: python manage.py createsuperuser)",
            f"  Data:      {self.var_dir}",
            f"  Database:  {database}",
            f"  Broker:    {broker}",
        ]
        if with_worker and self.worker is not None:
            lines.append(
                f"  Worker:    pid {self.worker.pid}, queues {QUEUES}, prefork x{self.concurrency}, "
                f"log {self.worker_log}"
            )
        else:
            lines.append("  Worker:    none here (--no-worker): start workers with celery -A arbiter worker")
        lines.append(
            "Stop with Ctrl-C" + (" (the worker finishes its current task first)." if with_worker else ".")
        )
        self.stdout.write("\n".join(lines))
        self.stdout.flush()
