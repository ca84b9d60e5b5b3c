"""Shared fixtures: the reference word lists compiled once per test session.

The compiled lexicons are cached on disk (see solver.lexicon.cache_dir), so only the
first run on a machine pays the build (about 15 s for ENABLE, 35 s for the French list).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from solver import lexicon
from solver.boards import Board, layout
from solver.formats.cgp import parse_board
from solver.tiles import tile_set

DATA = Path(__file__).parent / "data"
CORPUS = DATA / "corpus"


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
