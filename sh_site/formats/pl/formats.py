"""Dates in Polish: "1 gru 2026, 18:00"."""

DATE_FORMAT = "j b Y"
DATETIME_FORMAT = "j b Y, H:i"
MONTH_DAY_FORMAT = "j b"
