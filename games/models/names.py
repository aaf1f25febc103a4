"""Each account's username as it reads on screen (games.names), kept beside the account: a new name is checked
against every other by one indexed look-up, however many accounts there are."""

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

    class Meta:
        # Not unique: two accounts made before names were compared may read alike, and keep their names.
        indexes = [models.Index(fields=["key"], name="name_skeleton_key")]

    def __str__(self) -> str:
        return self.key


def keep_name_skeleton(sender, instance, raw: bool = False, update_fields=None, **kwargs) -> None:
    """post_save of the user model: the skeleton follows the username whatever path set it (sign-up, the admin, a
    command), in the same transaction. A save that names its fields and not the username (a sign-in's last_login)
    costs nothing."""
    if raw or (update_fields is not None and "username" not in update_fields):
        return
    NameSkeleton.objects.update_or_create(user_id=instance.pk, defaults={"key": skeleton_key(instance.get_username())})


def name_too_close(username: str, *, user=None) -> str | None:
    """The username of another account than `user` whose name reads like `username`, if there is one."""
    others = NameSkeleton.objects.filter(key=skeleton_key(username))
    if user is not None and user.pk is not None:
        others = others.exclude(user_id=user.pk)
    return others.order_by("user_id").values_list("user__username", flat=True).first()


def check_name_distinct(username: str, *, user=None) -> None:
    """Refuse a username a reader could take for another account's (the only name it shows is that one)."""
    taken = name_too_close(username, user=user)
    if taken is not None:
        raise ValidationError(
            _("This name is too close to an existing one: %(name)s."), code="name_too_close", params={"name": taken}
        )
