"""What every page's header needs from moderation: whether to show the moderators' link."""

from django.core.cache import caches

from games.access import is_moderator

LINK_SECONDS = 60  # how long a change of permission may take to show or hide the link (never to grant access)


def moderation_link(request) -> dict:
    """`moderation_link`: whether the header links to the moderation pages. Asked only when a page's header is
    rendered, and remembered a minute per user, so that a page costs no permission query; the moderation pages
    check the permission themselves, every time."""

    def shown() -> bool:
        user = getattr(request, "user", None)
        if user is None or not user.is_authenticated:
            return False
        key = f"moderation-link:{user.pk}"
        answer = caches["local"].get(key)
        if answer is None:
            answer = is_moderator(user)
            caches["local"].set(key, answer, LINK_SECONDS)
        return answer

    return {"moderation_link": shown}
