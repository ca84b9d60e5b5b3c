"""The solver's error types, by kind (as python-chess does).

* :class:`InvalidMoveError`: the text of a move cannot be read (syntax);
* :class:`IllegalMoveError`: the move is readable but breaks a rule of the game;
* :class:`IllegalRackError`: a rack or a draw that the bag or the draw rules refuse.

All are ``ValueError`` subclasses. Each carries a **code** and its **parameters**
(:mod:`solver.messages`): ``str(error)`` is the English sentence for the terminal, and
the pages say the same code in their own language. An error raised with a plain sentence
(no code in the catalogue) keeps that sentence as it is.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from solver.messages import render


class SolverError(ValueError):
    """A refusal with a message code and its parameters."""

    def __init__(self, code: str, /, **params: Any) -> None:
        self.code = code
        self.params: Mapping[str, Any] = params
        super().__init__(render(code, params))


class InvalidMoveError(SolverError):
    """The move's text is malformed: coordinates, direction or word cannot be read."""


class IllegalMoveError(SolverError):
    """The move breaks a rule: off the board, not connected, letters not in the rack,
    a word not in the lexicon, ..."""


class IllegalRackError(SolverError):
    """A rack refused by the bag or the vowel/consonant minimums."""
