"""Time zones as people pick them: the browser's zone (the cookie the site's script sets) offered first and
chosen, the common zones next, every zone last; pages shown in the browser's zone until a profile says otherwise."""

import re
from datetime import UTC, datetime
from zoneinfo import ZoneInfo

import pytest
from django.test import Client

from games.zones import COMMON, is_listed, is_zone
from tests.games.helpers import user

pytestmark = pytest.mark.django_db


def zone_select(page: str) -> str:
    return page.split('name="time_zone"')[1].split("</select>")[0]


def test_the_browser_s_zone_is_offered_first_and_chosen_on_the_new_game_form(client_for):
    client = client_for("ann")
    client.cookies["tz"] = "America/Lima"
    select = zone_select(client.get("/games/new/").content.decode())
    groups = re.findall(r'<optgroup label="([^"]+)">', select)
    assert groups == ["Your browser&#x27;s time zone", "Common time zones", "Every time zone"]
    first = re.search(r'<option value="([^"]+)"( selected)?>', select)
    assert first.groups() == ("America/Lima", " selected")
    assert select.count(" selected>") == 1
    common = select.split("Common time zones")[1].split("</optgroup>")[0]
    assert "Europe/Madrid" in common and "Europe/Warsaw" in common and "Antarctica/Troll" not in common


def test_a_forged_zone_cookie_is_ignored(client_for):
    client = client_for("ann")
    client.cookies["tz"] = "Mars/Olympus"
    select = zone_select(client.get("/profile/").content.decode())
    assert "Mars/Olympus" not in select and "Your browser" not in select


def test_pages_are_in_the_browser_s_zone_until_a_profile_says_otherwise(client_for):
    visitor = Client()
    visitor.cookies["tz"] = "Europe/Madrid"
    assert "Times are shown in Europe/Madrid." in visitor.get("/").content.decode()
    ann = client_for("ann")
    ann.cookies["tz"] = "Europe/Madrid"
    ann.post("/profile/", {"time_zone": "Asia/Tokyo", "language": "en", "reminders": "24"})
    assert "Times are shown in Asia/Tokyo." in ann.get("/").content.decode()


def options(select: str) -> list[str]:
    return re.findall(r'<option value="([^"]+)"', select)


def test_each_zone_is_offered_once_and_utc_among_the_common_ones(client_for):
    select = zone_select(client_for("ann").get("/games/new/").content.decode())
    offered = options(select)
    assert len(offered) == len(set(offered))
    common = options(select.split("Common time zones")[1].split("</optgroup>")[0])
    assert "UTC" in common
    assert offered.count("UTC") == 1


def test_no_name_that_is_not_a_place_is_offered_or_accepted(client_for):
    offered = options(zone_select(client_for("ann").get("/games/new/").content.decode()))
    for name in ("localtime", "Factory", "posixrules", "Etc/UTC", "Zulu", "GMT0", "Etc/GMT+5", "US/Eastern"):
        assert name not in offered
    for name in ("localtime", "Factory"):
        assert not is_zone(name)
    assert is_zone("Etc/UTC")  # an alias a browser may send still counts, it is only not listed


def test_the_common_zones_run_west_to_east_without_aliases_or_a_misplaced_one():
    january = datetime(2026, 1, 15, 12, tzinfo=UTC)
    offsets = [january.astimezone(ZoneInfo(zone)).utcoffset() for zone in COMMON]
    assert offsets == sorted(offsets)
    assert "Africa/Abidjan" not in COMMON
    assert all(is_listed(zone) for zone in COMMON)
    assert len(COMMON) == len(set(COMMON))


def test_a_profile_s_zone_the_full_list_leaves_out_is_still_offered_and_kept(client_for):
    from games.models import Profile

    ann = client_for("ann")
    Profile.objects.update_or_create(user=user("ann"), defaults={"time_zone": "US/Eastern"})
    select = zone_select(ann.get("/profile/").content.decode())
    assert '<option value="US/Eastern" selected>' in select
    assert options(select).count("US/Eastern") == 1
