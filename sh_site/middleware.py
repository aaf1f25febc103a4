"""Per-request settings: the signed-in user's time zone and language, and the Content-Security-Policy."""

from zoneinfo import ZoneInfo

from django.conf import settings
from django.utils import timezone, translation


def user_preferences(get_response):
    """Deadlines in the viewer's time zone, pages in their language (from their profile once signed in)."""

    def middleware(request):
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated:
            from games.models import Profile

            profile = Profile.objects.filter(user=user).first()
            if profile is not None:
                timezone.activate(ZoneInfo(profile.time_zone))
                translation.activate(profile.language)
                request.LANGUAGE_CODE = profile.language
        try:
            return get_response(request)
        finally:
            timezone.deactivate()

    return middleware


def content_security_policy(get_response):
    """Only the site's own scripts, styles and images; no framing, no plugins, forms post home."""

    def middleware(request):
        response = get_response(request)
        response.setdefault("Content-Security-Policy", settings.CONTENT_SECURITY_POLICY)
        return response

    return middleware
