from django.apps import AppConfig


class GamesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games"

    def ready(self) -> None:
        from allauth.account.signals import user_signed_up

        from .models import Profile

        def make_profile(sender, request, user, **kwargs) -> None:
            """A new account reads the site in the language it signed up in, and its browser's time zone."""
            Profile.of(user, request)

        user_signed_up.connect(make_profile, dispatch_uid="games.profile_on_sign_up", weak=False)
