"""Password logins limited by django-axes: the console's login page and the API's token alike.

Axes counts each failed login in the cache (Redis in production, shared by the web
processes; memory on a laptop) for the account at the caller's address and for the
address alone (``AXES_LOCKOUT_PARAMETERS``); past :data:`ACCOUNT_LIMIT` or
:data:`ADDRESS_LIMIT` failures no password is checked, the right one neither, until
``AXES_COOLOFF_TIME`` has passed without a failure. Per account *and* address: a player on
the hall's Wi-Fi cannot lock the arbitrator out of their own laptop by typing wrong
passwords for their name. The settings name the functions below.
"""

from __future__ import annotations

from typing import Any

from axes.handlers.proxy import AxesProxyHandler
from axes.helpers import (
    get_cache,
    get_client_ip_address,
    get_client_username,
    get_cool_off,
    get_credentials,
    make_cache_key_list,
)
from django.contrib.auth import get_user_model
from django.http import HttpRequest, HttpResponse
from django.http.response import HttpResponseBase
from django.utils.translation import gettext_lazy as _

ACCOUNT_LIMIT = 10
ADDRESS_LIMIT = 50
#: What a locked-out login is told, with the minutes of :func:`wait_minutes`.
LOCKED_OUT = _("Too many failed logins from this address: wait %(minutes)s minutes and try again.")


def login_name(request: HttpRequest, credentials: dict[str, Any] | None) -> str | None:
    """``AXES_USERNAME_CALLABLE``: the name typed, case folded, so that ARBITRE and arbitre
    count as one account's tries. Axes asks without credentials too (its lockout answer)."""
    field = get_user_model().USERNAME_FIELD
    if credentials:
        name = credentials.get(field)
    else:
        data = getattr(request, "data", None) or request.POST
        name = data.get(field) if hasattr(data, "get") else None
    return name.casefold() if isinstance(name, str) else None


def failure_limit(request: HttpRequest, credentials: dict[str, Any] | None) -> int:
    """``AXES_FAILURE_LIMIT``. Axes holds one limit against the larger of the two counts (the
    account's at this address, the address's): the account's limit once the account's
    count reached it, the address's otherwise."""
    # Axes' key of the account at this address, as it builds it from the same two values.
    account = {
        "username": get_client_username(request, credentials),
        "ip_address": get_client_ip_address(request),
    }
    account_failures = get_cache().get(make_cache_key_list([account])[0], 0)
    return ACCOUNT_LIMIT if account_failures >= ACCOUNT_LIMIT else ADDRESS_LIMIT


def locked(request: HttpRequest, username: str) -> bool:
    """Whether a login as ``username`` from the caller's address would be refused without
    its password being checked: the login page and the API's token say so."""
    allowed: bool = AxesProxyHandler.is_allowed(request, get_credentials(username))
    return not allowed


def wait_minutes(request: HttpRequest | None = None) -> int:
    """The longest wait of a lockout: the cool-off (each failure starts it again)."""
    return int(get_cool_off(request).total_seconds() // 60)


def lockout_response(
    request: HttpRequest, original_response: object = None, credentials: object = None
) -> HttpResponseBase:
    """``AXES_LOCKOUT_CALLABLE``, for a page whose login axes refused or that reached the
    limit: the page as its view answered (the login page's form says why itself)."""
    if isinstance(original_response, HttpResponseBase):
        return original_response
    # Axes' asynchronous middleware hands the credentials in the response's place
    # (jazzband/django-axes#1494); the site's chain is synchronous (arbiter/asgi.py).
    return HttpResponse(str(LOCKED_OUT) % {"minutes": wait_minutes(request)}, status=429)
