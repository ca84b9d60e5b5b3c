"""Every write of the domain: keyword-only, typed, transactional, one module per entity.

Callers import from here (``from tournaments import services``; ``services.slip_submit``)
or from the entity's module. The modules form one downward chain, so that none imports
another in a circle: ``history`` <- ``lexicons``, ``events``, ``players``, ``games`` <-
``rounds`` <- ``rulings`` <- ``slips``; ``demo``, ``sheets`` and ``transfer`` stand above
the ones they call. ``backups``, below ``games``, reads the game file of the exports
(above ``transfer``) only when it writes one, after the placement's commit.

Every change to a slip, a ruling or a draw is kept in :class:`~tournaments.models.HistoryEntry`.
"""

from tournaments.core import (
    EVENT_SETTINGS,
    LIVE_SETTINGS,
    MAX_ANNOUNCED,
    MAX_CREDITED,
    MAX_WARNINGS,
    RECORD_SETTINGS,
    ApplicationError,
    User,
)
from tournaments.services.backups import Backup, game_backup
from tournaments.services.demo import event_demo
from tournaments.services.events import event_create, event_update
from tournaments.services.games import RackRefusedError, game_end, game_start, round_draw
from tournaments.services.history import actor, history_record
from tournaments.services.lexicons import (
    lexicon_bundled,
    lexicon_compile,
    lexicon_import,
    lexicon_max_bytes,
    lexicon_pack,
    lexicon_size_check,
    lexicon_upload,
)
from tournaments.services.phone_slips import PhoneSlip, phone_slip
from tournaments.services.players import (
    PLAYER_FIELDS,
    join_number,
    player_add,
    player_join_confirm,
    player_join_refuse,
    player_release,
    player_remove,
    player_token_issue,
    player_update,
    player_withdraw,
    players_import,
    seat_code_renew,
)
from tournaments.services.rounds import (
    MAX_ADDED_SECONDS,
    TopChoice,
    analysis_for,
    round_add_time,
    round_close,
    round_open,
    round_pause,
    round_place,
    round_publish,
    round_reopen,
    round_resume,
    round_solve,
    round_unplace,
    top_choose,
)
from tournaments.services.rulings import (
    round_adjudicate,
    round_average,
    ruling_accept_shift,
    ruling_average,
    ruling_override,
    slip_correct,
)
from tournaments.services.sheets import sheet_print, sheet_request
from tournaments.services.slips import (
    SECOND_CORRECTION,
    SECOND_SLIP,
    NoRoundError,
    SubmitResult,
    check_round,
    late_reason,
    paper_slip_submit,
    slip_submit,
)
from tournaments.services.watchdog import Watchdog, round_rule_again, tasks_requeue_pending

__all__ = [
    "EVENT_SETTINGS",
    "LIVE_SETTINGS",
    "MAX_ADDED_SECONDS",
    "MAX_ANNOUNCED",
    "MAX_CREDITED",
    "MAX_WARNINGS",
    "PLAYER_FIELDS",
    "RECORD_SETTINGS",
    "SECOND_CORRECTION",
    "SECOND_SLIP",
    "ApplicationError",
    "Backup",
    "NoRoundError",
    "PhoneSlip",
    "RackRefusedError",
    "SubmitResult",
    "TopChoice",
    "User",
    "Watchdog",
    "actor",
    "analysis_for",
    "check_round",
    "event_create",
    "event_demo",
    "event_update",
    "game_backup",
    "game_end",
    "game_start",
    "history_record",
    "join_number",
    "late_reason",
    "lexicon_bundled",
    "lexicon_compile",
    "lexicon_import",
    "lexicon_max_bytes",
    "lexicon_pack",
    "lexicon_size_check",
    "lexicon_upload",
    "paper_slip_submit",
    "phone_slip",
    "player_add",
    "player_join_confirm",
    "player_join_refuse",
    "player_release",
    "player_remove",
    "player_token_issue",
    "player_update",
    "player_withdraw",
    "players_import",
    "round_add_time",
    "round_adjudicate",
    "round_average",
    "round_close",
    "round_draw",
    "round_open",
    "round_pause",
    "round_place",
    "round_publish",
    "round_reopen",
    "round_resume",
    "round_rule_again",
    "round_solve",
    "round_unplace",
    "ruling_accept_shift",
    "ruling_average",
    "ruling_override",
    "seat_code_renew",
    "sheet_print",
    "sheet_request",
    "slip_correct",
    "slip_submit",
    "tasks_requeue_pending",
    "top_choose",
]
