"""A player's own lines, receipt and result (rooms/templatetags/arbiter.py): written in
Python for the hall's streams and the page alike."""

from __future__ import annotations

import datetime as dt

from django.utils import timezone, translation

from rooms.templatetags.arbiter import receipt_html, result_html
from tournaments.models import Round, Ruling, Slip

AT = dt.datetime(2026, 11, 29, 13, 4, 5, tzinfo=dt.UTC)


def _slip(**fields: object) -> Slip:
    return Slip(**{"coordinates": "8H", "word": "PROOF", "announced_score": 28, "received_at": AT, **fields})


def test_a_receipt_says_when_and_what_in_the_events_time_and_the_pages_language() -> None:
    with translation.override("fr"), timezone.override("Europe/Paris"):
        said = receipt_html(_slip(), Round(state="open"), time_up=False, phone_replace=True)
    assert said == (
        '<p class="receipt">Reçu à 14:04:05\u00a0: <b>8H PROOF</b> · 28'
        '<span class="until"> — Vous pouvez le remplacer jusqu’à la fin du temps.</span></p>'
    )
    with translation.override("en"), timezone.override("UTC"):
        late = receipt_html(
            _slip(late=True, coordinates="", word="", announced_score=None),
            Round(state="closed"),
            False,
            True,
        )
        kept = receipt_html(_slip(), Round(state="open"), time_up=False, phone_replace=False)
        over = receipt_html(_slip(), Round(state="open"), time_up=True, phone_replace=True)
    assert late == '<p class="receipt late">Late slip (scores 0) 13:04:05: <b>a blank slip</b></p>'
    assert "It is handed in: it cannot be replaced." in kept and 'class="until"' not in over
    assert receipt_html(None, Round(state="open"), False, True) == ""


def test_a_result_says_the_slip_the_points_and_why_its_text_escaped() -> None:
    ruling = Ruling(
        credited=-5, is_top=False, solo=True, reason="ok", warnings=2, penalty=10, detail='l\'"<mot>" & co'
    )
    ruling.slip = _slip(coordinates="<b>", word="a&b")
    with translation.override("fr"):
        said = result_html(ruling)
    assert said.startswith('<p class="mine">Votre bulletin\u00a0: &lt;b&gt; a&amp;b → <b>-5</b>')
    assert ' <b class="badge">solo</b>' in said and "2 avertissements · Pénalité 10" in said
    assert "&lt;mot&gt;" in said and "<mot>" not in said
    top = Ruling(credited=28, is_top=True, reason="no_slip", warnings=1)
    with translation.override("en"):
        said = result_html(top)
    assert said.startswith('<p class="mine">Your slip: — → <b>28</b>\n    <b class="badge">TOP</b>\n')
    assert "1 warning<" in said and "Penalty" not in said
    assert result_html(None) == ""


def test_results_that_differ_in_anything_the_line_says_are_never_shared() -> None:
    # The lines are written once per distinct ruling and language (a hall shares a few
    # dozen): each field the line reads is part of what makes it distinct.
    def ruling(**fields: object) -> Ruling:
        values: dict[str, object] = {
            "credited": 28,
            "is_top": False,
            "solo": False,
            "reason": "ok",
            "warnings": 0,
            "penalty": 0,
            "detail": "",
            "notes": [],
        }
        slip = fields.pop("slip", _slip())
        made = Ruling(**{**values, **fields})
        made.slip = slip  # type: ignore[assignment]
        return made

    variants = [
        ruling(),
        ruling(credited=27),
        ruling(is_top=True),
        ruling(solo=True),
        ruling(reason="invalid_word"),
        ruling(warnings=1),
        ruling(penalty=5),
        ruling(detail="another reason"),
        ruling(notes=[{"code": "invalid_words", "words": ["ZZZ"]}]),
        ruling(slip=_slip(coordinates="H8")),
        ruling(slip=_slip(word="PROOFS")),
        ruling(slip=None),
    ]
    with translation.override("en"):
        english = [result_html(r) for r in variants]
        again = [result_html(r) for r in variants]
    with translation.override("fr"):
        french = [result_html(r) for r in variants]
    assert len(set(english)) == len(variants) and again == english
    assert not set(english) & set(french)
    for made, said in zip(variants, english, strict=True):
        assert said == result_html_unshared(made, "en")


def result_html_unshared(ruling: Ruling, language: str) -> str:
    from rooms.templatetags import arbiter

    with translation.override(language):
        return arbiter._result_line(ruling)


def test_receipts_that_differ_in_anything_the_line_says_are_never_shared() -> None:
    # A receipt is written once per slip and what its line says (the phones of a hall are
    # sent theirs at every public change): the page's language and time zone, the slip's
    # every field the line reads, the round's clock and the event's setting are all in it.
    open_, closed = Round(state="open"), Round(state="closed")
    variants = [
        (_slip(), open_, False, True),
        (_slip(), open_, False, False),
        (_slip(), open_, True, True),  # as in a closed round
        (_slip(late=True), closed, False, True),
        (_slip(received_at=AT + dt.timedelta(seconds=1)), open_, False, True),
        (_slip(coordinates="H8"), open_, False, True),
        (_slip(word="PROOFS"), open_, False, True),
        (_slip(announced_score=None), open_, False, True),
        (_slip(coordinates="", word=""), open_, False, True),
    ]

    def said(language: str, zone: str) -> list[str]:
        with translation.override(language), timezone.override(zone):
            return [receipt_html(*variant) for variant in variants]

    english = said("en", "UTC")
    assert len(set(english)) == len(variants) and said("en", "UTC") == english
    assert not set(english) & set(said("fr", "UTC")) and not set(english) & set(said("en", "Europe/Paris"))
    for variant, line in zip(variants, english, strict=True):
        assert line == receipt_html_unshared(variant, "en", "UTC")


def receipt_html_unshared(variant: tuple[Slip, Round, bool, bool], language: str, zone: str) -> str:
    from rooms.templatetags import arbiter

    slip, round, time_up, phone_replace = variant
    with translation.override(language), timezone.override(zone):
        return arbiter._receipt_line(slip, round.state == "open" and not time_up, phone_replace)
