"""The centres' link to the hub: a TCP relay a centre, counting the bytes each way."""

from __future__ import annotations

import socket
import threading
from contextlib import suppress

from bench.live.server import HOST

#: The relay: how often it looks whether it is closed; how long a connection may stay silent.
ACCEPT_SECONDS = 1.0
CONNECTION_TIMEOUT = 120.0


class Relay:
    """One TCP relay to the hub per centre, counting the bytes each way: what a hall's
    link carries (HTTP headers included; the centres open a connection per request).
    Blocking sockets and a thread a direction: plain enough to be trusted with the counts."""

    def __init__(self, target: int, count: int) -> None:
        self.target = target
        self.up, self.down, self.connections = [0] * count, [0] * count, [0] * count
        self.lock = threading.Lock()
        self.closed = threading.Event()
        self.servers = [socket.create_server((HOST, 0)) for _ in range(count)]
        self.ports: list[int] = [server.getsockname()[1] for server in self.servers]
        for index, server in enumerate(self.servers):
            server.settimeout(ACCEPT_SECONDS)  # to see ``closed`` in time
            threading.Thread(target=self._accept, args=(index, server), daemon=True).start()

    def _accept(self, index: int, server: socket.socket) -> None:
        while not self.closed.is_set():
            try:
                client, _ = server.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            with self.lock:
                self.connections[index] += 1
            threading.Thread(target=self._relay, args=(index, client), daemon=True).start()

    def _relay(self, index: int, client: socket.socket) -> None:
        with client:
            try:
                hub = socket.create_connection((HOST, self.target), timeout=CONNECTION_TIMEOUT)
            except OSError:
                return
            with hub:
                client.settimeout(CONNECTION_TIMEOUT)
                back = threading.Thread(target=self._pump, args=(hub, client, self.down, index), daemon=True)
                back.start()
                self._pump(client, hub, self.up, index)
                back.join(CONNECTION_TIMEOUT)

    def _pump(self, source: socket.socket, sink: socket.socket, counts: list[int], index: int) -> None:
        with suppress(OSError):
            while data := source.recv(65536):
                with self.lock:
                    counts[index] += len(data)
                sink.sendall(data)
        # The other side learns the end as from the hub or the centre itself.
        with suppress(OSError):
            sink.shutdown(socket.SHUT_WR)

    def close(self) -> None:
        self.closed.set()
        for server in self.servers:
            server.close()
