"""The solver's error types, by kind (as python-chess does).

* :class:`InvalidMoveError`: the text of a move cannot be read (syntax);
* :class:`IllegalMoveError`: the move is readable but breaks a rule of the game;
* :class:`IllegalRackError`: a rack or a draw that the bag or the draw rules refuse.

All are ``ValueError`` subclasses and carry a message a player understands.
"""


class InvalidMoveError(ValueError):
    """The move's text is malformed: coordinates, direction or word cannot be read."""


class IllegalMoveError(ValueError):
    """The move breaks a rule: off the board, not connected, letters not in the rack,
    a word not in the lexicon, ..."""


class IllegalRackError(ValueError):
    """A rack refused by the bag or the vowel/consonant minimums."""
