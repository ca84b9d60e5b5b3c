"""Password logins rate-limited: the console's login page and the API's token alike.

Every failed login is counted per account and address, and per address alone;
past :data:`ACCOUNT_LIMIT` (or :data:`ADDRESS_LIMIT`) failures in :data:`WINDOW_SECONDS`
no password is checked from there, the right one neither, until the window ends. Per
account *and* address: a player on the hall's Wi-Fi cannot lock the arbitrator out of
their own laptop by typing wrong passwords for their name.

The counters live in the cache (Redis in production, shared by the web processes;
memory on a laptop), as the other rate limits do.
"""

from __future__ import annotations

import hashlib
from typing import Any

from django import forms
from django.contrib.auth.backends import ModelBackend
from django.contrib.auth.forms import AuthenticationForm
from django.core.cache import cache
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from plumbing.middleware import client_address

ACCOUNT_LIMIT = 10
ADDRESS_LIMIT = 50
WINDOW_SECONDS = 15 * 60


def address(request: HttpRequest | None) -> str:
    """The caller's address (:func:`plumbing.middleware.client_address`); none without a
    request (a login from the terminal)."""
    return "" if request is None else client_address(request)


def _keys(username: str, where: str) -> tuple[str, str]:
    # Hashed: a user name may hold anything, and the cache keys stay short and safe.
    account = hashlib.sha256(f"{username.casefold()}\0{where}".encode()).hexdigest()[:32]
    return f"arbiter:login:account:{account}", f"arbiter:login:address:{where}"


def locked(username: str, request: HttpRequest | None) -> bool:
    account, where = _keys(username, address(request))
    counts = cache.get_many([account, where])
    return bool(counts.get(account, 0) >= ACCOUNT_LIMIT or counts.get(where, 0) >= ADDRESS_LIMIT)


def _count(key: str) -> None:
    cache.add(key, 0, WINDOW_SECONDS)
    try:
        cache.incr(key)
    except ValueError:  # the window ended between add and incr
        cache.set(key, 1, WINDOW_SECONDS)


class RateLimitedBackend(ModelBackend):
    """Django's users and passwords, checked only while the caller is within the limits."""

    def authenticate(
        self,
        request: HttpRequest | None,
        username: str | None = None,
        password: str | None = None,
        **kwargs: Any,
    ) -> Any:
        if username is not None and locked(username, request):
            # Stops here: no other backend is asked, and the attempt counts as failed.
            raise PermissionDenied
        user = super().authenticate(request, username=username, password=password, **kwargs)
        if user is None and username is not None:
            for key in _keys(username, address(request)):
                _count(key)
        return user


#: The id of the login page's refusal (templates/registration/login.html).
LOGIN_ERROR_ID = "login-error"


class LoginForm(AuthenticationForm):
    """The login page's form: says why a login is refused when the limit is reached."""

    error_messages = {  # noqa: RUF012 (Django reads it from the class, as its own form does)
        **AuthenticationForm.error_messages,
        "locked": _("Too many failed logins from this address: wait %(minutes)s minutes and try again."),
    }

    def clean(self) -> dict[str, Any]:
        try:
            username = self.cleaned_data.get("username")
            if username and locked(username, self.request):
                raise forms.ValidationError(
                    self.error_messages["locked"], code="locked", params={"minutes": WINDOW_SECONDS // 60}
                )
            return super().clean()
        except forms.ValidationError:
            # A refusal of the pair, not of one field: both are marked invalid and read with
            # the message (the template gives it this id), as a field's own error is.
            for field in self.fields.values():
                field.widget.attrs.update({"aria-invalid": "true", "aria-describedby": LOGIN_ERROR_ID})
            raise
