from __future__ import annotations

from django.urls import path

from rooms.views import hall, live, phone
from rooms.views.console import events, players, results, round_actions, round_page, rulings, slips

console_patterns = (
    [
        path("", events.events, name="events"),
        path("new/", events.event_new, name="event_new"),
        path("import/", events.event_import, name="event_import"),
        path("<int:event_id>/", round_page.event_round, name="event"),
        path("<int:event_id>/settings/", events.event_settings, name="settings"),
        path("<int:event_id>/lexicon/", events.lexicon_progress, name="lexicon"),
        path("<int:event_id>/players/", players.players, name="players"),
        path("<int:event_id>/players/<int:player_id>/", players.player_edit, name="player"),
        path("<int:event_id>/players/cards/", players.table_cards, name="table_cards"),
        path("<int:event_id>/game/start/", round_actions.game_start, name="game_start"),
        path("<int:event_id>/game/end/", round_actions.game_end, name="game_end"),
        path("<int:event_id>/draw/", round_actions.round_draw, name="draw"),
        path("<int:event_id>/draw/check/", round_actions.rack_check, name="rack_check"),
        path("<int:event_id>/open/", round_actions.round_open, name="open"),
        path("<int:event_id>/close/", round_actions.round_close, name="close"),
        path("<int:event_id>/reopen/", round_actions.round_reopen, name="reopen"),
        path("<int:event_id>/clock/", round_actions.round_clock, name="clock"),
        path("<int:event_id>/publish/", round_actions.round_publish, name="publish"),
        path("<int:event_id>/unplace/", round_actions.round_unplace, name="unplace"),
        path("<int:event_id>/rule-again/", round_actions.round_rule_again, name="rule_again"),
        path("<int:event_id>/slip/", slips.slip_entry, name="slip"),
        path("<int:event_id>/preview/", slips.slip_preview, name="preview"),
        path("<int:event_id>/top/", round_actions.top_choose, name="top"),
        path("<int:event_id>/place/", round_actions.round_place, name="place"),
        path("<int:event_id>/rulings/<int:ruling_id>/", rulings.ruling_edit, name="ruling"),
        path("<int:event_id>/standings/", results.standings, name="standings"),
        path("<int:event_id>/history/", results.history, name="history"),
        path("<int:event_id>/sheets/", results.sheets, name="sheets"),
        path("<int:event_id>/sheets/<int:sheet_id>.pdf", results.sheet_download, name="sheet"),
        path("<int:event_id>/export/<str:kind>.<str:ext>", results.export, name="export"),
    ],
    "console",
)

phone_patterns = (
    [
        path("j/", phone.join, name="join"),
        path("j/<str:code>/", phone.join, name="join_code"),
        path("p/<int:event_id>/", phone.play, name="play"),
        path("p/<int:event_id>/slip/", phone.slip, name="slip"),
        path("p/<int:event_id>/leave/", phone.leave, name="leave"),
    ],
    "phone",
)

hall_patterns = (
    [
        path("hall/<int:event_id>/", hall.hall, name="hall"),
        path("live/<int:event_id>/", live.live, name="live"),
        path("live/<int:event_id>/stream/", live.live_stream, name="live_stream"),
    ],
    "hall",
)
