"""Sign-in backends that load the user's profile with the user, in the one query a signed-in request makes for
its user: every page needs the profile (time zone, language), and a live page's "nothing new" answer must cost
no more than the sign-in and one query (games/live.py). The same query says whether the user holds any
permission at all, so that the pages' permission checks cost nothing for those who hold none."""

from allauth.account.auth_backends import AuthenticationBackend as AllauthBackend
from django.contrib.auth import BACKEND_SESSION_KEY, backends, get_user_model
from django.db.models import Exists, OuterRef

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
        model = get_user_model()
        user = (
            model._default_manager.select_related("profile")
            .annotate(
                holds_permissions=Exists(model.user_permissions.through.objects.filter(user_id=OuterRef("pk"))),
                in_groups=Exists(model.groups.through.objects.filter(user_id=OuterRef("pk"))),
            )
            .filter(pk=user_id)
            .first()
        )
        if user is None or not self.user_can_authenticate(user):
            return None
        if not (user.holds_permissions or user.in_groups):
            # Most people hold no permission: said here, the header's "Moderation" link (perms) costs none of
            # the two queries ModelBackend would make on every page. Its caches, as it names them.
            user._perm_cache, user._user_perm_cache, user._group_perm_cache = set(), set(), set()
        return user


class ModelBackend(_WithProfile, backends.ModelBackend):
    pass


class AuthenticationBackend(_WithProfile, AllauthBackend):
    pass
