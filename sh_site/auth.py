"""Sign-in backends that load the user's profile with the user, in the one query a signed-in request makes for
its user: every page needs the profile (time zone, language), and a live page's "nothing new" answer must cost
no more than the sign-in and one query (games/live.py). Their permissions, which every page's header asks
about, are read in one query instead of two."""

from allauth.account.auth_backends import AuthenticationBackend as AllauthBackend
from django.contrib.auth import BACKEND_SESSION_KEY, backends, get_user_model
from django.contrib.auth.models import Permission
from django.db.models import Q

# The backends people signed in with before these: their sessions name them, and keep working (see below).
RENAMED = {
    "django.contrib.auth.backends.ModelBackend": "sh_site.auth.ModelBackend",
    "allauth.account.auth_backends.AuthenticationBackend": "sh_site.auth.AuthenticationBackend",
}


def renamed_backends(get_response):
    """A session signed in through a backend's former name is moved to its new one, before the sign-in
    middleware reads it: nobody is signed out by the rename."""

    def middleware(request):
        session = getattr(request, "session", None)
        if session is not None and session.get(BACKEND_SESSION_KEY) in RENAMED:
            session[BACKEND_SESSION_KEY] = RENAMED[session[BACKEND_SESSION_KEY]]
        return get_response(request)

    return middleware


class _WithProfile:
    def get_user(self, user_id):
        user = get_user_model()._default_manager.select_related("profile").filter(pk=user_id).first()
        return user if user is not None and self.user_can_authenticate(user) else None

    def get_all_permissions(self, user_obj, obj=None):
        """The user's permissions and their groups' in one query where ModelBackend makes two: every page's
        header asks (its "Moderation" link). Cached on the user, under ModelBackend's own name."""
        if not user_obj.is_active or user_obj.is_anonymous or obj is not None or user_obj.is_superuser:
            return super().get_all_permissions(user_obj, obj)  # nothing, or (a superuser) every permission
        if not hasattr(user_obj, "_perm_cache"):
            held = Permission.objects.filter(Q(user=user_obj) | Q(group__user=user_obj))
            names = held.values_list("content_type__app_label", "codename").distinct()
            user_obj._perm_cache = {f"{app}.{codename}" for app, codename in names}
        return user_obj._perm_cache


class ModelBackend(_WithProfile, backends.ModelBackend):
    pass


class AuthenticationBackend(_WithProfile, AllauthBackend):
    pass
