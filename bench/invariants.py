"""What a person watching the screens relies on, checked on what the screens show.

Each reader takes the text a screen gave (a page's HTML, the API's JSON, a sheet's text)
and returns the fact it shows; each ``check_*`` compares one fact across screens and
returns the disagreements as sentences (an empty list: they agree). The event rehearsal
(tests/e2e/test_rehearsal.py), the pages' tests and the hall benchmark call them alike,
whatever the number of players."""

from __future__ import annotations

import ast
import html as html_lib
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

# ------------------------------------------------------------------ readers


def _text(fragment: str) -> str:
    """A fragment of HTML as read: tags dropped, entities and spaces made plain."""
    no_tags = re.sub(r"<[^>]+>", " ", fragment)
    return re.sub(r"\s+", " ", html_lib.unescape(no_tags)).replace("\u202f", " ").replace("\xa0", " ").strip()


def _number(text: str) -> int:
    """A signed whole number as the pages write it (a real minus sign, a plus sign)."""
    return int(text.replace("\u2212", "-").replace("+", "").replace(" ", ""))


def standings_totals(page: str) -> dict[int, int]:
    """Table -> total of the first standings table of a page (console, projector)."""
    hall = re.search(r'<table class="hall-ranking[^"]*">(.*?)</table>', page, re.S)
    if hall is not None:
        # The projector's rows (rank, name, total, gap), each saying its player's table; the
        # rows of the pages not shown now are hidden, not gone.
        return {
            int(table): _number(_text(re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)[2]))
            for table, row in re.findall(r'<tr data-table="(\d+)"[^>]*>(.*?)</tr>', hall.group(1), re.S)
        }
    table = re.search(r'<table class="list standings">(.*?)</table>', page, re.S)
    if table is None:
        return {}
    header = [_text(h) for h in re.findall(r"<th>(.*?)</th>", table.group(1), re.S)]
    rows: dict[int, int] = {}
    for row in re.findall(r"<tr>(.*?)</tr>", table.group(1).split("</thead>")[-1], re.S):
        cells = [_text(c) for c in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)]
        if len(cells) < len(header) or len(header) < 5:
            continue  # "no result yet"
        values = dict(zip(header, cells, strict=False))
        table_cell = values.get("Table") or values.get("Table ")
        total_cell = values.get("Total")
        if table_cell is None or total_cell is None:
            # The columns by place when the page is in another language: rank, table, name, total.
            offset = 1 if len(header) > 7 and "Centre" in header else 0
            table_cell, total_cell = cells[1 + offset], cells[3 + offset]
        rows[int(table_cell)] = _number(total_cell)
    return rows


def sheet_totals(cells: list[str], names: Mapping[int, str]) -> dict[int, int]:
    """Table -> total of a standings sheet's text (a cell a line, as pdf text gives it):
    the first whole number after each player's name (the club and series are words)."""
    found: dict[int, int] = {}
    for table, name in names.items():
        if name not in cells:
            continue
        for cell in cells[cells.index(name) + 1 :]:
            if re.fullmatch(r"[+\u2212-]?\d+", cell.strip()):
                found[table] = _number(cell.strip())
                break
    return found


def phone_total(page: str) -> tuple[int, int] | None:
    """(the player's total, the tops' total) as the phone's header says it."""
    found = re.search(r'class="total">.*?<b data-mine="total">([^<]*)</b>\s*/\s*([^<\s]+)', page, re.S)
    if found is None:
        return None
    return _number(found.group(1)), _number(found.group(2))


def announced_top(page: str) -> str | None:
    """The move a phone or the projector announces as the round's top ("" for a score
    alone), None when the page announces none."""
    hall = re.search(r'<div class="hall-top">.*?<p class="big">(.*?)</p>', page, re.S)
    if hall is not None:
        move = re.search(r"<b>(.*?)</b>", hall.group(1), re.S)
        return _text(move.group(1)) if move else ""
    phone = re.search(r'<section class="result".*?<p>[^<]*?(?:<b>(.*?)</b>)?[^<]*?·', page, re.S)
    if phone is not None:
        return _text(phone.group(1) or "")
    return None


def review_rulings(page: str) -> list[int]:
    """The rulings the console's review lists in its sections (each should be once)."""
    return [int(pk) for pk in re.findall(r'data-ruling="(\d+)"', page)]


def visible_text(page: str) -> str:
    """What a person reads on a page: the body's text, without scripts, styles, hidden
    parts and the language switch (which names the other language on purpose)."""
    body = page.split("<body", 1)[-1]
    body = re.sub(r"<(script|style|template)\b.*?</\1>", " ", body, flags=re.S)
    body = re.sub(r"<[^>]+\bhidden\b[^>]*>[^<]*", " ", body)
    body = re.sub(r'<[^>]+class="[^"]*\blang-switch\b[^"]*".*?</(?:nav|form|div|p)>', " ", body, flags=re.S)
    return _text(body)


# ------------------------------------------------------------------ checks


@dataclass
class Report:
    """The checks run and what disagreed, for a rehearsal's summary."""

    checked: dict[str, int] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)

    def add(self, name: str, problems: Iterable[str]) -> None:
        self.checked[name] = self.checked.get(name, 0) + 1
        self.problems.extend(f"{name}: {p}" for p in problems)

    def summary(self) -> str:
        lines = [f"{name}: checked {count} times" for name, count in sorted(self.checked.items())]
        lines.append(f"problems: {len(self.problems)}")
        lines.extend(f"  {p}" for p in self.problems)
        return "\n".join(lines)


def check_top(announced: Mapping[str, str | None], placed: str) -> list[str]:
    """Every screen that announces a top announces the move then placed."""
    return [
        f"{screen} announced {move!r}, {placed!r} was placed"
        for screen, move in announced.items()
        if move is not None and move != placed
    ]


def check_review(listed: list[int], rulings: Iterable[int]) -> list[str]:
    """Every ruling of the round is listed once in the review, and nothing else is."""
    expected = set(rulings)
    twice = sorted(pk for pk in set(listed) if listed.count(pk) > 1)
    problems = [f"ruling {pk} listed {listed.count(pk)} times" for pk in twice]
    problems += [f"ruling {pk} missing from the review" for pk in sorted(expected - set(listed))]
    problems += [f"ruling {pk} listed but not of this round" for pk in sorted(set(listed) - expected)]
    return problems


def check_totals(
    views: Mapping[str, Mapping[int, int]], *, expected: Mapping[int, int] | None = None
) -> list[str]:
    """Every view gives every table the same total (``expected``: the reference, else the
    first view). A view that leaves a table out disagrees too."""
    if not views:
        return []
    names = list(views)
    reference = dict(expected) if expected is not None else dict(views[names[0]])
    problems = []
    for name in names:
        shown = views[name]
        for table, total in sorted(reference.items()):
            if table not in shown:
                problems.append(f"{name} leaves out table {table}")
            elif shown[table] != total:
                problems.append(f"{name} gives table {table} {shown[table]}, not {total}")
    return problems


def check_language(text: str, foreign: Iterable[str], *, own: Iterable[str] = ()) -> list[str]:
    """No sentence of the other language's catalogue shows on a page (``foreign``: its
    texts of two words or more; ``own``: the page language's texts, which may contain the
    same words, e.g. a French "Total" that is English too)."""
    own_texts = set(own)
    return [f"shows {phrase!r}" for phrase in foreign if phrase not in own_texts and phrase in text]


# ------------------------------------------------------------------ the catalogues


def _po_entries(path: Path) -> list[tuple[str, list[str]]]:
    """(msgid, [msgstr...]) of a gettext catalogue, the header left out."""
    entries: list[tuple[str, list[str]]] = []
    field_name = ""
    buffers: dict[str, str] = {}

    def close() -> None:
        if buffers.get("msgid"):
            entries.append((buffers["msgid"], [v for k, v in buffers.items() if k.startswith("msgstr")]))
        buffers.clear()

    for raw in path.read_text("utf-8").splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            if not line:
                close()
            continue
        keyword = re.match(r"^(msgctxt|msgid_plural|msgid|msgstr(?:\[\d\])?) (\".*\")$", line)
        if keyword:
            field_name = keyword.group(1)
            buffers[field_name] = ast.literal_eval(keyword.group(2))
        elif line.startswith('"') and field_name:
            buffers[field_name] += ast.literal_eval(line)
    close()
    return entries


def _phrases(text: str) -> set[str]:
    """The sentences of a catalogue's text as a page shows them: the parts between its
    placeholders and markup, of two words or more."""
    parts = re.split(r"%\(\w+\)[sd]|%[sd]|<[^>]+>|[\n·—|()]", text)
    found = set()
    for part in parts:
        phrase = re.sub(r"\s+", " ", part.replace("\u00a0", " ").replace("\u202f", " ")).strip(" :;,.?!«»\"'")
        if len(phrase) >= 10 and " " in phrase:
            found.add(phrase)
    return found


@dataclass(frozen=True)
class Catalogues:
    """The interface's phrases in each language, to find one language's on a page of the
    other (``check_language``)."""

    english: frozenset[str]
    french: frozenset[str]

    @classmethod
    def read(cls, locale: Path) -> Catalogues:
        english: set[str] = set()
        french: set[str] = set()
        for msgid, strings in _po_entries(locale / "fr" / "LC_MESSAGES" / "django.po"):
            english |= _phrases(msgid)
            for text in strings:
                french |= _phrases(text)
        return cls(frozenset(english - french), frozenset(french - english))

    def foreign_to(self, language: str) -> frozenset[str]:
        return self.english if language == "fr" else self.french
