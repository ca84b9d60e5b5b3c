"""The API's JSON parser: a body's nesting and its numbers are checked before they can
reach Python's recursion or the database.

``json`` decodes nested arrays and objects by recursion: a body 1,000 levels deep raises
``RecursionError`` (a 500) in the decoder, before any serializer sees it. The depth is
therefore counted on the text first, by a loop, and a number no column can hold, a
non-finite one or a string no database can store is refused as the body's fault (400,
``detail.reason`` saying which)."""

from __future__ import annotations

import codecs
import itertools
import json
import math
import re
from collections.abc import Mapping
from typing import IO, Any

from django.conf import settings
from django.utils.translation import gettext as _
from rest_framework import exceptions, parsers

#: The deepest nesting of arrays and objects a JSON body may have. The API's inputs are at
#: most two levels deep (an object holding a list of racks); 32 leaves any client room to
#: wrap them and stays far below Python's recursion limit (1,000), which the decoder and
#: the serializers' nested validation would otherwise reach.
MAX_DEPTH = 32

#: The widest integer column (BigIntegerField) holds a signed 64-bit number: anything
#: bigger is refused here, before SQLite (OverflowError) or PostgreSQL (DataError) sees
#: it. The serializers bound each field more tightly.
MAX_INTEGER = 2**63 - 1

# A JSON string, escapes included (unrolled: no backtracking on long strings).
_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
_NOT_A_BRACKET = re.compile(r"[^\[\]{}]+")
_STEP = {"[": 1, "{": 1, "]": -1, "}": -1}
# A surrogate written as an escape (\ud800): valid JSON, but alone it is no character and
# no database driver can encode it.
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")


class BodyRefused(exceptions.ParseError):
    """A request body refused before any serializer reads it (too deep, a number out of
    range, not JSON): ``detail.reason`` says why, as a stable code."""

    def __init__(self, message: str, reason: str) -> None:
        super().__init__(message)
        self.reason = reason


def nesting_depth(text: str) -> int:
    """How deeply arrays and objects nest in a JSON text, counted without recursion:
    brackets inside strings are left out."""
    brackets = _NOT_A_BRACKET.sub("", _STRING.sub("", text))
    return max(itertools.accumulate(map(_STEP.__getitem__, brackets)), default=0)


def _refuse_constant(name: str) -> float:
    raise BodyRefused(_("the body holds %(value)s, which is not a number") % {"value": name}, "not_a_number")


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):  # 1e400: valid JSON, infinite in Python
        raise BodyRefused(_("the body holds a number too large: %(value)s") % {"value": text}, "too_large")
    return value


def _bounded_int(text: str) -> int:
    # Counting digits first: int() of thousands of digits is slow, and refused past 4,300.
    if len(text.lstrip("-")) > len(str(MAX_INTEGER)) or not -MAX_INTEGER <= int(text) <= MAX_INTEGER:
        shown = text if len(text) <= 40 else f"{text[:20]}...{text[-10:]}"
        raise BodyRefused(_("the body holds a number too large: %(value)s") % {"value": shown}, "too_large")
    return int(text)


def parse_json(text: str) -> Any:
    """A JSON text as Python data, or :class:`~api.errors.BodyRefused`."""
    if nesting_depth(text) > MAX_DEPTH:
        raise BodyRefused(
            _("the body is nested more than %(depth)s levels deep") % {"depth": MAX_DEPTH}, "too_deep"
        )
    try:
        data = json.loads(
            text, parse_constant=_refuse_constant, parse_float=_finite_float, parse_int=_bounded_int
        )
    except BodyRefused:
        raise
    except ValueError as exc:
        raise BodyRefused(_("the body is not valid JSON (%(error)s)") % {"error": exc}, "not_json") from exc
    try:
        text.encode("utf-8")
        if _SURROGATE_ESCAPE.search(text):
            json.dumps(data, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError as exc:
        raise BodyRefused(_("the body holds a string that is not valid Unicode"), "not_unicode") from exc
    return data


class JSONParser(parsers.JSONParser):
    """DRF's JSON parser, with the checks of :func:`parse_json`."""

    def parse(
        self, stream: IO[Any], media_type: str | None = None, parser_context: Mapping[str, Any] | None = None
    ) -> Any:
        encoding = (parser_context or {}).get("encoding", settings.DEFAULT_CHARSET)
        try:
            text = codecs.getreader(encoding)(stream).read()
        except (ValueError, LookupError) as exc:  # not in that encoding, or no such encoding
            raise BodyRefused(
                _("the body is not text in %(encoding)s") % {"encoding": encoding}, "not_text"
            ) from exc
        return parse_json(text)
