"""The simulated phones, a thread each: asking every second as live.js does, or holding
one stream as EventSource does; what each saw, and when."""

from __future__ import annotations

import http.client
import json
import socket
import threading
import time
from contextlib import suppress
from dataclasses import dataclass, field

from bench.live.server import HOST
from bench.sse import SseParser

#: A phone gives up on one request after this (seconds); the next poll tries again.
REQUEST_TIMEOUT = 10.0


@dataclass
class Phones:
    """What every simulated phone saw, written by its own thread only."""

    count: int
    stop: threading.Event = field(default_factory=threading.Event)
    last: list[str | None] = field(init=False)
    seen: list[list[tuple[float, str]]] = field(init=False)
    #: (time the answer arrived, seconds it took): requests for polling, the time to the
    #: first event for a stream.
    latencies: list[list[tuple[float, float]]] = field(init=False)
    errors: list[int] = field(init=False)
    connects: list[int] = field(init=False)
    socks: list[socket.socket | None] = field(init=False)

    def __post_init__(self) -> None:
        self.last = [None] * self.count
        self.seen = [[] for _ in range(self.count)]
        self.latencies = [[] for _ in range(self.count)]
        self.errors = [0] * self.count
        self.connects = [0] * self.count
        self.socks = [None] * self.count

    def saw(self, index: int, when: float, public: str) -> None:
        if public != self.last[index]:
            self.seen[index].append((when, public))
            self.last[index] = public

    def all_past(self, version: str) -> bool:
        return all(v is not None and v != version for v in self.last)

    def all_answered(self) -> bool:
        return all(v is not None for v in self.last)

    def hang_up(self) -> None:
        """Wakes the stream readers blocked in recv."""
        self.stop.set()
        for sock in self.socks:
            if sock is not None:
                with suppress(OSError):
                    sock.shutdown(socket.SHUT_RDWR)


def poll_phone(
    phones: Phones, index: int, port: int, path: str, cookie: str, every: float, phase: float, until: float
) -> None:
    """live.js: ask, read the answer, wait ``every`` seconds, ask again (keep-alive)."""
    conn: http.client.HTTPConnection | None = None
    headers = {"Cookie": cookie, "Accept": "application/json"}
    phones.stop.wait(phase)
    while not phones.stop.is_set() and time.perf_counter() < until:
        if conn is None:
            conn = http.client.HTTPConnection(HOST, port, timeout=REQUEST_TIMEOUT)
            phones.connects[index] += 1
        sent = time.perf_counter()
        try:
            conn.request("GET", path, headers=headers)
            response = conn.getresponse()
            body = response.read()
            back = time.perf_counter()
            if response.status == 200:
                phones.latencies[index].append((back, back - sent))
                phones.saw(index, back, json.loads(body)["public"])
            else:
                phones.errors[index] += 1
            if response.will_close:
                conn.close()
                conn = None
        except (OSError, http.client.HTTPException, ValueError, KeyError):
            phones.errors[index] += 1
            if conn is not None:
                conn.close()
            conn = None
        phones.stop.wait(every)
    if conn is not None:
        conn.close()


def stream_phone(
    phones: Phones, index: int, port: int, path: str, cookie: str, phase: float, until: float
) -> None:
    """EventSource: one long GET read line by line; after the stream ends, reconnect
    after the server's ``retry``."""
    retry = 1.0
    phones.stop.wait(phase)
    request = (
        f"GET {path} HTTP/1.1\r\nHost: {HOST}:{port}\r\nCookie: {cookie}\r\n"
        "Accept: text/event-stream\r\nCache-Control: no-cache\r\n\r\n"
    ).encode()
    while not phones.stop.is_set() and time.perf_counter() < until:
        sent = time.perf_counter()
        first = True
        try:
            with socket.create_connection((HOST, port), timeout=max(1.0, until - sent + 5)) as sock:
                phones.socks[index] = sock
                phones.connects[index] += 1
                if phones.stop.is_set():
                    return
                sock.sendall(request)
                reader = sock.makefile("rb")
                status = reader.readline().decode("latin-1")
                if " 200 " not in status:
                    phones.errors[index] += 1
                else:
                    while reader.readline() not in (b"\r\n", b"\n", b""):
                        pass  # the headers
                    parser = SseParser()
                    while not phones.stop.is_set():
                        line = reader.readline()
                        if not line:
                            break
                        event = parser.feed(line.decode())
                        if event is None:
                            if line.startswith(b"retry:"):
                                retry = int(line.split(b":", 1)[1]) / 1000
                            continue
                        if event[0] == "version":
                            back = time.perf_counter()
                            if first:
                                phones.latencies[index].append((back, back - sent))
                                first = False
                            phones.saw(index, back, json.loads(event[1])["public"])
                reader.close()
        except (OSError, ValueError, KeyError):
            if not phones.stop.is_set():
                phones.errors[index] += 1
        finally:
            phones.socks[index] = None
        phones.stop.wait(retry)


def start_all(threads: list[threading.Thread]) -> None:
    for thread in threads:
        thread.start()


def join_all(threads: list[threading.Thread], phones: Phones) -> None:
    phones.hang_up()
    deadline = time.monotonic() + REQUEST_TIMEOUT + 5
    for thread in threads:
        thread.join(timeout=max(0.0, deadline - time.monotonic()))
