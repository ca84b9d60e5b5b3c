"""A server error on a page: a plain page in the visitor's language with a reference, the
cause only in the log under that reference."""

from __future__ import annotations

import logging
import re

import pytest
from django.http import HttpRequest, HttpResponse
from django.test import Client
from django.urls import path

import arbiter.urls

SECRET = "postgresql://arbiter:hunter2@db:5432/arbiter"


def _broken(request: HttpRequest) -> HttpResponse:
    raise RuntimeError(f"could not connect to {SECRET}")


# This module is the URL configuration of its tests: the site's pages, one that fails, and
# the site's own server error handler.
urlpatterns = [path("broken/", _broken), *arbiter.urls.urlpatterns]
handler500 = arbiter.urls.handler500


@pytest.fixture(autouse=True)
def _broken_site(settings) -> None:
    settings.DEBUG = False
    settings.ROOT_URLCONF = __name__


def _get(language: str, caplog: pytest.LogCaptureFixture) -> tuple[str, str]:
    """The error page of /broken/ and its reference, checked against the log."""
    client = Client(raise_request_exception=False, HTTP_ACCEPT_LANGUAGE=language)
    with caplog.at_level(logging.ERROR):
        response = client.get("/broken/")
    assert response.status_code == 500 and response["Content-Type"].startswith("text/html")
    page = response.content.decode()
    found = re.search(r"\b[0-9a-f]{12}\b", page)
    assert found, page
    reference = found[0]
    logged = [r for r in caplog.records if reference in r.getMessage()]
    assert len(logged) == 1 and "/broken/" in logged[0].getMessage()
    assert logged[0].exc_info and SECRET in str(logged[0].exc_info[1])
    return page, reference


# No database mark: the page must render with the database away (pytest-django refuses
# any query here), as it may be the cause of the error.
def test_a_server_error_on_a_page_shows_a_reference_found_in_the_log(caplog) -> None:
    page, reference = _get("en", caplog)
    assert '<html lang="en">' in page
    assert "Something went wrong" in page and "Nothing stored was lost" in page
    assert f"Reference: {reference}" in page
    for cause in ("hunter2", "RuntimeError", "could not connect", "Traceback", "/broken/"):
        assert cause not in page, cause


def test_the_error_page_speaks_the_visitor_s_language(caplog) -> None:
    page, reference = _get("fr", caplog)
    assert '<html lang="fr">' in page and reference in page
    assert "hunter2" not in page and "RuntimeError" not in page


def test_each_error_has_its_own_reference(caplog) -> None:
    assert _get("en", caplog)[1] != _get("en", caplog)[1]
