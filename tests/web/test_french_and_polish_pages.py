"""Pages as a French or Polish reader gets them: a no-break space before French colons wherever the text comes from
(catalogue, template or code), and month abbreviations written as each language writes them."""

import re
from datetime import UTC, datetime

import pytest
from django.contrib.auth.models import Group
from django.test import Client
from django.utils import translation

from games.forms import ClaimForm
from games.services.transfer import import_script
from games.views.common import first_error
from games.wording import when
from tests.factories import governments, make_user, script, with_second_factor
from tests.web.typography import french_spacing_faults, visible_text

pytestmark = pytest.mark.django_db

DECEMBER = datetime(2026, 12, 1, 18, 0, tzinfo=UTC)


def reader(name: str, language: str, *, moderator: bool = False) -> Client:
    user = make_user(name)
    if moderator:
        user.groups.add(Group.objects.get(name="moderators"))
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(user)
    return with_second_factor(client, user) if moderator else client


def session_game():
    """Round 2's nomination: ann presided over round 1, bob enacted a fascist policy (their panels list the
    session) and investigated nobody yet; a post and a vote result are in the thread."""
    return import_script(script(actions=governments(("ann", "bob"))[:8]), name="Partie de test", now=DECEMBER)


def test_french_pages_set_a_no_break_space_before_every_colon(settings):
    """ "Tour 1: reçu" stood beside "Tour 1 : ...": the panel's sessions, the vote results in the thread, the rules,
    the settings and the moderator's pages all set U+00A0 before : ; ? and !."""
    game = session_game()
    pages = {
        reader("bob", "fr"): [
            f"/games/{game.pk}/",
            f"/games/{game.pk}/rules/",
            "/profile/",
            "/profile/absences/",
            "/notifications/",
            "/",
        ],
        reader("ann", "fr"): [f"/games/{game.pk}/"],
        reader("zoe", "fr", moderator=True): ["/moderation/", f"/moderation/games/{game.pk}/", "/moderation/audit/"],
    }
    faults = {}
    for client, urls in pages.items():
        for url in urls:
            response = client.get(url)
            assert response.status_code == 200, url
            assert response.headers["Content-Language"] == "fr"
            found = french_spacing_faults(visible_text(response.content.decode()))
            if found:
                faults[url] = found
    assert faults == {}


def test_a_french_panel_and_vote_result_set_the_colon_apart():
    text = visible_text(reader("bob", "fr").get(f"/games/{session_game().pk}/").content.decode())
    assert "Tour 1\u00a0: reçu" in text
    assert "ann\u00a0: Ja, bob\u00a0: Ja" in text


def test_a_refused_form_names_its_field_with_a_french_colon():
    """A refusal that names the field it is about ("Cards: ...") sets the colon as the reader's language does."""
    with translation.override("fr"):
        refusal = first_error(ClaimForm({"round": 1, "cards": "XY"}))
    assert refusal.startswith("Cartes\u00a0: ")
    assert french_spacing_faults(refusal) == []
    with translation.override("en"):
        assert first_error(ClaimForm({"round": 1, "cards": "XY"})).startswith("Cards: ")


@pytest.mark.parametrize(
    ("language", "month", "capitalised"), [("fr", "1 déc.", "Déc"), ("pl", "1 gru", "Gru"), ("es", "1 dic.", "Dic")]
)
def test_months_are_abbreviated_in_lower_case(language, month, capitalised):
    """ "1 Déc", "1 Gru": French and Spanish write "1 déc.", "1 dic.", Polish "1 gru", on the page and in `when`."""
    with translation.override(language):
        assert month in when(DECEMBER)
    game = session_game()
    text = visible_text(reader("bob", language).get(f"/games/{game.pk}/").content.decode())
    assert month in text
    assert not re.search(rf"\d {capitalised}\b", text)


def test_english_dates_keep_their_day_month_and_year():
    with translation.override("en"):
        assert when(DECEMBER) == "Tue 1 Dec 2026, 18:00 UTC"
    text = visible_text(reader("bob", "en").get(f"/games/{session_game().pk}/").content.decode())
    assert "1 Dec" in text
