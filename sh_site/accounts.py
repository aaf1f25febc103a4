"""django-allauth's emails sign as the site, whatever host the request came through."""

from dataclasses import dataclass
from urllib.parse import urlsplit

from allauth.account.adapter import DefaultAccountAdapter
from django.conf import settings


@dataclass(frozen=True)
class SiteIdentity:
    """What allauth's email templates read of `current_site`."""

    name: str
    domain: str


class AccountAdapter(DefaultAccountAdapter):
    def send_mail(self, template_prefix: str, email: str, context: dict) -> None:
        site = SiteIdentity(settings.SITE_NAME, urlsplit(settings.SITE_URL).netloc)
        super().send_mail(template_prefix, email, {"current_site": site, **context})

    def format_email_subject(self, subject: str) -> str:
        return f"[{settings.SITE_NAME}] {subject}"
