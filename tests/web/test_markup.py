"""Posts' Markdown and @mentions: a mention before punctuation, names that end in punctuation themselves."""

import pytest

from games.markup import mentions, render

NAMES = {"boris7", "ann", "dot.", "x-"}


@pytest.mark.parametrize(
    ("text", "named"),
    [
        ("Ask @boris7.", {"boris7"}),
        ("@boris7, @ann; and @boris7!", {"boris7", "ann"}),
        ("@boris7... really?", {"boris7"}),
        ("Thanks @dot.", {"dot."}),  # a name that ends with a dot keeps it
        ("@dot.. ok", {"dot."}),
        ("@x- and @x", {"x-"}),
        ("@annabel is nobody", set()),  # a name is never found inside a longer one
        ("mail ann@example.com", set()),
    ],
)
def test_a_mention_names_the_longest_existing_name(text, named):
    assert mentions(text, NAMES) == named


def test_a_mention_before_a_full_stop_is_linked_and_the_stop_kept():
    html = render("Ask @boris7.", mentionable=NAMES)
    assert '<a href="/users/boris7/" rel="nofollow noopener noreferrer">@boris7</a>.' in html
