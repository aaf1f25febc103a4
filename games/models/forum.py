"""The game's forum: posts in its threads, their edit history, read markers, and government claims."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from .game import Game


class Post(models.Model):
    MAX_BODY = 20_000  # a post's longest body, in characters: the service, the forms and the API read it here

    class Thread(models.TextChoices):
        MAIN = "main", _("Game thread")
        GRAVEYARD = "graveyard", _("Graveyard")

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="posts")
    thread = models.CharField(max_length=10, choices=Thread.choices, default=Thread.MAIN)
    author = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="posts")
    body = models.TextField(_("message"))
    html = models.TextField(help_text="the body rendered from Markdown and sanitised when saved")
    quote_of = models.ForeignKey("self", null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField()
    edited_at = models.DateTimeField(null=True, blank=True)
    hidden_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["created_at", "pk"]
        # A page of a thread is a range of this index (its order, to the id): read from it alone, then joined.
        indexes = [models.Index(fields=["game", "thread", "created_at", "id"], name="post_page_idx")]

    def __str__(self) -> str:
        return f"post {self.pk} in game {self.game_id}"


class PostRevision(models.Model):
    """What a post said before an edit: shown to everyone, so that claims cannot be rewritten quietly."""

    post = models.ForeignKey(Post, on_delete=models.CASCADE, related_name="revisions")
    body = models.TextField()
    html = models.TextField()
    created_at = models.DateTimeField(help_text="when this text was replaced")

    class Meta:
        ordering = ["post", "created_at"]

    def __str__(self) -> str:
        return f"revision of post {self.post_id}"


class ThreadRead(models.Model):
    """The last post a user has seen in a thread: "jump to first unread"."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE)
    game = models.ForeignKey(Game, on_delete=models.CASCADE)
    thread = models.CharField(max_length=10, choices=Post.Thread.choices)
    last_read_at = models.DateTimeField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "game", "thread"], name="thread_read_unique")]

    def __str__(self) -> str:
        return f"{self.user} read game {self.game_id} {self.thread} to {self.last_read_at}"


class Claim(models.Model):
    """What a president or chancellor says they drew or received: one per member per legislative session."""

    class Office(models.TextChoices):
        PRESIDENT = "president", _("President")
        CHANCELLOR = "chancellor", _("Chancellor")

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="claims")
    round = models.PositiveIntegerField()
    office = models.CharField(max_length=10, choices=Office.choices)
    author = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL)
    author_name = models.CharField(max_length=150)
    cards = models.CharField(max_length=3, help_text="the cards claimed, e.g. FFL (president) or FL (chancellor)")
    matched = models.BooleanField(null=True, help_text="whether the cards were those really drawn: set at the end")
    created_at = models.DateTimeField()

    class Meta:
        ordering = ["game", "round", "office"]
        constraints = [models.UniqueConstraint(fields=["game", "round", "office"], name="claim_one_per_office")]

    def __str__(self) -> str:
        return f"{self.author_name} claims {self.cards} in round {self.round}"
