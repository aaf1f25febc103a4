from django.urls import path

from . import views

app_name = "moderation"
urlpatterns = [
    path("", views.dashboard, name="dashboard"),
    path("games/<int:game_id>/", views.game_page, name="game"),
    path("games/<int:game_id>/act/", views.game_action, name="game_action"),
    path("absences/<int:absence_id>/end/", views.absence_end, name="end_absence"),
    path("posts/<int:post_id>/visibility/", views.post_visibility, name="post_visibility"),
    path("posts/<int:post_id>/report/", views.report_post, name="report_post"),
    path("reports/", views.reports, name="reports"),
    path("reports/<int:report_id>/resolve/", views.report_resolve, name="resolve_report"),
    path("users/", views.users, name="users"),
    path("users/<int:user_id>/ban/", views.ban, name="ban"),
    path("bans/<int:ban_id>/lift/", views.lift_ban, name="lift_ban"),
    path("audit/", views.audit_log, name="audit"),
]
