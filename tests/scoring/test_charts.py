"""The chart of a game (scoring/charts.py) and its ReportLab drawing (scoring/sheets/chart.py)."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from itertools import pairwise

import pytest

from scoring.charts import (
    HALL,
    MAX_LINES,
    PHONE,
    SHEET,
    Bar,
    Key,
    Label,
    Line,
    Mark,
    Path,
    _nice,
    chart_words,
    gaps,
    layout,
    svg,
)
from scoring.sheets.chart import drawing

WORDS = chart_words(lambda text: text)
SVG = "{http://www.w3.org/2000/svg}"
TOPS = [28, 40, 75, 33]


def _labels(chart) -> list[str]:
    return [s.text for s in chart.shapes if isinstance(s, Label)]


def test_the_gap_is_the_running_total_minus_the_tops_with_no_ruling_as_zero() -> None:
    assert gaps(TOPS, [28, 30, None, 40]) == [0, -10, -85, -78]  # a solo bonus may pass the top


def test_axes_end_on_round_figures_above_the_highest_value() -> None:
    assert [_nice(v) for v in (0, 10, 11, 26, 99, 101, 663)] == [10, 10, 12, 30, 100, 120, 800]


def test_a_players_bars_stand_beside_the_tops_at_their_scale() -> None:
    chart = layout(TOPS, [Line("you", (28, 30, None, 0))], WORDS, PHONE)
    tops = [s for s in chart.shapes if isinstance(s, Bar) and s.kind == "top"]
    mine = [s for s in chart.shapes if isinstance(s, Bar) and s.kind == "player"]
    assert len(tops) == 4 and len(mine) == 3  # none where the player had no ruling
    assert tops[0].height == pytest.approx(mine[0].height)  # 28 of 28
    assert mine[1].height / tops[1].height == pytest.approx(30 / 40)
    assert mine[2].height == 0
    assert all(t.y + t.height == pytest.approx(tops[0].y + tops[0].height) for t in tops)  # one baseline
    assert all(m.x >= t.x + t.width - 1e-6 for t, m in zip(tops, mine, strict=False))  # beside, not over
    # The two kinds told apart by a legend with their names, and the last gap printed.
    assert {k.kind for k in chart.shapes if isinstance(k, Key)} == {"top", "player"}
    assert {"top", "you", "\u2212118", "Points per round", "Gap to the top, round after round"} <= set(
        _labels(chart)
    )


def test_the_gap_line_starts_at_zero_and_falls_by_each_round_lost() -> None:
    chart = layout(TOPS, [Line("you", (28, 30, 75, 13))], WORDS, PHONE)
    (line,) = [s for s in chart.shapes if isinstance(s, Path) and s.kind == "line"]
    zero = line.points[0][1]
    ys = [y for _x, y in line.points[1:]]
    assert ys[0] == pytest.approx(zero)  # 0 after round 1
    step = (ys[1] - zero) / 10
    assert ys[2] == pytest.approx(ys[1]) and ys[3] == pytest.approx(zero + 30 * step)
    xs = [x for x, _y in line.points]
    assert xs == sorted(xs) and len(xs) == 5
    assert all(0 <= x <= chart.width and 0 <= y <= chart.height for x, y in line.points)


def test_a_player_at_the_top_in_every_round_has_a_flat_line_at_zero() -> None:
    chart = layout(TOPS, [Line("you", tuple(TOPS))], WORDS, PHONE)
    (line,) = [s for s in chart.shapes if isinstance(s, Path) and s.kind == "line"]
    assert len({y for _x, y in line.points}) == 1 and "0" in _labels(chart)


def test_the_podium_has_a_line_each_told_apart_and_named_without_overprint() -> None:
    same = (28, 40, 70, 33)
    lines = [Line(name, same) for name in ("Anne", "Bruno", "Chloé", "Dan", "Eve")]
    chart = layout(TOPS, lines, WORDS, HALL)
    drawn = [s for s in chart.shapes if isinstance(s, Path) and s.kind == "line"]
    assert [p.series for p in drawn] == list(range(MAX_LINES))  # at most four lines
    assert not [s for s in chart.shapes if isinstance(s, Bar) and s.kind == "player"]
    names = [s for s in chart.shapes if isinstance(s, Label) and s.text in ("Anne", "Bruno", "Chloé", "Dan")]
    ys = sorted(n.y for n in names)
    assert len(names) == 4 and all(b - a >= HALL.font * 1.1 - 1e-6 for a, b in pairwise(ys))
    assert all(n.y <= chart.height for n in names)
    marks = {m.series for m in chart.shapes if isinstance(m, Mark)}
    assert marks == {0, 1, 2, 3}


def test_long_names_are_shortened_and_many_rounds_thin_the_round_numbers() -> None:
    tops = [30] * 40
    chart = layout(
        tops, [Line("Jean-Christophe Dupont-Martin", (20,) * 40), Line("B", (30,) * 40)], WORDS, HALL
    )
    assert "Jean-Christop…" in _labels(chart)
    numbers = [s.text for s in chart.shapes if isinstance(s, Label) and s.anchor == "middle"]
    assert numbers == ["1", "5", "10", "15", "20", "25", "30", "35", "40"]
    twelve = layout([30] * 12, [Line("you", (20,) * 12)], WORDS, PHONE)
    numbers = [s.text for s in twelve.shapes if isinstance(s, Label) and s.anchor == "middle"]
    assert numbers == ["1", "3", "5", "7", "9", "11"]


def test_a_chart_needs_rounds_and_a_score_for_each() -> None:
    with pytest.raises(ValueError, match="at least one round"):
        layout([], [Line("you", ())], WORDS, PHONE)
    with pytest.raises(ValueError, match="you: 2 scores for 4 rounds"):
        layout(TOPS, [Line("you", (1, 2))], WORDS, PHONE)


def test_the_svg_is_well_formed_says_its_figures_and_escapes_names() -> None:
    chart = layout(TOPS, [Line("<Anne & co>", (28, 30, 75, 13))], WORDS, PHONE)
    text = svg(chart, label='Your game: 146 of 176 "−30"')
    root = ET.fromstring(text)  # well formed, the name escaped
    assert root.tag == SVG + "svg" and root.get("role") == "img"
    assert root.get("aria-label") == 'Your game: 146 of 176 "−30"'
    assert root.find(SVG + "title").text == root.get("aria-label")
    assert "<Anne & co>" in [t.text for t in root.iter(SVG + "text")]
    rects = [r for r in root.iter(SVG + "rect") if r.get("class") in ("top", "player")]
    assert {r.get("class") for r in rects} == {"top", "player"} and len(rects) == 8  # the bars
    keys = [r for r in root.iter(SVG + "rect") if "key" in r.get("class", "")]
    assert sorted(k.get("class") for k in keys) == ["player key", "top key"]
    for key in keys:  # each drawn as its bars are
        assert bool(key.get("fill-opacity")) == key.get("class").startswith("top")
    # Told apart by shape: the top outlined and faint, the player's solid.
    top = next(r for r in rects if r.get("class") == "top")
    mine = next(r for r in rects if r.get("class") == "player")
    assert top.get("stroke") == "currentColor" and top.get("fill-opacity") and not mine.get("fill-opacity")


def test_the_podiums_lines_differ_by_dash_in_the_svg() -> None:
    lines = [Line(n, (28, 40, 70 - i, 33)) for i, n in enumerate(("A", "B", "C"))]
    root = ET.fromstring(svg(layout(TOPS, lines, WORDS, HALL), label="Game"))
    dashes = [p.get("stroke-dasharray") for p in root.iter(SVG + "polyline") if "line" in p.get("class", "")]
    assert len(dashes) == 3 and len(set(dashes)) == 3


def test_the_drawing_has_the_charts_shapes_upside_up() -> None:
    from reportlab.graphics.shapes import PolyLine, Rect, String

    chart = layout(TOPS, [Line("you", (28, 30, 75, 13))], WORDS, SHEET)
    made = drawing(chart)
    strings = [s for s in made.contents if isinstance(s, String)]
    assert {s.text for s in strings} == set(_labels(chart))
    caption = next(s for s in strings if s.text == "Points per round")
    assert caption.y > chart.height * 0.8  # the top of the page's picture, as on the screen
    bars = [r for r in made.contents if isinstance(r, Rect)]
    assert len(bars) == len([s for s in chart.shapes if isinstance(s, Bar | Key)])
    assert any(isinstance(p, PolyLine) and p.strokeWidth > 1 for p in made.contents)
