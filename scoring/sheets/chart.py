"""The chart of a game (:mod:`scoring.charts`) as a ReportLab drawing, for the sheets: the
same shapes as the phone's SVG, turned upside up (PDF ``y`` runs upwards)."""

from __future__ import annotations

from collections.abc import Sequence

from reportlab.graphics.shapes import Circle, Drawing, LineShape, Polygon, PolyLine, Rect, SolidShape, String
from reportlab.lib import colors

from scoring.charts import DASHES, MARKERS, Bar, Chart, Key, Label, Mark, Path, marker_corners
from scoring.sheets.base import BOLD, REGULAR, register_fonts

INK = colors.black
#: The top's faint fill: the player's bars are black, the tops' outlined over this.
TOP_FILL = colors.Color(0, 0, 0, alpha=0.14)


def _paint(
    shape: LineShape,
    *,
    fill: colors.Color | None = None,
    stroke: colors.Color | None = None,
    width: float = 0.0,
    dash: Sequence[float] = (),
) -> LineShape:
    # Set after construction: the stubs of ReportLab type the shapes' keyword arguments
    # as one dictionary, which no call can satisfy.
    if isinstance(shape, SolidShape):
        shape.fillColor = fill
    shape.strokeColor = stroke
    shape.strokeWidth = width
    if dash:
        shape.strokeDashArray = list(dash)
    return shape


def drawing(chart: Chart) -> Drawing:
    register_fonts()
    height = chart.height
    out = Drawing(chart.width, chart.height)
    stroke = max(0.5, chart.font / 10)

    def flip(points: Sequence[tuple[float, float]]) -> list[float]:
        return [value for x, y in points for value in (x, height - y)]

    for shape in chart.shapes:
        if isinstance(shape, Bar | Key):
            # The top outlined over a faint fill, the player's filled: told apart by shape.
            rect = Rect(shape.x, height - shape.y - shape.height, shape.width, shape.height)
            if shape.kind == "top":
                out.add(_paint(rect, fill=TOP_FILL, stroke=INK, width=stroke))
            else:
                out.add(_paint(rect, fill=INK))
        elif isinstance(shape, Path):
            line = PolyLine(flip(shape.points))
            if shape.kind == "line":
                dash = [d * stroke * 2 for d in DASHES[shape.series % len(DASHES)]]
                out.add(_paint(line, stroke=INK, width=stroke * 2, dash=dash))
            elif shape.kind == "axis":
                out.add(_paint(line, stroke=INK, width=stroke))
            else:
                out.add(_paint(line, stroke=colors.grey, width=stroke / 2, dash=(2, 3)))
        elif isinstance(shape, Mark):
            out.add(_paint(_marker(shape, height), fill=INK))
        elif isinstance(shape, Label):
            text = String(shape.x, height - shape.y, shape.text)
            text.textAnchor = shape.anchor
            text.fontName = BOLD if shape.bold else REGULAR
            text.fontSize = shape.size or chart.font
            text.fillColor = INK
            out.add(text)
    return out


def _marker(mark: Mark, height: float) -> SolidShape:
    x, y, r = mark.x, height - mark.y, mark.radius
    shape = MARKERS[mark.series % len(MARKERS)]
    if shape == "circle":
        return Circle(x, y, r)
    if shape == "square":
        return Rect(x - r, y - r, 2 * r, 2 * r)
    # The corners are worked out downwards (SVG): each one turned upside up.
    corners = marker_corners(mark.x, mark.y, r, mark.series)
    return Polygon([v for cx, cy in corners for v in (cx, height - cy)])
