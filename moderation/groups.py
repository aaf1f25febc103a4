"""The moderators' group: who holds the `moderation.moderate` permission, made after every migration."""

MODERATORS = "moderators"


def create_moderators_group(sender, **kwargs) -> None:
    """The site's moderators are this group, with the `moderation.moderate` permission."""
    from django.contrib.auth.models import Group, Permission

    permission = Permission.objects.filter(codename="moderate", content_type__app_label="moderation").first()
    if permission is not None:
        group, _ = Group.objects.get_or_create(name=MODERATORS)
        group.permissions.add(permission)
