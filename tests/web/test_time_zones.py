"""Time zones as people pick them: the browser's zone (the cookie the site's script sets) offered first and
chosen, the common zones next, every zone last; pages shown in the browser's zone until a profile says otherwise."""

import re

import pytest
from django.test import Client

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
