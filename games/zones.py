"""Time zones as people pick them: the browser's own first, then the zones most players live in, then all ~600."""

from zoneinfo import available_timezones

from django.utils.translation import gettext_lazy as _

# The tz database's files that name no place: "localtime" is whatever the server's clock says, "Factory" a
# placeholder whose abbreviation is "-00", "posixrules" a template for POSIX TZ strings.
NOT_ZONES = frozenset({"localtime", "Factory", "posixrules"})
ZONES = frozenset(available_timezones()) - NOT_ZONES  # read once: available_timezones() walks the tz database

# Where the site's four languages are mostly read, and the largest zones elsewhere, west to east (by their offset
# from UTC in January). Each is the tz database's own name for its place, never an alias, and UTC comes once.
COMMON = [
    "Pacific/Honolulu",
    "America/Anchorage",
    "America/Los_Angeles",
    "America/Denver",
    "America/Mexico_City",
    "America/Chicago",
    "America/Bogota",
    "America/Lima",
    "America/New_York",
    "America/Toronto",
    "America/Caracas",
    "America/Santiago",
    "America/Argentina/Buenos_Aires",
    "America/Sao_Paulo",
    "Atlantic/Canary",
    "UTC",
    "Europe/London",
    "Europe/Lisbon",
    "Africa/Casablanca",
    "Africa/Lagos",
    "Europe/Madrid",
    "Europe/Paris",
    "Europe/Brussels",
    "Europe/Berlin",
    "Europe/Rome",
    "Europe/Warsaw",
    "Africa/Johannesburg",
    "Africa/Cairo",
    "Europe/Athens",
    "Europe/Helsinki",
    "Europe/Kyiv",
    "Europe/Moscow",
    "Asia/Dubai",
    "Asia/Kolkata",
    "Asia/Shanghai",
    "Asia/Tokyo",
    "Australia/Sydney",
    "Pacific/Auckland",
]


# The tz database's folders of old names, each an alias of a place's zone listed elsewhere.
ALIAS_FOLDERS = ("Etc/", "SystemV/", "US/", "Canada/", "Mexico/", "Brazil/", "Chile/")


def is_zone(name: str) -> bool:
    return name in ZONES


def is_listed(name: str) -> bool:
    """A zone the full list offers: a place's name, not one of the database's old aliases kept for compatibility
    ("GMT0", "Zulu", "Etc/UCT", "EST5EDT", "Poland", "US/Eastern"), which would show UTC and others several times
    over. Those still count as zones: a browser or an older profile may name one."""
    return name == "UTC" or ("/" in name and not name.startswith(ALIAS_FOLDERS))


def zone_choices(browser_zone: str = "", current: str = "") -> list:
    """Grouped choices for a time zone field, each zone once, in the first group that has it: the browser's zone
    (when it gave a real one), the common zones, then every zone by name, with the `current` one even if it is an
    alias (so that saving a form keeps it)."""
    groups = []
    if is_zone(browser_zone):
        groups.append((_("Your browser's time zone"), [browser_zone]))
    groups.append((_("Common time zones"), [zone for zone in COMMON if zone in ZONES]))
    offered = {zone for zone in ZONES if is_listed(zone)} | ({current} if is_zone(current) else set())
    groups.append((_("Every time zone"), sorted(offered)))
    shown = set()
    choices = []
    for label, zones in groups:
        choices.append((label, [(zone, zone) for zone in zones if zone not in shown]))
        shown.update(zones)
    return choices
