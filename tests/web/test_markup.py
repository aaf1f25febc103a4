"""Posts' Markdown and @mentions: a mention before punctuation, names that end in punctuation themselves."""

from html.parser import HTMLParser

import pytest

from games.markup import mentions, quote, render

NAMES = {"boris7", "ann", "dot.", "x-"}


class Attributes(HTMLParser):
    """The names and values of every attribute of the HTML fed, as a browser reads them."""

    def __init__(self):
        super().__init__()
        self.names, self.values = set(), ""

    def handle_starttag(self, tag, attrs):
        self.names |= {name for name, _ in attrs}
        self.values += " ".join(value or "" for _, value in attrs)


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


def test_a_mention_in_code_stays_code():
    html = render("`@boris7` and\n\n    @ann", mentionable=NAMES)
    assert "<code>@boris7</code>" in html and "<code>@ann\n</code>" in html and "<a" not in html


def test_a_mention_within_a_link_text_is_not_linked_again():
    html = render("[@ann's site](https://example.com)", mentionable=NAMES)
    assert html == '<p><a href="https://example.com" rel="nofollow noopener noreferrer">@ann\'s site</a></p>'


def test_code_shows_html_escaped_once():
    html = render("```\n<b>bold</b> & <script>alert(1)</script>\n```\n\nand `<i>` inline")
    assert html == (
        "<pre><code>&lt;b&gt;bold&lt;/b&gt; &amp; &lt;script&gt;alert(1)&lt;/script&gt;\n</code></pre>\n"
        "<p>and <code>&lt;i&gt;</code> inline</p>"
    )


def test_raw_html_is_shown_as_text():
    html = render('<div onclick="x()">hi</div>\n\n<img src=x onerror=alert(1)> <!-- hidden -->')
    assert "<div" not in html and "<img" not in html and "<!--" not in html
    assert '&lt;div onclick="x()"&gt;hi&lt;/div&gt;' in html
    assert "&lt;img src=x onerror=alert(1)&gt; &lt;!-- hidden --&gt;" in html


@pytest.mark.parametrize(
    "text",
    [
        "[click](javascript:alert(1))",
        "[click](JavaScript:alert(1))",
        "[click]( javascript:alert(1))",
        "[click](java&#115;cript:alert(1))",
        "[click](&#106;avascript:alert(1))",
        "[click](data:text/html;base64,PHNjcmlwdD4=)",
        "[click](vbscript:msgbox(1))",
        "[click](file:///etc/passwd)",
        "<javascript:alert(1)>",
        "[click][ref]\n\n[ref]: javascript:alert(1)",
        "![pic](javascript:alert(1))",
        "![pic](data:image/png;base64,iVBORw0KGgo=)",
    ],
)
def test_a_link_to_another_scheme_is_plain_text(text):
    html = render(text)
    assert "<a" not in html and "href" not in html
    assert any(scheme in html.lower() for scheme in ("javascript:", "data:", "vbscript:", "file:"))  # as text


@pytest.mark.parametrize(
    ("text", "href"),
    [
        ("[a](https://example.com/?q=1&r=2)", "https://example.com/?q=1&amp;r=2"),
        ("[a](http://example.com)", "http://example.com"),
        ("[a](mailto:ann@example.com)", "mailto:ann@example.com"),
        ("[a](/games/3/thread/#post-4)", "/games/3/thread/#post-4"),
        ("<https://example.com>", "https://example.com"),
        ("see www.example.com", "http://www.example.com"),
        ("see https://example.com/x.", "https://example.com/x"),
    ],
)
def test_a_link_to_the_web_a_mail_address_or_the_site_is_a_link(text, href):
    assert f'href="{href}" rel="nofollow noopener noreferrer"' in render(text)


def test_a_name_that_looks_like_a_file_is_no_link():
    assert render("see notes.md and file.py") == "<p>see notes.md and file.py</p>"


@pytest.mark.parametrize(
    "text",
    [
        '[x](https://example.com" onmouseover="alert(1))',
        '[x](https://example.com "t\\" onmouseover=\\"alert(1)")',
        '[x](<https://example.com/"onmouseover="alert(1)>)',
        '![x" onerror="alert(1)](https://example.com/a.png)',
        '| a |\n|---|\n| <td style="background:url(javascript:x)"> |',
    ],
)
def test_no_attribute_can_be_injected(text):
    attributes = Attributes()
    attributes.feed(render(text))
    assert attributes.names <= {"href", "rel", "class", "title"}
    assert "javascript" not in attributes.values


def test_nested_tricks_stay_text():
    html = render("<<script>script>alert(1)<</script>/script> <scr<script>ipt>alert(1)</script>")
    assert "<script" not in html and "&lt;script&gt;" in html


def test_an_image_is_a_link_to_it_named_by_its_alt_text_or_address():
    assert render("![the board](https://example.com/b.png)") == (
        '<p><a class="image" href="https://example.com/b.png" rel="nofollow noopener noreferrer">the board</a></p>'
    )
    assert render("![](https://example.com/b.png)") == (
        '<p><a class="image" href="https://example.com/b.png" rel="nofollow noopener noreferrer">'
        "https://example.com/b.png</a></p>"
    )


def test_an_image_within_a_link_is_its_alt_text():
    html = render("[![badge](https://example.com/b.png)](https://example.com)")
    assert html == '<p><a href="https://example.com" rel="nofollow noopener noreferrer">badge</a></p>'


def test_a_table_strikethrough_and_headings_below_the_page_s_own():
    html = render("# Claims\n### Votes\n\n| seat | vote |\n|---|:-:|\n| 1 | ~~Ja~~ Nein |")
    assert html.startswith("<h3>Claims</h3>\n<h5>Votes</h5>\n<table>\n<thead>\n<tr>\n<th>seat</th>")
    assert '<td style="text-align:center"><s>Ja</s> Nein</td>' in html


def test_a_single_newline_is_a_line_break():
    assert render("Ja\nNein") == "<p>Ja<br>\nNein</p>"


def test_a_quote_renders_as_a_quotation_with_its_author_linked():
    text = quote("first line\nsecond", author="ann", link="/games/1/thread/#post-2")
    html = render(text)
    assert html.startswith('<p><a href="/games/1/thread/#post-2" rel="nofollow noopener noreferrer"><strong>ann')
    assert "<blockquote>\n<p>first line<br>\nsecond</p>\n</blockquote>" in html
