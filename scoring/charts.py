"""The picture of a game: each round's top and what a player scored in it, then how far
behind the tops' total the player's total runs, round after round (the "négatif" of the
standings, drawn).

One layout, three renderings: the phone's SVG after each round, the projector's at the end
of a game (the top per round and the podium's lines) and the player sheet's ReportLab
drawing (:mod:`scoring.sheets.chart`). :func:`layout` places shapes in the units of the
target (SVG user units, PDF points); the renderers only translate them, so the three
pictures cannot drift apart.

Nothing is told by colour alone: the tops are outlined bars, the player's filled ones; each
line of the podium has its own dash and marker and its name at its end. The renderers draw
in the text's colour (``currentColor``) so that one picture reads on the phone's light page
and on the projector's dark screen alike."""

from __future__ import annotations

import html
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from itertools import accumulate
from typing import Literal

from scoring.standings import minus

#: A message in the reader's language (gettext of the page or the sheet).
Translate = Callable[[str], str]


@dataclass(frozen=True)
class Line:
    """One player's game: what the player scored in each round of the chart (None: no
    ruling, as for a player withdrawn before the round; counted as 0 in the gap)."""

    label: str
    scores: tuple[int | None, ...]


@dataclass(frozen=True)
class ChartWords:
    per_round: str
    top: str
    gap: str
    round: str


def chart_words(gettext: Translate) -> ChartWords:
    """The chart's words in the caller's language (the page's, or the sheet's)."""
    _ = gettext
    return ChartWords(
        per_round=_("Points per round"),
        top=_("top"),
        gap=_("Gap to the top, round after round"),
        round=_("Round"),
    )


@dataclass(frozen=True)
class Size:
    """The picture's box and its text size, in the target's units."""

    width: float
    height: float
    font: float


#: On a phone the SVG fills a column of about 330 px: 1 unit is about 1 px, the round
#: numbers at 11 px.
PHONE = Size(320, 250, 13)
#: In the board's place on the projector, about 960 x 900 px on a 1080p screen: text at
#: about 29 px, as big as the standings beside it (docs/benchmarks.md, the projector).
HALL = Size(600, 560, 18)
#: Under the table of a landscape A4 player sheet, in points.
SHEET = Size(770, 190, 8)


# --------------------------------------------------------------------------- shapes


@dataclass(frozen=True)
class Bar:
    x: float
    y: float
    width: float
    height: float
    kind: Literal["top", "player"]


@dataclass(frozen=True)
class Path:
    points: tuple[tuple[float, float], ...]
    kind: Literal["axis", "grid", "line"]
    #: For a line: the player's index, which picks its dash and its marker.
    series: int = 0


@dataclass(frozen=True)
class Mark:
    x: float
    y: float
    series: int
    radius: float


@dataclass(frozen=True)
class Label:
    x: float
    y: float  # the baseline
    text: str
    anchor: Literal["start", "middle", "end"] = "start"
    size: float = 0.0
    bold: bool = False


@dataclass(frozen=True)
class Key:
    """A legend's sample: a bar of ``kind``."""

    x: float
    y: float
    width: float
    height: float
    kind: Literal["top", "player"]


Shape = Bar | Path | Mark | Label | Key


@dataclass
class Chart:
    width: float
    height: float
    font: float
    shapes: list[Shape] = field(default_factory=list)


#: The lines' dashes (SVG ``stroke-dasharray``, in line widths) and markers, one per
#: player of the podium: told apart without colour.
DASHES: tuple[tuple[float, ...], ...] = ((), (4, 2), (1, 1.6), (5, 1.6, 1, 1.6))
MARKERS = ("circle", "square", "triangle", "diamond")
#: Lines beyond these would be a tangle on a screen read from 30 m.
MAX_LINES = len(MARKERS)


def gaps(tops: Sequence[int], scores: Sequence[int | None]) -> list[int]:
    """The player's total minus the tops' total after each round."""
    return list(accumulate((s or 0) - t for t, s in zip(tops, scores, strict=True)))


def _nice(value: float) -> int:
    """``value`` rounded up to a round figure for the end of an axis (10, 20, 25, 30...)."""
    if value <= 10:
        return 10
    power = 10 ** math.floor(math.log10(value))
    for step in (1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10):
        if value <= step * power:
            return int(step * power)
    return int(10 * power)  # pragma: no cover - the loop's last step always holds


def _text_width(text: str, font: float) -> float:
    """A generous guess at a text's width: the picture is laid out before any font is
    measured (the SVG's by the phone, the PDF's by ReportLab), so it leaves room."""
    return len(text) * font * 0.6


def _shorten(text: str, most: int) -> str:
    return text if len(text) <= most else text[: most - 1] + "…"


def _apart(wanted: list[float], gap: float, low: float, high: float) -> list[float]:
    """Baselines near ``wanted`` at least ``gap`` apart and within [low, high]: the names
    at the ends of lines that finish close together must not overprint."""
    order = sorted(range(len(wanted)), key=lambda i: wanted[i])
    placed = [0.0] * len(wanted)
    last = -math.inf
    for i in order:
        placed[i] = max(wanted[i], last + gap, low)
        last = placed[i]
    overflow = last - high
    if overflow > 0:  # pushed out at the bottom: move the column up, still apart
        for i in order:
            placed[i] -= overflow
    return placed


def layout(tops: Sequence[int], lines: Sequence[Line], words: ChartWords, size: Size) -> Chart:
    """The chart of a game of ``len(tops)`` rounds.

    One line (a phone, a player sheet): the upper panel has the top and the player's score
    side by side in each round, the lower one the player's gap to the top. Several (the
    projector: the podium, at most :data:`MAX_LINES`): the upper panel has the tops, the
    lower one a line per player with the name at its end."""
    if not tops:
        raise ValueError("a chart needs at least one round")
    lines = list(lines)[:MAX_LINES]
    for line in lines:
        if len(line.scores) != len(tops):
            raise ValueError(f"{line.label}: {len(line.scores)} scores for {len(tops)} rounds")
    f = size.font
    chart = Chart(size.width, size.height, f)
    add = chart.shapes.append
    alone = len(lines) == 1
    small = f * 0.85
    runs = [gaps(tops, line.scores) for line in lines]

    # The gutters: figures of the axes on the left; on the right the last gap (one line)
    # or the players' names (several).
    left = _text_width("\u2212" + "8" * max(3, len(str(max(tops)))), small) + f * 0.4
    ends = [minus(run[-1]) for run in runs] if alone else [_shorten(line.label, 14) for line in lines]
    right = max(*(_text_width(text, f) for text in ends), _text_width(words.round, small)) + f * 0.9
    x0, x1 = left, size.width - right
    slot = (x1 - x0) / len(tops)

    def centre(i: int) -> float:
        return x0 + slot * (i + 0.5)

    caption = f * 1.5
    axis_band = f * 1.4  # round numbers under the lower panel
    usable = size.height - 2 * caption - axis_band - f * 1.2  # and room for descenders
    # The podium's lines are the story at the end of a game: they get the larger panel.
    upper_h = usable * (0.5 if alone else 0.4)
    lower_h = usable - upper_h

    # -- the upper panel: points per round
    top_y = caption
    bottom_y = top_y + upper_h
    add(Label(0, f, words.per_round, bold=True))
    kinds: list[tuple[Literal["top", "player"], str]] = [("top", words.top)]
    if alone:
        kinds.append(("player", lines[0].label))
    _legend(chart, kinds, x_end=size.width, baseline=f, font=f)
    highest = _nice(max([*tops, *(s or 0 for line in lines for s in line.scores), 1]))
    for value in (0, highest // 2, highest):
        y = bottom_y - upper_h * value / highest
        add(Path(((x0, y), (x1, y)), "axis" if value == 0 else "grid"))
        add(Label(x0 - f * 0.3, y + small * 0.35, str(value), "end", small))
    # A bar no wider than a few characters: a game of three rounds is not three walls.
    width = min(slot * (0.42 if alone else 0.64), f * (1.4 if alone else 2.2))
    for i, top in enumerate(tops):
        x = centre(i) - (width if alone else width / 2)
        height = upper_h * top / highest
        add(Bar(x, bottom_y - height, width, height, "top"))
        if alone and lines[0].scores[i] is not None:
            score = lines[0].scores[i] or 0
            height = upper_h * score / highest
            add(Bar(centre(i), bottom_y - height, width, height, "player"))

    # -- the lower panel: the gap, round after round
    caption_y = bottom_y + f * 0.9 + caption
    add(Label(0, caption_y - f * 0.5, words.gap, bold=True))
    lo = min([0, *(g for run in runs for g in run)])
    hi = max([0, *(g for run in runs for g in run)])
    lo = -_nice(-lo) if lo < 0 else (-10 if hi == 0 else 0)
    hi = _nice(hi) if hi > 0 else 0
    gap_top = caption_y + f * 0.3
    gap_bottom = gap_top + lower_h - f * 0.3

    def gap_y(value: float) -> float:
        return gap_top + (hi - value) / (hi - lo) * (gap_bottom - gap_top)

    for value in sorted({hi, 0, lo}, reverse=True):
        y = gap_y(value)
        add(Path(((x0, y), (x1, y)), "axis" if value == 0 else "grid"))
        add(Label(x0 - f * 0.3, y + small * 0.35, minus(value), "end", small))
    radius = max(f * 0.18, min(slot * 0.14, f * 0.32))
    finish: list[float] = []
    for series, run in enumerate(runs):
        points = ((x0, gap_y(0)), *((centre(i), gap_y(g)) for i, g in enumerate(run)))
        add(Path(points, "line", series))
        every = 1 if len(tops) <= 30 else 2
        for i, g in enumerate(run):
            if i % every == 0 or i == len(run) - 1:
                add(Mark(centre(i), gap_y(g), series, radius))
        finish.append(gap_y(run[-1]) + f * 0.35)
    for series, y in enumerate(_apart(finish, f * 1.1, gap_top + f * 0.35, gap_bottom + f * 0.35)):
        add(Label(x1 + f * 0.5, y, ends[series], bold=alone))

    # -- the rounds under it all
    step = next(s for s in (1, 2, 5, 10, 20) if len(tops) / s <= 16 * size.width / 600)
    baseline = gap_bottom + axis_band
    for number in range(1, len(tops) + 1):
        # Every other round from 1 (1 3 5); beyond, round 1 and the multiples of 5, 10...
        # far enough from it not to touch it ("1 2 4 6" or "1 4 6" would read badly).
        if step <= 2:
            shown = (number - 1) % step == 0
        else:
            shown = number == 1 or (number % step == 0 and number > 1 + step // 2)
        if shown:
            add(Label(centre(number - 1), baseline, str(number), "middle", small))
    add(Label(x1 + f * 0.5, baseline, words.round, size=small))
    return chart


def _legend(
    chart: Chart,
    kinds: list[tuple[Literal["top", "player"], str]],
    *,
    x_end: float,
    baseline: float,
    font: float,
) -> None:
    """Each kind's sample and its name, right-aligned on the caption's line. Each name
    starts right after its sample: the guessed widths only decide where a pair begins."""
    box = font * 0.8
    x = x_end
    for kind, name in reversed(kinds):
        shown = _shorten(name, 16)
        x -= _text_width(shown, font) + box + font * 0.3
        chart.shapes.append(Key(x, baseline - box, box, box, kind))
        chart.shapes.append(Label(x + box + font * 0.3, baseline, shown))
        x -= font * 0.9


# --------------------------------------------------------------------------- SVG


def _n(value: float) -> str:
    return f"{value:.1f}".removesuffix(".0")


def marker_corners(x: float, y: float, radius: float, series: int) -> list[tuple[float, float]]:
    """The corners of a polygon marker (triangle, diamond); [] for a circle or square."""
    r = radius
    shape = MARKERS[series % len(MARKERS)]
    if shape == "triangle":
        return [(x, y - r * 1.2), (x + r * 1.1, y + r * 0.8), (x - r * 1.1, y + r * 0.8)]
    if shape == "diamond":
        return [(x, y - r * 1.3), (x + r * 1.3, y), (x, y + r * 1.3), (x - r * 1.3, y)]
    return []


def _marker_svg(x: float, y: float, radius: float, series: int) -> str:
    shape = MARKERS[series % len(MARKERS)]
    r = radius
    if shape == "circle":
        return f'<circle cx="{_n(x)}" cy="{_n(y)}" r="{_n(r)}"/>'
    if shape == "square":
        return f'<rect x="{_n(x - r)}" y="{_n(y - r)}" width="{_n(2 * r)}" height="{_n(2 * r)}"/>'
    corners = marker_corners(x, y, r, series)
    return '<polygon points="{}"/>'.format(" ".join(f"{_n(a)},{_n(b)}" for a, b in corners))


def svg(chart: Chart, *, label: str) -> str:
    """The chart as an inline SVG element. ``label`` is what it says to a screen reader
    (``role="img"``): its title and its figures in a sentence."""
    f = chart.font
    out = [
        '<svg xmlns="http://www.w3.org/2000/svg" class="chart"'
        f' viewBox="0 0 {_n(chart.width)} {_n(chart.height)}" role="img"'
        f' aria-label="{html.escape(label)}" font-size="{_n(f)}" fill="currentColor"'
        ' stroke-linejoin="round">',
        f"<title>{html.escape(label)}</title>",
    ]
    stroke = max(1.0, f / 8)
    for shape in chart.shapes:
        if isinstance(shape, Bar):
            out.append(_bar_svg(shape.x, shape.y, shape.width, shape.height, shape.kind, stroke))
        elif isinstance(shape, Path):
            points = " ".join(f"{_n(x)},{_n(y)}" for x, y in shape.points)
            if shape.kind == "line":
                dash = DASHES[shape.series % len(DASHES)]
                dashes = f' stroke-dasharray="{" ".join(_n(d * stroke * 2) for d in dash)}"' if dash else ""
                out.append(
                    f'<polyline class="line s{shape.series}" points="{points}" fill="none"'
                    f' stroke="currentColor" stroke-width="{_n(stroke * 2)}"{dashes}/>'
                )
            else:
                width = stroke if shape.kind == "axis" else stroke / 2
                extra = ' stroke-dasharray="2 3" stroke-opacity="0.6"' if shape.kind == "grid" else ""
                out.append(
                    f'<polyline class="{shape.kind}" points="{points}" fill="none"'
                    f' stroke="currentColor" stroke-width="{_n(width)}"{extra}/>'
                )
        elif isinstance(shape, Mark):
            marker = _marker_svg(shape.x, shape.y, shape.radius, shape.series)
            out.append(f'<g class="mark s{shape.series}">{marker}</g>')
        elif isinstance(shape, Key):
            out.append(_bar_svg(shape.x, shape.y, shape.width, shape.height, f"{shape.kind} key", stroke))
        else:
            size = f' font-size="{_n(shape.size)}"' if shape.size else ""
            weight = ' font-weight="bold"' if shape.bold else ""
            anchor = f' text-anchor="{shape.anchor}"' if shape.anchor != "start" else ""
            where = f'x="{_n(shape.x)}" y="{_n(shape.y)}"'
            out.append(f"<text {where}{anchor}{size}{weight}>{html.escape(shape.text)}</text>")
    out.append("</svg>")
    return "".join(out)


def _bar_svg(x: float, y: float, width: float, height: float, kind: str, stroke: float) -> str:
    # The top: outlined over a faint fill; the player's: filled. Told apart by their
    # shape, not their colour (a page may still colour them, .chart .player).
    paint = (
        f'fill="currentColor" fill-opacity="0.16" stroke="currentColor" stroke-width="{_n(stroke)}"'
        if kind.startswith("top")
        else 'fill="currentColor"'
    )
    box = f'x="{_n(x)}" y="{_n(y)}" width="{_n(width)}" height="{_n(max(height, 0))}"'
    return f'<rect class="{kind}" {box} {paint}/>'
