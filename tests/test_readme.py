"""The README's first two commands are the contract with a newcomer and with CI; the README
and docs/ point at each other, and every relative link of theirs leads somewhere."""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
#: Every document a reader can land on: the front page and the documents by reader.
DOCUMENTS = [ROOT / "README.md", *sorted(DOCS.glob("*.md"))]
#: The arbitrator's guide in its two languages, with the same pictures taken in each.
GUIDES = {"fr": DOCS / "arbitrator-guide.fr.md", "en": DOCS / "arbitrator-guide.en.md"}
#: What the README sends each reader to.
READERS = [
    "docs/arbitrator-guide.fr.md",
    "docs/arbitrator-guide.en.md",
    "docs/operator-guide.md",
    "docs/architecture.md",
    "docs/benchmarks.md",
    "docs/decisions.md",
    "docs/rules.md",
]
#: The guides' pictures together stay small (bytes).
IMAGES_BUDGET = 2 * 1024 * 1024

_LINK = re.compile(r"!?\[[^\]]*\]\(([^()\s]+)(?:\s+\"[^\"]*\")?\)")
_CODE_SPAN = re.compile(r"`[^`]*`")


def _commands() -> list[str]:
    lines = (ROOT / "README.md").read_text("utf-8").splitlines()
    return [line.strip() for line in lines if line.startswith("    ") and line.strip()][:2]


def _prose(path: Path) -> list[tuple[int, str]]:
    """The lines of a document that are not code: fenced and indented blocks left out,
    inline code spans blanked (a `[--json]` is no link)."""
    lines, fenced = [], False
    for number, line in enumerate(path.read_text("utf-8").splitlines(), 1):
        if line.lstrip().startswith("```"):
            fenced = not fenced
            continue
        if fenced or line.startswith("    "):
            continue
        lines.append((number, _CODE_SPAN.sub(lambda m: " " * len(m.group()), line)))
    return lines


def _slug(heading: str) -> str:
    """The anchor GitHub gives a heading (github-slugger): lowercased; letters, marks,
    digits, connector punctuation (``_``), hyphens and spaces kept, every other character
    dropped (no-break spaces too); spaces made hyphens."""
    text = re.sub(r"`([^`]*)`", r"\1", heading)
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text).strip().lower()
    kept = "".join(
        c
        for c in text
        if c in " -" or unicodedata.category(c)[0] in "LM" or unicodedata.category(c) in ("Nd", "Nl", "Pc")
    )
    return kept.replace(" ", "-")


def _anchors(path: Path) -> set[str]:
    anchors: set[str] = set()
    seen: dict[str, int] = {}
    fenced = False
    for line in path.read_text("utf-8").splitlines():
        if line.lstrip().startswith("```"):
            fenced = not fenced
        heading = re.match(r"#{1,6}\s+(.*?)\s*#*\s*$", line)
        if fenced or heading is None:
            continue
        slug = _slug(heading.group(1))
        anchors.add(f"{slug}-{seen[slug]}" if slug in seen else slug)
        seen[slug] = seen.get(slug, 0) + 1
    return anchors


def _relative_links(path: Path) -> list[tuple[int, str]]:
    return [
        (number, target)
        for number, line in _prose(path)
        for target in _LINK.findall(line)
        if not re.match(r"[a-z][a-z0-9+.-]*:", target)  # http:, https:, mailto:
    ]


def test_the_readme_starts_with_a_run_and_a_test_command() -> None:
    run, test = _commands()
    assert run == "pip install -e . && python manage.py serve"
    assert test.startswith("pip install -e '.[dev]'") and "pytest" in test


def test_ci_runs_the_readme_test_command_verbatim() -> None:
    _, test = _commands()
    ci = (ROOT / ".ci" / "run").read_text("utf-8").splitlines()
    assert test in [line.strip() for line in ci]


def test_the_readme_sends_each_reader_to_their_document() -> None:
    links = {target.split("#")[0] for _, target in _relative_links(ROOT / "README.md")}
    assert set(READERS) <= links, sorted(set(READERS) - links)


def test_every_relative_link_leads_to_a_file_and_a_heading() -> None:
    broken = []
    for document in DOCUMENTS:
        for number, target in _relative_links(document):
            where, _, anchor = target.partition("#")
            file = (document.parent / where).resolve() if where else document
            name = f"{document.relative_to(ROOT)}:{number}: {target}"
            if not file.exists():
                broken.append(f"{name}: no such file")
            elif anchor and file.suffix == ".md" and anchor not in _anchors(file):
                broken.append(f"{name}: no heading with that anchor in {file.relative_to(ROOT)}")
    assert not broken, "\n".join(broken)


def test_the_slugs_are_githubs() -> None:
    assert _slug("The move generator: `python -m bench.solver`") == "the-move-generator-python--m-benchsolver"
    assert _slug("L’ordinateur est tombé en panne") == "lordinateur-est-tombé-en-panne"
    assert _slug("Un multiplex\u00a0: le centre serveur") == "un-multiplex-le-centre-serveur"
    assert _slug("An event's time: `simulate_event`") == "an-events-time-simulate_event"


def test_the_screenshots_shown_are_in_docs() -> None:
    """The README's pictures and the set of issue 13 (console, phone, projector), copied
    from the browser tests by scripts/docs_screenshots.py."""
    from scripts.docs_screenshots import SET

    readme = (ROOT / "README.md").read_text("utf-8")
    shown = re.findall(r"\((docs/screenshots/[\w-]+\.png)\)", readme)
    assert shown and all((ROOT / path).is_file() for path in shown), shown
    for name in SET:
        picture = ROOT / "docs" / "screenshots" / f"{name}.png"
        assert picture.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n", name


def test_the_guides_show_the_same_pictures_each_in_its_language() -> None:
    """The arbitrator's guides' pictures (scripts/guide_screenshots.py): each guide shows
    its own language's, the two the same set, every picture in docs/images/ shown and a
    PNG, all of them small."""
    shown = {
        lang: sorted(re.findall(r"\]\((images/[\w-]+\.(\w+)\.png)\)", guide.read_text("utf-8")))
        for lang, guide in GUIDES.items()
    }
    for lang, pictures in shown.items():
        assert pictures and {picture_lang for _, picture_lang in pictures} == {lang}, (lang, pictures)
    names = {
        lang: [path.replace(f".{lang}.png", "") for path, _ in pictures] for lang, pictures in shown.items()
    }
    assert names["fr"] == names["en"]
    images = sorted((DOCS / "images").glob("*.png"))
    assert {f"images/{p.name}" for p in images} == {
        path for pictures in shown.values() for path, _ in pictures
    }
    for image in images:
        assert image.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n", image.name
    assert sum(image.stat().st_size for image in images) < IMAGES_BUDGET
