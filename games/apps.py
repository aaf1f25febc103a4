from django.apps import AppConfig
from django.apps import apps as global_apps
from django.db.models.signals import post_migrate, post_save, pre_save


class GamesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games"

    def ready(self) -> None:
        from allauth.account.signals import password_changed, password_reset, user_signed_up
        from django.contrib.auth import get_user_model
        from django.contrib.auth.signals import user_logged_out

        from .models import Profile
        from .models.names import keep_display_skeleton, keep_name_skeleton
        from .models.profile import record_rename

        def make_profile(sender, request, user, **kwargs) -> None:
            """A new account reads the site in the language it signed up in, and its browser's time zone."""
            Profile.of(user, request)

        user_signed_up.connect(make_profile, dispatch_uid="games.profile_on_sign_up", weak=False)
        user_logged_out.connect(_forget_devices, dispatch_uid="games.devices_on_sign_out")
        password_changed.connect(_forget_other_devices, dispatch_uid="games.devices_on_password_changed")
        password_reset.connect(_forget_other_devices, dispatch_uid="games.devices_on_password_reset")
        for named in (get_user_model(), Profile):
            pre_save.connect(record_rename, sender=named, dispatch_uid=f"games.rename.{named._meta.label}")
        post_save.connect(keep_name_skeleton, sender=get_user_model(), dispatch_uid="games.name_skeleton")
        post_save.connect(keep_display_skeleton, sender=Profile, dispatch_uid="games.display_name_skeleton")
        post_migrate.connect(_record_signing_key, sender=self, dispatch_uid="games.record_signing_key")


def _forget_devices(sender, request, user, **kwargs) -> None:
    """Signing out: the devices subscribed in this session get no more pushes (its data is still there)."""
    from .services.devices import remove_devices

    if user is not None and user.pk is not None:  # a deleted account's devices went with it
        remove_devices(user, _session_devices(request))


def _forget_other_devices(sender, request, user, **kwargs) -> None:
    """A new password signs every other session out: the devices subscribed in them get no more pushes."""
    from .services.devices import remove_other_devices

    remove_other_devices(user, _session_devices(request))


def _session_devices(request) -> list[int]:
    from .services.devices import SESSION_DEVICES

    session = getattr(request, "session", None)
    return list(session.get(SESSION_DEVICES, [])) if session is not None else []


def _record_signing_key(sender, using: str, apps=global_apps, **kwargs) -> None:
    """Each release runs `migrate` with the site's environment before its code serves: the key it signs with is
    recorded for the processes that read replies (games.notify.signing_key)."""
    from .notify.signing_key import record_signing_key

    try:
        rows = apps.get_model("games", "SigningKey")._default_manager.db_manager(using)
    except LookupError:  # migrated back to before the table
        return
    record_signing_key(rows)
