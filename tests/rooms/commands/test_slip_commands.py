"""The slip commands: slips_enter (paper slips typed or read from a file) and rulings."""

from __future__ import annotations

import datetime as dt
import io

import pytest
from django.utils import timezone

from rooms.management.commands.slips_enter import SlipLine, SlipLineError, parse_slip_line
from tests.rooms.commands.helpers import create as _create
from tests.rooms.commands.helpers import run
from tournaments import services
from tournaments.models import Event, Round, Ruling, Slip

pytestmark = pytest.mark.django_db(transaction=True)


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
    services.player_add(event=event, name="Anne")
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
    services.player_add(event=event, name="Anne")
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
