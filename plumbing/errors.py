"""Server errors: a reference for the person who saw one, the traceback in the log under it.

A 500 shows nothing of its cause (an exception's message can hold a setting, or the
password in a database address); the reference is how the arbitrator and the organiser
find the same error in the log. The API answers it in its JSON error format
(``api/errors.py``), the pages in ``templates/500.html``; both handlers are chosen by
``arbiter/urls.py``."""

from __future__ import annotations

import logging
import uuid

from django.http import HttpRequest, HttpResponse, HttpResponseServerError
from django.template import loader

logger = logging.getLogger(__name__)


def server_error_logged(request: HttpRequest) -> str:
    """Log the exception being handled, with its traceback, under a new short reference;
    return the reference. Called from a handler500, while the exception is handled."""
    reference = uuid.uuid4().hex[:12]
    logger.error("server error %s: %s %s", reference, request.method, request.path, exc_info=True)
    return reference


def server_error_page(request: HttpRequest) -> HttpResponse:
    """The page of a server error: it went wrong, nothing stored was lost, the reference."""
    reference = server_error_logged(request)
    # Without the request: its context processors read the session, the user and the live
    # versions from the database, and the database being away may be what failed.
    return HttpResponseServerError(loader.render_to_string("500.html", {"reference": reference}))
