"""The JSON game record: everything needed to replay a duplicate game identically.

One object per game::

    {"format": "arbiter-game/1",
     "config": {"board": "standard", "language": "english", "lexicon": "enable", "seed": 7,
                "smooth": true, "bingo_bonus": 50, "first_move_horizontal": true,
                "y_counts_as": "both", "draw": {"rack_size": 7, "early_rounds": 15, ...}},
     "rounds": [{"round": 1, "reliquat": "", "new": "ADEGORZ", "rejected": ["..."],
                 "manual": false, "moves": 336, "top_score": 38,
                 "tops": ["8D GRAZED", "8G GRAZED"], "played": "8D GRAZED", "score": 38,
                 "board": "<CGP board field after the round>"}],
     "end": "...", "top_total": 812}

Moves are written in GCG notation with the word in full (blanks lowercase).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

FORMAT = "arbiter-game/1"


class RecordError(ValueError):
    """A game record that cannot be read or does not replay."""


@dataclass(frozen=True)
class GameConfig:
    board: str = "standard"
    language: str = "english"
    lexicon: str = "enable"
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

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> GameConfig:
        known = set(cls.__dataclass_fields__)
        unknown = set(data) - known
        if unknown:
            raise RecordError(f"unknown game settings: {', '.join(sorted(unknown))}")
        return cls(**data)


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
    def from_dict(cls, data: dict[str, Any]) -> RoundRecord:
        try:
            return cls(
                round=int(data["round"]),
                reliquat=str(data.get("reliquat", "")),
                new=str(data["new"]),
                rejected=tuple(str(r) for r in data.get("rejected", ())),
                manual=bool(data.get("manual", False)),
                moves=int(data["moves"]),
                top_score=int(data["top_score"]),
                tops=tuple(str(t) for t in data["tops"]),
                played=str(data["played"]),
                score=int(data["score"]),
                board=str(data["board"]),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise RecordError(f"round {data.get('round', '?')}: missing or bad field {exc}") from exc


@dataclass
class GameRecord:
    config: GameConfig
    rounds: list[RoundRecord] = field(default_factory=list)
    end: str = ""

    @property
    def top_total(self) -> int:
        return sum(r.score for r in self.rounds)

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "config": self.config.to_dict(),
            "rounds": [r.to_dict() for r in self.rounds],
            "end": self.end,
            "top_total": self.top_total,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> GameRecord:
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise RecordError(f"not an Arbiter game record (expected format {FORMAT!r})")
        if not isinstance(data.get("rounds"), list) or not isinstance(data.get("config"), dict):
            raise RecordError("a game record needs a config object and a list of rounds")
        record = cls(
            config=GameConfig.from_dict(data["config"]),
            rounds=[RoundRecord.from_dict(r) for r in data["rounds"]],
            end=str(data.get("end", "")),
        )
        stated = data.get("top_total")
        if stated is not None and stated != record.top_total:
            raise RecordError(f"top_total says {stated}, the rounds add up to {record.top_total}")
        return record
