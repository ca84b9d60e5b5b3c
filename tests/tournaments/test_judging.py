"""A round handed to the pure rules (tournaments.judging): the event's notation and
settings, the players' warnings so far, the judge of one slip."""

from __future__ import annotations

import pytest

from tournaments.models import Event, Game

pytestmark = pytest.mark.django_db(transaction=True)


def test_slips_are_judged_with_the_events_notation(event: Event, game: Game) -> None:
    from tournaments.judging import judging_rules
    from tournaments.state import rebuild

    for notation in ("fisf", "gcg"):
        Event.objects.filter(pk=event.pk).update(notation=notation)
        event.refresh_from_db()
        assert judging_rules(rebuild(game), event).notation == notation
