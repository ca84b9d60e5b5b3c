"""What every printed sheet shares: embedded TTF fonts (accents, the minus sign), A4 in
portrait or landscape, a header (event, game, date) and a footer ("page n of m").

A sheet subclass only builds its story (:meth:`Sheet.story`); :meth:`Sheet.render` lays
it out and returns the PDF bytes. The words of a sheet come from its caller (:class:`Words`):
the layout knows nothing of Django, the domain hands it the translation of the language
asked."""

from __future__ import annotations

import io
from collections.abc import Sequence
from decimal import Decimal
from functools import cache
from pathlib import Path
from typing import Any, Protocol
from xml.sax.saxutils import escape

from reportlab.lib import colors
from reportlab.lib.pagesizes import A4, landscape
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Flowable, Paragraph, SimpleDocTemplate, Table, TableStyle

FONTS = Path(__file__).resolve().parent / "fonts"
REGULAR = "ArbiterSans"
BOLD = "ArbiterSans-Bold"
MARGIN = 12 * mm
#: The tables' font size.
SIZE = 8
#: The room on either side of a cell's text (ReportLab's own), counted in what a column needs.
PADDING = 6.0


def text(value: object, style: ParagraphStyle) -> Paragraph:
    """A paragraph of plain text. ReportLab reads a paragraph as markup: a name, a club or a
    word from a slip ("Dupont <Paris>", "Club & Co", "<font color=white>") is text, never
    markup, so every sheet's data goes through here, escaped."""
    return Paragraph(escape(str(value)), style)


def line_width(value: object, font: str) -> float:
    """The width of a cell drawn as lines of text (a number, a move, a header), in points;
    0 for a flowable, which a paragraph is: it wraps to its column."""
    if isinstance(value, Flowable):
        return 0.0
    return max(stringWidth(line, font, SIZE) for line in str(value).split("\n"))


def fit(fractions: Sequence[float], needs: Sequence[float], usable: float) -> list[float]:
    """The columns' widths over ``usable`` points: each its fraction, but never less than it
    needs; what the short ones lack is taken from the others in proportion to their room to
    spare. When the needs exceed the page, each column gets its need scaled to the page."""
    widths = [f * usable for f in fractions]
    short = sum(max(n - w, 0.0) for w, n in zip(widths, needs, strict=True))
    if not short:
        return widths
    room = [max(w - n, 0.0) for w, n in zip(widths, needs, strict=True)]
    spare = sum(room)
    if spare < short:
        return [n * usable / sum(needs) for n in needs]
    return [max(w, n) - r * short / spare for w, n, r in zip(widths, needs, room, strict=True)]


@cache
def register_fonts() -> None:
    """DejaVu Sans Condensed, embedded in every PDF: the standard PDF fonts have no
    glyph for the minus sign of a "négatif" and no guarantee for every accent."""
    pdfmetrics.registerFont(TTFont(REGULAR, str(FONTS / "DejaVuSansCondensed.ttf")))
    pdfmetrics.registerFont(TTFont(BOLD, str(FONTS / "DejaVuSansCondensed-Bold.ttf")))
    pdfmetrics.registerFontFamily(REGULAR, normal=REGULAR, bold=BOLD, italic=REGULAR, boldItalic=BOLD)


class _NumberedCanvas(Canvas):
    """Holds the pages until the end so that each footer can say "page n of m" (the
    ReportLab recipe: a page's state is kept, then replayed with the total known)."""

    def __init__(self, *args: Any, footer: str = "{page} / {pages}", **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._footer = footer
        self._width = float(kwargs.get("pagesize", A4)[0])
        self._pages: list[dict[str, Any]] = []

    def showPage(self) -> None:
        self._pages.append(dict(self.__dict__))
        self._startPage()  # type: ignore[attr-defined]  # the recipe: a new page, not shown yet

    def save(self) -> None:
        total = len(self._pages)
        for state in self._pages:
            self.__dict__.update(state)
            self.setFont(REGULAR, 8)
            label = self._footer.format(page=self.getPageNumber(), pages=total)
            self.drawRightString(self._width - MARGIN, MARGIN / 2, label)
            super().showPage()
        super().save()


class Words(Protocol):
    """A sheet's words and numbers in the reader's language."""

    def gettext(self, message: str) -> str: ...

    def number(self, value: Decimal | float, decimals: int) -> str: ...


class English:
    """The words as written in the sheets (English) and numbers with a decimal point."""

    def gettext(self, message: str) -> str:
        return message

    def number(self, value: Decimal | float, decimals: int) -> str:
        return f"{value:.{decimals}f}"


ENGLISH = English()


class Sheet:
    """Subclasses set :attr:`title` and :attr:`landscape` and build :meth:`story`."""

    title = ""
    landscape = False
    #: "page {page} of {pages}" in the sheet's language.
    page_label = "{page} / {pages}"

    def __init__(
        self, *, event_name: str, subtitle: str = "", date: str = "", words: Words = ENGLISH
    ) -> None:
        self.event_name = event_name
        self.words = words
        self.subtitle = subtitle
        self.date = date
        register_fonts()
        self.styles = {
            "title": ParagraphStyle("title", fontName=BOLD, fontSize=14, leading=17, spaceAfter=4),
            "heading": ParagraphStyle(
                "heading", fontName=BOLD, fontSize=11, leading=14, spaceBefore=6, spaceAfter=3
            ),
            "body": ParagraphStyle("body", fontName=REGULAR, fontSize=9, leading=11),
            "cell": ParagraphStyle("cell", fontName=REGULAR, fontSize=8, leading=9.5),
        }

    @property
    def pagesize(self) -> tuple[float, float]:
        width, height = landscape(A4) if self.landscape else A4
        return float(width), float(height)

    def story(self) -> list[Flowable]:
        raise NotImplementedError

    def table(
        self,
        header: Sequence[str],
        rows: Sequence[Sequence[Any]],
        widths: Sequence[float],
        *,
        numeric_from: int = 0,
        header_rows: int = 1,
        paddings: Sequence[float] | None = None,
    ) -> Table:
        """A table over the page's width: ``widths`` are fractions (they sum to 1), the
        header row and the ``header_rows - 1`` rows after it are bold and repeat on every
        page, numbers are right-aligned from column ``numeric_from`` on (0: none),
        ``paddings`` the room on either side of each column's text (default :data:`PADDING`).

        A column is never narrower than its header or a plain cell (what cannot wrap): the
        words differ in length from one language to the next, and a line wider than its
        column runs into its neighbour's."""
        usable = self.pagesize[0] - 2 * MARGIN
        data = [list(header), *[list(r) for r in rows]]
        pads = list(paddings) if paddings is not None else [PADDING] * len(header)
        needs = [
            max(line_width(line[c], BOLD if i < header_rows else REGULAR) for i, line in enumerate(data))
            + 2 * pads[c]
            for c in range(len(header))
        ]
        table = Table(data, colWidths=fit(widths, needs, usable), repeatRows=header_rows)
        commands: list[tuple[Any, ...]] = [
            ("FONT", (0, 0), (-1, -1), REGULAR, SIZE),
            ("FONT", (0, 0), (-1, header_rows - 1), BOLD, SIZE),  # the header rows
            ("BACKGROUND", (0, 0), (-1, 0), colors.HexColor("#e6e9ef")),
            ("LINEBELOW", (0, 0), (-1, 0), 0.6, colors.black),
            ("ROWBACKGROUNDS", (0, 1), (-1, -1), [colors.white, colors.HexColor("#f6f7f9")]),  # reading aid
            ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
            ("TOPPADDING", (0, 0), (-1, -1), 1.5),
            ("BOTTOMPADDING", (0, 0), (-1, -1), 1.5),
        ]
        for c, pad in enumerate(pads):
            if pad != PADDING:
                commands += [("LEFTPADDING", (c, 0), (c, -1), pad), ("RIGHTPADDING", (c, 0), (c, -1), pad)]
        if numeric_from:
            commands.append(("ALIGN", (numeric_from, 0), (-1, -1), "RIGHT"))
        table.setStyle(TableStyle(commands))
        return table

    def _decorate(self, canvas: Canvas, doc: SimpleDocTemplate) -> None:
        width, height = self.pagesize
        canvas.saveState()
        canvas.setFont(BOLD, 9)
        canvas.drawString(MARGIN, height - MARGIN + 4, self.event_name)
        canvas.setFont(REGULAR, 9)
        canvas.drawRightString(
            width - MARGIN, height - MARGIN + 4, " · ".join(p for p in (self.subtitle, self.date) if p)
        )
        canvas.setStrokeColor(colors.grey)
        canvas.line(MARGIN, height - MARGIN + 1, width - MARGIN, height - MARGIN + 1)
        canvas.setFont(REGULAR, 8)
        canvas.drawString(MARGIN, MARGIN / 2, "Arbiter")
        canvas.restoreState()

    def render(self) -> bytes:
        out = io.BytesIO()
        doc = SimpleDocTemplate(
            out,
            pagesize=self.pagesize,
            leftMargin=MARGIN,
            rightMargin=MARGIN,
            topMargin=MARGIN + 6 * mm,
            bottomMargin=MARGIN + 2 * mm,
            title=f"{self.title} · {self.event_name}",
            author="Arbiter",
            # Without it every page would also name Helvetica, a font not embedded.
            initialFontName=REGULAR,
        )
        footer = self.page_label

        def canvas(*args: Any, **kwargs: Any) -> Canvas:
            return _NumberedCanvas(*args, footer=footer, **kwargs)

        story = [text(self.title, self.styles["title"]), *self.story()]
        doc.build(story, onFirstPage=self._decorate, onLaterPages=self._decorate, canvasmaker=canvas)
        return out.getvalue()
