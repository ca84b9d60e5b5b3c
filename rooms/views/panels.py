"""The phones' panels, sent by their live streams instead of asked for by each phone.

At each public change (a round drawn, opened, closed, ruled, placed) every phone of a hall
wants its panel at once. Asking for it costs each phone a request: 6.5 ms of a web
process, 13 s of CPU for 2,000 phones, the whole lead of a round before its last 10 s
(measured with bench/hall.py, README "Hall benchmark"). Instead each web process builds,
once per public version, the panel every phone shares (one per language and rack order)
and the own lines of the players whose phones listen to it there (three queries for all
of them, :func:`tournaments.selectors.player_lines`); each phone's stream writes its
two. The page (phone.js) puts the lines in the panel's slots (``data-mine``), which the
page's own panel fills on the server: one template either way.

A phone that polls, or whose stream began while the panels were being built, gets the
plain version message and asks for its panel as before."""

from __future__ import annotations

import json
import logging
import time
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

from django import db
from django.template.loader import render_to_string
from django.utils import translation

from rooms.views.phone import mine_context, player_lines_of, public_context, shared_at
from tournaments.models import Event, PlayerToken
from tournaments.selectors import PlayerLines

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class Seat:
    """A phone's stream as the panels see it: whose it is, its language, its rack order."""

    player: int
    language: str
    order: str
    #: The phone's token: a table released (or given a new seat code) stops its panels.
    token: str = ""


@dataclass(frozen=True)
class Panels:
    """One public version's panels for the phones of one process; the html and the lines
    are JSON already (a hall's streams write them, none encodes them again)."""

    #: The version the panels were built for; ``public``, the one they show (later, when
    #: another change came in between).
    asked: str
    public: str
    deadline: str | None
    paused: int | None
    state: str | None
    #: (language, rack order) -> the panel's html, as JSON.
    html: dict[tuple[str, str], str]
    #: (player, language) -> the player's own lines, as JSON.
    mine: dict[tuple[int, str], str]
    #: The seats' tokens that no longer worked when the panels were built (a table
    #: released, a new seat code); a stream opened since the build is not among them.
    revoked_tokens: frozenset[str] = frozenset()

    def revoked(self, seat: Seat) -> bool:
        """The phone of ``seat`` no longer holds its table: released, a new seat code."""
        return seat.token in self.revoked_tokens

    def frame(self, seat: Seat) -> str | None:
        """The ``panel`` message of ``seat``'s stream, None if it was not built for it (or
        its phone no longer holds the table: the next holder's slip is not its business)."""
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
        return f'event: panel\ndata: {head[:-1]}, "html": {html}, "mine": {mine}}}\n\n'


def _lines(lines: PlayerLines, context: dict[str, object]) -> str:
    own = mine_context(context, lines)
    return json.dumps(
        {
            "total": lines.total,
            # Rendered only when there is something to show: at the opening of a round,
            # a hall's phones have neither a slip nor a ruling in it.
            "receipt": render_to_string("phone/_receipt.html", own) if lines.slip else "",
            "result": render_to_string("phone/_result.html", own) if lines.ruling else "",
            "you": {str(number): value for number, value in lines.credited.items()},
            "chart": own["chart"],
        }
    )


def build(event: Event, wanted: str, seats: Iterable[Seat]) -> Panels:
    """The panels of ``seats`` at public version ``wanted`` (or later: what is read is
    what is sent, with its own version)."""
    try:
        shared = shared_at(event, wanted)
        # The tokens are read again at each build (one statement for the hall): a stream
        # opened before its table was released must not carry the next holder's lines.
        held = {seat.token for seat in seats}
        valid = set(
            PlayerToken.objects.filter(key__in=held, confirmed_at__isnull=False).values_list("key", flat=True)
        )
        seats = [seat for seat in seats if seat.token in valid]
        lines = player_lines_of(shared, sorted({seat.player for seat in seats}))
        orders: dict[str, set[str]] = defaultdict(set)
        players: dict[str, set[int]] = defaultdict(set)
        for seat in seats:
            orders[seat.language].add(seat.order)
            players[seat.language].add(seat.player)
        html: dict[tuple[str, str], str] = {}
        mine: dict[tuple[int, str], str] = {}
        for language, ordered in orders.items():
            with translation.override(language):
                for order in ordered:
                    context = public_context(shared, order)
                    html[language, order] = json.dumps(render_to_string("phone/_panel.html", context))
                context = public_context(shared, "v")
                for player in players[language]:
                    mine[player, language] = _lines(lines[player], context)
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
