"""Helpers shared by the tests of several layers (the fixtures are in the conftest files)."""

from __future__ import annotations

import io

from pypdf import PdfReader


def pdf_text(pdf: bytes) -> list[str]:
    """The text of each page of a PDF."""
    return [page.extract_text() for page in PdfReader(io.BytesIO(pdf)).pages]
