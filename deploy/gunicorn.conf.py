"""gunicorn's configuration for the site's web processes (deploy/systemd/sh-web.service); each value can be
set in the environment file. Sync workers: a request at a time each, one database connection each (keep
WEB_CONCURRENCY x web machines within PostgreSQL's budget: docs/running/index.md)."""

import os

from gunicorn.glogging import Logger

from sh_site.logs import MaskSecrets

bind = os.environ.get("BIND", "127.0.0.1:8001")
workers = int(os.environ.get("WEB_CONCURRENCY", "4"))
timeout = 30
graceful_timeout = 30
max_requests = 5000  # a worker is replaced now and then: a slow leak never grows for weeks
max_requests_jitter = 500
forwarded_allow_ips = os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1")
accesslog = "-"
access_log_format = '%(h)s "%(r)s" %(s)s %(b)s %(M)sms request_id=%({x-request-id}o)s'


class MaskedLogger(Logger):
    """gunicorn writes its access lines (the request line, with its path and query) and its own errors ("Error
    handling request <path>") through its own loggers, which the site's LOGGING never reaches: the same filter
    masks them (a calendar feed's, an unsubscribe link's, a password reset's address are secrets)."""

    def setup(self, cfg) -> None:
        super().setup(cfg)  # run again on each reload (HUP): one filter a logger all the same
        for log in (self.error_log, self.access_log):
            if not any(isinstance(existing, MaskSecrets) for existing in log.filters):
                log.addFilter(MaskSecrets())


logger_class = MaskedLogger


def child_exit(server, worker):
    """A worker gone: its gauges leave the multiprocess metrics (its counters stay summed)."""
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        from prometheus_client import multiprocess

        multiprocess.mark_process_dead(worker.pid)
