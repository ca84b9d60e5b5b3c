"""What the bench reads in the server's pages, as phone.js and live.js read them: the play
page's addresses and token, a panel's parts, a form's CSRF token."""

from __future__ import annotations

import html
import re
from dataclasses import dataclass

_ATTRIBUTE = re.compile(r'\bdata-(live|stream|poll|public|token|api|round)="([^"]*)"')
_CSRF = re.compile(r'name="csrfmiddlewaretoken"\s+value="([^"]+)"')


@dataclass(frozen=True)
class PlayPage:
    """What the play page gives phone.js and live.js."""

    token: str
    api: str
    stream: str
    live: str
    poll_ms: int
    public: str
    round_key: tuple[int, int] | None


def page_attributes(text: str) -> dict[str, str]:
    """The first value of each ``data-`` attribute the phone reads."""
    found: dict[str, str] = {}
    for name, value in _ATTRIBUTE.findall(text):
        found.setdefault(name, html.unescape(value))
    return found


_PART = re.compile(r'data-keep="([^"]+)"( data-kept)?')


def panel_parts(text: str) -> tuple[set[str], set[str]]:
    """The parts a panel holds, and those its stream left out for the phone to put back
    (rooms/views/panels.py, phone.js)."""
    present: set[str] = set()
    left_out: set[str] = set()
    for key, kept in _PART.findall(text):
        (left_out if kept else present).add(key)
    return present, left_out


def parts_held(present: set[str], left_out: set[str], held: set[str]) -> tuple[bool, set[str]]:
    """Whether a phone holding ``held`` can put back every part a panel left out, and the
    parts it holds then: those sent, those put back, and those inside a part put back (a
    board's rows inside the board, as phone.js finds them in the element it puts back)."""
    kept = left_out & held
    inside = (
        {key for key in held if key.startswith("row-")}
        if any(k.startswith("board-") for k in kept)
        else set()
    )
    return left_out <= held, present | kept | inside


_ROUND = ' data-round="'


def round_key(text: str) -> tuple[int, int] | None:
    """(game, round) of the receipt box's ``data-round="1-3"``, as phone.js reads it (a
    part that is not a number: None, the slip then says no round)."""
    # One attribute searched, not every one of the page parsed: a hall's phones read each
    # panel pushed, and parsing them all would be most of the bench's own CPU at each
    # change, its phones late by that much (docs/benchmarks.md).
    start = text.find(_ROUND)
    value = (
        html.unescape(text[start + len(_ROUND) : text.find('"', start + len(_ROUND))]) if start >= 0 else ""
    )
    game, _, number = value.partition("-")
    if game.isdecimal() and number.isdecimal() and int(game) and int(number):
        return int(game), int(number)
    return None


def parse_play_page(text: str) -> PlayPage | None:
    """The play page's addresses and token; None when it is not the play page (the join
    page again: the session did not hold)."""
    found = page_attributes(text)
    if not all(found.get(k) for k in ("token", "api", "stream", "live")):
        return None
    poll = found.get("poll", "")
    return PlayPage(
        token=found["token"],
        api=found["api"],
        stream=found["stream"],
        live=found["live"],
        poll_ms=int(poll) if poll.isdecimal() and int(poll) > 0 else 1000,
        public=found.get("public", ""),
        round_key=round_key(text),
    )


def csrf_token(text: str) -> str | None:
    found = _CSRF.search(text)
    return html.unescape(found.group(1)) if found else None
