"""The environment read through django-environ, refusing a bad value by name instead of
guessing."""

from __future__ import annotations

import builtins
from pathlib import Path
from typing import Any

import environ
from django.core.exceptions import ImproperlyConfigured

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}


class Env(environ.Env):
    """django-environ's reader, strict where its guess would go unnoticed."""

    def get_value(
        self,
        var: str,
        cast: Any = None,
        default: Any = environ.Env.NOTSET,
        parse_default: builtins.bool = False,
    ) -> Any:
        raw = self.ENVIRON.get(var)
        if raw is not None and raw.startswith("$"):
            # Read as written: django-environ takes "$NAME" for the value of NAME, silently
            # the default when NAME is unset, with no switch to turn it off; a secret key
            # may start with "$" (Django's generator draws it).
            return self.parse_value(raw, cast)
        return super().get_value(var, cast=cast, default=default, parse_default=parse_default)

    def bool(self, var: str, default: builtins.bool) -> builtins.bool:  # type: ignore[override]
        # django-environ reads every word it does not know as False: DJANGO_DEBUG=maybe.
        raw = self.ENVIRON.get(var)
        if raw is not None and raw.strip().lower() not in _TRUE | _FALSE:
            raise ImproperlyConfigured(f"{var}={raw!r}: expected one of {sorted(_TRUE | _FALSE - {''})}")
        return builtins.bool(super().bool(var, default=default))

    def int(self, var: str, default: builtins.int) -> builtins.int:  # type: ignore[override]
        try:
            return builtins.int(super().int(var, default=default))
        except ValueError:  # int()'s own message does not name the variable
            raise ImproperlyConfigured(f"{var}={self.ENVIRON[var]!r}: expected a whole number") from None

    def list(self, var: str, default: builtins.list[str]) -> builtins.list[str]:  # type: ignore[override]
        """Comma-separated items, blanks around them dropped (django-environ keeps them). Set
        but without any item (``""``, ``" , "``) is refused: unset it for the default."""
        items = [item.strip() for item in super().list(var, default=default) if item.strip()]
        if not items and var in self.ENVIRON:
            raise ImproperlyConfigured(
                f"{var}={self.ENVIRON[var]!r}: expected comma-separated items; unset it for the default"
            )
        return items

    def folder(self, var: str, default: Path) -> Path:
        """A pathlib.Path (django-environ's own Path class has no ``/``). Set but empty or
        blank is refused: ``Path("")`` is the current folder, where nothing should be
        written by accident."""
        if var not in self.ENVIRON:
            return default
        raw = self.str(var)
        if not raw.strip():
            raise ImproperlyConfigured(
                f"{var}={raw!r}: empty path; give a folder or unset it for the default"
            )
        return Path(raw)


env = Env()
