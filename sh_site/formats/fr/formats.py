"""Dates in French: "1 déc. 2026, 18:00"."""

DATE_FORMAT = "j N Y"
DATETIME_FORMAT = "j N Y, H:i"
MONTH_DAY_FORMAT = "j N"
