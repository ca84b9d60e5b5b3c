"""``python -m scoring rule``: the golden rulings of tests/data/rulings, the command's
contract (a file or standard input, JSON out) and its refusals (one line, status 2).

Each golden file holds a case, the rule it shows (``source``, a docs/rules.md section),
the expected output and, in its description, the arithmetic that gives it: the expected
outputs were reasoned out by hand from the rules, then checked against the program, on
the bundled French and ENABLE lists.
"""

from __future__ import annotations

import copy
import dataclasses
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from scoring import adjudication as adj
from scoring.__main__ import main
from scoring.calculator import SETTING_KEYS, CaseError, rule_case

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = ROOT / "tests" / "data" / "rulings"
FILES = sorted(GOLDEN.glob("*.json"))
#: Golden files whose reasoned output the rules do not give yet: the file keeps the
#: expected ruling, the test fails strictly once the rules agree (then drop the entry).
DISAGREEMENTS: dict[str, str] = {}


def _golden(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text("utf-8"))
    return data


def _params() -> list[Any]:
    return [
        pytest.param(
            path,
            id=path.stem,
            marks=[pytest.mark.xfail(reason=DISAGREEMENTS[path.stem], strict=True)]
            if path.stem in DISAGREEMENTS
            else [],
        )
        for path in FILES
    ]


@pytest.mark.parametrize("path", _params())
def test_the_golden_ruling(path: Path) -> None:
    golden = _golden(path)
    assert set(golden) == {"description", "source", "case", "expected"}
    assert golden["source"].startswith("docs/rules.md#")
    assert rule_case(golden["case"]) == golden["expected"]


def test_every_ruling_reason_has_a_golden_file() -> None:
    reasons = {ruling["reason"] for path in FILES for ruling in _golden(path)["expected"]["rulings"]}
    codes = {value for name, value in vars(adj.Reason).items() if not name.startswith("_")}
    assert codes <= reasons, f"no golden ruling for {sorted(codes - reasons)}"


def test_the_golden_sources_are_sections_of_the_rules() -> None:
    rules = (ROOT / "docs" / "rules.md").read_text("utf-8")
    # GitHub's anchors: lowercase, punctuation dropped, spaces to hyphens.
    anchors = {
        "#" + re.sub(r"[^\w\- ]", "", line.lstrip("#").strip().lower()).replace(" ", "-")
        for line in rules.splitlines()
        if line.startswith("#")
    }
    for path in FILES:
        source = _golden(path)["source"]
        assert source.removeprefix("docs/rules.md") in anchors, f"{path.name}: {source}"


# ------------------------------------------------------------------ the command


def _run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "scoring", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
        timeout=120,
    )


def test_the_command_rules_a_file() -> None:
    path = GOLDEN / "ok-top-and-solo.json"
    done = _run("rule", str(path))
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == _golden(path)["expected"]
    assert done.stdout.count("\n") == 1  # one line without --indent


def test_the_command_rules_standard_input_with_an_indent() -> None:
    golden = _golden(GOLDEN / "wrong-reference-right-score.json")
    done = _run("rule", "-", "--indent", "2", stdin=json.dumps(golden["case"]))
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == golden["expected"]
    assert done.stdout.startswith('{\n  "top_score": 87,\n  "tops": [\n')


@pytest.mark.parametrize(
    ("stdin", "message"),
    [
        ('{"rack": "AB",\n  "slips": [}', "standard input: not valid JSON at line 2, column 13"),
        ('{"slips": []}', 'the case has no "rack"'),
        (
            '{"rack": "EMRSTUA", "slips": [], "lexicon": "no/such/list.txt"}',
            "unknown lexicon 'no/such/list.txt'",
        ),
    ],
)
def test_the_command_says_what_is_wrong_on_one_line(stdin: str, message: str) -> None:
    done = _run("rule", "-", stdin=stdin)
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.startswith("python -m scoring rule: ") and message in done.stderr
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr


def test_a_missing_case_file_is_an_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rule", str(tmp_path / "none.json")]) == 2
    assert f"cannot read {tmp_path / 'none.json'}: No such file or directory" in capsys.readouterr().err


def test_a_file_that_is_not_utf8_is_an_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "case.json"
    path.write_bytes(b'{"rack": "\xe9"}')
    assert main(["rule", str(path)]) == 2
    assert "not UTF-8 text" in capsys.readouterr().err


# ------------------------------------------------------------------ the case, key by key

R2: dict[str, Any] = {
    "lexicon": "french",
    "board_moves": ["H4 FEDAYIN"],
    "rack": "EMRSTUA",
    "slips": [{"table": 1, "coordinates": "11B", "word": "MUTERAS", "announced": 87}],
}


def _case(**changes: Any) -> dict[str, Any]:
    case = copy.deepcopy(R2)
    case.update(changes)
    return case


def _slips(*slips: dict[str, Any], **changes: Any) -> dict[str, Any]:
    return _case(slips=list(slips), **changes)


def test_the_settings_are_the_adjudication_settings_and_the_game_rules() -> None:
    fields = {f.name for f in dataclasses.fields(adj.AdjudicationSettings)} - {"notation"}
    assert set(SETTING_KEYS) == fields | {"bingo_bonus", "first_move_horizontal"}


def test_the_defaults_round_players_tiles() -> None:
    out = rule_case(_slips({"table": 4, "coordinates": "11B", "word": "MUTERAS", "announced": 87}))
    assert [r["table"] for r in out["rulings"]] == [4]
    # round 2 by default; one table is the game's only player: no solo below 16.
    assert out["rulings"][0]["points"] == 87 and out["rulings"][0]["solo"] == 0


def test_the_rulings_follow_the_order_tables_first_appear() -> None:
    case = _slips(
        {"table": 9, "missing": True},
        {"table": 2, "coordinates": "11B", "word": "MUTERAS", "announced": 87},
        {"table": 5, "coordinates": "4D", "word": "SMURF", "announced": 18},
        {"table": 2, "coordinates": "4D", "word": "SMURF", "announced": 18, "late": True},
    )
    assert [(r["table"], r["points"]) for r in rule_case(case)["rulings"]] == [(9, 0), (2, 87), (5, 18)]


def test_the_notation_of_the_case_reads_and_writes_every_move() -> None:
    case = _case(
        notation="gcg",
        board_moves=["8D FEDAYIN"],
        slips=[{"table": 1, "coordinates": "K2", "word": "MUTERAS", "announced": 87}],
    )
    out = rule_case(case)
    assert out["tops"][:3] == ["K2 MATURES", "K2 MURATES", "K2 MUTERAS"]
    assert out["rulings"][0]["move"] == "K2 MUTERAS" and out["rulings"][0]["points"] == 87


def test_a_word_list_file_is_a_lexicon(tmp_path: Path) -> None:
    words = tmp_path / "words.txt"
    words.write_text("cat\ncats\nact\n", "utf-8")
    case = {
        "lexicon": str(words),
        "board_moves": ["H8 CAT"],
        "rack": "SEINORD",
        "slips": [{"table": 1, "coordinates": "H8", "word": "CATS", "announced": 6}],
    }
    out = rule_case(case)  # English tiles: the list is not the French one
    assert (out["top_score"], out["tops"], out["rulings"][0]["points"]) == (6, ["H8 CATS"], 6)


def test_the_mode_is_checked_and_changes_nothing() -> None:
    rulings = {mode: rule_case(_case(mode=mode))["rulings"] for mode in ("tournament", "strict", "nostrict")}
    assert rulings["strict"] == rulings["tournament"] == rulings["nostrict"]


def test_the_override_keeps_the_figures_it_does_not_give() -> None:
    slip = {"table": 1, "coordinates": "11B", "word": "MUTERAS", "announced": 86, "warnings_before": 3}
    ruled = rule_case(_slips(slip))["rulings"][0]
    assert (ruled["points"], ruled["warnings"], ruled["penalty"]) == (82, 1, 5)
    overridden = rule_case(_slips({**slip, "override": {"credited": 87}}))["rulings"][0]
    # 87 credited with the ruling's 5-point penalty kept: the move scores 92, not the top.
    assert (overridden["points"], overridden["score"], overridden["warnings"], overridden["penalty"]) == (
        87,
        92,
        1,
        5,
    )
    assert (overridden["reason"], overridden["top"]) == ("overridden", False)
    given = rule_case(_slips({**slip, "override": {"credited": 87, "warnings": 0, "penalty": 0}}))["rulings"][
        0
    ]
    assert (given["points"], given["warnings"], given["penalty"], given["top"]) == (87, 0, 0, True)


@pytest.mark.parametrize(
    ("case", "message"),
    [
        ([], "the case must be a JSON object, not a list"),
        (_case(rack=None), '"rack" must be letters and ? for a blank'),
        (_case(rack="EMRSTU1"), "rack 'EMRSTU1': '1' is not a letter A-Z"),
        (_case(rack="EMRSTUAB"), "rack 'EMRSTUAB' holds 8 tiles: a rack holds at most 7 on this board"),
        ({k: v for k, v in R2.items() if k != "slips"}, 'the case has no "slips"'),
        (_case(colour="blue"), "the case has an unknown key 'colour'"),
        (_case(lexicon=""), '"lexicon" must be a non-empty text'),
        (_case(tiles="german"), "unknown \"tiles\" the text 'german': choose french, english"),
        (_case(board="huge"), "unknown \"board\" the text 'huge': choose standard, large, broad, grand"),
        (_case(notation="chess"), 'unknown "notation"'),
        (_case(mode="blitz"), "unknown \"mode\" the text 'blitz': choose tournament, strict, nostrict"),
        (_case(settings=[]), '"settings" must be an object, not a list'),
        (_case(settings={"notation": "gcg"}), "\"settings\" has an unknown key 'notation'"),
        (_case(settings={"solo_bonus": "10"}), "setting \"solo_bonus\" must be int, not the text '10'"),
        (_case(settings={"solo_bonus": True}), 'setting "solo_bonus" must be int, not true'),
        (
            _case(settings={"single_warning": 1}),
            'setting "single_warning" must be true or false, not the number 1',
        ),
        (
            _case(settings={"score_policy": "dutch"}),
            "\"settings\": unknown score_policy 'dutch': choose fisf, english",
        ),
        (_case(settings={"shift_penalty": -5}), '"settings": shift_penalty cannot be negative'),
        (_case(settings={"bingo_bonus": -1}), "bingo_bonus cannot be negative"),
        (_case(board_moves="H4 FEDAYIN"), '"board_moves" must be a list of moves'),
        (_case(board_moves=[12]), 'board move 1 must be a text such as "H4 WORD", not the number 12'),
        (
            _case(board_moves=["H4"]),
            "board move 1 'H4' cannot be read in fisf notation: missing word after H4",
        ),
        (
            _case(board_moves=["Z4 FEDAYIN"]),
            "board move 1 'Z4 FEDAYIN' cannot be read in fisf notation: row Z is off",
        ),
        (
            _case(board_moves=["8D FEDAYIN"]),
            "board move 1 '8D FEDAYIN' cannot be played there: the first word must be horizontal",
        ),
        (
            _case(board_moves=["H4 FEDAYIN", "11B MURTEAS"]),
            "board move 2 '11B MURTEAS' cannot be played there: MURTEAS is not in the lexicon",
        ),
        (
            _case(board_moves=["H4 FEDAYIN", "A1 MUTERAS"]),
            "board move 2 'A1 MUTERAS' cannot be played there: the word must touch a tile already on",
        ),
        (_case(round=3), "round 3 comes after 2 placed move(s), but board_moves holds 1"),
        (_case(round=0), '"round" must be a round number 1 or more, not the number 0'),
        (_case(players=-1), '"players" must be an integer 0 or more, not the number -1'),
        (_case(slips={}), '"slips" must be a list of slips, not an object'),
        (
            _slips("11B MUTERAS"),
            "slip 1 must be an object such as {\"table\": 1, ...}, not the text '11B MUTERAS'",
        ),
        (_slips({"coordinates": "11B"}), 'slip 1: "table" must be a positive integer, not null'),
        (_slips({"table": 0}), 'slip 1: "table" must be a positive integer, not the number 0'),
        (_slips({"table": "3"}), "slip 1: \"table\" must be a positive integer, not the text '3'"),
        (_slips({"table": 1, "score": 87}), "slip 1 has an unknown key 'score'"),
        (_slips({"table": 1, "word": 7}), 'slip 1 (table 1): "word" must be a text, not the number 7'),
        (
            _slips({"table": 1, "announced": "87"}),
            'slip 1 (table 1): "announced" must be an integer 0-9999 or null',
        ),
        (_slips({"table": 1, "announced": 10000}), '"announced" must be an integer 0-9999 or null'),
        (_slips({"table": 1, "late": "no"}), 'slip 1 (table 1): "late" must be true or false'),
        (_slips({"table": 1, "missing": True, "word": "MUTERAS"}), "a missing slip has no 'word'"),
        (_slips({"table": 1, "word": "X"}, {"table": 1, "missing": True}), "the table handed in a slip"),
        (_slips({"table": 1, "missing": True}, {"table": 1, "word": "X"}), "the table is marked missing"),
        (_slips({"table": 1, "warnings_before": -1}), '"warnings_before" must be an integer 0 or more'),
        (
            _slips({"table": 1, "warnings_before": 1}, {"table": 1, "warnings_before": 2}),
            "slip 2 (table 1): warnings_before 2 differs from the table's other slip",
        ),
        (
            _slips(
                {"table": 1, "coordinates": "11C", "word": "MUTERAS", "announced": 87, "accept_shift": True}
            ),
            'table 1: "accept_shift" needs the setting "reference_rule": "nearby"',
        ),
        (
            _slips(
                {"table": 1, "coordinates": "11B", "word": "MUTERAS", "announced": 87, "accept_shift": True},
                settings={"reference_rule": "nearby"},
            ),
            "table 1: this slip has no nearby placement to accept",
        ),
        (_slips({"table": 1, "override": 30}), '"override" must be an object such as {"credited": 30}'),
        (_slips({"table": 1, "override": {"penalty": 5}}), '"override" needs "credited"'),
        (
            _slips({"table": 1, "override": {"credited": 5, "bonus": 1}}),
            "\"override\" has an unknown key 'bonus'",
        ),
        (_slips({"table": 1, "override": {"credited": 5, "warnings": -1}}), 'override "warnings" must be'),
        (_slips({"table": 1, "average": 30, "override": {"credited": 5}}), "overridden or given the average"),
        (_slips({"table": 1, "average": 2.5}), '"average" must be an integer 0 or more, not the number 2.5'),
        (
            _slips({"table": 1, "coordinates": "11B", "word": "STRUMES", "announced": 85, "average": 40}),
            "table 1: the average replaces only a 0 for a word not in the list (FISF 5.9), and this slip is"
            " ruled illegal",
        ),
    ],
)
def test_a_case_that_cannot_be_ruled_says_why(case: Any, message: str) -> None:
    with pytest.raises(CaseError) as caught:
        rule_case(case)
    assert message in str(caught.value)
    assert "\n" not in str(caught.value)
