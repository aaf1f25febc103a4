"""Logging filters."""

import logging


class NoTracebackForClientErrors(logging.Filter):
    """A 403 or 404 is the visitor's mistake, not the site's: one line, no traceback (Django attaches the
    PermissionDenied or Http404 it handled). Server errors keep theirs."""

    def filter(self, record: logging.LogRecord) -> bool:
        if getattr(record, "status_code", 500) < 500:
            record.exc_info = None
            record.exc_text = None
        return True
