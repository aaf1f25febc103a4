from django.apps import AppConfig
from django.db.models.signals import post_migrate

MODERATORS = "moderators"


def create_moderators_group(sender, **kwargs) -> None:
    """The site's moderators are this group, with the `moderation.moderate` permission."""
    from django.contrib.auth.models import Group, Permission

    permission = Permission.objects.filter(codename="moderate", content_type__app_label="moderation").first()
    if permission is not None:
        group, _ = Group.objects.get_or_create(name=MODERATORS)
        group.permissions.add(permission)


class ModerationConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "moderation"

    def ready(self) -> None:
        from . import signals  # noqa: F401  (sign-in addresses; moderators told of dropped newcomers)

        post_migrate.connect(create_moderators_group, sender=self)
