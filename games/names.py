"""A username as it reads on screen: two names with the same skeleton look alike, and in a game of deceit one
player must not pass for another ("lucía" beside "lucia", "paypal" with a Cyrillic "a").

The skeleton follows Unicode TR39's with what a name on this site can hold: compatibility forms folded (NFKD:
full-width letters, ligatures), accents stripped (the combining marks NFKD splits off), the Cyrillic and Greek
letters that look like Latin ones and a few Latin look-alikes read as those, then case folded. No well-kept Python
library computes TR39 skeletons (confusable_homoglyphs finds characters of a mixed script, not a skeleton to
compare), so the table below is ours: the letters a username can hold (Django allows any word character) that pass
for Latin ones in the fonts people read the site in."""

import hashlib
import unicodedata

# Read before case folding, as TR39 reads them: a look-alike of either case passes for the Latin letter of its case
# (Greek capital nu for "N", small nu for "v"), then case is folded. Upper-case "I" stays itself: read as "l" (as
# TR39 does), it would set "LUCIA" apart from "lucia".
LOOK_ALIKES = str.maketrans(
    {
        # Cyrillic
        "\N{CYRILLIC CAPITAL LETTER A}": "A",
        "\N{CYRILLIC CAPITAL LETTER VE}": "B",
        "\N{CYRILLIC CAPITAL LETTER ES}": "C",
        "\N{CYRILLIC CAPITAL LETTER IE}": "E",
        "\N{CYRILLIC CAPITAL LETTER EN}": "H",
        "\N{CYRILLIC CAPITAL LETTER BYELORUSSIAN-UKRAINIAN I}": "I",
        "\N{CYRILLIC CAPITAL LETTER JE}": "J",
        "\N{CYRILLIC CAPITAL LETTER KA}": "K",
        "\N{CYRILLIC CAPITAL LETTER EM}": "M",
        "\N{CYRILLIC CAPITAL LETTER O}": "O",
        "\N{CYRILLIC CAPITAL LETTER ER}": "P",
        "\N{CYRILLIC CAPITAL LETTER QA}": "Q",
        "\N{CYRILLIC CAPITAL LETTER DZE}": "S",
        "\N{CYRILLIC CAPITAL LETTER TE}": "T",
        "\N{CYRILLIC CAPITAL LETTER WE}": "W",
        "\N{CYRILLIC CAPITAL LETTER HA}": "X",
        "\N{CYRILLIC CAPITAL LETTER U}": "Y",
        "\N{CYRILLIC CAPITAL LETTER STRAIGHT U}": "Y",
        "\N{CYRILLIC LETTER PALOCHKA}": "l",
        "\N{CYRILLIC CAPITAL LETTER ZE}": "3",
        "\N{CYRILLIC SMALL LETTER A}": "a",
        "\N{CYRILLIC SMALL LETTER ES}": "c",
        "\N{CYRILLIC SMALL LETTER KOMI DE}": "d",
        "\N{CYRILLIC SMALL LETTER IE}": "e",
        "\N{CYRILLIC SMALL LETTER SHHA}": "h",
        "\N{CYRILLIC SMALL LETTER BYELORUSSIAN-UKRAINIAN I}": "i",
        "\N{CYRILLIC SMALL LETTER JE}": "j",
        "\N{CYRILLIC SMALL LETTER PALOCHKA}": "l",
        "\N{CYRILLIC SMALL LETTER O}": "o",
        "\N{CYRILLIC SMALL LETTER ER}": "p",
        "\N{CYRILLIC SMALL LETTER QA}": "q",
        "\N{CYRILLIC SMALL LETTER DZE}": "s",
        "\N{CYRILLIC SMALL LETTER IZHITSA}": "v",
        "\N{CYRILLIC SMALL LETTER WE}": "w",
        "\N{CYRILLIC SMALL LETTER HA}": "x",
        "\N{CYRILLIC SMALL LETTER U}": "y",
        "\N{CYRILLIC SMALL LETTER STRAIGHT U}": "y",
        # Greek
        "\N{GREEK CAPITAL LETTER ALPHA}": "A",
        "\N{GREEK CAPITAL LETTER BETA}": "B",
        "\N{GREEK CAPITAL LETTER EPSILON}": "E",
        "\N{GREEK CAPITAL LETTER ZETA}": "Z",
        "\N{GREEK CAPITAL LETTER ETA}": "H",
        "\N{GREEK CAPITAL LETTER IOTA}": "I",
        "\N{GREEK CAPITAL LETTER KAPPA}": "K",
        "\N{GREEK CAPITAL LETTER MU}": "M",
        "\N{GREEK CAPITAL LETTER NU}": "N",
        "\N{GREEK CAPITAL LETTER OMICRON}": "O",
        "\N{GREEK CAPITAL LETTER RHO}": "P",
        "\N{GREEK CAPITAL LETTER TAU}": "T",
        "\N{GREEK CAPITAL LETTER UPSILON}": "Y",
        "\N{GREEK CAPITAL LETTER CHI}": "X",
        "\N{GREEK SMALL LETTER ALPHA}": "a",
        "\N{GREEK LUNATE SIGMA SYMBOL}": "c",
        "\N{GREEK SMALL LETTER IOTA}": "i",
        "\N{GREEK LETTER YOT}": "j",
        "\N{GREEK SMALL LETTER OMICRON}": "o",
        "\N{GREEK SMALL LETTER RHO}": "p",
        "\N{GREEK SMALL LETTER UPSILON}": "u",
        "\N{GREEK SMALL LETTER NU}": "v",
        "\N{GREEK SMALL LETTER CHI}": "x",
        "\N{GREEK SMALL LETTER GAMMA}": "y",
        # Latin letters and digits that pass for others
        "\N{LATIN SMALL LETTER DOTLESS I}": "i",
        "\N{LATIN SMALL LETTER ALPHA}": "a",
        "\N{LATIN SMALL LETTER SCRIPT G}": "g",
        "\N{LATIN LETTER DENTAL CLICK}": "l",
        "0": "O",
        "1": "l",
    }
)

# Pairs of letters read as one, as TR39 reads them ("rn" for "m").
RUNS = (("rn", "m"), ("vv", "w"))


def skeleton(name: str) -> str:
    """What `name` looks like: equal skeletons, names a reader cannot tell apart."""
    latin = unmarked(unmarked(name).translate(LOOK_ALIKES).casefold())
    for run, letter in RUNS:
        latin = latin.replace(run, letter)
    return latin


def unmarked(text: str) -> str:
    """`text` in compatibility forms (NFKD: a full-width letter is the letter, a ligature its letters), without
    its accents (the combining marks)."""
    return "".join(mark for mark in unicodedata.normalize("NFKD", text) if not unicodedata.combining(mark))


def skeleton_key(name: str) -> str:
    """The skeleton's SHA-256, in hex: one width for every name, which any index takes (a 150-character name may
    fold to thousands), and all an equality needs."""
    return hashlib.sha256(skeleton(name).encode()).hexdigest()
