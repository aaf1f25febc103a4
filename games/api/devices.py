"""The caller's devices for push notifications, and what they want pushed: as on their devices page. A device is
listed by what its owner recognises (the browser, when it was added and last sent to), never by its endpoint or
keys, which are its credentials."""

from datetime import datetime, time
from typing import Literal

from django.utils import timezone
from django.utils.translation import gettext as _
from ninja import Field, Schema, Status

from games.api.auth import READ, SIGNED, player
from games.api.common import Done, Id, Router
from games.api.problems import WRITE_REFUSALS, refusals
from games.models import PushDevice, PushPreferences
from games.notify.webpush import configured, public_key
from games.services import GameError
from games.services.devices import remove_device, save_preferences, subscribe

router = Router()
Choice = Literal[tuple(PushPreferences.Choice.values)]  # off, on, urgent: the model's choices


class DeviceOut(Schema):
    id: int
    browser: str
    created_at: datetime
    last_sent_at: datetime | None


class Keys(Schema):
    p256dh: str = Field(max_length=100, description="the browser's P-256 public key, base64url")
    auth: str = Field(max_length=40, description="the browser's authentication secret, base64url")


class DeviceIn(Schema):
    """A browser's PushSubscription, as its toJSON() gives it, and how its owner will recognise it."""

    endpoint: str = Field(max_length=1000, description="the push service's https URL for this browser")
    keys: Keys
    browser: str = Field("", max_length=80, description="a name for the device in the list")


class PreferencesIn(Schema):
    """Each kind off, on (held through quiet hours) or urgent (pushed even then); quiet hours in the owner's time
    zone, both or neither."""

    moves: Choice = "on"
    reminders: Choice = "on"
    warnings: Choice = "on"
    mentions: Choice = "on"
    endings: Choice = "on"
    quiet_from: time | None = None
    quiet_to: time | None = None


class PreferencesOut(PreferencesIn):
    pass


def _device(device: PushDevice) -> dict:
    return {"id": device.pk, "browser": device.browser, "created_at": device.created_at,
            "last_sent_at": device.last_sent_at}  # fmt: skip


@router.get("/me/devices", response={200: list[DeviceOut], **refusals(401, 429)}, auth=SIGNED, tags=["read"])
def devices(request):
    """The caller's devices that get push notifications, newest first."""
    return [_device(device) for device in PushDevice.objects.filter(user=request.auth.user)]


@router.post("/me/devices", response={201: DeviceOut, **WRITE_REFUSALS}, auth=SIGNED, tags=["play"])
def add_device(request, payload: DeviceIn):
    """Subscribe a browser (its push subscription made with the site's public key, GET /api/v1/push-key)."""
    user, _token = player(request)
    device = subscribe(user, endpoint=payload.endpoint, p256dh=payload.keys.p256dh, auth=payload.keys.auth,
                       browser=payload.browser, now=timezone.now())  # fmt: skip
    return Status(201, _device(device))


@router.delete("/me/devices/{device_id}", response={200: Done, **WRITE_REFUSALS}, auth=SIGNED, tags=["play"])
def delete_device(request, device_id: Id):
    """Remove one of the caller's devices: it gets no more pushes."""
    user, _token = player(request)
    if not remove_device(user, device_id):
        raise GameError(_("You have no such device."), code="no_such_device")
    return {}


@router.get("/me/push-preferences", response={200: PreferencesOut, **refusals(401, 429)}, auth=SIGNED, tags=["read"])
def preferences(request):
    """What the caller wants pushed, and their quiet hours (the defaults until they choose)."""
    return _preferences(PushPreferences.of(request.auth.user.pk))


@router.put("/me/push-preferences", response={200: PreferencesOut, **WRITE_REFUSALS}, auth=SIGNED, tags=["play"])
def set_preferences(request, payload: PreferencesIn):
    """Replace what the caller wants pushed, and their quiet hours."""
    user, _token = player(request)
    if (payload.quiet_from is None) != (payload.quiet_to is None):
        raise GameError(_("Quiet hours need both a start and an end, or neither."), code="invalid_preferences")
    if any(moment is not None and moment.tzinfo is not None for moment in (payload.quiet_from, payload.quiet_to)):
        raise GameError(
            _("Quiet hours are times of day in your own time zone, given without an offset."),
            code="invalid_preferences",
        )
    return _preferences(save_preferences(user, payload.dict()))


class PushKeyOut(Schema):
    key: str | None = Field(description="base64url, an uncompressed P-256 point; null: the site pushes nothing")


@router.get("/push-key", response={200: PushKeyOut, **refusals(401, 429)}, auth=READ, tags=["read"])
def push_key(request):
    """The site's public VAPID key, to subscribe a browser with (`applicationServerKey`)."""
    return {"key": public_key() if configured() else None}


def _preferences(saved: PushPreferences) -> dict:
    return {name: getattr(saved, name) for name in (*PushPreferences.KINDS, "quiet_from", "quiet_to")}
