from django.contrib import admin
from django.db.models import Q

from games.admin import HidesGamesSecrets, ReadOnly
from games.models import Ban, Post

from .models import AuditEntry, HealthAlert, Report, SignIn


@admin.register(AuditEntry)
class AuditEntryAdmin(ReadOnly, admin.ModelAdmin):
    """Read only: the audit log is never edited."""

    list_display = ("created_at", "actor_name", "action", "game_name", "target_name", "reason")
    list_filter = ("action",)
    search_fields = ("actor_name", "action", "reason", "game_name", "target_name")
    date_hierarchy = "created_at"


@admin.register(Report)
class ReportAdmin(HidesGamesSecrets):
    """A report of a graveyard post tells what the post says, as the moderators' queue does."""

    game_path = "post__game"
    secret = Q(post__thread=Post.Thread.GRAVEYARD)
    unfilterable = ("reason", "resolution")
    list_display = ("post", "reporter", "created_at", "resolved_at", "resolved_by")
    list_filter = ("resolved_at",)
    search_fields = ("reason", "resolution")
    raw_id_fields = ("post", "reporter", "resolved_by")


@admin.register(Ban)
class BanAdmin(admin.ModelAdmin):
    """Who may play is read from these rows: a ban added, changed, lifted or deleted here bars or frees its user at
    once, as one made or lifted in the moderator panel (which writes the audit log too)."""

    list_display = ("user", "until", "created_by", "created_at", "lifted_at")
    search_fields = ("user__username", "reason")
    raw_id_fields = ("user", "created_by")


@admin.register(SignIn)
class SignInAdmin(admin.ModelAdmin):
    list_display = ("user", "ip", "at")
    search_fields = ("user__username", "ip")
    raw_id_fields = ("user",)


admin.site.register(HealthAlert)
