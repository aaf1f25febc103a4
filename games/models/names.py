"""Each account's names as they read on screen (games.names), its username and its display name (shown in place of
the username wherever it is set), kept beside the account: a new name is checked against every other account's
two by indexed look-ups, however many accounts there are."""

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.utils.translation import gettext_lazy as _

from games.names import skeleton_key


class NameSkeleton(models.Model):
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, primary_key=True, related_name="name_skeleton"
    )
    key = models.CharField(max_length=64, help_text="the SHA-256 of the username's skeleton (games.names)")
    display_key = models.CharField(
        max_length=64, blank=True, help_text="the SHA-256 of the display name's skeleton; blank without one"
    )

    class Meta:
        # Not unique: two accounts made before names were compared may read alike, and keep their names.
        indexes = [
            models.Index(fields=["key"], name="name_skeleton_key"),
            models.Index(fields=["display_key"], name="name_skeleton_display_key"),
        ]

    def __str__(self) -> str:
        return self.key


def keep_name_skeleton(sender, instance, raw: bool = False, update_fields=None, **kwargs) -> None:
    """post_save of the user model: the skeleton follows the username whatever path set it (sign-up, the admin, a
    command), in the same transaction. A save that names its fields and not the username (a sign-in's last_login)
    costs nothing."""
    if raw or (update_fields is not None and "username" not in update_fields):
        return
    NameSkeleton.objects.update_or_create(user_id=instance.pk, defaults={"key": skeleton_key(instance.get_username())})


def keep_display_skeleton(sender, instance, raw: bool = False, update_fields=None, **kwargs) -> None:
    """post_save of Profile: the display name's skeleton follows it, as the username's does."""
    if raw or (update_fields is not None and "display_name" not in update_fields):
        return
    display_key = skeleton_key(instance.display_name) if instance.display_name else ""
    user = instance.user
    NameSkeleton.objects.update_or_create(
        user_id=user.pk,
        defaults={"display_key": display_key},
        create_defaults={"key": skeleton_key(user.get_username()), "display_key": display_key},
    )


def name_too_close(name: str, *, user=None) -> str | None:
    """The name (as pages show it: the display name, else the username) of another account than `user` whose
    username or display name reads like `name`, if there is one."""
    key = skeleton_key(name)
    others = NameSkeleton.objects.filter(models.Q(key=key) | models.Q(display_key=key))
    if user is not None and user.pk is not None:
        others = others.exclude(user_id=user.pk)
    found = others.order_by("user_id").values_list("user__username", "user__profile__display_name").first()
    return None if found is None else (found[1] or found[0])


def check_name_distinct(name: str, *, user=None) -> None:
    """Refuse a username or a display name a reader could take for another account's."""
    taken = name_too_close(name, user=user)
    if taken is not None:
        raise ValidationError(
            _("This name is too close to an existing one: %(name)s."), code="name_too_close", params={"name": taken}
        )
