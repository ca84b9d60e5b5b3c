"""Input and output shapes. Outputs never carry the join code or the random seed."""

from __future__ import annotations

import dataclasses
from typing import Any

from django.utils.translation import gettext as _
from rest_framework import serializers
from rest_framework.authtoken.serializers import AuthTokenSerializer

from solver.formats.record import END_REASONS
from tournaments.core import MAX_ANNOUNCED, MAX_CREDITED, MAX_WARNINGS
from tournaments.display import shown_move
from tournaments.models import Event, Game, HistoryEntry, Player, Round, Ruling, Slip
from tournaments.selectors.games import player_sight
from tournaments.selectors.shown import GameView

#: Tables, game and round numbers are PositiveIntegerFields: PostgreSQL's integer, the
#: narrowest of the databases. A bigger number would reach the database and fail there
#: (DataError on PostgreSQL, OverflowError on SQLite): a 500 instead of a refusal.
MAX_NUMBER = 2_147_483_647


def number_field(**kwargs: Any) -> serializers.IntegerField:
    """A table, game or round number: 1 or more, and within the column."""
    return serializers.IntegerField(min_value=1, max_value=MAX_NUMBER, **kwargs)


class PlayerSerializer(serializers.ModelSerializer[Player]):
    class Meta:
        model = Player
        fields = ["id", "name", "club", "category", "table"]


class ArbitratorPlayerSerializer(serializers.ModelSerializer[Player]):
    """A player as the arbitrator sees it: with the licence number and the virtual level."""

    class Meta:
        model = Player
        fields = [
            "id",
            "name",
            "club",
            "licence",
            "category",
            "table",
            "virtual_level",
            "withdrawn_at",
            "paper_only",
            "seat_code",
        ]


class ReleaseSerializer(serializers.Serializer[Any]):
    revoked = serializers.IntegerField(help_text="the tokens that stopped working")


class PlayerInputSerializer(serializers.Serializer[Any]):
    name = serializers.CharField(max_length=120)
    club = serializers.CharField(max_length=120, allow_blank=True, required=False, default="")
    licence = serializers.CharField(max_length=40, allow_blank=True, required=False, default="")
    category = serializers.CharField(max_length=40, allow_blank=True, required=False, default="")
    table = number_field(required=False, default=None, help_text="the next free table without it")
    paper_only = serializers.BooleanField(
        required=False, default=False, help_text="no phone may take the table (paper slips only)"
    )


class PlayerUpdateSerializer(serializers.Serializer[Any]):
    name = serializers.CharField(max_length=120, required=False)
    club = serializers.CharField(max_length=120, allow_blank=True, required=False)
    licence = serializers.CharField(max_length=40, allow_blank=True, required=False)
    category = serializers.CharField(max_length=40, allow_blank=True, required=False)
    table = number_field(required=False, help_text="refused once the player has handed in a slip")
    paper_only = serializers.BooleanField(
        required=False, help_text="no phone may take the table; true releases the phone there"
    )


class WithdrawInputSerializer(serializers.Serializer[Any]):
    withdrawn = serializers.BooleanField(
        help_text="true: out of the rounds opened from now on; false: back in the event"
    )


class PlayersImportSerializer(serializers.Serializer[Any]):
    csv = serializers.CharField(
        trim_whitespace=False,
        help_text="a header row with 'name' (required) and optionally 'club', 'licence', 'category', "
        "'table'; comma, semicolon or tab separated. One bad line refuses the whole file.",
    )


class EventSerializer(serializers.ModelSerializer[Event]):
    class Meta:
        model = Event
        fields = [
            "id",
            "name",
            "starts_on",
            "ends_on",
            "language",
            "board",
            "notation",
            "mode",
            "round_seconds",
        ]


class JoinInputSerializer(serializers.Serializer[Any]):
    code = serializers.CharField(max_length=20)
    seat = serializers.CharField(
        max_length=20, required=False, default="", help_text="the seat code on the table card"
    )
    table = number_field(
        required=False,
        default=None,
        help_text="without a seat code: only where the event has the arbitrator confirm joins",
    )

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if not attrs["seat"].strip() and attrs["table"] is None:
            raise serializers.ValidationError(_("give the seat code on the table card (or the table)"))
        return attrs


class JoinRequestSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    player = serializers.IntegerField()
    table = serializers.IntegerField()
    name = serializers.CharField()
    number = serializers.CharField(help_text="the four digits the waiting phone shows")
    asked_at = serializers.DateTimeField()
    address = serializers.CharField()
    device = serializers.CharField()


class JoinOutputSerializer(serializers.Serializer[Any]):
    token = serializers.CharField()
    player = PlayerSerializer()
    confirmed = serializers.BooleanField(
        help_text="false: the token works once the arbitrator confirms the phone (202)"
    )
    number = serializers.CharField(help_text="four digits the arbitrator sees beside the request")


#: A round's fields that reveal the answer: the arbitrator's, the players' once ruled.
SECRET_ROUND_FIELDS = ("top_score", "tops", "move_count")


class GameStateField(serializers.ChoiceField):
    """A game's state: its own schema component (see :mod:`api.schema`)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(choices=Game.State.choices, **kwargs)


class GameSerializer(serializers.ModelSerializer[Game]):
    state = GameStateField(read_only=True)

    class Meta:
        model = Game
        fields = ["number", "state", "end_reason", "started_at", "ended_at"]
        read_only_fields = fields


class GameEndInputSerializer(serializers.Serializer[Any]):
    reason = serializers.ChoiceField(choices=[(code, text) for code, text in END_REASONS.items() if code])


class GameOverSerializer(serializers.Serializer[Any]):
    """A draw that ends the game (the bag and rack cannot meet the minimums)."""

    game_over = serializers.BooleanField()
    game = GameSerializer()


class RoundSerializer(serializers.ModelSerializer[Round]):
    """Pass ``context={"arbitrator": bool}``: players get ``null`` in the secret fields
    until the round is adjudicated, and no rack before it is opened. ``tops`` and
    ``chosen`` are the moves as stored, in GCG notation whatever the event's: ``game/``
    gives them in the event's notation, the one ``top/`` reads."""

    game = serializers.IntegerField(source="game.number", read_only=True)
    rack = serializers.SerializerMethodField()
    reliquat = serializers.SerializerMethodField()
    new_tiles = serializers.SerializerMethodField()
    rejected = serializers.ListField(child=serializers.CharField(), read_only=True)
    tops = serializers.ListField(
        child=serializers.CharField(),
        allow_null=True,
        read_only=True,
        help_text="GCG notation, whatever the event's (game/ gives them in the event's notation)",
    )
    chosen = serializers.CharField(
        read_only=True,
        help_text="the move to be placed or placed, in GCG notation whatever the event's; empty until chosen",
    )

    class Meta:
        model = Round
        fields = [
            "game",
            "number",
            "state",
            "rack",
            "reliquat",
            "new_tiles",
            "rejected",
            "manual",
            "deadline",
            "paused_at",
            "opened_at",
            "closed_at",
            "published_at",
            "move_count",
            "top_score",
            "tops",
            "chosen",
            "chosen_score",
        ]
        read_only_fields = fields

    def _hidden(self, round: Round) -> bool:
        return not self.context.get("arbitrator") and not player_sight(round).rack

    def get_rack(self, round: Round) -> str | None:
        return None if self._hidden(round) else round.rack

    def get_reliquat(self, round: Round) -> str | None:
        return None if self._hidden(round) else round.reliquat

    def get_new_tiles(self, round: Round) -> str | None:
        return None if self._hidden(round) else round.new_tiles

    def to_representation(self, instance: Round) -> dict[str, Any]:
        data: dict[str, Any] = super().to_representation(instance)
        if not self.context.get("arbitrator"):
            sight = player_sight(instance)
            if not sight.answers:
                for name in SECRET_ROUND_FIELDS:
                    data[name] = None
            if not sight.placed:
                data["chosen"], data["chosen_score"] = "", None
        return data


class DrawInputSerializer(serializers.Serializer[Any]):
    typed = serializers.CharField(
        max_length=20,
        required=False,
        help_text="a rack drawn by hand, reliquat included ('?' for a blank); a random draw without it",
    )
    rejected = serializers.ListField(
        child=serializers.CharField(max_length=20),
        required=False,
        default=list,
        help_text="the racks drawn by hand before it and rejected by the vowel/consonant rule",
    )

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if attrs["rejected"] and not attrs.get("typed"):
            raise serializers.ValidationError({"rejected": [_("rejected racks come with a typed rack")]})
        return attrs


class OpenInputSerializer(serializers.Serializer[Any]):
    seconds = serializers.IntegerField(
        min_value=1, max_value=24 * 3600, required=False, help_text="the event's time per round without it"
    )


class ReopenInputSerializer(serializers.Serializer[Any]):
    seconds = serializers.IntegerField(
        min_value=1,
        max_value=3600,
        required=False,
        help_text="the clock once reopened; without it the time that was left at the close, else 60",
    )
    reason = serializers.CharField(
        max_length=500,
        required=False,
        allow_blank=True,
        help_text="required once the round's results were shown: kept in the history; every slip after"
        " that first publication is then late",
    )


class AddTimeInputSerializer(serializers.Serializer[Any]):
    seconds = serializers.IntegerField(
        min_value=1, max_value=3600, help_text="added to the clock of the open round, running or paused"
    )


class MoveInputSerializer(serializers.Serializer[Any]):
    coordinates = serializers.CharField(max_length=20, allow_blank=True)
    word = serializers.CharField(max_length=40, allow_blank=True)
    announced_score = serializers.IntegerField(
        allow_null=True, required=False, default=None, min_value=0, max_value=MAX_ANNOUNCED
    )


class SlipInputSerializer(MoveInputSerializer):
    """A player's slip is always the token's player's: ``table`` is the arbitrator's."""

    client_id = serializers.CharField(max_length=64, allow_blank=True, required=False, default="")
    table = number_field(
        required=False,
        help_text="arbitrator only, and required then: the table of the paper slip typed in. "
        "Ignored in a player's slip.",
    )
    game = number_field(
        required=False, help_text="with round: the slip is refused if that round is no longer current"
    )
    round = number_field(required=False, help_text="with game: the round the slip was written for")
    sent_at = serializers.DateTimeField(
        required=False,
        help_text="a phone's: when it sent the slip, by its clock corrected to the server's (every live "
        "message carries the server's time). Counts for the deadline when the server received the slip "
        "at most ARBITER_SLIP_GRACE_SECONDS (5) later, docs/rules.md#slips; ignored on a paper slip.",
    )
    second = serializers.ChoiceField(
        choices=["correction", "second"],
        required=False,
        help_text="arbitrator only: a table typed again corrects a typing mistake (correction: it "
        "replaces the first) or is a second slip the player handed in (second: the round is void, "
        "docs/rules.md#slips). Refused without it when the event voids several slips.",
    )

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if ("game" in attrs) != ("round" in attrs):
            raise serializers.ValidationError(_("give both game and round, or neither"))
        return attrs


class SlipSerializer(serializers.ModelSerializer[Slip]):
    player = PlayerSerializer(read_only=True)

    class Meta:
        model = Slip
        fields = [
            "id",
            "player",
            "coordinates",
            "word",
            "announced_score",
            "received_at",
            "source",
            "client_id",
            "late",
            "current",
        ]
        read_only_fields = fields


class ArbitratorSlipSerializer(SlipSerializer):
    entered_by = serializers.CharField(source="entered_by.username", allow_null=True, read_only=True)

    class Meta(SlipSerializer.Meta):
        fields = [*SlipSerializer.Meta.fields, "entered_by"]
        read_only_fields = fields


class SlipWatchSerializer(serializers.Serializer[Any]):
    received = serializers.IntegerField(help_text="players with a current slip")
    expected = serializers.IntegerField(help_text="players of the event")
    missing_tables = serializers.ListField(child=serializers.IntegerField())
    slips = ArbitratorSlipSerializer(many=True, help_text="current slips, latest first")


class PreviewSerializer(serializers.Serializer[Any]):
    """What a slip would score on the current board, judged as the close would."""

    reason = serializers.CharField(help_text="a stable code: ok, illegal, not_in_lexicon, ...")
    ok = serializers.BooleanField()
    move = serializers.CharField(help_text="in the event's notation; empty when unreadable")
    move_score = serializers.IntegerField()
    credited = serializers.IntegerField()
    warnings = serializers.IntegerField()
    detail = serializers.CharField(
        help_text="the notes in the request's language, moves in the event's notation"
    )
    invalid_words = serializers.ListField(child=serializers.CharField())
    shift_candidate = serializers.CharField(help_text="in the event's notation; empty when none is offered")


class SlipReceiptSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    received_at = serializers.DateTimeField()
    late = serializers.BooleanField()
    late_reason = serializers.ChoiceField(
        choices=["time_up", "closed"],
        allow_null=True,
        help_text="a late slip: it arrived after the deadline (time_up) or after the arbitrator closed "
        "the round before it (closed); null when in time",
    )
    current = serializers.BooleanField()
    created = serializers.BooleanField(help_text="false when the client_id was already received")
    invalid_words = serializers.ListField(child=serializers.CharField(), help_text="nostrict mode")


class StandingsPlayerSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    name = serializers.CharField()
    club = serializers.CharField()
    category = serializers.CharField()
    table = serializers.IntegerField()


class StandingsRowSerializer(serializers.Serializer[Any]):
    """The shape of :func:`scoring.standings.to_dict`."""

    rank = serializers.IntegerField()
    player = StandingsPlayerSerializer()
    total = serializers.IntegerField()
    tops = serializers.IntegerField()
    solos = serializers.IntegerField()
    warnings = serializers.IntegerField()
    penalties = serializers.IntegerField()
    diff = serializers.IntegerField()
    percent = serializers.FloatField()
    letterpoints = serializers.IntegerField()
    ratio = serializers.FloatField(allow_null=True)
    rounds = serializers.IntegerField()


class StandingsSerializer(serializers.Serializer[Any]):
    game = serializers.IntegerField(allow_null=True)
    round = serializers.IntegerField(allow_null=True, help_text="the standings after this round of the game")
    category = serializers.CharField(allow_null=True)
    rows = StandingsRowSerializer(many=True)


class StandingsQuerySerializer(serializers.Serializer[Any]):
    game = number_field(required=False)
    round = number_field(required=False, help_text="with game: the standings as they stood after this round")
    category = serializers.CharField(max_length=40, required=False)


class LiveSerializer(serializers.Serializer[Any]):
    """Poll this: refetch the game and the round only when ``public`` (or ``full``) changes."""

    public = serializers.CharField(help_text="changes with what every phone shows")
    full = serializers.CharField(required=False, help_text="arbitrator only: also changes with every slip")
    deadline = serializers.DateTimeField(allow_null=True)
    state = serializers.ChoiceField(choices=Round.State.choices, allow_null=True)
    now = serializers.DateTimeField(help_text="the server's clock, to count down to the deadline")


class CellSerializer(serializers.Serializer[Any]):
    row = serializers.IntegerField()
    col = serializers.IntegerField()
    letter = serializers.CharField(help_text="empty for an empty square; lowercase for a blank")
    premium = serializers.CharField(help_text="l2, l3, l4, w2, w3, w4 or empty")
    value = serializers.IntegerField()
    name = serializers.CharField(help_text="the square in the event's notation")
    new = serializers.BooleanField(help_text="placed by the last placed move")
    centre = serializers.BooleanField()


class BoardRowSerializer(serializers.Serializer[Any]):
    row_label = serializers.CharField(help_text="as the notation names the row")
    cells = CellSerializer(many=True)


class TileValueSerializer(serializers.Serializer[Any]):
    letter = serializers.CharField()
    value = serializers.IntegerField()


class TileCountSerializer(TileValueSerializer):
    count = serializers.IntegerField()


class PlacedRoundSerializer(serializers.Serializer[Any]):
    number = serializers.IntegerField()
    rack = serializers.CharField(help_text="reliquat+new tiles")
    move = serializers.CharField(help_text="in the event's notation")
    score = serializers.IntegerField()
    top_score = serializers.IntegerField()


class GameViewSerializer(serializers.Serializer[Any]):
    """A :class:`~tournaments.selectors.GameView`: the game as phones and the projector
    show it. The rack is empty until the round opens; the tops come after adjudication."""

    event_id = serializers.IntegerField()
    game = serializers.IntegerField()
    game_state = GameStateField()
    round = serializers.IntegerField(allow_null=True)
    state = serializers.ChoiceField(choices=Round.State.choices, allow_null=True)
    deadline = serializers.DateTimeField(allow_null=True)
    rows = BoardRowSerializer(many=True)
    col_labels = serializers.ListField(child=serializers.CharField())
    rack = serializers.CharField()
    rack_values = TileValueSerializer(many=True)
    to_come = TileCountSerializer(many=True, help_text="the tiles not seen yet: bag, and rack until open")
    to_come_total = serializers.IntegerField()
    values = TileValueSerializer(many=True)
    placed = PlacedRoundSerializer(many=True)
    top_total = serializers.IntegerField()
    top_score = serializers.IntegerField(allow_null=True)
    tops = serializers.ListField(child=serializers.CharField(), help_text="in the event's notation")
    chosen = serializers.CharField(help_text="in the event's notation")

    def to_representation(self, instance: GameView) -> dict[str, Any]:
        data = dataclasses.asdict(instance)
        data["rows"] = [{"row_label": label, "cells": cells} for label, cells in data["rows"]]
        data["rack_values"] = [{"letter": ch, "value": v} for ch, v in data["rack_values"]]
        data["values"] = [{"letter": ch, "value": v} for ch, v in data["values"]]
        data["to_come"] = [{"letter": ch, "count": n, "value": v} for ch, n, v in data["to_come"]]
        result: dict[str, Any] = super().to_representation(data)
        return result


class RulingSlipSerializer(serializers.ModelSerializer[Slip]):
    class Meta:
        model = Slip
        fields = ["id", "coordinates", "word", "announced_score", "received_at", "source", "late"]
        read_only_fields = fields


class RulingSerializer(serializers.ModelSerializer[Ruling]):
    """Pass ``context={"event": event}``: moves are shown in the event's notation."""

    player = PlayerSerializer(read_only=True)
    slip = RulingSlipSerializer(read_only=True, allow_null=True)
    move = serializers.SerializerMethodField(help_text="in the event's notation")
    shift_candidate = serializers.SerializerMethodField(help_text="in the event's notation")
    detail = serializers.CharField(
        read_only=True, help_text="the notes in English, moves in the event's notation"
    )
    invalid_words = serializers.ListField(child=serializers.CharField(), read_only=True)
    ruled_by = serializers.CharField(source="ruled_by.username", allow_null=True, read_only=True)

    class Meta:
        model = Ruling
        fields = [
            "id",
            "player",
            "slip",
            "move",
            "move_score",
            "credited",
            "warnings",
            "penalty",
            "solo",
            "is_top",
            "letterpoints",
            "reason",
            "detail",
            "invalid_words",
            "shift_candidate",
            "overridden",
            "override_reason",
            "ruled_by",
            "ruled_at",
        ]
        read_only_fields = fields

    def _shown(self, gcg: str) -> str:
        event: Event = self.context["event"]
        return shown_move(gcg, event.board, event.notation)

    def get_move(self, ruling: Ruling) -> str:
        return self._shown(ruling.move)

    def get_shift_candidate(self, ruling: Ruling) -> str:
        return self._shown(ruling.shift_candidate)


class RoundRulingSerializer(RulingSerializer):
    """A ruling on its own: with its game and round (load them with ``select_related``)."""

    game = serializers.IntegerField(source="round.game.number", read_only=True)
    round = serializers.IntegerField(source="round.number", read_only=True)

    class Meta(RulingSerializer.Meta):
        fields = ["game", "round", *RulingSerializer.Meta.fields]
        read_only_fields = fields


#: A page of a list (the history): entries without ``limit``, and at most.
PAGE_SIZE, MAX_PAGE_SIZE = 100, 1000


class PageQuerySerializer(serializers.Serializer[Any]):
    limit = serializers.IntegerField(min_value=1, max_value=MAX_PAGE_SIZE, default=PAGE_SIZE)
    offset = serializers.IntegerField(min_value=0, max_value=MAX_NUMBER, default=0)


class RulingQuerySerializer(serializers.Serializer[Any]):
    table = number_field(required=False)


class MoveGroupSerializer(serializers.Serializer[Any]):
    move = serializers.CharField(help_text="GCG notation")
    shown = serializers.CharField(help_text="in the event's notation")
    score = serializers.IntegerField()
    is_top = serializers.BooleanField()
    rulings = RulingSerializer(many=True)


class ReviewSerializer(serializers.Serializer[Any]):
    """:func:`tournaments.selectors.round_review`: the scored moves best first, then the
    rulings by kind. Each ruling is in exactly one of ``groups`` (under its move, penalised
    ones too), ``invalid``, ``several``, ``blank``, ``missing``, ``late`` and ``corrected``
    (credited by the arbitrator without a move); ``overridden``, ``solos``, ``penalties``
    and ``found_top`` name them again."""

    round = RoundSerializer()
    rulings = RulingSerializer(many=True)
    groups = MoveGroupSerializer(many=True)
    valid = serializers.IntegerField(help_text="the slips scored for a move: the rulings in groups")
    invalid = RulingSerializer(many=True)
    several = RulingSerializer(many=True)
    blank = RulingSerializer(many=True)
    missing = RulingSerializer(many=True)
    late = RulingSerializer(many=True)
    corrected = RulingSerializer(many=True)
    overridden = RulingSerializer(many=True)
    solos = RulingSerializer(many=True)
    penalties = RulingSerializer(many=True)
    found_top = RulingSerializer(many=True)


class TopInputSerializer(serializers.Serializer[Any]):
    move = serializers.CharField(
        max_length=40,
        help_text="in the event's notation: 'H8 PROOF' in FISF, '8H PROOF' in GCG, 'h8,a,proof' in Scramble",
    )
    confirm_lower = serializers.BooleanField(
        default=False, help_text="place a move scoring less than the top (refused without it)"
    )


class TopChoiceSerializer(serializers.Serializer[Any]):
    round = RoundSerializer()
    warning = serializers.CharField(help_text="set when the move scores less than the top")


class PlaceInputSerializer(DrawInputSerializer):
    """The next rack may come typed from a physical draw: refused, it refuses the placement
    with it (nothing placed: type it again)."""

    draw_next = serializers.BooleanField(
        default=True, help_text="draw the next rack at random (when no rack is typed)"
    )


class PlaceResultSerializer(serializers.Serializer[Any]):
    placed = RoundSerializer()
    next = RoundSerializer(allow_null=True, help_text="null without draw_next, or when the game ended")
    game_over = serializers.BooleanField()


class OverrideInputSerializer(serializers.Serializer[Any]):
    # Below 0 too: a warning penalty on a move scoring less than it leaves a negative round.
    credited = serializers.IntegerField(
        min_value=-MAX_CREDITED, max_value=MAX_CREDITED, help_text="the score credited for the round"
    )
    warnings = serializers.IntegerField(min_value=0, max_value=MAX_WARNINGS, required=False)
    penalty = serializers.IntegerField(min_value=0, max_value=MAX_CREDITED, required=False)
    reason = serializers.CharField(max_length=1000, help_text="kept in the history")


class AcceptShiftInputSerializer(serializers.Serializer[Any]):
    reason = serializers.CharField(max_length=1000, required=False, help_text="kept in the history")


class HistoryEntrySerializer(serializers.ModelSerializer[HistoryEntry]):
    old = serializers.JSONField(
        read_only=True, allow_null=True, help_text="as stored: moves (chosen, move) in GCG notation"
    )
    new = serializers.JSONField(
        read_only=True, allow_null=True, help_text="as stored: moves (chosen, move) in GCG notation"
    )

    class Meta:
        model = HistoryEntry
        fields = ["id", "entity", "object_id", "action", "actor_label", "at", "old", "new", "reason"]
        read_only_fields = fields


class TokenInputSerializer(AuthTokenSerializer):
    """DRF's login check; the token is in the answer only."""

    token = None  # type: ignore[assignment]


class TokenSerializer(serializers.Serializer[Any]):
    token = serializers.CharField(help_text='send "Token <token>" in the Authorization header')


class ErrorDetailSerializer(serializers.Serializer[Any]):
    code = serializers.CharField()
    message = serializers.CharField()
    detail = serializers.JSONField()


class ErrorSerializer(serializers.Serializer[Any]):
    error = ErrorDetailSerializer()
