"""Dates in English: "1 Dec 2026, 18:00"."""

DATE_FORMAT = "j M Y"
DATETIME_FORMAT = "j M Y, H:i"
MONTH_DAY_FORMAT = "j M"
