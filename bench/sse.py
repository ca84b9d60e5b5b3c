"""Server-sent events as a browser's EventSource reads them, for every bench that follows
a live stream."""

from __future__ import annotations


class SseParser:
    """Server-sent events, one line at a time: ``feed`` returns ``(event, data)`` when a
    blank line ends an event with data; comments (heartbeats) and ``retry`` give None."""

    def __init__(self, last_id: str = "") -> None:
        self.event = ""
        self.data: list[str] = []
        #: The last ``id`` field, sent back as Last-Event-ID when the stream opens again.
        self.last_id = last_id

    def feed(self, line: str) -> tuple[str, str] | None:
        line = line.rstrip("\r\n")
        if not line:
            done = (self.event or "message", "\n".join(self.data)) if self.data else None
            self.event, self.data = "", []
            return done
        if line.startswith(":"):
            return None
        name, _, value = line.partition(":")
        value = value.removeprefix(" ")
        if name == "event":
            self.event = value
        elif name == "data":
            self.data.append(value)
        elif name == "id" and "\0" not in value:
            self.last_id = value
        return None
