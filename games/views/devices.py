"""Push notifications, as a player sets them up: their devices (this one subscribed by the page's script, each
listed with remove), what they want pushed and their quiet hours. What the device itself reads is in
installable.py."""

import json

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import JsonResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from games.models import Profile, PushDevice, PushPreferences
from games.notify.webpush import configured, public_key
from games.services.devices import SESSION_DEVICES, DeviceError, remove_device, save_preferences, subscribe

MAX_SUBSCRIPTION = 4096  # bytes of a subscription's JSON: an endpoint and two keys


class PushPreferencesForm(forms.ModelForm):
    class Meta:
        model = PushPreferences
        fields = [*PushPreferences.KINDS, "quiet_from", "quiet_to"]
        widgets = {
            "quiet_from": forms.TimeInput(attrs={"type": "time"}, format="%H:%M"),
            "quiet_to": forms.TimeInput(attrs={"type": "time"}, format="%H:%M"),
        }

    def clean(self) -> dict:
        data = super().clean()
        if (data.get("quiet_from") is None) != (data.get("quiet_to") is None):
            raise forms.ValidationError(_("Quiet hours need both a start and an end, or neither."))
        return data


@login_required
def devices(request):
    """The page: this device's button, the devices list, the preferences form. A subscription posted by the
    page's script (JSON) is kept here too."""
    if request.method == "POST" and request.content_type == "application/json":
        return _subscribe(request)
    preferences = PushPreferences.of(request.user.pk)
    form = PushPreferencesForm(request.POST or None, instance=preferences)
    if request.method == "POST" and form.is_valid():
        save_preferences(request.user, {name: form.cleaned_data[name] for name in form.Meta.fields})
        messages.success(request, _("Your push preferences are saved."))
        return redirect("games:devices")
    context = {
        "form": form,
        "devices": PushDevice.objects.filter(user=request.user),
        "configured": configured(),
        "public_key": public_key() if configured() else "",
        "zone": Profile.for_reading(request.user, request).time_zone,
    }
    return render(request, "games/devices.html", context, status=400 if form.errors else 200)


def _subscribe(request) -> JsonResponse:
    """The browser's PushSubscription as its toJSON() gives it: {endpoint, keys: {p256dh, auth}}."""
    try:
        if len(request.body) > MAX_SUBSCRIPTION:
            raise ValueError
        sent = json.loads(request.body)
        endpoint, keys = sent["endpoint"], sent["keys"]
        p256dh, auth = keys["p256dh"], keys["auth"]
        if not all(isinstance(value, str) for value in (endpoint, p256dh, auth)):
            raise ValueError
    except (ValueError, KeyError, TypeError):
        return JsonResponse({"error": _("The subscription is not one a browser makes.")}, status=400)
    try:
        device = subscribe(
            request.user,
            endpoint=endpoint,
            p256dh=p256dh,
            auth=auth,
            browser=browser_of(request.headers.get("User-Agent", "")),
            now=timezone.now(),
        )
    except DeviceError as error:
        return JsonResponse({"error": str(error)}, status=400)
    request.session[SESSION_DEVICES] = sorted({*request.session.get(SESSION_DEVICES, []), device.pk})
    messages.success(request, _("This device gets your notifications now."))
    return JsonResponse({"device": device.pk}, status=201)


@require_POST
@login_required
def remove(request, device_id: int):
    if remove_device(request.user, device_id):
        messages.success(request, _("The device gets no more notifications."))
    else:
        messages.error(request, _("You have no such device."))
    return redirect("games:devices")


def browser_of(agent: str) -> str:
    """A device as its owner recognises it in the list: the browser and the system, from its User-Agent, in names
    that no language translates ("Chrome · Android"); "" when it names neither (the list says "A browser")."""
    browsers = (("Edg/", "Edge"), ("OPR/", "Opera"), ("SamsungBrowser", "Samsung Internet"), ("Firefox/", "Firefox"),
                ("Chrome/", "Chrome"), ("Chromium/", "Chromium"), ("Safari/", "Safari"))  # fmt: skip
    systems = (("Android", "Android"), ("iPhone", "iOS"), ("iPad", "iPadOS"), ("Windows", "Windows"),
               ("Mac OS X", "macOS"), ("CrOS", "ChromeOS"), ("Linux", "Linux"))  # fmt: skip
    name = next((label for mark, label in browsers if mark in agent), "")
    system = next((label for mark, label in systems if mark in agent), "")
    return " · ".join(part for part in (name, system) if part)
