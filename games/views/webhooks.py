"""Webhook subscriptions: a user's own notices, from their profile; a game's public events, by its
creator or a moderator. The secret that signs the deliveries is shown once, when the subscription is made."""

from allauth.account.decorators import reauthentication_required
from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.debug import sensitive_post_parameters
from django.views.decorators.http import require_POST

from games.access import is_moderator
from games.models import WebhookSubscription
from games.notify.webhook_targets import check_url

from .common import reach


class WebhookForm(forms.Form):
    url = forms.URLField(label=gettext_lazy("URL"), max_length=2000, assume_scheme="https")

    def clean_url(self) -> str:
        url = self.cleaned_data["url"]
        problem = check_url(url)
        if problem:
            raise forms.ValidationError(problem)
        return url


@sensitive_post_parameters("url")  # a URL is its owner's credential: never in an error email to the admins
@login_required
@reauthentication_required(allow_get=True)  # a webhook sends where its owner says: asked again first
def my_webhooks(request):
    """The user's own notices ("your move", reminders) posted to a URL: no role, hand or result in them."""
    return _page(request, WebhookSubscription.Kind.NOTICES, None, reverse("games:my_webhooks"))


@sensitive_post_parameters("url")
@login_required
@reauthentication_required(allow_get=True)
def game_webhooks(request, game_id: int):
    """A game's public events posted to a URL: for its creator and the moderators."""
    game = reach(request, game_id)
    if not (game.created_by_id == request.user.pk or is_moderator(request.user)):
        raise PermissionDenied(_("Only the game's creator or a moderator can subscribe a URL to its events."))
    return _page(request, WebhookSubscription.Kind.GAME, game, game.address("game_webhooks"))


def _page(request, kind: str, game, here: str):
    form = WebhookForm(request.POST or None)
    secret = ""
    if request.method == "POST" and form.is_valid():
        secret = WebhookSubscription.new_secret()
        WebhookSubscription.objects.create(
            owner=request.user, kind=kind, game=game, url=form.cleaned_data["url"], secret=secret,
            created_at=timezone.now(),
        )  # fmt: skip
        form = WebhookForm()
    subscriptions = WebhookSubscription.objects.filter(owner=request.user, kind=kind, game=game)
    context = {"form": form, "secret": secret, "subscriptions": subscriptions, "game": game, "kind": kind, "here": here}
    return render(request, "games/webhooks.html", context)


@login_required
@require_POST
def delete_webhook(request, subscription_id: int):
    subscription = WebhookSubscription.objects.filter(pk=subscription_id, owner=request.user).first()
    if subscription is None:
        messages.info(request, _("Nothing changed: it was already done."))
        return redirect("games:my_webhooks")
    back = (
        reverse("games:game_webhooks", args=[subscription.game_id])
        if subscription.game_id
        else reverse("games:my_webhooks")
    )
    subscription.delete()
    messages.success(request, _("The webhook is deleted: nothing more is sent to it."))
    return redirect(back)
