"""A board is data plus one list: its drawing and its name in ``LAYOUT_NAMES``; the tile
sets by size, the CGP reader, the event model's choices and the commands' options all
follow from them."""

from __future__ import annotations

import pytest

from solver.boards import LAYOUT_NAMES, board_for_size, board_sizes, has_nosmooth, layout
from solver.formats.cgp import CGPError, parse_board
from solver.tiles import SIZES, rack_size, tile_set


@pytest.mark.parametrize("name", LAYOUT_NAMES)
def test_every_board_of_the_list_has_a_drawing_and_tiles_for_its_size(name: str) -> None:
    lay = layout(name)
    assert lay.name == name and lay.size in SIZES
    assert layout(name).rack_size == rack_size(lay.size) == SIZES[lay.size].rack
    for language in ("english", "french"):
        assert tile_set(language, lay.size).total > 0


def test_every_size_with_tiles_has_a_board() -> None:
    assert board_sizes() == sorted(SIZES) == [15, 19, 21]


def test_a_position_is_read_on_the_first_board_of_its_size() -> None:
    assert [board_for_size(n) for n in (15, 19, 21)] == ["standard", "large", "broad"]
    assert board_for_size(17) is None
    empty = "/".join(["21"] * 21)
    assert parse_board(empty).layout.name == "broad"
    with pytest.raises(CGPError, match="a CGP board has 15, 19 or 21 rows, not 17"):
        parse_board("/".join(["17"] * 17))


def test_nosmooth_exists_on_the_21x21_boards_only() -> None:
    assert [n for n in LAYOUT_NAMES if has_nosmooth(n)] == ["broad", "grand"]
    with pytest.raises(ValueError, match="21x21"):
        tile_set("english", 19, smooth=False)


# The Django side reads the same list (no second list to keep in step).


def test_the_event_models_board_choices_are_the_solvers_list() -> None:
    from tournaments.models import Event

    field = Event._meta.get_field("board")
    assert [value for value, _label in field.choices] == list(LAYOUT_NAMES)
    from django.utils import translation

    with translation.override("en"):
        assert str(dict(field.choices)["grand"]) == "grand 21×21, racks of 8"
    assert field.default == "standard"


def test_the_simulation_offers_every_board() -> None:
    from rooms.management.commands.simulate_event import Command

    parser = Command().create_parser("manage.py", "simulate_event")
    (board,) = [a for a in parser._actions if a.dest == "board"]
    assert tuple(board.choices) == LAYOUT_NAMES
