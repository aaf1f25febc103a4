"""A person's devices for push notifications: subscribed from their notifications settings (the page or the API),
listed, removed; and what they want pushed, and when.

A browser's subscription belongs to whoever subscribed it last: the same browser signed in as someone else and
subscribed again pushes to them only. The session a device was subscribed in lists it in its data (which outlives
the session key's renewals): signing out of it removes the device; a new password removes every device but the
current session's; deleting the account removes them all (the rows go with it). A device subscribed through the
API belongs to no session.
"""

from datetime import datetime

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from games.models import PushDevice, PushPreferences
from games.notify.webpush import check_endpoint, check_keys, configured, public_key

from .errors import GameError

SESSION_DEVICES = "push_devices"  # in a session's data: the devices subscribed in it (games.views.devices)
MAX_DEVICES = 20  # per person: a phone, a tablet, a few browsers, with room to spare


class DeviceError(GameError):
    """The subscription cannot be kept: why, in the reader's words."""


def subscribe(user, *, endpoint: str, p256dh: str, auth: str, browser: str, now: datetime):
    """Keep the browser's subscription for `user`: a new device, or the same one made again (new keys, a new
    session). Bad input raises DeviceError and keeps nothing."""
    if not configured():
        raise DeviceError(_("This site does not send push notifications."), code="push_off")
    problem = check_endpoint(endpoint) or check_keys(p256dh, auth)
    if problem:
        raise DeviceError(problem, code="invalid_subscription")
    fields = {"user": user, "p256dh": p256dh, "auth": auth, "server_key": public_key(), "browser": browser[:80]}
    try:
        with transaction.atomic():
            return _keep(user, endpoint, fields, now)
    except IntegrityError:  # the same browser's subscription sent twice at once: the other one made the row
        with transaction.atomic():
            return _keep(user, endpoint, fields, now)


def _keep(user, endpoint: str, fields: dict, now: datetime) -> PushDevice:
    existing = PushDevice.objects.select_for_update().filter(endpoint=endpoint).first()
    if existing is None:
        # Devices subscribed with a former key get nothing until their owner subscribes them again: not counted.
        if PushDevice.objects.filter(user=user, server_key=fields["server_key"]).count() >= MAX_DEVICES:
            raise DeviceError(
                _("You have %(count)s devices for notifications: remove one before adding another.")
                % {"count": MAX_DEVICES},
                code="too_many_devices",
            )
        return PushDevice.objects.create(endpoint=endpoint, created_at=now, **fields)
    if existing.user_id != user.pk:
        # Another account's device: the same browser, signed in as someone else, subscribes with the keys it
        # holds. Whoever knows only the endpoint does not take it.
        if (existing.p256dh, existing.auth) != (fields["p256dh"], fields["auth"]):
            raise DeviceError(_("The subscription's keys are not valid."), code="invalid_subscription")
        existing.created_at, existing.last_sent_at = now, None
        existing.messages.all().delete()  # what was waiting for its former owner is not for this one
    for name, value in fields.items():
        setattr(existing, name, value)
    existing.save()
    return existing


def remove_device(user, device_id: int) -> bool:
    """Remove one of `user`'s devices (and what waits to be pushed to it); False if they have no such device."""
    deleted, _by_model = PushDevice.objects.filter(user=user, pk=device_id).delete()
    return bool(deleted)


def remove_devices(user, device_ids: list[int]) -> int:
    """Signing out: the devices subscribed in that session (its data lists them) stop getting pushes."""
    _deleted, by_model = PushDevice.objects.filter(user=user, pk__in=device_ids).delete()
    return by_model.get(PushDevice._meta.label, 0)


def remove_other_devices(user, kept_ids: list[int]) -> int:
    """A new password (changed, or reset from an email): every device of `user` but this session's stops getting
    pushes, as every other session is signed out."""
    _deleted, by_model = PushDevice.objects.filter(user=user).exclude(pk__in=kept_ids).delete()
    return by_model.get(PushDevice._meta.label, 0)


def save_preferences(user, values: dict) -> PushPreferences:
    """Store the person's push preferences (values already checked by a form or the API's schema)."""
    preferences, _made = PushPreferences.objects.update_or_create(user=user, defaults=values)
    return preferences
