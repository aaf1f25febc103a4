"""Sign-in backends that load the user's profile with the user, in the one query a signed-in request makes for
its user: every page needs the profile (time zone, language), and a live page's "nothing new" answer must cost
no more than the sign-in and one query (games/live.py)."""

from allauth.account.auth_backends import AuthenticationBackend as AllauthBackend
from django.contrib.auth import backends, get_user_model


class _WithProfile:
    def get_user(self, user_id):
        user = get_user_model()._default_manager.select_related("profile").filter(pk=user_id).first()
        return user if user is not None and self.user_can_authenticate(user) else None


class ModelBackend(_WithProfile, backends.ModelBackend):
    pass


class AuthenticationBackend(_WithProfile, AllauthBackend):
    pass
