"""What the pages share: finding the event, checking who asks, turning refusals into
messages."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from importlib import import_module
from typing import Any, cast

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.sessions.backends.base import SessionBase
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from rest_framework.throttling import SimpleRateThrottle

from tournaments.core import ApplicationError
from tournaments.models import Event, Player, PlayerToken
from tournaments.permissions import can_arbitrate
from tournaments.selectors.players import player_token, waiting_token
from tournaments.state import StateError

#: The session key holding the player joined on this browser, per event:
#: {"<event id>": {"player": id, "token": key}}.
SESSION_PLAYERS = "arbiter_players"
#: A token's reading on an event loop.
TokenOf = Callable[[str], Awaitable[PlayerToken | None]]


#: The most digits a number typed in a page may have (a table, a round, a score, seconds):
#: longer ones are refused before Python converts them (past 4,300 digits its int() fails
#: with an error of its own; a 20-digit id is past the database's integers).
MAX_DIGITS = 9


def number(text: object) -> int | None:
    """A whole number as typed in a form: ASCII digits only, at most :data:`MAX_DIGITS`;
    None for anything else (the caller says why)."""
    value = str(text if text is not None else "").strip()
    if not value or not value.isascii() or not value.isdigit() or len(value) > MAX_DIGITS:
        return None
    return int(value)


def arbitrated_event(request: HttpRequest, event_id: int) -> Event:
    """The event, when the caller arbitrates it; 403 otherwise (login first)."""
    # Not the word list's content: megabytes for an imported list, read only to compile it.
    event = get_object_or_404(Event.objects.select_related("lexicon").defer("lexicon__content"), pk=event_id)
    if not can_arbitrate(request.user, event):
        raise PermissionDenied(_("Only the arbitrators of this event may open this page."))
    return event


def arbitrator_page(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """Log in first; the view then checks that the caller arbitrates the event
    (:func:`arbitrated_event`)."""
    return login_required(view)


def session_player(request: HttpRequest, event: Event | int) -> tuple[Player | None, str]:
    """The player who joined ``event`` (or the event of this id) on this browser, and their
    API token. The player comes with their event (``player.event``)."""
    event_id = event if isinstance(event, int) else event.pk
    joined = request.session.get(SESSION_PLAYERS, {}).get(str(event_id))
    if not joined:
        return None, ""
    # The token, not the session, says who this phone is: a table the arbitrator released
    # is no longer this browser's. Read as every slip reads it (one statement written once:
    # a hall's 2,000 streams open at once after a Wi-Fi drop).
    return _seated(player_token(str(joined.get("token", ""))), joined, event_id)


def session_store(request: HttpRequest) -> SessionBase:
    """The session of ``request`` as SessionMiddleware makes it, for code that runs before
    the middleware (arbiter/hall.py)."""
    engine = import_module(settings.SESSION_ENGINE)
    return cast(SessionBase, engine.SessionStore(request.COOKIES.get(settings.SESSION_COOKIE_NAME)))


async def asession_player(store: SessionBase, event_id: int, token_of: TokenOf) -> tuple[Player | None, str]:
    """:func:`session_player` on an event loop: the session through the cache's own
    asynchronous read, the token through ``token_of`` (as
    :func:`~tournaments.selectors.players.player_token` finds it)."""
    joined = (await store.aget(SESSION_PLAYERS, {})).get(str(event_id))
    if not joined:
        return None, ""
    return _seated(await token_of(str(joined.get("token", ""))), joined, event_id)


def _seated(token: PlayerToken | None, joined: dict[str, Any], event_id: int) -> tuple[Player | None, str]:
    if token is None or token.player_id != joined.get("player") or token.player.event_id != event_id:
        return None, ""
    return token.player, token.key


def session_waiting(request: HttpRequest, event: Event) -> PlayerToken | None:
    """The join this browser asked for, while it waits for the arbitrator's confirmation."""
    joined = request.session.get(SESSION_PLAYERS, {}).get(str(event.pk))
    if not joined:
        return None
    token = waiting_token(str(joined.get("token", "")))
    if token is None or token.player_id != joined.get("player") or token.player.event_id != event.pk:
        return None
    return token


def remember_player(request: HttpRequest, event: Event, player: Player, token: str) -> None:
    # A change of identity gets a new session key (as a login does): a key seen before the
    # join (a shared phone, a fixed cookie) does not carry the seat.
    request.session.cycle_key()
    joined = dict(request.session.get(SESSION_PLAYERS, {}))
    joined[str(event.pk)] = {"player": player.pk, "token": token}
    request.session[SESSION_PLAYERS] = joined


@contextmanager
def refusals(request: HttpRequest, said: list[str] | None = None) -> Iterator[None]:
    """A refused action becomes an error message on the next page; nothing was stored.
    ``said``: a fragment answered to htmx has no next page, so the refusal goes there, to be
    shown in the fragment (a message left in the session would surface pages later)."""
    try:
        yield
    except ApplicationError as exc:
        _refused(request, exc.message, said)
    except StateError as exc:
        _refused(request, _("The stored game does not replay (%(error)s).") % {"error": exc}, said)


def _refused(request: HttpRequest, text: str, said: list[str] | None) -> None:
    if said is None:
        messages.error(request, text)
    else:
        said.append(text)


def is_htmx(request: HttpRequest) -> bool:
    """Asked by htmx (django-htmx's middleware sets ``request.htmx``): answer a fragment."""
    return bool(getattr(request, "htmx", False))


class _PageThrottle(SimpleRateThrottle):
    """A DRF throttle for a page's post: the API's rates (REST_FRAMEWORK's
    DEFAULT_THROTTLE_RATES) and its way of counting, in the same cache. Counted apart from
    the API's: a phone's script hands its slips to the API and its form posts them here,
    and neither spends the other's allowance."""

    def __init__(self, scope: str, ident: str) -> None:
        self.scope = scope  # before DRF's __init__, which reads the scope's rate
        self.ident = ident
        super().__init__()

    def get_cache_key(self, request: Any, view: Any) -> str:
        return self.cache_format % {"scope": self.scope, "ident": f"page-{self.ident}"}


def rate_key(scope: str, ident: str) -> str:
    """The cache key that counts the page's posts of ``scope`` for ``ident``."""
    return _PageThrottle(scope, ident).get_cache_key(None, None)


def within_rate(request: HttpRequest, scope: str, ident: str) -> bool:
    """Count one more of the page's posts of ``scope`` ("join", "slips") for ``ident``;
    False past the scope's rate."""
    throttle: Any = _PageThrottle(scope, ident)  # typed for the API's requests; reads none of it
    return bool(throttle.allow_request(request, None))
