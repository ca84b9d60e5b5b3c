"""One round ruled without a database: ``python -m scoring rule CASE.json`` (or ``-``).

The calculator reads a *case* (the word list, the board as the tops placed before left
it, the rack, the settings and each table's slips), rules it with
:mod:`scoring.adjudication` exactly as the event services do at the close, and prints
what each table is credited. Other tools read both sides, so their shape is a contract::

    CASE = {"lexicon": "french" | "enable" | "<path to a word list>",
            "tiles": "french", "board": "standard", "notation": "fisf",
            "mode": "tournament", "settings": {<adjudication setting>: <value>, ...},
            "round": 2, "board_moves": ["H4 FEDAYIN", ...],
            "rack": "EMRSTUA", "players": 16,
            "slips": [{"table": 1, "coordinates": "11B", "word": "MUTERAS", "announced": 87,
                       "warnings_before": 0, "late": false}, {"table": 3, "missing": true}]}
    OUTPUT = {"top_score": 87, "tops": ["11B MUTERAS", ...],
              "rulings": [{"table": 1, "points": 87, "score": 87, "warnings": 0, "penalty": 0,
                           "solo": 0, "top": true, "reason": "ok", "move": "11B MUTERAS",
                           "message": "..."}, ...]}

The case, key by key (``rack`` and ``slips`` are required, the rest has a default):

* ``lexicon``: ``french`` or ``enable`` (the bundled lists, whatever files the current
  folder holds), else the path of a word list file (relative to the current folder),
  compiled by :func:`solver.lexicon.load` and cached on disk as the solver caches it.
* ``tiles``: ``french`` or ``english`` (default: french for the french list, english
  otherwise); ``board``: one of :data:`solver.boards.LAYOUT_NAMES` (default standard);
  ``notation``: fisf, gcg or scramble (default fisf), for the board moves, the slips, the
  tops and the moves printed; ``mode``: tournament, strict or nostrict (default
  tournament), checked only: the rulings at the close are the same in every mode
  (docs/rules.md#modes).
* ``settings``: any field of :class:`scoring.adjudication.AdjudicationSettings` but
  ``notation`` (the case's own), and the game's ``bingo_bonus`` and
  ``first_move_horizontal``; each of the default's type. An unknown key, a wrong type or
  a refused value is an error.
* ``board_moves``: the moves placed before this round, in order, each written in full in
  the case's notation. Each must be a legal placement on the board as it stands (words
  in the lexicon, the first across the centre unless ``first_move_horizontal`` is off);
  the rack it came from is not checked.
* ``round``: the round number, default 1 + the number of board moves. Each round placed
  one move, so any other number is an error (it says which of the two is wrong).
* ``rack``: the round's rack, letters and ``?`` for a blank, at most the board's rack size.
* ``players``: the players in the game, for the solo threshold (default: the number of
  distinct tables in ``slips``).
* ``slips``: what each table handed in, in the order received. Two entries with the same
  table are two slips of that player (several on time are void under the default
  ``several_slips_void``). An entry holds ``table`` (a positive integer), and either
  ``missing: true`` (no slip) or ``coordinates`` and ``word`` (text, default "": both
  empty is a blank slip; coordinates of letters only are raccord letters, read as the
  ``raccord`` setting says), ``announced`` (an integer 0-9999 or null, default null),
  ``late`` (default false). ``warnings_before`` (default 0) is the table's warnings in
  the game's earlier rounds.

Arbitrator's actions, extensions of the contract (absent by default), on any entry of the
table they correct (given on several entries of one table, they must agree):

* ``"accept_shift": true``: with ``reference_rule: "nearby"`` only, the arbitrator
  accepts the shifted placement the ruling offers (an error when it offers none), as
  ``tournaments.services.ruling_accept_shift`` does;
* ``"override": {"credited": N, "warnings": N, "penalty": N}``: the arbitrator's figures,
  as ``ruling_override``: ``credited`` is required, ``warnings`` and ``penalty`` default
  to the ruling's before the correction. The overridden move scores ``credited +
  penalty``: given the top score it is on the top (and alone there, gets the solo); a
  top-finder overridden lower is not, and the solo moves to whoever is then alone;
* ``"average": N``: the average credited instead of a second 0 for the same word not in
  the list (FISF 5.9), as ``ruling_average``: only on a ruling ``not_in_lexicon`` (an
  error otherwise), no move (never on the top), no warning, no penalty. The services
  compute N from the other rulings (their points without the solo, averages left out,
  rounded down, at most what the player's move would have scored); here it is given.

The output lists one ruling a table, in the order the tables first appear in ``slips``:
``points`` is what the round adds to the player's total (``score - penalty + solo``),
``score`` the slip's score before its penalty, ``penalty`` the shift penalty and the
warnings beyond the free ones, ``solo`` the bonus given (0 or ``solo_bonus``), ``move``
the move ruled in the case's notation ("" when there is none), ``message`` the ruling's
notes in English. ``top_score`` is 0 and ``tops`` empty when the rack has no legal move.

The command also reads a golden file of tests/data/rulings (``{"description", "source",
"case", "expected"}``) by its case. A case that cannot be ruled raises :class:`CaseError`
with a one-line message; the command prints it and exits with status 2.
"""

from __future__ import annotations

import dataclasses
import functools
import json
from collections.abc import Mapping
from pathlib import Path
from typing import IO, Any, TypeGuard

from scoring import adjudication as adj
from solver import lexicon as lexmod
from solver.analysis import analyse
from solver.boards import LAYOUT_NAMES, Board, layout
from solver.errors import IllegalMoveError, InvalidMoveError
from solver.notation import STYLES, format_move, parse_move
from solver.rules import Rules, validate
from solver.tiles import BLANK, BLANK_BIT, BLANK_CHAR, rack_codes

__all__ = ["CASE_KEYS", "SETTING_KEYS", "SLIP_KEYS", "CaseError", "read_case", "rule_case", "write_result"]

#: The languages of the tile sets (solver.tiles), and the modes of docs/rules.md#modes.
LANGUAGES = ("french", "english")
MODES = ("tournament", "strict", "nostrict")
CASE_KEYS = (
    "lexicon",
    "tiles",
    "board",
    "notation",
    "mode",
    "settings",
    "round",
    "board_moves",
    "rack",
    "players",
    "slips",
)
SLIP_KEYS = (
    "table",
    "missing",
    "coordinates",
    "word",
    "announced",
    "warnings_before",
    "late",
    "accept_shift",
    "override",
    "average",
)
#: The keys of ``settings``: the adjudication settings (the notation is the case's own)
#: and the game rules the event sets, with their defaults.
_GAME_RULES: dict[str, Any] = {"bingo_bonus": 50, "first_move_horizontal": True}
_DEFAULTS: dict[str, Any] = {
    **{f.name: f.default for f in dataclasses.fields(adj.AdjudicationSettings) if f.name != "notation"},
    **_GAME_RULES,
}
SETTING_KEYS = tuple(_DEFAULTS)
#: The arbitrator's actions: they correct a table's ruling, not one slip.
_ACTIONS = ("accept_shift", "override", "average")
_OVERRIDE_KEYS = ("credited", "warnings", "penalty")
#: Slip fields beside ``missing: true``: the table's, not a slip's.
_TABLE_KEYS = ("table", "missing", "warnings_before", *_ACTIONS)
#: As the services refuse it (tournaments.core.MAX_ANNOUNCED).
MAX_ANNOUNCED = 9999


class CaseError(ValueError):
    """A case that cannot be ruled: the message says what to change."""


@dataclasses.dataclass
class _Table:
    """One table of the case: its slips in the order received, and the corrections."""

    number: int
    slips: list[adj.SlipInput] = dataclasses.field(default_factory=list)
    missing: bool = False
    warnings_before: int | None = None
    actions: dict[str, Any] = dataclasses.field(default_factory=dict)


def rule_case(case: Mapping[str, Any]) -> dict[str, Any]:
    """Rule one round described by ``case`` (module docstring); raises :class:`CaseError`."""
    if not isinstance(case, Mapping):
        raise CaseError(f"the case must be a JSON object, not {_kind(case)}")
    _check_keys(case, CASE_KEYS, "the case")
    if "rack" not in case:
        raise CaseError('the case has no "rack": give the round\'s rack, e.g. "rack": "EMRSTUA"')
    if "slips" not in case:
        raise CaseError(
            'the case has no "slips": give each table\'s slips, e.g. "slips": [{"table": 1, ...}]'
        )
    lexicon_name = _text(case, "lexicon", "french")
    tiles = _choice(case, "tiles", "french" if lexicon_name == "french" else "english", LANGUAGES)
    board_name = _choice(case, "board", "standard", LAYOUT_NAMES)
    notation = _choice(case, "notation", "fisf", STYLES)
    _choice(case, "mode", "tournament", MODES)
    settings, rules = _settings(case.get("settings", {}), notation)
    lexicon = _lexicon(lexicon_name)
    board = Board.empty(board_name, tiles)
    moves = case.get("board_moves", [])
    if not isinstance(moves, list):
        raise CaseError(f'"board_moves" must be a list of moves, not {_kind(moves)}')
    for index, text in enumerate(moves, start=1):
        _place(board, lexicon, rules, notation, index, text)
    _check_round(case, len(moves))
    rack = _rack(case["rack"], layout(board_name).rack_size)
    tables = _tables(case["slips"])
    players = _count(case, "players", len(tables))

    found = analyse(board, lexicon, rack, rules)
    top_score = found.top_score or 0

    def ruled(table: _Table) -> adj.Verdict:
        verdict = adj.adjudicate_slips(board, rack, lexicon, rules, settings, table.slips)
        if not table.actions.get("accept_shift"):
            return verdict
        if settings.reference_rule != "nearby":
            raise CaseError(
                f'table {table.number}: "accept_shift" needs the setting "reference_rule": "nearby"'
                f" (with {settings.reference_rule} no shifted placement waits for the arbitrator)"
            )
        if not verdict.shift_candidate:
            raise CaseError(f"table {table.number}: this slip has no nearby placement to accept")
        counted = [slip for slip in table.slips if not slip.late][-1]
        return adj.accept_shift(board, rack, lexicon, rules, settings, counted, verdict)

    verdicts = {table.number: ruled(table) for table in tables}
    prior = {table.number: table.warnings_before or 0 for table in tables}

    def credited(verdicts: Mapping[int, adj.Verdict]) -> dict[int, adj.Credit]:
        return adj.credit_round(
            verdicts, top_score=top_score, prior_warnings=prior, players_in_game=players, settings=settings
        )

    corrected = [table for table in tables if "override" in table.actions or "average" in table.actions]
    for table in corrected:
        if "average" in table.actions and verdicts[table.number].reason != adj.Reason.NOT_IN_LEXICON:
            raise CaseError(
                f"table {table.number}: the average replaces only a 0 for a word not in the list (FISF 5.9),"
                f" and this slip is ruled {verdicts[table.number].reason}"
            )
    credits = credited(verdicts)
    if corrected:
        # As the services do: the round is ruled, then corrected (an override's missing
        # figures are the ruling's as it stood), then credited again over every player.
        for table in corrected:
            verdicts[table.number] = _corrected(verdicts[table.number], credits[table.number], table.actions)
        credits = credited(verdicts)
    return {
        "top_score": top_score,
        "tops": [format_move(move, notation) for move in found.tops],
        "rulings": [
            _ruling(table.number, verdicts[table.number], credits[table.number], settings, board.size)
            for table in tables
        ],
    }


def _ruling(
    table: int, verdict: adj.Verdict, credit: adj.Credit, settings: adj.AdjudicationSettings, size: int
) -> dict[str, Any]:
    move = format_move(parse_move(verdict.move, "gcg", size), settings.notation) if verdict.move else ""
    return {
        "table": table,
        "points": credit.credited,
        "score": verdict.score,
        "warnings": credit.warnings,
        "penalty": credit.penalty,
        "solo": settings.solo_bonus if credit.solo else 0,
        "top": credit.is_top,
        "reason": verdict.reason,
        "move": move,
        "message": verdict.detail,
    }


def _corrected(verdict: adj.Verdict, credit: adj.Credit, actions: Mapping[str, Any]) -> adj.Verdict:
    """The arbitrator's figures in place of the slip's, as
    tournaments.services.ruling_store.verdict_overridden builds them: score = credited +
    penalty, the penalty fixed; an override's move scores that score, an average is no
    move."""
    if "average" in actions:
        values = {"credited": actions["average"], "warnings": 0, "penalty": 0}
        reason = adj.Reason.AVERAGE
    else:
        values = {"warnings": credit.warnings, "penalty": credit.penalty, **actions["override"]}
        reason = adj.Reason.OVERRIDDEN
    score = values["credited"] + values["penalty"]
    return dataclasses.replace(
        verdict,
        reason=reason,
        move_score=score if reason == adj.Reason.OVERRIDDEN else 0,
        score=score,
        warnings=values["warnings"],
        penalty=values["penalty"],
        shift_candidate="",
    )


# ------------------------------------------------------------------ reading the case


def _kind(value: Any) -> str:
    """A JSON value's kind, as a person reading the case names it."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return f"the number {value}"
    if isinstance(value, str):
        return f"the text {value!r}"
    if isinstance(value, list):
        return "a list"
    return "an object" if isinstance(value, Mapping) else type(value).__name__


def _check_keys(obj: Mapping[str, Any], allowed: tuple[str, ...], where: str) -> None:
    unknown = [key for key in obj if key not in allowed]
    if unknown:
        raise CaseError(f"{where} has an unknown key {unknown[0]!r}: the keys are {', '.join(allowed)}")


def _text(case: Mapping[str, Any], key: str, default: str) -> str:
    value = case.get(key, default)
    if not isinstance(value, str) or not value.strip():
        raise CaseError(f'"{key}" must be a non-empty text, not {_kind(value)}')
    return value.strip()


def _choice(case: Mapping[str, Any], key: str, default: str, allowed: tuple[str, ...]) -> str:
    value = case.get(key, default)
    if value not in allowed:
        raise CaseError(f'unknown "{key}" {_kind(value)}: choose {", ".join(allowed)}')
    return str(value)


def _is_int(value: Any) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def _count(obj: Mapping[str, Any], key: str, default: int, where: str = "") -> int:
    """A non-negative integer (``where`` names the slip or object it belongs to)."""
    value = obj.get(key, default)
    if not _is_int(value) or value < 0:
        raise CaseError(f'{where}"{key}" must be an integer 0 or more, not {_kind(value)}')
    return int(value)


def _settings(raw: Any, notation: str) -> tuple[adj.AdjudicationSettings, Rules]:
    if not isinstance(raw, Mapping):
        raise CaseError(f'"settings" must be an object, not {_kind(raw)}')
    _check_keys(raw, SETTING_KEYS, '"settings"')
    for key, value in raw.items():
        default = _DEFAULTS[key]
        expected = "true or false" if isinstance(default, bool) else type(default).__name__
        if isinstance(default, bool):
            fits = isinstance(value, bool)
        elif isinstance(default, int):
            fits = _is_int(value)
        else:
            fits = isinstance(value, type(default))
        if not fits:
            raise CaseError(f'setting "{key}" must be {expected}, not {_kind(value)}')
    values = {**_DEFAULTS, **raw}
    if values["bingo_bonus"] < 0:
        raise CaseError("bingo_bonus cannot be negative")
    try:
        settings = adj.AdjudicationSettings(
            notation=notation, **{key: value for key, value in values.items() if key not in _GAME_RULES}
        )
    except ValueError as exc:
        raise CaseError(f'"settings": {exc}') from exc
    rules = Rules(
        bingo_bonus=values["bingo_bonus"],
        first_move_horizontal=values["first_move_horizontal"],
        notation=notation,
    )
    return settings, rules


@functools.cache
def _bundled(name: str) -> lexmod.Lexicon:
    return lexmod.load_bundled(name)


def _lexicon(name: str) -> lexmod.Lexicon:
    """A bundled list by name, else a word list file (compiled once, then from the cache)."""
    if name in lexmod.BUNDLED:
        return _bundled(name)
    path = Path(name).expanduser()
    if not path.is_file():
        raise CaseError(
            f"unknown lexicon {name!r}: give {' or '.join(lexmod.BUNDLED)}, or the path of a word list file"
        )
    try:
        return lexmod.load(path)
    except lexmod.LexiconError as exc:
        raise CaseError(f"lexicon: {str(exc).splitlines()[0]}") from exc


def _place(board: Board, lexicon: lexmod.Lexicon, rules: Rules, notation: str, index: int, text: Any) -> None:
    """Play board move ``index`` (1-based): read in the case's notation, legal where it
    stands with its words in the lexicon; its tiles are its own rack."""
    if not isinstance(text, str):
        raise CaseError(f'board move {index} must be a text such as "H4 WORD", not {_kind(text)}')
    try:
        move = parse_move(text, notation, board.size)
    except InvalidMoveError as exc:
        raise CaseError(f"board move {index} {text!r} cannot be read in {notation} notation: {exc}") from exc
    except IllegalMoveError as exc:
        raise CaseError(f"board move {index} {text!r} cannot be played there: {exc}") from exc
    rack = [BLANK if code & BLANK_BIT else code for _, code in move.placements(board)]
    try:
        scored = validate(board, move, rack, lexicon, rules)
    except IllegalMoveError as exc:
        raise CaseError(f"board move {index} {text!r} cannot be played there: {exc}") from exc
    board.play(scored.move)


def _check_round(case: Mapping[str, Any], placed: int) -> None:
    number = case.get("round", placed + 1)
    if not _is_int(number) or number < 1:
        raise CaseError(f'"round" must be a round number 1 or more, not {_kind(number)}')
    if number != placed + 1:
        raise CaseError(
            f"round {number} comes after {number - 1} placed move(s), but board_moves holds {placed}:"
            " each round places one move"
        )


def _rack(value: Any, size: int) -> list[int]:
    if not isinstance(value, str) or not value.strip():
        raise CaseError(
            f'"rack" must be letters and {BLANK_CHAR} for a blank, e.g. "EMRSTU?", not {_kind(value)}'
        )
    text = value.strip()
    try:
        codes = rack_codes(text)
    except ValueError as exc:
        raise CaseError(f"rack {text!r}: {exc}") from exc
    if len(codes) > size:
        raise CaseError(f"rack {text!r} holds {len(codes)} tiles: a rack holds at most {size} on this board")
    return codes


def _tables(raw: Any) -> list[_Table]:
    """The tables in the order they first appear, with their slips in the order received."""
    if not isinstance(raw, list):
        raise CaseError(f'"slips" must be a list of slips, not {_kind(raw)}')
    tables: dict[int, _Table] = {}
    for index, entry in enumerate(raw, start=1):
        where = f"slip {index}: "
        if not isinstance(entry, Mapping):
            raise CaseError(f'slip {index} must be an object such as {{"table": 1, ...}}, not {_kind(entry)}')
        _check_keys(entry, SLIP_KEYS, f"slip {index}")
        number = entry.get("table")
        if not _is_int(number) or number < 1:
            raise CaseError(f'{where}"table" must be a positive integer, not {_kind(number)}')
        where = f"slip {index} (table {number}): "
        table = tables.setdefault(number, _Table(number))
        missing = entry.get("missing", False)
        if not isinstance(missing, bool):
            raise CaseError(f'{where}"missing" must be true or false, not {_kind(missing)}')
        if missing:
            extra = [key for key in entry if key not in _TABLE_KEYS]
            if extra:
                raise CaseError(f"{where}a missing slip has no {extra[0]!r}")
            if table.slips:
                raise CaseError(f"{where}the table handed in a slip: it cannot be missing too")
            table.missing = True
        else:
            if table.missing:
                raise CaseError(f"{where}the table is marked missing: it handed in no slip")
            table.slips.append(_slip(entry, where))
        warnings = _count(entry, "warnings_before", 0, where) if "warnings_before" in entry else None
        if warnings is not None:
            if table.warnings_before not in (None, warnings):
                raise CaseError(f"{where}warnings_before {warnings} differs from the table's other slip")
            table.warnings_before = warnings
        for key, value in _actions(entry, where).items():
            if table.actions.get(key, value) != value:
                raise CaseError(f"{where}{key!r} differs from the table's other slip")
            table.actions[key] = value
        if "override" in table.actions and "average" in table.actions:
            raise CaseError(f"{where}a ruling is overridden or given the average, not both")
        if table.actions.get("accept_shift") and ("override" in table.actions or "average" in table.actions):
            raise CaseError(f"{where}an accepted shift and an override are two rulings: give one")
    return list(tables.values())


def _slip(entry: Mapping[str, Any], where: str) -> adj.SlipInput:
    coordinates, word = entry.get("coordinates", ""), entry.get("word", "")
    for key, value in (("coordinates", coordinates), ("word", word)):
        if not isinstance(value, str):
            raise CaseError(f'{where}"{key}" must be a text, not {_kind(value)}')
    announced = entry.get("announced")
    if announced is not None and (not _is_int(announced) or not 0 <= announced <= MAX_ANNOUNCED):
        raise CaseError(
            f'{where}"announced" must be an integer 0-{MAX_ANNOUNCED} or null, not {_kind(announced)}'
        )
    late = entry.get("late", False)
    if not isinstance(late, bool):
        raise CaseError(f'{where}"late" must be true or false, not {_kind(late)}')
    # A case's late slip came after the deadline, as almost every late slip does.
    return adj.SlipInput(coordinates, word, announced, late=late, after_time=late)


def _actions(entry: Mapping[str, Any], where: str) -> dict[str, Any]:
    actions: dict[str, Any] = {}
    if "accept_shift" in entry:
        if not isinstance(entry["accept_shift"], bool):
            raise CaseError(
                f'{where}"accept_shift" must be true or false, not {_kind(entry["accept_shift"])}'
            )
        if entry["accept_shift"]:
            actions["accept_shift"] = True
    if "override" in entry:
        override = entry["override"]
        if not isinstance(override, Mapping):
            raise CaseError(
                f'{where}"override" must be an object such as {{"credited": 30}}, not {_kind(override)}'
            )
        _check_keys(override, _OVERRIDE_KEYS, f'{where}"override"')
        if "credited" not in override:
            raise CaseError(
                f'{where}"override" needs "credited", the points the slip earns after its penalty'
            )
        credited = override["credited"]
        if not _is_int(credited):
            raise CaseError(f'{where}override "credited" must be an integer, not {_kind(credited)}')
        figures = {"credited": credited}
        for key in ("warnings", "penalty"):
            if key in override:
                figures[key] = _count(override, key, 0, f"{where}override ")
        actions["override"] = figures
    if "average" in entry:
        average = entry["average"]
        if not _is_int(average) or average < 0:
            raise CaseError(f'{where}"average" must be an integer 0 or more, not {_kind(average)}')
        actions["average"] = average
    return actions


# ------------------------------------------------------------------ JSON in and out


def read_case(stream: IO[str], name: str) -> Any:
    """The case a JSON text holds: the case itself, or a golden file's (an object with a
    ``case`` and no ``rack``, as tests/data/rulings holds them). Raises
    :class:`CaseError` naming the line and column of a JSON error."""
    try:
        data = json.load(stream)
    except json.JSONDecodeError as exc:
        raise CaseError(
            f"{name}: not valid JSON at line {exc.lineno}, column {exc.colno}: {exc.msg}"
        ) from exc
    except UnicodeDecodeError as exc:
        raise CaseError(f"{name}: not UTF-8 text ({exc.reason} at byte {exc.start})") from exc
    if isinstance(data, Mapping) and "case" in data and "rack" not in data:
        return data["case"]
    return data


def write_result(result: Mapping[str, Any], stream: IO[str], indent: int | None = None) -> None:
    json.dump(result, stream, indent=indent, ensure_ascii=False)
    stream.write("\n")
