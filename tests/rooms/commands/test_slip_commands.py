"""The slip commands: slips_enter (paper slips typed or read from a file) and rulings."""

from __future__ import annotations

import datetime as dt
import io
import re

import pytest
from django.utils import timezone

from rooms.management.commands.slips_enter import SlipLine, SlipLineError, parse_slip_line
from tests.rooms.commands.helpers import create as _create
from tests.rooms.commands.helpers import last_round as _round
from tests.rooms.commands.helpers import run
from tests.tournaments.helpers import BLANK_RACK, blank_top
from tournaments.models import Event, Round, Ruling, Slip
from tournaments.services.players import player_add
from tournaments.services.rulings import round_adjudicate
from tournaments.services.slips import slip_submit

pytestmark = pytest.mark.django_db


# ------------------------------------------------------------------ reading a slip line


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("12 H4 WORD 34", SlipLine(12, "H4", "WORD", 34)),
        ("12 H4 WORD", SlipLine(12, "H4", "WORD", None)),
        ("  7   8d   oXYDANtE  0 ", SlipLine(7, "8d", "oXYDANtE", 0)),
        ("12 h8,a,word 34", SlipLine(12, "h8,a", "word", 34)),
        ("12 h8, a, word", SlipLine(12, "h8,a", "word", None)),
        ("12 -", SlipLine(12, "", "", None)),
        ("12 H4 WORD 9999", SlipLine(12, "H4", "WORD", 9999)),
        ("12 H4 WORD 0034", SlipLine(12, "H4", "WORD", 34)),
        ("12 FEDAYIN 110", SlipLine(12, "", "FEDAYIN", 110)),  # the word alone
        ("12 CAT ACT 7", SlipLine(12, "CAT", "ACT", 7)),  # raccord letters
        ("12 fix H4 WORD", SlipLine(12, "H4", "WORD", None, "correction")),
        ("12 second H4 WORD", SlipLine(12, "H4", "WORD", None, "second")),
    ],
)
def test_slip_lines_are_read(text: str, expected: SlipLine) -> None:
    assert parse_slip_line(text) == expected


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("x H4 WORD", "'x' is not a table number"),
        ("12", "the move is missing"),
        ("12 H4", "'H4' is not coordinates and a word"),
        ("12 H4 34", "'H4' is not coordinates and a word"),
        ("12 H4 WORD 3A", "unexpected text"),
        ("12 H4 WORD -3", "cannot be negative"),
        ("12 h8,word 3", "the scramble form is h8,a,word"),
        ("² 8H PROOF", "'²' is not a table number"),
        ("1² 8H PROOF", "'1²' is not a table number"),
        ("9" * 5000 + " 8H PROOF", "is not a table number"),
        ("12 H4 WORD 10000", r"the announced score 10000 is not a score \(0 to 9999\)"),
        ("12 H4 WORD " + "9" * 5000, r"is not a score \(0 to 9999\)"),
    ],
)
def test_malformed_slip_lines_are_refused(text: str, message: str) -> None:
    with pytest.raises(SlipLineError, match=message):
        parse_slip_line(text)


# ------------------------------------------------------------------ slips_enter


def test_bad_lines_are_refused_and_the_others_stored(event: Event, open_round: Round) -> None:
    lines = "x H4 WORD\n1 H8 RETAINS 66\n9 H8 RETAINS 66\n\n# comment\n2 H4\n3 - \n"
    out = run("slips_enter", "--event", event.code, stdin=lines, fails=r"3 lines refused \(line 1, 3, 6\)")
    assert "line 1: 'x' is not a table number" in out.err and "(nothing stored)" in out.err
    assert "line 3: no player at table 9" in out.err and "line 6: table 2:" in out.err
    assert "66 ok" in out.out and "0: the slip is blank" in out.out
    assert sorted(Slip.objects.filter(round=open_round).values_list("player__table", flat=True)) == [1, 3]


def test_unreadable_tables_and_absurd_scores_are_refused_and_the_loop_goes_on(
    event: Event, open_round: Round
) -> None:
    lines = "² 8H PROOF\n1 H8 RETAINS 99999\n2 H8 RETAINS 66\n3 H8 RETAINS " + "9" * 5000 + "\n"
    out = run("slips_enter", "--event", event.code, stdin=lines, fails=r"3 lines refused \(line 1, 2, 4\)")
    assert "line 1: '²' is not a table number" in out.err
    assert "line 2: table 1: the announced score 99999 is not a score (0 to 9999)" in out.err
    assert "66 ok" in out.out
    slips = Slip.objects.filter(round=open_round)
    assert list(slips.values_list("player__table", "announced_score")) == [(2, 66)]


def test_slips_from_a_file_and_a_penalty_warned_at_once(tmp_path, arbitrator) -> None:
    event = _create("--free-warnings", "0", "--notation", "gcg")
    player_add(event=event, name="Anne")
    run("round_draw", "--event", event.code, "--new-game", "--rack", "AEIRSTN")
    run("round_open", "--event", event.code)
    path = tmp_path / "slips.txt"
    path.write_text("1 8H RETAINS 60\n", encoding="utf-8")
    out = run("slips_enter", "--event", event.code, "--file", str(path)).out
    assert (
        "8H RETAINS" in out
        and "announced 60: warning, 66 credited (warning 1 of the game: 5-point penalty)" in out
    )
    run("slips_enter", "--event", event.code, "--file", str(tmp_path / "none.txt"), fails="cannot read")


def test_strict_mode_refuses_an_invalid_word_and_stores_nothing(arbitrator) -> None:
    event = _create("--mode", "strict")
    player_add(event=event, name="Anne")
    run("round_draw", "--event", event.code, "--new-game", "--rack", "AEIRSTN")
    run("round_open", "--event", event.code)
    out = run("slips_enter", "--event", event.code, stdin="1 H8 SNIRTEA 60\n", fails="1 line refused")
    assert "SNIRTEA is not in the lexicon (nothing stored)" in out.err
    assert not Slip.objects.exists()


class _Terminal(io.StringIO):
    """Typed lines, as a terminal would give them."""

    def isatty(self) -> bool:
        return True


def test_the_interactive_prompt_lists_missing_tables_and_quits(event: Event, open_round: Round) -> None:
    typed = _Terminal("1 H8 RETAINS 66\n?\nbad line\nquit\n2 H8 RETAINS 66\n")
    out = run("slips_enter", "--event", event.code, stdin=typed)  # no error status at a prompt
    assert "slip [0/4]> " in out.out and "slip [1/4]> " in out.out
    assert "missing tables: 2, 3, 4" in out.out and "'bad' is not a table number" in out.err
    assert list(Slip.objects.values_list("player__table", flat=True)) == [1]


def test_ctrl_c_at_the_prompt_keeps_what_was_typed(event: Event, open_round: Round) -> None:
    class Interrupted(_Terminal):
        def readline(self, size: int | None = -1) -> str:
            line = super().readline()
            if not line:
                raise KeyboardInterrupt
            return line

    out = run("slips_enter", "--event", event.code, stdin=Interrupted("1 H8 RETAINS 66\n"))
    assert "1 slip stored" in out.out and Slip.objects.count() == 1


def test_a_slip_typed_after_the_deadline_counts_while_the_round_is_open(
    event: Event, open_round: Round
) -> None:
    # The three minutes are over; the arbitrator types the slips collected by then.
    Round.objects.filter(pk=open_round.pk).update(deadline=timezone.now() - dt.timedelta(seconds=30))
    open_round.refresh_from_db()
    run("slips_enter", "--event", event.code, stdin="1 H8 RETAINS 66\n")
    slip = Slip.objects.get()
    assert not slip.late and slip.received_at == open_round.deadline
    run("round_close", "--event", event.code)
    assert Ruling.objects.get(player__table=1).credited == 66


def test_slips_enter_echoes_the_warnings_of_the_game_beyond_the_free_ones(arbitrator) -> None:
    # One free warning a game, 7 points each beyond, every warning of a slip counted (not
    # the FISF's one a round); Bruno hands in nothing in round 1.
    event = _create(
        "--free-warnings", "1", "--warning-penalty", "7", "--notation", "gcg", "--no-single-warning"
    )
    for name in ("Anne", "Bruno"):
        player_add(event=event, name=name)
    run("round_draw", "--event", event.code, "--new-game", "--rack", BLANK_RACK)
    run("round_open", "--event", event.code)
    coordinates, word = blank_top(_round(event), marked=False)  # blank not marked, no score
    out = run("slips_enter", "--event", event.code, stdin=f"1 {coordinates} {word}\n").out
    assert re.search(
        r"1  Anne .*blank not marked: warning.*\(warning 2 of the game: 7-point penalty\)$", out, re.M
    )
    run("round_close", "--event", event.code)
    run("round_place", "--event", event.code, "--no-draw")

    run("round_draw", "--event", event.code, "--rack", BLANK_RACK)
    run("round_open", "--event", event.code)
    coordinates, word = blank_top(_round(event), marked=True)  # no score announced: one warning
    out = run(
        "slips_enter", "--event", event.code, stdin=f"1 {coordinates} {word}\n2 {coordinates} {word}\n"
    ).out
    anne, bruno = (line for line in out.splitlines() if re.match(r"\s+[12]  ", line))
    assert anne.endswith("credited (warning 3 of the game: 7-point penalty)"), anne
    assert "no score announced: warning" in bruno and "of the game" not in bruno  # his free one
    run("round_close", "--event", event.code)
    round2 = _round(event)
    assert [r.penalty for r in Ruling.objects.filter(round=round2).order_by("player__table")] == [7, 0]


# ------------------------------------------------------------------ rulings


def test_rulings_groups_the_moves_best_first_then_the_slips_scored_zero(
    event: Event, open_round: Round
) -> None:
    for name in ("Eve", "Fred", "Gina"):  # tables 5, 6, 7
        player_add(event=event, name=name)
    slips = "1 H2 RETSINA 66\n2 H8 AT 4\n3 H8 AT 4\n4 -\n5 H8 SNIRTEA 60\n"
    run("slips_enter", "--event", event.code, stdin=slips)
    run("round_close", "--event", event.code)
    # Gina's slip comes after the close: kept, late, ruled 0.
    slip_submit(
        round=open_round,
        player=event.players.get(table=7),
        coordinates="H2",
        word="RETSINA",
        announced_score=66,
    )
    round_adjudicate(round_id=open_round.pk)

    lines = run("rulings", "--event", event.code).out.splitlines()
    moves = lines.index("Moves played (3 players):")
    groups = [line for line in lines[moves + 2 :] if re.match(r"\s+\d+\s+\d+\s+\S", line)]
    # Best first, whatever the count of players: the top (one player) before AT (two).
    assert re.fullmatch(r"\s+66\s+1\s+H2 RETSINA\s+TOP 1 Anne Martin", groups[0]), groups
    assert re.fullmatch(r"\s+4\s+2\s+H8 AT\s+2 Bruno Petit, 3 Claire Dubois", groups[1]), groups
    assert len(groups) == 2
    sections = [
        lines.index("Invalid, 0 (1):"),
        lines.index("Blank slips (1): 4 Dan Smith"),
        lines.index("Missing (1): 6 Fred"),
        lines.index("Late (1): 7 Gina"),
    ]
    assert moves < sections[0] and sections == sorted(sections)
    assert lines[sections[0] + 1].startswith("  5 Eve: H8 SNIRTEA 60: SNIRTEA is not in the lexicon")


def test_rulings_average_credits_the_other_players_mean(arbitrator) -> None:
    event = _create("--notation", "gcg")
    for name in ("Anne", "Bruno"):
        player_add(event=event, name=name)
    # A typed rack: with a random one the top read backwards was sometimes a word too (CI drew one).
    run("round_draw", "--event", event.code, "--new-game", "--rack", "AEIRSTN")
    run("round_open", "--event", event.code)
    round = _round(event)
    coordinates, word = round.tops[0].split()
    run(
        "slips_enter",
        "--event",
        event.code,
        stdin=f"1 {coordinates} SNIRTEA 9\n2 {coordinates} {word} {round.top_score}\n",
    )
    run("round_close", "--event", event.code)
    run("rulings", "--event", event.code, "--average", "1", fails="--reason")
    out = run(
        "rulings", "--event", event.code, "--average", "1", "--reason", "same word again", "--user", "arbitre"
    ).out
    ruling = Ruling.objects.get(round=round, player__table=1)
    assert (
        ruling.reason == "average"
        and f"the average of the other players, credited 0 -> {ruling.credited}" in out
    )
