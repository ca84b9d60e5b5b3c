"""One JSON error format for every refusal:
``{"error": {"code": "...", "message": "...", "detail": {...}}}``.

DRF's views answer through :func:`exception_handler`; what happens outside them on an
``/api/`` path (no URL matches, a body too large before a view reads it, a server error)
is answered by :func:`bad_request`, :func:`not_found` and :func:`server_error`, Django's
error handlers for those paths (``arbiter/urls.py``)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import RequestDataTooBig
from django.http import Http404, HttpRequest, JsonResponse
from django.utils.translation import gettext as _
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from api.parsers import BodyRefused
from plumbing.errors import server_error_logged
from tournaments.core import ApplicationError

#: Where the API lives: Django's error handlers answer in its format below it.
API_PREFIX = "/api/"


def error_body(code: str, message: str, detail: Any = None) -> dict[str, Any]:
    return {"error": {"code": code, "message": message, "detail": detail if detail is not None else {}}}


def _too_large() -> dict[str, Any]:
    limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    return error_body(
        "request_too_large",
        _("the request body is larger than the %(limit)s bytes accepted") % {"limit": limit},
        {"limit": limit},
    )


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, ApplicationError):
        return Response(error_body("application_error", exc.message, exc.extra), status.HTTP_400_BAD_REQUEST)
    if isinstance(exc, RequestDataTooBig):  # raised by request.data, past DATA_UPLOAD_MAX_MEMORY_SIZE
        return Response(_too_large(), status.HTTP_413_REQUEST_ENTITY_TOO_LARGE)
    if isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, DjangoPermissionDenied):
        exc = exceptions.PermissionDenied()
    response = drf_exception_handler(exc, context)
    if response is None or not isinstance(exc, exceptions.APIException):
        return response  # a server error: server_error() below answers it
    if isinstance(exc, exceptions.ValidationError):
        response.data = error_body("invalid", _("the request is invalid"), exc.detail)
        return response
    code = exc.get_codes()
    detail: dict[str, Any] = {}
    wait = getattr(exc, "wait", None)  # Throttled: seconds until the next request is accepted
    if isinstance(exc, exceptions.Throttled) and wait is not None:
        detail["wait"] = wait
    if isinstance(exc, BodyRefused):
        detail["reason"] = exc.reason
    response.data = error_body(code if isinstance(code, str) else exc.default_code, str(exc.detail), detail)
    return response


def is_api(request: HttpRequest) -> bool:
    return request.path_info.startswith(API_PREFIX)


def bad_request(request: HttpRequest, exception: Exception) -> JsonResponse:
    """Django's 400 on an API path: a body too large read outside a view, a suspicious
    request."""
    if isinstance(exception, RequestDataTooBig):
        return JsonResponse(_too_large(), status=status.HTTP_413_REQUEST_ENTITY_TOO_LARGE)
    return JsonResponse(error_body("bad_request", _("the request is malformed")), status=400)


def not_found(request: HttpRequest, exception: Exception) -> JsonResponse:
    """No URL of the API matches (``/api/events/abc/``): the views' own 404s are DRF's."""
    return JsonResponse(error_body("not_found", _("there is nothing at this address")), status=404)


def server_error(request: HttpRequest) -> JsonResponse:
    """A 500 tells nothing of its cause (a message could hold a setting, a password in a
    database address): only a reference, logged with the traceback for the organiser."""
    reference = server_error_logged(request)
    message = _("the server failed to answer; its log has the cause under the reference %(reference)s")
    return JsonResponse(
        error_body("server_error", message % {"reference": reference}, {"reference": reference}), status=500
    )
