"""What the webhooks' and the pushes' outboxes share: claiming due rows so that two workers never send the same one,
and a worker that died while sending never loses one."""

from datetime import datetime, timedelta

from django.db import models, transaction
from django.db.models import Q


def claim_due(model: type[models.Model], *, now: datetime, timeout: timedelta, batch: int, related: str) -> list:
    """Up to `batch` rows of `model` due now (`pending` and due, or left `sending` for longer than `timeout` by a
    worker that died), oldest due first, with `related` read along: locked with SKIP LOCKED and marked `sending`
    in one short transaction, so that another worker skips them."""
    due = Q(status="pending", due_at__lte=now) | Q(status="sending", claimed_at__lt=now - timeout)
    with transaction.atomic():
        rows = list(
            model.objects.select_for_update(skip_locked=True, of=("self",))
            .filter(due)
            .select_related(related)
            .order_by("due_at", "pk")[:batch]
        )
        model.objects.filter(pk__in=[row.pk for row in rows]).update(status="sending", claimed_at=now)
    return rows
