"""One JSON error format for every refusal:
``{"error": {"code": "...", "message": "...", "detail": {...}}}``."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.http import Http404
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from tournaments.services import ApplicationError


def error_body(code: str, message: str, detail: Any = None) -> dict[str, Any]:
    return {"error": {"code": code, "message": message, "detail": detail if detail is not None else {}}}


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, ApplicationError):
        return Response(error_body("application_error", exc.message, exc.extra), status.HTTP_400_BAD_REQUEST)
    if isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, DjangoPermissionDenied):
        exc = exceptions.PermissionDenied()
    response = drf_exception_handler(exc, context)
    if response is None or not isinstance(exc, exceptions.APIException):
        return response  # a server error: Django's 500 page and the logs
    if isinstance(exc, exceptions.ValidationError):
        response.data = error_body("invalid", "the request is invalid", exc.detail)
        return response
    code = exc.get_codes()
    detail: dict[str, Any] = {}
    wait = getattr(exc, "wait", None)  # Throttled: seconds until the next request is accepted
    if isinstance(exc, exceptions.Throttled) and wait is not None:
        detail["wait"] = wait
    response.data = error_body(code if isinstance(code, str) else exc.default_code, str(exc.detail), detail)
    return response
