"""The WSGI application (``serve --web runserver``, a WSGI server in production). The
receipt time of a request (:mod:`plumbing.middleware`) is taken as the server hands it
over."""

import os
import time
from collections.abc import Callable, Iterable
from typing import Any

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "arbiter.settings.local")
django_application = get_wsgi_application()

from plumbing.middleware import SCOPE_KEY  # noqa: E402  (after Django's set-up)


def application(environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
    environ[SCOPE_KEY] = time.time()
    return django_application(environ, start_response)
