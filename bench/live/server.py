"""The server under test: ``manage.py runserver`` in a process group of its own, its CPU
time, threads and memory read from /proc."""

from __future__ import annotations

import http.client
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parents[2]
HOST = "127.0.0.1"
SERVER_START_TIMEOUT = 60.0
SAMPLE_SECONDS = 0.25
CLK_TCK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def proc_cpu_seconds(stat: str, ticks_per_second: int = CLK_TCK) -> float:
    """User + system CPU time of a process from the text of /proc/<pid>/stat. The command
    name (field 2) is in parentheses and may hold spaces or parentheses: the fields are
    counted after its last ``)``."""
    fields = stat[stat.rindex(")") + 2 :].split()
    # After the name: state is field 3, utime field 14, stime field 15 (proc(5)).
    utime, stime = int(fields[11]), int(fields[12])
    return (utime + stime) / ticks_per_second


def proc_status(status: str) -> dict[str, int]:
    """Threads and resident memory (kB) from the text of /proc/<pid>/status."""
    found: dict[str, int] = {}
    for line in status.splitlines():
        key, _, value = line.partition(":")
        if key in ("Threads", "VmRSS"):
            found[key] = int(value.split()[0])
    return found


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        port: int = sock.getsockname()[1]
        return port


class Server:
    """``manage.py runserver --noreload`` in its own process group; the pid is the server."""

    def __init__(self, env: dict[str, str], log: Path) -> None:
        self.port = free_port()
        self.log = log
        self._log_file = log.open("ab")
        self.process = subprocess.Popen(
            [sys.executable, "manage.py", "runserver", f"{HOST}:{self.port}", "--noreload"],
            cwd=BASE_DIR,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=self._log_file,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )

    def wait_ready(self, path: str, cookie: str) -> None:
        deadline = time.monotonic() + SERVER_START_TIMEOUT
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the server stopped (exit {self.process.returncode}):\n{self.tail()}")
            conn = http.client.HTTPConnection(HOST, self.port, timeout=2)
            try:
                conn.request("GET", path, headers={"Cookie": cookie})
                response = conn.getresponse()
                response.read()
                if response.status == 200:
                    return
                raise RuntimeError(f"GET {path}: HTTP {response.status}\n{self.tail()}")
            except OSError:
                time.sleep(0.1)
            finally:
                conn.close()
        raise RuntimeError(f"the server did not answer within {SERVER_START_TIMEOUT:.0f} s:\n{self.tail()}")

    def cpu_seconds(self) -> float:
        return proc_cpu_seconds(Path(f"/proc/{self.process.pid}/stat").read_text())

    def status(self) -> dict[str, int]:
        return proc_status(Path(f"/proc/{self.process.pid}/status").read_text())

    def tail(self, lines: int = 20) -> str:
        self._log_file.flush()
        return "\n".join(self.log.read_text("utf-8", errors="replace").splitlines()[-lines:])

    def stop(self) -> None:
        try:
            if self.process.poll() is None:
                os.killpg(self.process.pid, signal.SIGTERM)
                try:
                    self.process.wait(timeout=5)
                except subprocess.TimeoutExpired:
                    os.killpg(self.process.pid, signal.SIGKILL)
                    self.process.wait(timeout=5)
        except ProcessLookupError:
            pass
        finally:
            self._log_file.close()


@contextmanager
def running_server(env: dict[str, str], log: Path, path: str, cookie: str) -> Iterator[Server]:
    server = Server(env, log)
    try:
        server.wait_ready(path, cookie)
        yield server
    finally:
        server.stop()


class Sampler:
    """The server's threads and memory, read every SAMPLE_SECONDS until stopped."""

    def __init__(self, server: Server) -> None:
        self.server = server
        self.threads: list[int] = []
        self.rss_kb: list[int] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def __enter__(self) -> Sampler:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join(timeout=5)

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                status = self.server.status()
            except OSError:
                return
            self.threads.append(status.get("Threads", 0))
            self.rss_kb.append(status.get("VmRSS", 0))
            self._stop.wait(SAMPLE_SECONDS)
