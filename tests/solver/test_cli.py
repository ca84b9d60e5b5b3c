"""``python -m solver``: the analyse contract, play, lexicon build and check."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from solver.cli import main
from tests.conftest import CORPUS, corpus_rows

ENABLE = str(CORPUS / "enable.txt.gz")
FRLP = str(CORPUS / "fr-lp.txt.gz")


def _analyse(capsys: pytest.CaptureFixture[str], *args: str) -> dict:
    assert main(["analyse", *args]) == 0
    return json.loads(capsys.readouterr().out)


@pytest.mark.parametrize(
    ("file", "lexicon", "index"),
    [("enable-15.jsonl", ENABLE, 1), ("enable-15.jsonl", ENABLE, 8), ("french-15.jsonl", FRLP, 3)],
)
def test_analyse_json_gives_the_reference_figures(
    capsys: pytest.CaptureFixture[str], enable: object, frlp: object, file: str, lexicon: str, index: int
) -> None:
    row = corpus_rows(file)[index]
    tiles = "french" if "french" in file else "english"
    out = _analyse(
        capsys,
        "--lexicon",
        lexicon,
        "--tiles",
        tiles,
        "--board",
        "standard",
        "--cgp",
        f"{row['board']} {row['rack']}",
        "--notation",
        "gcg",
        "--json",
    )
    assert set(out) == {"moves", "top_score", "top_moves"}
    assert out["moves"] == row["moves"]
    assert out["top_score"] == row["top_score"]
    assert sorted(out["top_moves"]) == sorted(row["top_moves"])


def test_analyse_on_a_big_board(capsys: pytest.CaptureFixture[str], enable: object) -> None:
    row = next(r for r in corpus_rows("bigboards.jsonl") if r["layout"] == "grand_english" and r["turn"] == 5)
    out = _analyse(
        capsys,
        "--lexicon",
        ENABLE,
        "--tiles",
        "english",
        "--board",
        "grand",
        "--cgp",
        f"{row['board']} {row['rack']}",
        "--notation",
        "gcg",
        "--json",
    )
    assert (out["moves"], out["top_score"]) == (row["moves"], row["top_score"])


def test_analyse_through_python_dash_m_exactly_as_documented(enable: object) -> None:
    cmd = [
        sys.executable,
        "-m",
        "solver",
        "analyse",
        "--lexicon",
        ENABLE,
        "--tiles",
        "english",
        "--board",
        "standard",
        "--cgp",
        "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 ADEGORZ",
        "--notation",
        "gcg",
        "--json",
    ]
    done = subprocess.run(cmd, capture_output=True, text=True, check=True)
    assert json.loads(done.stdout) == {"moves": 336, "top_score": 38, "top_moves": ["8D GRAZED", "8G GRAZED"]}


def test_analyse_in_fisf_notation_writes_row_letter_first(
    capsys: pytest.CaptureFixture[str], enable: object
) -> None:
    out = _analyse(
        capsys,
        "--lexicon",
        ENABLE,
        "--cgp",
        "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 ADEGORZ",
        "--notation",
        "fisf",
        "--json",
    )
    assert out["top_moves"] == ["H4 GRAZED", "H7 GRAZED"]


def test_analyse_with_no_move_prints_a_null_top(capsys: pytest.CaptureFixture[str], enable: object) -> None:
    out = _analyse(
        capsys, "--lexicon", ENABLE, "--cgp", "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 QQ", "--json"
    )
    assert out == {"moves": 0, "top_score": None, "top_moves": []}


@pytest.mark.parametrize(
    ("cgp", "message"),
    [
        ("15/15 AB", "the standard board has 15 rows"),
        ("15/15/15/15/15/15/15/15/15/15/15/15/15/15/14 AB", "row 15"),
        ("15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 A1", "cannot read the rack"),
        ("15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 ABCDEFGH", "at most 7"),
    ],
)
def test_analyse_refuses_a_bad_position_with_a_message(
    capsys: pytest.CaptureFixture[str], cgp: str, message: str
) -> None:
    assert main(["analyse", "--lexicon", ENABLE, "--cgp", cgp, "--json"]) == 2
    assert message in capsys.readouterr().err


def test_analyse_refuses_a_missing_word_list(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert (
        main(
            [
                "analyse",
                "--lexicon",
                str(tmp_path / "none.txt"),
                "--cgp",
                "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 AB",
            ]
        )
        == 2
    )
    assert "cannot read word list" in capsys.readouterr().err


def test_play_prints_the_game_sheet_and_writes_the_record(
    capsys: pytest.CaptureFixture[str], enable: object, tmp_path: Path
) -> None:
    out_file = tmp_path / "game.json"
    assert main(["play", "--seed", "7", "--lexicon", ENABLE, "--out", str(out_file)]) == 0
    sheet = capsys.readouterr().out
    record = json.loads(out_file.read_text("utf-8"))
    assert f"Top total: {record['top_total']}" in sheet
    assert record["rounds"][0]["played"] in sheet


def test_play_json_is_the_game_record(capsys: pytest.CaptureFixture[str], enable: object) -> None:
    assert main(["play", "--seed", "2", "--lexicon", ENABLE, "--json"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["format"] == "arbiter-game/1" and record["config"]["seed"] == 2


def test_lexicon_build_reports_what_was_skipped(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ARBITER_CACHE_DIR", str(tmp_path / "cache"))
    words = tmp_path / "mine.txt"
    words.write_text("Été\ncœur\nl'eau\nporte-avions\nA\nmaison\nMAISON\n", "utf-8")
    assert main(["lexicon", "build", str(words)]) == 0
    out = capsys.readouterr().out
    assert "3 words kept" in out and "1 duplicates" in out
    assert "l'eau" in out and "porte-avions" in out


def test_lexicon_check_says_valid_or_not(capsys: pytest.CaptureFixture[str], enable: object) -> None:
    assert main(["lexicon", "check", ENABLE, "qat", "zzzq"]) == 1
    out = capsys.readouterr().out
    assert "QAT\tvalid" in out and "ZZZQ\tNOT in the lexicon" in out


def test_play_in_fisf_notation_labels_rows_with_letters(
    capsys: pytest.CaptureFixture[str], enable: object
) -> None:
    assert main(["play", "--seed", "7", "--lexicon", ENABLE, "--notation", "fisf"]) == 0
    sheet = capsys.readouterr().out.splitlines()
    header = next(line for line in sheet if line.strip().startswith("1  2  3"))
    assert header.split()[-1] == "15"
    assert any(line.startswith("  A  ") for line in sheet) and any(line.startswith("  O  ") for line in sheet)
    first_round = next(line for line in sheet if line.startswith("  1  "))
    assert "H4 MACHO" in first_round  # the GCG 8D of the same game, row letter first


def test_play_takes_the_y_setting_into_the_record(capsys: pytest.CaptureFixture[str], enable: object) -> None:
    assert main(["play", "--seed", "3", "--lexicon", ENABLE, "--y-counts-as", "consonant", "--json"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["config"]["y_counts_as"] == "consonant"
