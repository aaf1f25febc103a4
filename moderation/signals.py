"""Sign-in addresses, for flagging one person holding two seats of a game."""

from django.contrib.auth.signals import user_logged_in
from django.dispatch import receiver

from .models import SignIn


@receiver(user_logged_in)
def record_sign_in(sender, request, user, **kwargs) -> None:
    ip = request.META.get("REMOTE_ADDR") if request is not None else None
    if ip:
        SignIn.objects.create(user=user, ip=ip)
