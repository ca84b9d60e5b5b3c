"""Take the arbitrator's guides' pictures (docs/images/): a club evening played in a real
browser, once in French and once in English.

Starts ``manage.py serve`` on a data folder of its own (a temporary one, on the embedded
default; ``--port``, default 8765), plays through it with Playwright driving Debian's
chromium (``ARBITER_CHROMIUM``, default /usr/bin/chromium): the first account, an event
made on the console's form, six players imported from a CSV file, three phones, the
projector, a round with slips from the phones and typed paper slips, the close, a
correction, the publication and the placement; the standings and sheets of an event
``simulate_event`` played beforehand. Each picture is cropped to what the guide discusses
and saved as a palette PNG (``NAME.LANG.png``). Look at each before committing them.

    python scripts/guide_screenshots.py [--out docs/images] [--port 8765] [--lang fr en]
"""

from __future__ import annotations

import argparse
import io
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = os.environ.get("ARBITER_CHROMIUM", "/usr/bin/chromium")
PASSWORD = "une-longue-phrase-secrete"
#: Every wait for the pages to catch up is bounded (ms): the live updates come within 2 s,
#: the solver and the rulings within a few on a busy machine.
WAIT_MS = 30_000

#: What each language's event is made of: the words the pages' buttons say, the event's
#: list, notation and players (the CSV file's header in the page's language).
LANGUAGES: dict[str, dict[str, Any]] = {
    "fr": {
        "locale": "fr-FR",
        "event": "Club de Vichy",
        "lexicon": "bundled:french",
        "notation": "fisf",
        "hall_language": "fr",
        "csv": "nom;club;licence;catégorie;table;papier\n"
        "Anne Martin;Vichy;12345;S;1;\nBruno Petit;Vichy;12346;V;2;\nChloé Durand;Moulins;22301;J;3;\n"
        "David Roux;Moulins;22307;S;4;oui\nÉmilie Blanc;Riom;31002;D;5;oui\nFrançois Noël;Riom;31011;V;6;\n",
        "tiles": "french",
        "seed": 7,
        "hub": "Multiplex de la Saint-Nicolas",
        "centres": ("Vichy", "Binche", "Dakar"),
    },
    "en": {
        "locale": "en-GB",
        "event": "Club evening",
        "lexicon": "bundled:enable",
        "notation": "gcg",
        "hall_language": "en",
        "csv": "name;club;licence;category;table;paper\n"
        "Ann Moore;Leeds;1201;A;1;\nBen Hall;Leeds;1202;B;2;\nCarla Stone;York;1305;A;3;\n"
        "Dan Price;York;1307;C;4;yes\nEve Wood;Hull;1410;B;5;yes\nFrank Lee;Hull;1411;C;6;\n",
        "tiles": "english",
        "seed": 7,
        "hub": "Autumn simultaneous",
        "centres": ("Leeds", "Dublin", "Lagos"),
    },
}


def crop(page: Any, selectors: list[str], path: Path, pad: int = 8, height: int | None = None) -> None:
    """The part of the page the guide discusses: the union of the elements' boxes, padded,
    at most ``height`` pixels high, saved as a palette PNG (a few colours: a third of the
    size of the browser's)."""
    page.evaluate("window.scrollTo(0, 0)")
    boxes = []
    for selector in selectors:
        locator = page.locator(selector).first
        locator.wait_for(state="visible")
        box = locator.bounding_box()
        assert box is not None, selector
        scroll = page.evaluate("[window.scrollX, window.scrollY]")
        boxes.append((box["x"] + scroll[0], box["y"] + scroll[1], box["width"], box["height"]))
    left = max(0, min(b[0] for b in boxes) - pad)
    top = max(0, min(b[1] for b in boxes) - pad)
    right = max(b[0] + b[2] for b in boxes) + pad
    bottom = max(b[1] + b[3] for b in boxes) + pad
    if height is not None:
        bottom = min(bottom, top + height)
    png = page.screenshot(
        full_page=True, clip={"x": left, "y": top, "width": right - left, "height": bottom - top}
    )
    save(png, path)


def save(png: bytes, path: Path, width: int | None = None) -> None:
    from PIL import Image  # ReportLab's dependency: installed with Arbiter

    with Image.open(io.BytesIO(png)) as image:
        picture = image.convert("RGB")
    if width is not None and picture.width > width:
        picture = picture.resize(
            (width, round(picture.height * width / picture.width)), Image.Resampling.LANCZOS
        )
    picture = picture.quantize(colors=64, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
    path.parent.mkdir(parents=True, exist_ok=True)
    picture.save(path, optimize=True)
    print(
        f"{path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}: {path.stat().st_size // 1024} KB"
    )


def serve(folder: Path, port: int) -> subprocess.Popen[bytes]:
    env = {**os.environ, "ARBITER_VAR_DIR": str(folder / "var"), "PYTHONUNBUFFERED": "1"}
    for name in ("DATABASE_URL", "REDIS_URL"):
        env.pop(name, None)  # the embedded default, as on an arbitrator's laptop
    log = folder / "serve.log"
    with log.open("wb") as output:
        process = subprocess.Popen(
            [sys.executable, "manage.py", "serve", "--port", str(port)], cwd=ROOT, env=env, stdout=output,
            stderr=subprocess.STDOUT,
        )  # fmt: skip
    deadline = time.monotonic() + 180
    while "Arbiter is running" not in log.read_text("utf-8", "replace"):
        if process.poll() is not None or time.monotonic() > deadline:
            raise SystemExit(f"serve did not start:\n{log.read_text('utf-8', 'replace')}")
        time.sleep(0.5)
    return process


def manage(folder: Path, *args: str) -> str:
    """A terminal command on the server's data folder, as the arbitrator types it."""
    env = {**os.environ, "ARBITER_VAR_DIR": str(folder / "var")}
    for name in ("DATABASE_URL", "REDIS_URL"):
        env.pop(name, None)
    done = subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True, check=True
    )
    return done.stdout


def prepare(folder: Path, lang: str) -> tuple[int, int]:
    """An event virtual players have played (its standings and sheets), and the hub of a
    multiplex with three centres (its console page)."""
    conf = LANGUAGES[lang]
    played = manage(
        folder, "simulate_event", "--players", "24", "--games", "1", "--seed", "7",
        "--language", conf["tiles"], "--json",
    )  # fmt: skip
    simulated = int(json.loads(played)["event_id"])
    said = manage(
        folder, "event_create", conf["hub"], "--language", conf["tiles"], "--lexicon", conf["lexicon"][8:]
    )
    hub = int(re.search(r"\d+", said).group())
    manage(folder, "multiplex_create", "--event", str(hub), "--max-delay", "90")
    for centre in conf["centres"]:
        manage(
            folder,
            "centre_add",
            "--event",
            str(hub),
            "--name",
            centre,
            *(["--draws"] if centre == conf["centres"][0] else []),
        )
    return simulated, hub


def first_account(browser: Any, base: str) -> Any:
    context = browser.new_context(viewport={"width": 1366, "height": 768}, locale="fr-FR")
    page = context.new_page()
    page.goto(f"{base}/")
    page.fill("#id_username", "arbitre")
    page.fill("#id_password1", PASSWORD)
    page.fill("#id_password2", PASSWORD)
    page.locator("form[action='/first-arbitrator/'] button").click()
    page.wait_for_load_state()
    state = context.storage_state()
    context.close()
    return state


def walk(browser: Any, base: str, state: Any, lang: str, played: tuple[int, int], out: Path) -> None:
    """One club evening in ``lang``: the pictures of the guide in that language."""
    conf = LANGUAGES[lang]
    simulated, hub = played
    name = lambda what: out / f"{what}.{lang}.png"  # noqa: E731
    desk = browser.new_context(
        viewport={"width": 1366, "height": 768}, locale=conf["locale"], storage_state=state
    )
    console = desk.new_page()
    console.set_default_timeout(WAIT_MS)
    # The page's language: the FR/EN switch, as a person does it.
    console.goto(f"{base}/")
    console.locator(f"header button[name=language][value={lang}]").click()
    console.wait_for_load_state()

    # The event: its name, word list, notation and the language of the hall.
    console.goto(f"{base}/console/new/")
    console.fill("#id_name", conf["event"])
    console.select_option("#id_language", conf["tiles"])
    console.select_option("#id_lexicon_choice", conf["lexicon"])
    console.select_option("#id_notation", conf["notation"])
    console.fill("#id_random_seed", str(conf["seed"]))
    if console.locator("#id_hall_language").count():
        console.select_option("#id_hall_language", conf["hall_language"])
    # The settings' rows (not the days: headless chromium writes dates the American way
    # whatever the language).
    crop(
        console,
        ["div.field:has(#id_board)", "div.field:has(#id_mode)", "div.field:has(#id_first_move_horizontal)"],
        name("event-new"),
    )
    console.locator("main form button.primary").last.click()
    console.wait_for_url(re.compile(r"/console/\d+/players/$"))
    event = int(console.url.rstrip("/").rsplit("/", 2)[1])

    # Six players from a CSV file, two of them on paper.
    console.set_input_files(
        "input[name=csv-csv_file]",
        files=[{"name": "players.csv", "mimeType": "text/csv", "buffer": conf["csv"].encode()}],
    )
    console.locator("input[name=csv-csv_file]").locator("xpath=ancestor::form").locator("button").click()
    console.wait_for_load_state()
    console.goto(f"{base}/console/{event}/players/")  # without the import's message above
    crop(console, ["#players-title", "table.list"], name("players"))
    console.goto(f"{base}/console/{event}/players/cards/")
    cards = console.locator(".table-card")
    crop(console, [".table-card >> nth=0", ".table-card >> nth=1"], name("table-cards"))
    seats = {
        int(re.search(r"\d+", cards.nth(i).locator(".card-table").inner_text()).group()): code
        for i in range(cards.count())
        if (
            code := cards.nth(i).locator(".card-code strong").inner_text(timeout=1000)
            if cards.nth(i).locator(".card-code").count()
            else None
        )
    }
    code = console.locator("nav.sub .code b").inner_text()

    # The projector, on the hall's screen (a second window of the arbitrator's laptop).
    hall_context = browser.new_context(
        viewport={"width": 1280, "height": 720}, locale=conf["locale"], storage_state=state
    )
    hall = hall_context.new_page()
    hall.set_default_timeout(WAIT_MS)
    hall.goto(f"{base}/hall/{event}/")
    hall.wait_for_selector(".join-big .qr svg")
    save(hall.screenshot(), name("projector-join"), width=800)

    # The first game: the first rack drawn, its tops computed by the worker.
    console.goto(f"{base}/console/{event}/")
    console.locator("#status form button.primary").click()
    console.wait_for_function(
        "() => document.querySelector('#status .rack') && !document.querySelector('#status .busy')"
    )
    said = console.locator("#status p[data-say]").first.inner_text()
    score = int(re.search(r"Top (\d+)", said).group(1))
    coordinates, word = re.search(r"\)\s*:\s*(\S+) (\S+?)[,\s]", said + " ").groups()
    print(lang, said)

    # Four phones join with their seat codes (tables 4 and 5 hand in paper).
    phones = {}
    for table in (1, 2, 3, 6):
        context = browser.new_context(
            viewport={"width": 360, "height": 800}, locale=conf["locale"], has_touch=True, is_mobile=True
        )
        phone = context.new_page()
        phone.set_default_timeout(WAIT_MS)
        phone.goto(f"{base}/j/{code}/")
        phone.fill("#id_who", seats[table].lower())
        if table == 1:
            crop(phone, ["main h1", "main form", "main p.hint"], name("phone-join"))
        phone.locator("form button.primary").click()
        phone.wait_for_url(f"{base}/p/{event}/")
        phones[table] = phone

    # The round opens: every phone and the projector get the rack and the clock.
    console.fill("input[name=seconds]", "240")
    console.locator("#status form button.primary").click()
    console.wait_for_selector("#status [data-countdown]")
    for phone in phones.values():
        phone.wait_for_selector("ol.rack .tile")
    hall.wait_for_selector(".hall-rack .tile")
    hall.wait_for_timeout(1500)
    save(hall.screenshot(), name("projector-round"), width=800)

    # Slips from the phones: the top, the top with a wrong score, a word that is no move.
    anne, bruno, chloe = phones[1], phones[2], phones[3]
    for phone, (c, w, s) in (
        (anne, (coordinates, word, score)),
        (bruno, (coordinates, word, score - 3)),
        (chloe, (coordinates, "ZZZ", 30)),
    ):
        phone.fill("#slip input[name=coordinates]", c)
        phone.fill("#slip input[name=word]", w)
        phone.fill("#slip input[name=announced_score]", str(s))
        if phone is anne:
            crop(phone, ["header.phone-top", "#slip button.primary"], name("phone-slip"))
        phone.locator("#slip button.primary").click()
        phone.wait_for_selector("#receipt .receipt")

    # Paper slips typed with the keyboard only: table, Tab, coordinates, Tab, word, Tab, score.
    console.wait_for_function("() => /3 \\/ 6/.test(document.querySelector('#watch').textContent)")
    console.focus("#slip-form input[name=table]")
    for i, typed in enumerate(("4", coordinates, word, str(score))):
        if i:
            console.keyboard.press("Tab")
        console.keyboard.type(typed)
    console.wait_for_function(
        "s => document.querySelector('#preview').textContent.includes(s)", arg=str(score)
    )
    crop(console, ["#status", "#entry", "#watch"], name("console-open"))
    console.keyboard.press("Enter")
    console.wait_for_selector("#preview .stored")

    # The close (time is left: the console asks first), the review grouped by move.
    console.once("dialog", lambda dialog: dialog.accept())
    console.locator("#status form[data-confirm-close] button").click()
    console.wait_for_selector("#review table.review")
    crop(console, ["#review"], name("console-review"))

    # A correction: Chloé's slip was misread, say; the points set by hand, with a reason.
    console.locator("#review li a", has_text=re.compile(r"^3 ")).first.click()
    console.wait_for_selector("dl.facts")
    crop(console, ["main h1", "dl.facts", "main .cols"], name("console-ruling"))
    console.goto(f"{base}/console/{event}/")

    # Published: the phones and the projector show the result.
    console.locator("#status button", has_text=re.compile("Publi")).click()
    anne.wait_for_selector("#result-title")
    anne.wait_for_selector(".game-chart svg.chart")
    crop(anne, ["header.phone-top", ".result", ".game-chart"], name("phone-result"))
    hall.wait_for_selector(".hall-top")
    hall.wait_for_timeout(1500)
    save(hall.screenshot(), name("projector-result"), width=800)

    # Placed: the next rack drawn.
    console.locator("#status form[data-place] button.primary").click()
    console.wait_for_load_state()

    # The standings and the sheets of an event played by virtual players.
    console.goto(f"{base}/console/{simulated}/standings/")
    crop(console, ["main h1", "main table"], name("standings"), height=420)
    console.goto(f"{base}/console/{simulated}/sheets/")
    console.select_option("select[name=kind]", "standings")
    console.select_option("select[name=language]", lang)
    console.locator("main form.row button.primary").click()
    link = console.locator("#sheets a[href$='.pdf']").first
    link.wait_for()
    crop(console, ["#sheets-title", "main form.row", "#sheets"], name("sheets"))
    pdf = console.context.request.get(link.evaluate("a => a.href")).body()
    with tempfile.TemporaryDirectory() as scratch:
        (Path(scratch) / "sheet.pdf").write_bytes(pdf)
        subprocess.run(
            ["pdftoppm", "-png", "-r", "90", "-f", "1", "-l", "1", "-singlefile", "sheet.pdf", "sheet"],
            cwd=scratch, check=True,
        )  # fmt: skip
        from PIL import Image

        with Image.open(Path(scratch) / "sheet.png") as page:
            top = page.crop((0, 0, page.width, page.height * 2 // 5))
            buffer = io.BytesIO()
            top.save(buffer, format="PNG")
        save(buffer.getvalue(), name("sheet-standings"))

    # The hub of a multiplex, its centres added on the terminal.
    console.goto(f"{base}/console/{hub}/multiplex/")
    crop(console, ["main h1", "main table.list >> nth=0"], name("multiplex-hub"))
    for phone in phones.values():
        phone.context.close()
    hall_context.close()
    desk.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "images")
    parser.add_argument("--port", type=int, default=8765)
    parser.add_argument("--lang", nargs="+", default=list(LANGUAGES), choices=list(LANGUAGES))
    args = parser.parse_args(argv)
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory(prefix="arbiter-guide-") as folder:
        server = serve(Path(folder), args.port)
        try:
            base = f"http://127.0.0.1:{args.port}"
            played = {lang: prepare(Path(folder), lang) for lang in args.lang}
            with sync_playwright() as pw:
                state = None
                for lang in args.lang:
                    # The browser's own language too: the date fields' format follows it.
                    browser = pw.chromium.launch(
                        executable_path=CHROMIUM,
                        args=[
                            "--no-sandbox",
                            "--disable-gpu",
                            "--disable-dev-shm-usage",
                            f"--lang={LANGUAGES[lang]['locale']}",
                        ],
                    )
                    state = state or first_account(browser, base)
                    walk(browser, base, state, lang, played[lang], args.out)
                    browser.close()
        finally:
            server.send_signal(signal.SIGTERM)
            server.wait(timeout=60)
    return 0


if __name__ == "__main__":
    sys.exit(main())
