"""Template filters of the pages."""

from __future__ import annotations

import datetime as dt
import functools
import hashlib
import json
import re
from collections.abc import Mapping
from typing import Any

from django import template
from django.utils import timezone, translation
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.timezone import localtime
from django.utils.translation import gettext, ngettext

from rooms.lines import OwnRuling, OwnSlip
from rooms.listed import ListedRuling, WatchedSlip
from tournaments.display import PREMIUM_MARKS, Cell, end_reason_text, ruling_text
from tournaments.messages import say_notes
from tournaments.models import Event, Round, Ruling, Slip
from tournaments.selectors.review import Review

register = template.Library()


@register.simple_tag
def colon() -> str:
    """A colon after a label in the page's language: French sets it off with a no-break
    space ("Reçu à 12:04:05 :"), English does not ("Received at 12:04:05:")."""
    return "\u00a0:" if (translation.get_language() or "").startswith("fr") else ":"


@register.inclusion_tag("console/_lexicon.html")
def lexicon_status(event: Event) -> dict[str, Any]:
    """Where the import of the event's word list is, on each of the event's pages until it
    is ready (nothing once it is)."""
    return {"event": event, "lexicon": event.lexicon, "quiet": True}


@register.filter
def ruling_label(code: str) -> str:
    """A ruling's reason code in the page's language."""
    return ruling_text(code)


@register.filter
def ruling_detail(ruling: Ruling | ListedRuling | OwnRuling) -> str:
    """Why a ruling is what it is, in the page's language (a ruling stored before the
    notes existed keeps its English sentence)."""
    return say_notes(ruling.notes) if ruling.notes else ruling.detail


@register.filter
def premium_mark(premium: str) -> str:
    """The short mark of a premium square's CSS class ("TW", "MT"), "" for a plain one."""
    return str(PREMIUM_MARKS[premium][0]) if premium in PREMIUM_MARKS else ""


@register.filter
def premium_name(premium: str) -> str:
    """The premium said in words ("triple word"), "" for a plain square."""
    return str(PREMIUM_MARKS[premium][1]) if premium in PREMIUM_MARKS else ""


#: The typographic minus: a hyphen is small and thin from the back of a hall.
MINUS = "\u2212"


@register.filter
def signed(value: int | float | None) -> str:
    """A number with a real minus sign when it is negative (gaps to the top, totals below
    zero after penalties)."""
    if value is None:
        return ""
    text = str(value)
    return MINUS + text[1:] if text.startswith("-") else text


@register.filter
def item(mapping: Mapping[Any, Any] | None, key: Any) -> Any:
    """``mapping[key]`` in a template (the centre of a merged ranking's row); "" if absent."""
    return (mapping or {}).get(key, "")


@register.filter
def end_text(reason: str) -> str:
    """How a game ended, in the page's language ("" while it goes on)."""
    return end_reason_text(reason) if reason else ""


#: The context's list that :func:`keep` adds its parts to, when the caller put one there
#: (rooms/views/panels.py: a phone's stream leaves out the parts its phone already has).
KEPT_PARTS = "kept_parts"


def part_key(name: str, content: str) -> str:
    """A part's name and a digest of its content: the same part is the same key in every
    process and on every path (the page, its reload, its stream)."""
    return f"{name}-{hashlib.blake2b(content.encode(), digest_size=8).hexdigest()}"


def kept_placeholder(key: str, element: str = "div") -> str:
    """What a stream sends in place of the part ``key`` its phone has (phone.js puts the
    phone's own part back there): an element of the part's own kind (a board's row is a
    ``tr``, which a ``div`` could not stand for inside a table)."""
    kind = ' class="kept"' if element == "div" else ""
    return f'<{element}{kind} data-keep="{key}" data-kept></{element}>'


def _kept(context: template.Context, key: str, text: str, element: str = "div") -> None:
    """Tell a panel being built for the streams (rooms/views/panels.py) of a part it may
    leave out: (key, the part, its placeholder)."""
    parts = context.get(KEPT_PARTS)
    if isinstance(parts, list):
        parts.append((key, text, kept_placeholder(key, element)))


class KeepNode(template.Node):
    def __init__(self, name: str, nodelist: template.NodeList) -> None:
        self.name, self.nodelist = name, nodelist

    def render(self, context: template.Context) -> str:
        inner = self.nodelist.render(context)
        key = part_key(self.name, inner)
        wrapped = f'<div class="kept" data-keep="{key}">{inner}</div>'
        _kept(context, key, wrapped)
        return wrapped


@register.tag
def keep(parser: template.base.Parser, token: template.base.Token) -> KeepNode:
    """``{% keep "board" %}...{% endkeep %}``: a part of a phone's panel that its stream
    need not send again while it is unchanged (rooms/views/panels.py); wrapped in a box
    with no layout of its own (``.kept``: ``display: contents``), named by its content."""
    bits = token.split_contents()
    if len(bits) != 2 or not re.fullmatch(r"[\"'][a-z]+[\"']", bits[1]):
        raise template.TemplateSyntaxError('{% keep "name" %}: one name, in quotes, of letters a-z')
    nodelist = parser.parse(("endkeep",))
    parser.delete_first_token()
    return KeepNode(bits[1][1:-1], nodelist)


@register.simple_tag(takes_context=True)
def board_rows(context: template.Context, rows: list[tuple[str, list[Cell]]]) -> SafeString:
    """The board's rows, each a part a phone keeps (``{% keep %}``) while it is unchanged:
    a placed move changes a few rows, and the stream sends those, not the whole
    board (docs/decisions.md). Written here rather than in the template, each row once per language."""
    language = translation.get_language() or ""
    out = []
    for label, cells in rows:
        key, row = _board_row(language, label, tuple(cells))
        _kept(context, key, row, "tr")
        out.append(row)
    return mark_safe("\n  ".join(out))  # escaped in _board_row


@functools.lru_cache(maxsize=2048)
def _board_row(language: str, label: str, cells: tuple[Cell, ...]) -> tuple[str, str]:
    """(key, html) of a board's row: its heading and squares, each named for screen readers
    (the name in the event's notation, the premium or the tile, the last move's)."""
    with translation.override(language):
        inner = f'<th scope="row">{escape(label)}</th>' + "".join(_square(cell) for cell in cells)
    key = part_key("row", inner)
    return key, f'<tr data-keep="{key}">{inner}</tr>'


def _square(cell: Cell) -> str:
    letter, name = escape(cell.letter), escape(cell.name)
    blank = cell.letter.islower()
    classes = "sq " + cell.premium
    if cell.letter:
        classes += " tile blank" if blank else " tile"
    if cell.new:
        classes += " new"
    if cell.centre:
        classes += " centre"
    attributes = f'class="{classes}" data-r="{cell.row}" data-c="{cell.col}" data-name="{name}"'
    if not cell.letter:
        if not cell.premium:
            return f'<td {attributes}><span class="sr">{name}</span></td>'
        mark, said = escape(premium_mark(cell.premium)), escape(premium_name(cell.premium))
        return (
            f'<td {attributes}><span class="pm" aria-hidden="true">{mark}</span>'
            f'<span class="sr">{name}, {said}</span></td>'
        )
    value = f'<span class="v">{cell.value}</span>' if cell.value else ""
    # The words apart from the f-strings: makemessages does not read inside them.
    blank_said = '<span class="sr"> ({})</span>'.format(escape(gettext("blank"))) if blank else ""
    last = ", " + escape(gettext("last move")) if cell.new else ""
    return (
        f'<td {attributes} data-letter="{letter}"><span class="l">{letter.upper()}</span>{value}{blank_said}'
        f'<span class="sr">, {name}{last}</span></td>'
    )


# A player's own lines (receipt and result) are written here rather than in templates: a
# hall's phones are sent theirs at each public change, 1,000 a web process, and the
# template language would take most of each build (docs/decisions.md).


def clock_time(at: dt.datetime) -> str:
    """A time of the round in the page's time zone, as the filter time:"H:i:s" writes it,
    without the filter's cost for each slip of a hall."""
    return localtime(at).strftime("%H:%M:%S")


def receipt_html(
    slip: Slip | OwnSlip | None, round: Round | None, time_up: bool, phone_replace: bool
) -> SafeString:
    """The player's own slip, as the phone shows it under the slip form."""
    if slip is None:
        return mark_safe("")
    until = round is not None and round.state == Round.State.OPEN and not time_up
    # Written once per slip and what the line says of it, not at every build of the phones
    # (a hall's are built at each public change); the time zone is the page's.
    key = (
        translation.get_language(),
        timezone.get_current_timezone(),
        slip.received_at,
        slip.late,
        slip.coordinates,
        slip.word,
        slip.announced_score,
        until,
        until and phone_replace,
    )
    known = _receipts.get(key)
    if known is None:
        if len(_receipts) >= RECEIPTS_KEPT:
            _receipts.clear()
        known = _receipts[key] = _receipt_line(slip, until, phone_replace)
    return known


#: The receipts written (:func:`receipt_html`), at most this many at a time: a process
#: serves the phones of a hall's 2,000 players at most.
RECEIPTS_KEPT = 8192
_receipts: dict[tuple[Any, ...], SafeString] = {}


def _receipt_line(slip: Slip | OwnSlip, until: bool, phone_replace: bool) -> SafeString:
    said = gettext("Late slip (scores 0)") if slip.late else gettext("Received at")
    at = clock_time(slip.received_at)
    move = (
        f"{escape(slip.coordinates)} {escape(slip.word)}"
        if slip.coordinates or slip.word
        else gettext("a blank slip")
    )
    score = f" · {slip.announced_score}" if slip.announced_score is not None else ""
    if until:
        replace = (
            gettext("You may replace it until the deadline.")
            if phone_replace
            else gettext("It is handed in: it cannot be replaced.")
        )
        until_text = f'<span class="until"> — {replace}</span>'
    else:
        until_text = ""
    late = " late" if slip.late else ""
    return mark_safe(  # the slip's text escaped, the rest ours
        f'<p class="receipt{late}">{said} {at}{colon()} <b>{move}</b>{score}{until_text}</p>'
    )


def result_html(ruling: Ruling | OwnRuling | None) -> SafeString:
    """The player's own ruling, as the phone shows it with the round's result."""
    if ruling is None:
        return mark_safe("")
    slip = ruling.slip
    # A hall's players share a few dozen rulings: each is written once per language (the
    # key holds everything the line says), not once per phone and build.
    key = (
        translation.get_language(),
        None if slip is None else (slip.coordinates, slip.word),
        ruling.credited,
        ruling.is_top,
        ruling.solo,
        ruling.reason,
        ruling.warnings,
        ruling.penalty,
        ruling.detail,
        json.dumps(ruling.notes, sort_keys=True),
    )
    known = _results.get(key)
    if known is None:
        if len(_results) >= RESULTS_KEPT:
            _results.clear()
        known = _results[key] = _result_line(ruling)
    return known


#: The result lines written (:func:`result_html`), at most this many at a time.
RESULTS_KEPT = 4096
_results: dict[tuple[Any, ...], SafeString] = {}


def _result_line(ruling: Ruling | OwnRuling) -> SafeString:
    slip = ruling.slip
    move = f"{escape(slip.coordinates)} {escape(slip.word)}" if slip is not None else "—"
    # Each word apart from the f-strings: makemessages does not read inside them.
    your_slip, top_word, solo_word = gettext("Your slip:"), gettext("TOP"), gettext("solo")
    top = f'<b class="badge">{top_word}</b>' if ruling.is_top else ""
    solo = f' <b class="badge">{solo_word}</b>' if ruling.solo else ""
    why = str(escape(ruling_text(ruling.reason)))
    if ruling.warnings:
        why += " · " + ngettext("%(n)s warning", "%(n)s warnings", ruling.warnings) % {"n": ruling.warnings}
    if ruling.penalty:
        why += " · " + gettext("Penalty") + f" {ruling.penalty}"
    detail = escape(ruling_detail(ruling))
    return mark_safe(  # the slip's text and the ruling's words escaped
        f'<p class="mine">{your_slip} {move} → <b>{ruling.credited}</b>\n    {top}{solo}'
        f'\n    <br><small>{why}</small>\n    <br><small class="why">{detail}</small></p>'
    )


@register.simple_tag(takes_context=True)
def receipt(context: template.Context) -> SafeString:
    mine, event = context.get("mine"), context.get("event")
    return receipt_html(
        getattr(mine, "slip", None),
        context.get("round"),
        bool(context.get("time_up")),
        bool(getattr(event, "phone_replace", False)),
    )


@register.simple_tag(takes_context=True)
def result(context: template.Context) -> SafeString:
    return result_html(getattr(context.get("mine"), "ruling", None))


# The review's lists are written here rather than in its template: a hall's review names
# 2,000 rulings, and the template language would take most of each console page resolving
# them (docs/decisions.md). Whole numbers as the templates show them (no
# thousands separator: USE_THOUSAND_SEPARATOR is off); every name and word escaped.


@register.simple_tag(takes_context=True)
def review_moves(context: template.Context, review: Review[ListedRuling]) -> SafeString:
    """The review table's rows: each move, its score, and the rulings that played it."""
    path = escape(context.get("ruling_path", ""))
    words = {
        "announced": escape(gettext("announced")),
        "solo": escape(gettext("SOLO")),
        "corrected": escape(gettext("corrected")),
    }
    top = f' <b class="badge">{escape(gettext("TOP"))}</b>'
    rows = [
        f'<tr class="{"top" if group.is_top else ""}"><td>{group.score}{top if group.is_top else ""}</td>'
        f"<td>{escape(group.shown)}</td>\n    <td>"
        + ", ".join(_move_link(ruling, path, words) for ruling in group.rulings)
        + "</td></tr>"
        for group in review.groups
    ]
    if not rows:
        rows.append(f'<tr><td colspan="3">{escape(gettext("No valid move."))}</td></tr>')
    return mark_safe("\n  ".join(rows))  # each part escaped above


def _move_link(ruling: ListedRuling, path: str, words: Mapping[str, str]) -> str:
    player, slip = ruling.player, ruling.slip
    name = f"{player.table} {escape(player.name)}"
    link = [f'<a href="{path}{ruling.pk}/" class="who" data-ruling="{ruling.pk}">{name}']
    if slip is not None and slip.announced_score is not None and slip.announced_score != ruling.move_score:
        link.append(f" <small>({words['announced']} {slip.announced_score})</small>")
    if ruling.reason != "ok" and not ruling.overridden:
        link.append(f" <small>({escape(ruling_text(ruling.reason))})</small>")
    if ruling.penalty:
        link.append(f' <span class="warn">{MINUS}{ruling.penalty}</span>')
    if ruling.warnings:
        link.append(f' <span class="warn" title="{escape(ruling_detail(ruling))}">⚠ {ruling.warnings}</span>')
    if ruling.solo:
        link.append(f' <b class="badge solo">{words["solo"]}</b>')
    if ruling.overridden:
        link.append(f" <i>{words['corrected']}</i>")
    link.append("</a>")
    return "".join(link)


@register.simple_tag
def watch_rows(slips: list[Slip] | list[WatchedSlip]) -> SafeString:
    """The console's watch of an open round: a row for each slip handed in, newest first
    (a hall's 2,000 through the template language would be most of the page:
    docs/benchmarks.md)."""
    paper = " · " + escape(gettext("paper"))  # not in an f-string: makemessages reads the call
    return mark_safe(  # every name and word escaped
        "".join(
            f"<tr><td>{s.player.table}</td><td>{escape(s.player.name)}</td>"
            f"<td>{escape(s.coordinates)} {escape(s.word)}</td>"
            f"<td>{'' if s.announced_score is None else s.announced_score}</td>"
            f"<td>{clock_time(s.received_at)}"
            f"{paper if s.source == 'paper' else ''}</td></tr>"
            for s in slips
        )
    )


@register.simple_tag(takes_context=True)
def review_items(
    context: template.Context, rulings: list[ListedRuling] | list[Ruling], section: str
) -> SafeString:
    """The review's list of the invalid slips (``section`` "invalid": each with its slip
    and why) or of the players who handed in several ("several"): an item a ruling."""
    path = escape(context.get("ruling_path", ""))
    shifted = " <b>" + escape(gettext("shifted reference?")) + "</b>"  # makemessages: see watch_rows
    corrected = " <i>" + escape(gettext("corrected")) + "</i>"
    items = []
    for r in rulings:
        who = f"{r.player.table} {escape(r.player.name)}"
        item = f'\n  <li><a href="{path}{r.pk}/" data-ruling="{r.pk}">{who}</a>'
        if section == "invalid":
            slip = r.slip
            move = f"{escape(slip.coordinates)} {escape(slip.word)}" if slip is not None else " "
            why = f"{escape(ruling_text(r.reason))} <small>({escape(ruling_detail(r))})</small>"
            item += f"{colon()} {move} — {why}"
            item += shifted if r.shift_candidate else ""
        else:
            item += corrected if r.overridden else ""
        items.append(item + "</li>")
    return mark_safe("".join(items))  # every name, word and text escaped


@register.simple_tag(takes_context=True)
def ruling_tables(context: template.Context, rulings: list[ListedRuling]) -> SafeString:
    """Rulings named by their tables, each a link to its ruling, after a label of the
    review ("Missing: 3 17 204"): each is listed once in such a section."""
    path = escape(context.get("ruling_path", ""))
    return mark_safe(  # numbers and an escaped path
        "".join(f'<a href="{path}{r.pk}/" data-ruling="{r.pk}">{r.player.table}</a> ' for r in rulings)
    )


@register.simple_tag(takes_context=True)
def ruling_refs(context: template.Context, rulings: list[ListedRuling]) -> SafeString:
    """Rulings named again by their tables, comma-separated ("Found the top: 4 (1, 5, 9, 12)")."""
    path = escape(context.get("ruling_path", ""))
    return mark_safe(  # numbers and an escaped path
        ", ".join(f'<a href="{path}{r.pk}/" class="ref">{r.player.table}</a>' for r in rulings)
    )
