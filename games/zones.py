"""Time zones as people pick them: the browser's own first, then the zones most players live in, then all ~600."""

from zoneinfo import available_timezones

from django.utils.translation import gettext_lazy as _

ZONES = frozenset(available_timezones())  # read once: available_timezones() walks the tz database each call

# Where the site's four languages are mostly read, and the largest zones elsewhere, west to east.
COMMON = [
    "America/Los_Angeles",
    "America/Denver",
    "America/Mexico_City",
    "America/Chicago",
    "America/Bogota",
    "America/Lima",
    "America/New_York",
    "America/Caracas",
    "America/Santiago",
    "America/Argentina/Buenos_Aires",
    "America/Sao_Paulo",
    "America/Toronto",
    "Atlantic/Canary",
    "UTC",
    "Europe/London",
    "Europe/Lisbon",
    "Africa/Casablanca",
    "Europe/Madrid",
    "Europe/Paris",
    "Europe/Brussels",
    "Europe/Berlin",
    "Europe/Rome",
    "Europe/Warsaw",
    "Africa/Abidjan",
    "Europe/Athens",
    "Europe/Helsinki",
    "Europe/Kyiv",
    "Europe/Moscow",
    "Asia/Kolkata",
    "Asia/Shanghai",
    "Asia/Tokyo",
    "Australia/Sydney",
]


def is_zone(name: str) -> bool:
    return name in ZONES


def zone_choices(browser_zone: str = "") -> list:
    """Grouped choices for a time zone field: the browser's zone (when it gave a real one), the common zones,
    then every zone by name. A zone may appear twice; the first is the one shown selected."""
    groups = []
    if is_zone(browser_zone):
        groups.append((_("Your browser's time zone"), [(browser_zone, browser_zone)]))
    groups.append((_("Common time zones"), [(zone, zone) for zone in COMMON if zone in ZONES]))
    groups.append((_("Every time zone"), [(zone, zone) for zone in sorted(ZONES)]))
    return groups
