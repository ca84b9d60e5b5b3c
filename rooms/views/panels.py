"""The phones' panels, sent by their live streams instead of asked for by each phone.

At each public change (a round drawn, opened, closed, ruled, placed) every phone of a hall
wants its panel at once. Asking for it costs each phone a request, and a hall's requests
would take the server the whole time before the round's slips come (docs/decisions.md). Instead
each web process builds,
once per public version, the panel every phone shares (one per language and rack order)
and the own lines of the players whose phones listen to it there (three queries for all
of them, :func:`rooms.lines.player_lines`); each phone's stream writes its
two. The page (phone.js) puts the lines in the panel's slots (``data-mine``), which the
page's own panel fills on the server: one template either way.

The board and the tiles to come change only when a move is placed, yet are most of a
panel late in a game (docs/decisions.md). Each
such part is named by its content (``{% keep %}``) and a stream sends it only when its
phone does not hold it (the parts of the last panel it sent); otherwise a placeholder,
where phone.js puts back the phone's own part. The player's chart likewise. Each of the
board's rows is a part too: a placed move changes a few of them, and the new board is sent
with the others left out.
A phone missing a part it is told to keep (a panel it reloaded meanwhile) reloads its
panel. A kept part is the same on every phone and on both paths (the stream's panel and
the page's): the game so far, whose "You" column the page fills on the server, is not one
(kept, a phone that had reloaded its page was told to keep the stream's and reloaded again
at each change until the next move).

A phone that polls, or whose stream began while the panels were being built, gets the
plain version message and asks for its panel as before."""

from __future__ import annotations

import functools
import json
import logging
import re
import time
from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from django import db
from django.template.loader import render_to_string
from django.utils import translation

from rooms.lines import PlayerLines
from rooms.templatetags.arbiter import KEPT_PARTS, part_key, receipt_html, result_html
from rooms.views.phone import mine_context, player_lines_of, public_context, shared_at
from tournaments.models import Event
from tournaments.selectors.players import confirmed_token_keys

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class Seat:
    """A phone's stream as the panels see it: whose it is, its language, its rack order."""

    player: int
    language: str
    order: str
    #: The phone's token: a table released (or given a new seat code) stops its panels.
    token: str = ""


def _inside(text: str) -> str:
    """``text`` as it is inside a JSON string: a string's JSON is its characters' JSON one
    by one, so a part's is found as is in the whole's."""
    return json.dumps(text)[1:-1]


@dataclass(frozen=True)
class Html:
    """A panel's html, as JSON, and its parts a phone may keep: (key, the part as it is in
    the JSON, its placeholder as it would be), a part before the parts it holds (a board
    before its rows)."""

    full: str
    parts: tuple[tuple[str, str, str], ...] = ()
    #: The parts no other part holds: the ones a message's id names.
    outer: frozenset[str] = frozenset()
    #: The parts left out -> the html without them (phones that hold the same parts).
    _lean: dict[frozenset[str], str] = field(default_factory=dict, compare=False, repr=False)

    @classmethod
    def of(cls, html: str, parts: list[tuple[str, str, str]]) -> Html:
        """``parts`` as the template tags told them, a part after the parts inside it."""
        found = tuple(
            (key, _inside(part), _inside(placeholder)) for key, part, placeholder in reversed(parts)
        )
        outer = frozenset(
            key for key, part, _ in found if not any(part in other for k, other, _ in found if k != key)
        )
        return cls(json.dumps(html), found, outer)

    def keys(self) -> frozenset[str]:
        return frozenset(key for key, _, _ in self.parts)

    def without(self, held: frozenset[str]) -> str:
        """The html for a phone that holds the parts ``held``."""
        left_out = self.keys() & held
        if not left_out:
            return self.full
        lean = self._lean.get(left_out)
        if lean is None:  # once per build for a hall's phones (the event loop's only)
            lean = self.full
            # A part held whole takes the parts inside it along (each is found no more).
            for key, part, placeholder in self.parts:
                if key in left_out:
                    lean = lean.replace(part, placeholder, 1)
            self._lean[left_out] = lean
        return lean


@dataclass(frozen=True)
class Lines:
    """A player's own lines, as JSON, the chart apart (sent only to a phone without it)."""

    head: str
    chart_key: str
    chart: str

    def without(self, held: frozenset[str]) -> str:
        chart = "null" if self.chart_key in held else self.chart
        return f'{self.head[:-1]}, "chart_key": "{self.chart_key}", "chart": {chart}}}'


@dataclass(frozen=True)
class Panels:
    """One public version's panels for the phones of one process, JSON already (a hall's
    streams write them, none encodes them again)."""

    #: The version the panels were built for; ``public``, the one they show (later, when
    #: another change came in between).
    asked: str
    public: str
    deadline: str | None
    paused: int | None
    state: str | None
    #: (language, rack order) -> the panel's html.
    html: dict[tuple[str, str], Html]
    #: (player, language) -> the player's own lines.
    mine: dict[tuple[int, str], Lines]
    #: The seats' tokens that no longer worked when the panels were built (a table
    #: released, a new seat code); a stream opened since the build is not among them.
    revoked_tokens: frozenset[str] = frozenset()

    def revoked(self, seat: Seat) -> bool:
        """The phone of ``seat`` no longer holds its table: released, a new seat code."""
        return seat.token in self.revoked_tokens

    def frame(self, seat: Seat, held: frozenset[str] = frozenset()) -> tuple[str, frozenset[str]] | None:
        """The ``panel`` message of ``seat``'s stream, whose phone holds the parts ``held``,
        and the parts it holds once the message is in place; None if it was not built for
        it (or its phone no longer holds the table: the next holder's slip is not its
        business)."""
        if self.revoked(seat):
            return None
        html = self.html.get((seat.language, seat.order))
        mine = self.mine.get((seat.player, seat.language))
        if html is None or mine is None:
            return None
        head = json.dumps(
            {
                "public": self.public,
                "deadline": self.deadline,
                "paused": self.paused,
                "state": self.state,
                "now": int(time.time() * 1000),  # the server's clock, as in every message
            }
        )
        body = f'{head[:-1]}, "html": {html.without(held)}, "mine": {mine.without(held)}}}'
        # The parts as the message's id: the browser sends it back when its stream opens
        # again (Last-Event-ID), and the new stream leaves them out too (:func:`held_by`).
        # The outer ones only: the board's rows, 15 to 21 keys more in every message, serve
        # only a stream opened again after a move was placed.
        named = " ".join(sorted(html.outer | {mine.chart_key}))
        return f"event: panel\ndata: {body}\nid: {named}\n\n", html.keys() | {mine.chart_key}


#: A part's key (rooms/templatetags/arbiter.py, part_key).
_KEY = re.compile(r"[a-z]+-[0-9a-f]{16}")
#: Of a Last-Event-ID: no more keys than a panel has parts, with room to spare.
MOST_KEYS = 16


def held_by(last_event_id: str) -> frozenset[str]:
    """The parts a phone holds, from the id of the last panel its stream sent (the header
    ``Last-Event-ID`` of a stream opened again). A guess: a phone that lacks a part it is
    told to keep reloads its panel."""
    keys = last_event_id[: MOST_KEYS * 40].split()
    return frozenset(key for key in keys[:MOST_KEYS] if _KEY.fullmatch(key))


def _lines(lines: PlayerLines, context: dict[str, object]) -> Lines:
    own = mine_context(context, lines)
    chart = str(own["chart"])
    replace = bool(own["event"].phone_replace)
    head = json.dumps(
        {
            "total": lines.total,
            "receipt": receipt_html(lines.slip, own["round"], bool(own["time_up"]), replace),
            "result": result_html(lines.ruling),
            "you": {str(number): value for number, value in lines.credited.items()},
        }
    )
    return Lines(head, *_chart_part(chart))


@functools.lru_cache(maxsize=4096)
def _chart_part(chart: str) -> tuple[str, str]:
    """(key, JSON) of a chart. The charts come from rooms/charts.py's cache: the same
    string for the players of the same course, hashed and encoded once, not once per
    phone and build (docs/decisions.md)."""
    return part_key("chart", chart), json.dumps(chart)


#: The build lets the arbitrator go first (``pause``) between this many players' lines.
PAUSE_EVERY = 100


def build(
    event: Event, wanted: str, seats: Iterable[Seat], pause: Callable[[], None] = lambda: None
) -> Panels:
    """The panels of ``seats`` at public version ``wanted`` (or later: what is read is
    what is sent, with its own version). ``pause`` is called between the steps: it waits
    while the arbitrator's requests go first (rooms/views/live.py)."""
    try:
        pause()
        shared = shared_at(event, wanted)
        # The tokens are read again at each build (one statement for the hall): a stream
        # opened before its table was released must not carry the next holder's lines.
        held = {seat.token for seat in seats}
        valid = confirmed_token_keys(held)
        seats = [seat for seat in seats if seat.token in valid]
        pause()
        lines = player_lines_of(shared, sorted({seat.player for seat in seats}))
        orders: dict[str, set[str]] = defaultdict(set)
        players: dict[str, set[int]] = defaultdict(set)
        for seat in seats:
            orders[seat.language].add(seat.order)
            players[seat.language].add(seat.player)
        html: dict[tuple[str, str], Html] = {}
        mine: dict[tuple[int, str], Lines] = {}
        for language, ordered in orders.items():
            with translation.override(language):
                for order in ordered:
                    parts: list[tuple[str, str, str]] = []
                    context = {**public_context(shared, order), KEPT_PARTS: parts}
                    html[language, order] = Html.of(render_to_string("phone/_panel.html", context), parts)
                context = public_context(shared, "v")
                for count, player in enumerate(players[language], 1):
                    mine[player, language] = _lines(lines[player], context)
                    if count % PAUSE_EVERY == 0:
                        pause()
        versions = shared.versions
        return Panels(
            wanted,
            versions.public,
            versions.deadline,
            versions.paused,
            versions.state,
            html,
            mine,
            frozenset(held - valid),
        )
    finally:
        db.connections.close_all()  # a thread of the pool: give its connection back at once
