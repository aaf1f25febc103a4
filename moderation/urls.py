from django.urls import path

import sh_site.converters  # noqa: F401  (the <id:...> and <linkkey:...> converters)
from games.views.common import by_link_key

from . import views

app_name = "moderation"
urlpatterns = [
    path("", views.dashboard, name="dashboard"),
    path("games/<id:game_id>/", views.game_page, name="game"),
    path("games/<id:game_id>/see/", views.see_secrets, name="see_secrets"),
    path("games/<id:game_id>/act/", views.game_action, name="game_action"),
    path("absences/<id:absence_id>/end/", views.absence_end, name="end_absence"),
    path("posts/<id:post_id>/visibility/", views.post_visibility, name="post_visibility"),
    path("posts/<id:post_id>/report/", views.report_post, name="report_post"),
    # from an unlisted game's page, read at its link key (games.urls)
    path("u/<linkkey:game_key>/posts/<id:post_id>/report/", by_link_key(views.report_post), name="report_post"),
    path("reports/", views.reports, name="reports"),
    path("reports/<id:report_id>/resolve/", views.report_resolve, name="resolve_report"),
    path("users/", views.users, name="users"),
    path("users/<id:user_id>/ban/", views.ban, name="ban"),
    path("bans/<id:ban_id>/lift/", views.lift_ban, name="lift_ban"),
    path("users/<id:user_id>/second-factor/reset/", views.reset_second_factor, name="reset_second_factor"),
    path("audit/", views.audit_log, name="audit"),
]
