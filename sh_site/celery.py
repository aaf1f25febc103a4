"""The Celery application: configured from Django settings (CELERY_*), tasks found in each app."""

import os

from celery import Celery, signals

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "sh_site.settings")

app = Celery("sh_site")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@signals.task_prerun.connect
def _name_the_task_in_logs(task_id=None, **kwargs):
    """Every line a task logs carries its id as the request id (sh_site/logs.py)."""
    from sh_site.logs import request_id

    request_id.set(f"task-{task_id}")


@signals.task_postrun.connect
def _forget_the_task(**kwargs):
    from sh_site.logs import request_id

    request_id.set("")
