"""The JSON game record: everything needed to replay a duplicate game identically.

One object per game::

    {"format": "arbiter-game/1",
     "config": {"board": "standard", "language": "english", "lexicon": "enable",
                "lexicon_checksum": "<sha256 of the word list>", "seed": 7, "smooth": true,
                "bingo_bonus": 50, "first_move_horizontal": true, "y_counts_as": "both",
                "early_rounds": 15, "early_vowels": 2, "early_consonants": 2,
                "late_vowels": 1, "late_consonants": 1, "early_fallback": true},
     "rounds": [{"round": 1, "reliquat": "", "new": "ADEGORZ", "rejected": ["..."],
                 "manual": false, "moves": 336, "top_score": 38,
                 "tops": ["8D GRAZED", "8G GRAZED"], "played": "8D GRAZED", "score": 38,
                 "board": "<CGP board field after the round>"}],
     "end": "draw_rule", "top_total": 812}

A game that ended with no legal move also has ``"final": {"reliquat": "", "new": "...",
"rejected": [], "manual": false}``: the rack that had no move (a typed one cannot be
redrawn from the seed). Readers ignore other top-level keys: an Arbiter game file adds
the event's players, slips and corrections there.

Moves are written in GCG notation with the word in full (blanks lowercase). ``end`` is a
stable code (see :data:`END_REASONS`), never a sentence. A random round (``manual`` false)
must be the seed's own draw; a manual round is a rack typed from a physical draw.
Everything is type-checked when read: a bad record raises :class:`RecordError`.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields
from typing import Any

FORMAT = "arbiter-game/1"

#: How a game ended: stable codes stored in records, with the sentence shown to people.
END_REASONS = {
    "draw_rule": "the bag and rack can no longer meet the vowel/consonant minimums",
    "no_move": "no legal move",
    "stopped": "stopped by the arbitrator",
    "": "in progress",
}


class RecordError(ValueError):
    """A game record that cannot be read or does not replay."""


def _typed(where: str, name: str, value: Any, kind: type) -> Any:
    # bool is an int subclass: refuse True where a number is expected, and 1 for a flag.
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise RecordError(f"{where}: {name} must be {kind.__name__}, not {value!r}")
    return value


@dataclass(frozen=True)
class GameConfig:
    board: str = "standard"
    language: str = "english"
    lexicon: str = "enable"
    #: SHA-256 of the word list the game was played with ("" when unknown).
    lexicon_checksum: str = ""
    seed: int = 1
    smooth: bool = True
    bingo_bonus: int = 50
    first_move_horizontal: bool = True
    y_counts_as: str = "both"
    early_rounds: int = 15
    early_vowels: int = 2
    early_consonants: int = 2
    late_vowels: int = 1
    late_consonants: int = 1
    #: The FISF end of the early rounds (solver.draw.DrawRules.early_fallback); a record
    #: written before the setting existed reads as off (see from_dict).
    early_fallback: bool = True

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: Any) -> GameConfig:
        if not isinstance(data, dict):
            raise RecordError("config must be an object")
        known = {f.name: f for f in fields(cls)}
        unknown = set(data) - set(known)
        if unknown:
            raise RecordError(f"unknown game settings: {', '.join(sorted(unknown))}")
        # A record written before the setting existed was played without the fallback:
        # read so, it replays the game it records (its end by the draw rule included).
        values: dict[str, Any] = {"early_fallback": False}
        for name, value in data.items():
            kind = type(getattr(cls(), name))
            values[name] = _typed("config", name, value, kind)
        return cls(**values)


@dataclass(frozen=True)
class RoundRecord:
    round: int
    reliquat: str
    new: str
    rejected: tuple[str, ...]
    manual: bool
    moves: int
    top_score: int
    tops: tuple[str, ...]
    played: str
    score: int
    board: str

    @property
    def rack(self) -> str:
        return self.reliquat + self.new

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["rejected"] = list(self.rejected)
        data["tops"] = list(self.tops)
        return data

    @classmethod
    def from_dict(cls, data: Any, index: int) -> RoundRecord:
        where = f"round {index}"
        if not isinstance(data, dict):
            raise RecordError(f"{where}: must be an object")
        missing = [
            f.name
            for f in fields(cls)
            if f.name not in data and f.name not in ("reliquat", "rejected", "manual")
        ]
        if missing:
            raise RecordError(f"{where}: missing {', '.join(missing)}")
        rejected = _typed(where, "rejected", data.get("rejected", []), list)
        tops = _typed(where, "tops", data["tops"], list)
        return cls(
            round=_typed(where, "round", data["round"], int),
            reliquat=_typed(where, "reliquat", data.get("reliquat", ""), str),
            new=_typed(where, "new", data["new"], str),
            rejected=tuple(_typed(where, "a rejected rack", r, str) for r in rejected),
            manual=_typed(where, "manual", data.get("manual", False), bool),
            moves=_typed(where, "moves", data["moves"], int),
            top_score=_typed(where, "top_score", data["top_score"], int),
            tops=tuple(_typed(where, "a top", t, str) for t in tops),
            played=_typed(where, "played", data["played"], str),
            score=_typed(where, "score", data["score"], int),
            board=_typed(where, "board", data["board"], str),
        )


@dataclass(frozen=True)
class FinalDraw:
    """The rack drawn after the last round of a game that ended with no legal move."""

    reliquat: str
    new: str
    rejected: tuple[str, ...] = ()
    manual: bool = False

    @property
    def rack(self) -> str:
        return self.reliquat + self.new

    def to_dict(self) -> dict[str, Any]:
        return {
            "reliquat": self.reliquat,
            "new": self.new,
            "rejected": list(self.rejected),
            "manual": self.manual,
        }

    @classmethod
    def from_dict(cls, data: Any) -> FinalDraw:
        if not isinstance(data, dict) or "new" not in data:
            raise RecordError("final: must be an object with the new tiles")
        rejected = _typed("final", "rejected", data.get("rejected", []), list)
        return cls(
            reliquat=_typed("final", "reliquat", data.get("reliquat", ""), str),
            new=_typed("final", "new", data["new"], str),
            rejected=tuple(_typed("final", "a rejected rack", r, str) for r in rejected),
            manual=_typed("final", "manual", data.get("manual", False), bool),
        )


@dataclass
class GameRecord:
    config: GameConfig
    rounds: list[RoundRecord] = field(default_factory=list)
    end: str = ""
    #: Only when ``end`` is no_move: the rack that had no move.
    final: FinalDraw | None = None

    @property
    def top_total(self) -> int:
        return sum(r.score for r in self.rounds)

    @property
    def end_text(self) -> str:
        return END_REASONS.get(self.end, self.end)

    def to_dict(self) -> dict[str, Any]:
        data = {
            "format": FORMAT,
            "config": self.config.to_dict(),
            "rounds": [r.to_dict() for r in self.rounds],
            "end": self.end,
            "top_total": self.top_total,
        }
        if self.final is not None:
            data["final"] = self.final.to_dict()
        return data

    @classmethod
    def from_dict(cls, data: Any) -> GameRecord:
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise RecordError(f"not an Arbiter game record (expected format {FORMAT!r})")
        rounds = data.get("rounds")
        if not isinstance(rounds, list):
            raise RecordError("a game record needs a list of rounds")
        end = _typed("record", "end", data.get("end", ""), str)
        if end not in END_REASONS:
            raise RecordError(f"unknown end of game {end!r}: one of {', '.join(k for k in END_REASONS if k)}")
        final = data.get("final")
        if final is not None and end != "no_move":
            raise RecordError("only a game that ended with no legal move has a final rack")
        record = cls(
            config=GameConfig.from_dict(data.get("config")),
            rounds=[RoundRecord.from_dict(r, i) for i, r in enumerate(rounds, start=1)],
            end=end,
            final=None if final is None else FinalDraw.from_dict(final),
        )
        stated = data.get("top_total")
        if stated is not None and stated != record.top_total:
            raise RecordError(f"top_total says {stated!r}, the rounds add up to {record.top_total}")
        return record
