from django.urls import path

import sh_site.converters  # noqa: F401  (the <id:...> and <linkkey:...> converters)

from .views import (
    devices,
    installable,
    lobby,
    notifications,
    panel,
    profile,
    ratings,
    reading,
    replay,
    stats,
    thread,
    webhooks,
)
from .views.common import by_link_key

NUMBER = "games/<id:game_id>/"

app_name = "games"
urlpatterns = [
    path("", lobby.home, name="home"),
    path("games/new/", lobby.new_game, name="new_game"),
    path("stats/", stats.site, name="stats"),
    path("ratings/", ratings.leaderboard, name="leaderboard"),
    path("ratings/how/", ratings.rules, name="rating_rules"),
    path("games/<id:game_id>/", thread.thread, name="thread"),
    path("games/<id:game_id>/graveyard/", thread.thread, {"graveyard": True}, name="graveyard"),
    path("games/<id:game_id>/unread/", thread.first_unread, name="first_unread"),
    path("games/<id:game_id>/read/", reading.read, name="read"),
    path("games/<id:game_id>/history/", thread.secret_history, name="secret_history"),
    path("games/<id:game_id>/replay.json", thread.replay_script, name="replay_script"),
    path("games/<id:game_id>/replay/", replay.replay, name="replay"),
    path("games/<id:game_id>/rules/", lobby.rules, name="rules"),
    path("games/<id:game_id>/join/", lobby.join, name="join"),
    path("games/<id:game_id>/leave/", lobby.leave, name="leave"),
    path("games/<id:game_id>/signups/<id:seat_id>/remove/", lobby.remove, name="remove_player"),
    path("games/<id:game_id>/start/", lobby.start_now, name="start_now"),
    path("games/<id:game_id>/settings/", lobby.edit_game, name="edit_game"),
    path("games/<id:game_id>/post/", thread.new_post, name="new_post"),
    path("games/<id:game_id>/posts/<id:post_id>/edit/", thread.edit, name="edit_post"),
    path("games/<id:game_id>/posts/<id:post_id>/history/", thread.post_history, name="post_history"),
    path("games/<id:game_id>/move/", panel.move, name="move"),
    path("games/<id:game_id>/notes/", thread.save_own_notes, name="notes"),
    path("games/<id:game_id>/claim/", panel.claim, name="claim"),
    path("games/<id:game_id>/absence/", panel.absence, name="absence"),
    path("games/<id:game_id>/resign/", panel.resign, name="resign"),
    path("games/<id:game_id>/proposal/", panel.proposal, name="proposal"),
    path("games/<id:game_id>/proposal/vote/", panel.proposal_ballot, name="proposal_ballot"),
    path("games/<id:game_id>/link/", lobby.renew_link, name="renew_link"),
    path("games/<id:game_id>/rematch/", lobby.rematch, name="rematch"),
    path("absences/<id:absence_id>/withdraw/", panel.withdraw_absence, name="withdraw_absence"),
    path("profile/absences/", profile.absences, name="absences"),
    path("users/<str:username>/", profile.user_profile, name="user_profile"),
    path("games/<id:game_id>/players/<str:name>/", profile.player_profile, name="player_profile"),
    path("profile/", profile.edit_profile, name="edit_profile"),
    path("profile/tokens/", profile.api_tokens, name="api_tokens"),
    path("profile/webhooks/", webhooks.my_webhooks, name="my_webhooks"),
    path("games/<id:game_id>/webhooks/", webhooks.game_webhooks, name="game_webhooks"),
    path("webhooks/<id:subscription_id>/delete/", webhooks.delete_webhook, name="delete_webhook"),
    path("profile/tokens/<id:token_id>/revoke/", profile.revoke_api_token, name="revoke_api_token"),
    path("profile/delete/", profile.delete, name="delete_account"),
    path("language/", profile.choose_language, name="set_language"),
    path("notifications/", notifications.notification_list, name="notifications"),
    path("profile/devices/", devices.devices, name="devices"),
    path("profile/devices/<id:device_id>/remove/", devices.remove, name="remove_device"),
    path("push/holds/", installable.holds, name="push_holds"),
    path("manifest.webmanifest", installable.manifest, name="manifest"),
    path("sw.js", installable.service_worker, name="service_worker"),
    path("offline/", installable.offline, name="offline"),
    path("unsubscribe/<str:token>/", notifications.unsubscribe_view, name="unsubscribe"),
    path("calendar/<str:token>.ics", notifications.calendar_feed, name="calendar"),
    path("profile/calendar/", notifications.renew_calendar, name="renew_calendar"),
]


def _at_link_key(patterns: list) -> list:
    """Each page of a game at its number (games/12/...) also at its link key (games/u/<key>/...), under the same
    name: reversed with a key rather than a number (Game.address), the name gives the key's address."""
    return [
        path(f"games/u/<linkkey:game_key>/{str(p.pattern).removeprefix(NUMBER)}", by_link_key(p.callback),
             p.default_args, name=p.name)
        for p in patterns
        if str(p.pattern).startswith(NUMBER)
    ]  # fmt: skip


urlpatterns += _at_link_key(urlpatterns)
