"""The statements' benchmark (bench/statements.py) measures what its text says, on the
tests' database: every way of each statement, once each here."""

from __future__ import annotations

import pytest

from bench.statements import per_call
from tournaments.models import HistoryEntry, Slip

pytestmark = pytest.mark.django_db(transaction=True)  # the round solved on commit


def test_each_statement_is_timed_every_way_and_what_it_wrote_is_rolled_back() -> None:
    figures = per_call(number=2, repeat=1)
    assert [(what, how) for what, how, *_ in figures] == [
        ("lock", "statements (slip_submit's)"),
        ("lock", "ORM select_for_update"),
        ("lock", "Round.objects.raw()"),
        ("lock", "bare cursor"),
        ("known slips", "statements"),
        ("known slips", "ORM"),
        ("known slips", "Slip.objects.raw()"),
        ("known slips", "bare cursor"),
        ("insert", "statements"),
        ("insert", "ORM _insert"),
        ("insert", "save()"),
        ("converters", "each call"),
    ]
    assert all(0 < best <= median and at.startswith("load ") for *_, best, median, at in figures)
    assert Slip.objects.count() == 1  # the player's slip the bench reads, its inserts gone
    assert not HistoryEntry.objects.filter(action="bench").exists()
