"""Django admin, for the rare repair. Nobody with a seat row in a game under way (seated, once seated, waiting as a
substitute or named to take a seat), superusers included, is shown its secrets here: its engine state, setup and
seed (to superusers only otherwise), its action records (hands, discards, ballots) and its graveyard posts with
their earlier text (to whoever may view those rows otherwise); no list is filtered by what a secret says. Anyone
else shown a running game's secret here, or the rows a search of what its secrets say finds, is its witness first,
as on the moderation page: they may never take a seat in it. The witness rows and the graveyard's read marks, which
say who has seen a game's secrets, are read only here, so that no edit seats a witness."""

import copy
from collections.abc import Iterable

from django import forms
from django.contrib import admin
from django.contrib.auth import admin as auth_admin
from django.contrib.auth import forms as auth_forms
from django.contrib.auth import get_user_model
from django.core.validators import MaxLengthValidator
from django.db import transaction
from django.db.models import Q, QuerySet

from sh_site.accounts import MAX_PASSWORD

from .models import (
    Absence,
    ActionRecord,
    ApiRequestCount,
    ApiToken,
    Claim,
    Game,
    GameEvent,
    InboundEmail,
    NameSkeleton,
    Note,
    Notification,
    Post,
    PostRevision,
    Profile,
    Proposal,
    ProposalBallot,
    PushDevice,
    PushMessage,
    PushPreferences,
    RatedGame,
    Rating,
    RatingChange,
    RatingLedger,
    Rename,
    Seat,
    SecretWitness,
    SentEmail,
    SigningKey,
    SweepRun,
    ThreadRead,
    WebhookDelivery,
    WebhookSubscription,
)
from .models.names import check_name_distinct
from .notify.webhook_targets import redacted
from .services.knowledge import record_witness
from .signals import secrets_shown

SECRET_FIELDS = ("state", "setup", "seed")
UNDER_WAY = (Game.Status.OPEN, Game.Status.RUNNING)


def takes_part(request, game: Game) -> bool:
    return game.seats.filter(user=request.user).exists()


def on_the_record(request, games: Iterable[Game], reason: str) -> None:
    """`request.user` is about to be shown a secret of each of `games`: of each that runs, they become a witness
    (never to take a seat in it) and the audit log says so, before the page is drawn."""
    with transaction.atomic():
        for game in games:
            if game.status == Game.Status.RUNNING:
                record_witness(game, request.user)
                secrets_shown.send(Game, game=game, user=request.user, reason=reason)


class ReadOnly:
    """An admin that shows its rows and never writes them: another part of the site is their one writer."""

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


class NeverFiltersBy(admin.ModelAdmin):
    """The `unfilterable` fields hold a secret: a filter on one (?seed__lt=..., ?body__contains=) would read it a
    bit at a time, one count of rows after another."""

    unfilterable: tuple[str, ...] = ()

    def lookup_allowed(self, lookup, value, request=None):
        if lookup.split("__")[0] in self.unfilterable:
            return False
        return super().lookup_allowed(lookup, value, request)


class HidesGamesSecrets(NeverFiltersBy):
    """Rows holding a secret of a game under way (`secret` filters them, the `unfilterable` fields say it) are
    left out for anyone in the game. Anyone else shown one while the game runs, on its page or among the matches
    of a search through what such fields say, is the game's witness first."""

    game_path = "game"
    secret = Q()

    def get_queryset(self, request):
        rows = super().get_queryset(request)
        mine = Game.objects.filter(status__in=UNDER_WAY, seats__user=request.user)
        return rows.exclude(self.secret & Q(**{f"{self.game_path}__in": mine}))

    def get_search_results(self, request, queryset, search_term):
        found, may_have_duplicates = super().get_search_results(request, queryset, search_term)
        searched = {field.lstrip("^=@") for field in self.get_search_fields(request)}
        if search_term and searched & set(self.unfilterable):
            # A row matched may have matched on its secret: which rows a word finds tells what they say.
            on_the_record(request, self.games_told(found), f"searched the {self.opts.verbose_name_plural} in the admin")
        return found, may_have_duplicates

    def render_change_form(self, request, context, add=False, change=False, form_url="", obj=None):
        if obj is not None:
            rows = self.model.objects.filter(pk=obj.pk)
            on_the_record(request, self.games_told(rows), f"read {self.opts.verbose_name} {obj.pk} in the admin")
        return super().render_change_form(request, context, add, change, form_url, obj)

    def games_told(self, rows: QuerySet) -> QuerySet[Game]:
        """The running games whose secrets some of `rows` hold."""
        return Game.objects.filter(status=Game.Status.RUNNING, pk__in=rows.filter(self.secret).values(self.game_path))


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    fields = (
        "number",
        "name",
        "user",
        "is_substitute",
        "pending",
        "active",
        "rounds_missed",
        "exiled_at",
        "replaced_at",
    )
    raw_id_fields = ("user",)


@admin.register(Game)
class GameAdmin(NeverFiltersBy):
    list_display = (
        "name",
        "status",
        "player_count",
        "step_number",
        "deadline",
        "paused_at",
        "thread_locked",
        "created_at",
    )
    list_filter = ("status", "visibility", "player_count", "thread_locked")
    search_fields = ("name", "seats__name")
    date_hierarchy = "created_at"
    inlines = [SeatInline]
    raw_id_fields = ("created_by",)
    unfilterable = SECRET_FIELDS

    def render_change_form(self, request, context, add=False, change=False, form_url="", obj=None):
        if obj is not None and not self.get_exclude(request, obj):
            on_the_record(request, [obj], "opened the game in the admin")
        return super().render_change_form(request, context, add, change, form_url, obj)

    def get_exclude(self, request, obj=None):
        # Secrets: only superusers see the engine state of a game that is not over, unless they are in it.
        under_way = obj is None or obj.status in UNDER_WAY
        hidden = not request.user.is_superuser or (obj is not None and takes_part(request, obj))
        return SECRET_FIELDS if under_way and hidden else ()


@admin.register(Seat)
class SeatAdmin(admin.ModelAdmin):
    list_display = ("name", "game", "number", "is_substitute", "active", "rounds_missed", "exiled_at")
    list_filter = ("active", "is_substitute")
    search_fields = ("name", "game__name", "user__email")
    raw_id_fields = ("game", "user")


@admin.register(GameEvent)
class GameEventAdmin(ReadOnly, admin.ModelAdmin):
    """Read only: the game services are the log's one writer, and what they write reaches every channel."""

    list_display = ("game", "index", "type", "step_number", "created_at")
    list_filter = ("type",)
    search_fields = ("game__name",)
    raw_id_fields = ("game",)


@admin.register(ActionRecord)
class ActionRecordAdmin(HidesGamesSecrets):
    unfilterable = ("action",)
    list_display = ("game", "index", "source", "actor_name", "created_at")
    list_filter = ("source",)
    search_fields = ("game__name", "actor_name")
    raw_id_fields = ("game", "actor")


@admin.register(Absence)
class AbsenceAdmin(admin.ModelAdmin):
    list_display = ("seat", "starts_at", "ends_at", "ended_early_at")
    search_fields = ("seat__name", "seat__game__name")
    raw_id_fields = ("seat",)


@admin.register(Post)
class PostAdmin(HidesGamesSecrets):
    secret = Q(thread=Post.Thread.GRAVEYARD)
    unfilterable = ("body", "html")
    list_display = ("game", "thread", "author", "created_at", "edited_at", "hidden_at")
    list_filter = ("thread",)
    search_fields = ("body", "author__username", "game__name")
    raw_id_fields = ("game", "author", "quote_of")


@admin.register(PostRevision)
class PostRevisionAdmin(HidesGamesSecrets):
    game_path = "post__game"
    secret = Q(post__thread=Post.Thread.GRAVEYARD)
    unfilterable = ("body", "html")
    list_display = ("post", "created_at")
    raw_id_fields = ("post",)


@admin.register(Claim)
class ClaimAdmin(admin.ModelAdmin):
    list_display = ("game", "round", "office", "author_name", "cards")
    search_fields = ("author_name", "game__name")
    raw_id_fields = ("game", "author")


@admin.register(Profile)
class ProfileAdmin(admin.ModelAdmin):
    list_display = ("user", "display_name", "time_zone", "language", "reminders")
    list_filter = ("language", "reminders")
    search_fields = ("user__username", "display_name")
    exclude = ("calendar_token",)
    raw_id_fields = ("user",)


@admin.register(Proposal)
class ProposalAdmin(ReadOnly, admin.ModelAdmin):
    """Read only: the table's votes decide a proposal (games.services.proposals), and a passed one has changed the
    game; a row changed here would say the table decided what it did not."""

    list_display = ("game", "kind", "hours", "created_at", "closed_at", "outcome")
    list_filter = ("kind", "outcome")
    search_fields = ("game__name",)
    raw_id_fields = ("game",)


@admin.register(ProposalBallot)
class ProposalBallotAdmin(ReadOnly, admin.ModelAdmin):
    """Read only, as the proposals they count."""

    list_display = ("proposal", "seat", "yes")
    raw_id_fields = ("proposal", "seat")


@admin.register(Rename)
class RenameAdmin(ReadOnly, admin.ModelAdmin):
    """Read only: written by every change of a name, which open pages are checked against."""

    list_display = ("at", "user", "field", "old", "new")
    list_filter = ("field",)
    search_fields = ("user__username", "old", "new")
    raw_id_fields = ("user",)


@admin.register(RatedGame)
class RatedGameAdmin(ReadOnly, admin.ModelAdmin):
    """Read only, as every rating row: written when a rated game ends and by recompute_ratings, which would find a
    figure changed by hand and write it back."""

    list_display = ("order", "game", "season", "chance", "predicted")
    list_filter = ("season",)
    raw_id_fields = ("game",)


@admin.register(Rating)
class RatingAdmin(ReadOnly, admin.ModelAdmin):
    """Read only, as the rated games."""

    list_display = ("user", "season", "mu", "sigma", "games")
    list_filter = ("season",)
    search_fields = ("user__username",)
    raw_id_fields = ("user",)


@admin.register(RatingChange)
class RatingChangeAdmin(ReadOnly, admin.ModelAdmin):
    """Read only, as the rated games: what each finished rated game did to each of its players' ratings."""

    list_display = ("rated_game", "user", "season", "role", "share", "won", "mu", "sigma")
    list_filter = ("season",)
    search_fields = ("user__username",)
    raw_id_fields = ("rated_game", "user")


@admin.register(RatingLedger)
class RatingLedgerAdmin(ReadOnly, admin.ModelAdmin):
    """The one row rating a game locks: nothing to change."""


@admin.register(Notification)
class NotificationAdmin(admin.ModelAdmin):
    list_display = ("user", "kind", "game", "email", "created_at", "sent_at", "read_at")
    list_filter = ("kind", "email")
    search_fields = ("user__username", "game__name")
    raw_id_fields = ("user", "game")


@admin.register(SentEmail)
class SentEmailAdmin(admin.ModelAdmin):
    list_display = ("to", "subject", "kinds", "notifications", "sent_at")
    search_fields = ("to", "subject")
    raw_id_fields = ("user",)


@admin.register(InboundEmail)
class InboundEmailAdmin(admin.ModelAdmin):
    """What became of each reply by email (its text is not kept)."""

    list_display = ("received_at", "outcome", "user", "game")
    list_filter = ("outcome",)
    raw_id_fields = ("user", "game", "post")


@admin.register(ApiToken)
class ApiTokenAdmin(admin.ModelAdmin):
    """Tokens by owner; only a digest is kept, so nothing here can be used to call the API."""

    list_display = ("name", "user", "prefix", "scope", "created_at", "last_used_at", "revoked_at")
    list_filter = ("scope",)
    raw_id_fields = ("user",)
    exclude = ("digest",)


@admin.register(WebhookSubscription)
class WebhookSubscriptionAdmin(admin.ModelAdmin):
    list_display = ("kind", "address", "owner", "game", "created_at", "failures", "disabled_at", "last_success_at")
    list_filter = ("kind",)
    raw_id_fields = ("owner", "game")
    exclude = ("secret",)

    @admin.display(description="URL")
    def address(self, subscription: WebhookSubscription) -> str:
        """The host only in a list anyone with the admin may glance at: the path is the owner's credential."""
        return redacted(subscription.url)


@admin.register(WebhookDelivery)
class WebhookDeliveryAdmin(admin.ModelAdmin):
    list_display = ("event", "subscription", "status", "attempts", "created_at", "due_at", "last_error")
    list_filter = ("status", "event")
    raw_id_fields = ("subscription",)


@admin.register(PushDevice)
class PushDeviceAdmin(NeverFiltersBy):
    """A person's devices: which browser, since when, last sent to; removed here, it gets nothing more. Its
    endpoint and keys are its credentials (whoever holds them may push to it): the host only, never filtered by."""

    list_display = ("user", "browser", "address", "created_at", "last_sent_at")
    fields = ("user", "browser", "address", "created_at", "last_sent_at")
    readonly_fields = fields
    search_fields = ("user__username",)
    unfilterable = ("endpoint", "p256dh", "auth", "server_key")

    def has_add_permission(self, request):
        return False

    @admin.display(description="push service")
    def address(self, device: PushDevice) -> str:
        return redacted(device.endpoint)


@admin.register(PushPreferences)
class PushPreferencesAdmin(admin.ModelAdmin):
    list_display = ("user", "moves", "reminders", "warnings", "mentions", "endings", "quiet_from", "quiet_to")
    raw_id_fields = ("user",)


@admin.register(PushMessage)
class PushMessageAdmin(ReadOnly, admin.ModelAdmin):
    """The push outbox: what waits, what went, what failed and why. The outbox is its one writer."""

    list_display = ("kind", "device", "game", "status", "attempts", "created_at", "due_at", "sent_at", "error")
    list_filter = ("status", "kind")
    raw_id_fields = ("device", "game")


@admin.register(SecretWitness)
class SecretWitnessAdmin(ReadOnly, admin.ModelAdmin):
    """Read only: a row deleted here, or its time moved before the game's start, would let a witness sit."""

    list_display = ("game", "user", "seen_at")
    search_fields = ("game__name", "user__username")
    raw_id_fields = ("game", "user")


@admin.register(Note)
class NoteAdmin(NeverFiltersBy):
    """A player's private notes: that they exist and their size, never their text, which is their author's alone
    Nobody changes them here; a user deleted here takes their notes along."""

    list_display = ("game", "author", "updated_at", "length")
    fields = ("game", "author", "updated_at", "length")
    readonly_fields = fields
    raw_id_fields = ("game", "author")
    unfilterable = ("body",)

    @admin.display(description="characters")
    def length(self, note: Note) -> int:
        return len(note.body)

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False


@admin.register(SigningKey)
class SigningKeyAdmin(ReadOnly, admin.ModelAdmin):
    """The fingerprint reply readers compare their keys with: shown, written only by the site itself, since a
    fingerprint typed here would hold every reply."""

    list_display = ("fingerprint", "recorded_at")


@admin.register(ThreadRead)
class ThreadReadAdmin(ReadOnly, admin.ModelAdmin):
    """Read only: a read of a running game's graveyard bars the reader from a seat, as a witness row does."""

    list_display = ("user", "game", "thread", "last_read_at")
    list_filter = ("thread",)
    raw_id_fields = ("user", "game")


@admin.register(NameSkeleton)
class NameSkeletonAdmin(ReadOnly, admin.ModelAdmin):
    """Read only: each is written with its account's username, by whatever path set it."""

    list_display = ("user", "key")
    raw_id_fields = ("user",)
    search_fields = ("user__username",)


admin.site.register(ApiRequestCount)
admin.site.register(SweepRun)


class DistinctName:
    """A username set here is refused if a reader could take it for another account's, as at sign-up."""

    def clean_username(self) -> str:
        username = super().clean_username() if hasattr(super(), "clean_username") else self.cleaned_data["username"]
        if username:
            check_name_distinct(username, user=self.instance)
        return username


def bounded(field: forms.CharField, limit: int) -> forms.CharField:
    """A copy of Django's `field` refusing more than `limit` characters, as every field of the site's forms does."""
    field = copy.deepcopy(field)
    field.max_length = limit
    field.validators = [*field.validators, MaxLengthValidator(limit)]
    field.widget.attrs["maxlength"] = str(limit)
    return field


class UserCreationForm(DistinctName, auth_forms.AdminUserCreationForm):
    password1 = bounded(auth_forms.AdminUserCreationForm.base_fields["password1"], MAX_PASSWORD)
    password2 = bounded(auth_forms.AdminUserCreationForm.base_fields["password2"], MAX_PASSWORD)


class UserChangeForm(DistinctName, auth_forms.UserChangeForm):
    pass


admin.site.unregister(get_user_model())


@admin.register(get_user_model())
class UserAdmin(auth_admin.UserAdmin):
    form = UserChangeForm
    add_form = UserCreationForm
