from __future__ import annotations

from django.urls import path

from rooms.views import console, hall, live, phone

console_patterns = (
    [
        path("", console.events, name="events"),
        path("new/", console.event_new, name="event_new"),
        path("import/", console.event_import, name="event_import"),
        path("<int:event_id>/", console.event_round, name="event"),
        path("<int:event_id>/settings/", console.event_settings, name="settings"),
        path("<int:event_id>/lexicon/", console.lexicon_progress, name="lexicon"),
        path("<int:event_id>/players/", console.players, name="players"),
        path("<int:event_id>/players/<int:player_id>/", console.player_edit, name="player"),
        path("<int:event_id>/players/cards/", console.table_cards, name="table_cards"),
        path("<int:event_id>/game/start/", console.game_start, name="game_start"),
        path("<int:event_id>/game/end/", console.game_end, name="game_end"),
        path("<int:event_id>/draw/", console.round_draw, name="draw"),
        path("<int:event_id>/draw/check/", console.rack_check, name="rack_check"),
        path("<int:event_id>/open/", console.round_open, name="open"),
        path("<int:event_id>/close/", console.round_close, name="close"),
        path("<int:event_id>/reopen/", console.round_reopen, name="reopen"),
        path("<int:event_id>/clock/", console.round_clock, name="clock"),
        path("<int:event_id>/publish/", console.round_publish, name="publish"),
        path("<int:event_id>/unplace/", console.round_unplace, name="unplace"),
        path("<int:event_id>/rule-again/", console.round_rule_again, name="rule_again"),
        path("<int:event_id>/slip/", console.slip_entry, name="slip"),
        path("<int:event_id>/preview/", console.slip_preview, name="preview"),
        path("<int:event_id>/top/", console.top_choose, name="top"),
        path("<int:event_id>/place/", console.round_place, name="place"),
        path("<int:event_id>/rulings/<int:ruling_id>/", console.ruling_edit, name="ruling"),
        path("<int:event_id>/standings/", console.standings, name="standings"),
        path("<int:event_id>/multiplex/", console.multiplex, name="multiplex"),
        path("<int:event_id>/hub/sync/", console.hub_sync, name="hub_sync"),
        path("<int:event_id>/hub/unseal/", console.hub_unseal, name="hub_unseal"),
        path("<int:event_id>/multiplex/key/", console.key_read_out, name="key_read_out"),
        path(
            "<int:event_id>/multiplex/players/remove/",
            console.multiplex_player_remove,
            name="multiplex_player_remove",
        ),
        path("<int:event_id>/history/", console.history, name="history"),
        path("<int:event_id>/sheets/", console.sheets, name="sheets"),
        path("<int:event_id>/sheets/<int:sheet_id>.pdf", console.sheet_download, name="sheet"),
        path("<int:event_id>/export/<str:kind>.<str:ext>", console.export, name="export"),
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
