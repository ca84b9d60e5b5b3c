"""The event's adjudication settings (docs/rules.md#event-settings): every number and every
ruling where practices differ, with the FISF practice as its default."""

from __future__ import annotations

from dataclasses import dataclass

from solver.notation import STYLES

SCORE_POLICIES = ("fisf", "english")
REFERENCE_RULES = ("fisf2016", "nearby")
#: How an unmarked blank is read: the announced score's reading, else the lowest (FISF)
#: or the last occurrences (the Scramble help); or always the highest-scoring reading.
BLANK_READINGS = ("announced", "last", "best")


@dataclass(frozen=True)
class AdjudicationSettings:
    """The event's adjudication settings, with the defaults of docs/rules.md#event-settings."""

    score_policy: str = "fisf"
    free_warnings: int = 3
    warning_penalty: int = 5
    shift_penalty: int = 5
    solo_bonus: int = 10
    solo_min_players: int = 16
    unmarked_blank_warning: bool = True
    notation: str = "fisf"
    #: First round: the word at its best placement, whatever the reference (FISF).
    first_slip_best_placement: bool = True
    #: A wrong or missing reference: the FISF 2016 rule, or the arbitrator's nearby choice.
    reference_rule: str = "fisf2016"
    #: A blank circled on a letter it cannot stand for: a warning (FISF), else 0.
    misplaced_blank_warning: bool = True
    #: An unmarked blank (BLANK_READINGS): as the announced score says, else the lowest (FISF).
    blank_reading: str = "announced"
    #: Several slips handed in for one round score 0 (FISF), else the last one counts.
    several_slips_void: bool = True
    #: A word located by raccord letters, or prolonging a word of the board, needs no
    #: coordinates (FISF regulation 4.3.2, 5.3).
    raccord: bool = True
    #: At most one warning for a slip, none beside a penalty or a 0 (FISF 5.8).
    single_warning: bool = True
    #: The last letter of the word, already on the board, left out or miswritten: the
    #: score less the penalty when the score is the whole word's (FISF 2016), else 0.
    omitted_last_letter: bool = True
    #: The solo goes to the one best score of the round even below the top (FISF 3.5);
    #: off, only to the one player on the top.
    solo_below_top: bool = True

    def __post_init__(self) -> None:
        choices = (
            ("score_policy", SCORE_POLICIES),
            ("notation", STYLES),
            ("reference_rule", REFERENCE_RULES),
            ("blank_reading", BLANK_READINGS),
        )
        for name, allowed in choices:
            if getattr(self, name) not in allowed:
                raise ValueError(f"unknown {name} {getattr(self, name)!r}: choose {', '.join(allowed)}")
        for name in ("free_warnings", "warning_penalty", "shift_penalty", "solo_bonus", "solo_min_players"):
            if getattr(self, name) < 0:
                raise ValueError(f"{name} cannot be negative")
