from django.apps import AppConfig
from django.db.models.signals import post_migrate


class ModerationConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "moderation"

    def ready(self) -> None:
        from . import signals  # noqa: F401  (sign-in addresses; moderators told of dropped newcomers)
        from .groups import create_moderators_group

        post_migrate.connect(create_moderators_group, sender=self)
