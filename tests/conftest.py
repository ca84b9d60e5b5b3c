"""Shared fixtures: the reference word lists compiled once per test session, and the
database's bundled ENABLE list with an English event on it (the domain, the pages, the
terminal commands and the API all start from that event).

The compiled lexicons are cached on disk (see solver.lexicon.cache_dir), so only the
first run on a machine pays the build (about 15 s for ENABLE, 35 s for the French list).
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.test import override_settings

from solver import lexicon
from solver.boards import Board, layout
from solver.formats.cgp import parse_board
from solver.tiles import tile_set
from tests.commits import commits_emulated
from tournaments.models import Event, Lexicon
from tournaments.services import backups, phone_slips
from tournaments.services.events import event_create
from tournaments.services.lexicons import lexicon_bundled

DATA = Path(__file__).parent / "data"
CORPUS = DATA / "corpus"


@pytest.fixture(autouse=True)
def _phone_slips_read_afresh() -> Iterator[None]:
    """The rounds the quick path remembers (tournaments/services/phone_slips.py) are of one
    test's database: each test starts without them."""
    phone_slips.forget()
    yield
    phone_slips.forget()


@pytest.fixture(autouse=True, scope="session")
def _backups_in_a_temporary_folder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Every placed round writes a backup (tournaments.services.backups): during the tests
    into a temporary folder, not into the checkout's var/backups nor a developer's stick."""
    with override_settings(
        ARBITER_BACKUP_LOCAL_DIR=tmp_path_factory.mktemp("backups"), ARBITER_BACKUP_DIR=None
    ):
        yield


@pytest.fixture(autouse=True)
def _backups_written() -> Iterator[None]:
    """A backup still being written in its thread when a test ends would read the next
    test's emptied database."""
    yield
    backups.settle()


@pytest.fixture(autouse=True)
def _no_standings_read_before() -> None:
    """The projector's standings are kept by game id and public version: a test's new
    database may give both again."""
    from rooms.views import hall

    hall.forget_standings()


@pytest.fixture(scope="session")
def enable() -> lexicon.Lexicon:
    return lexicon.load(CORPUS / "enable.txt.gz", name="ENABLE")


@pytest.fixture(scope="session")
def frlp() -> lexicon.Lexicon:
    return lexicon.load(CORPUS / "fr-lp.txt.gz", name="FRLP")


@pytest.fixture(scope="session")
def corpus_lexicons(enable: lexicon.Lexicon, frlp: lexicon.Lexicon) -> dict[str, lexicon.Lexicon]:
    return {"ENABLE": enable, "FRLP": frlp}


def corpus_rows(name: str) -> list[dict[str, Any]]:
    with open(CORPUS / name, encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def corpus_board(row: dict[str, Any]) -> Board:
    """The board of a corpus row: ``english`` = standard board, ``large_french`` = ..."""
    name = row["layout"]
    board_name, language = name.split("_") if "_" in name else ("standard", name)
    lay = layout(board_name)
    return parse_board(row["board"], lay, tile_set(language, lay.size))


@pytest.fixture
def enable_lexicon(db: None) -> Lexicon:
    return lexicon_bundled(name="enable")


@pytest.fixture
def event(enable_lexicon: Lexicon) -> Event:
    return event_create(
        name="Club evening",
        starts_on=dt.date(2026, 11, 21),
        lexicon=enable_lexicon,
        language="english",
        notation="gcg",
        random_seed=7,
    )


@pytest.fixture(autouse=True, scope="session")
def _commits_run_their_callbacks() -> Iterator[None]:
    """In a test that rolls back, what the code under test commits runs its after-commit
    work (tests/commits.py)."""
    with commits_emulated():
        yield
