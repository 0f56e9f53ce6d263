"""Names that look alike are one name (Rule 4E4: "a uniquely identifying name").

A name is normalised (NFKC; invisible characters and bidi controls removed;
white space one space) and refused when it holds control, private-use or
unassigned characters or piles of combining marks. Two names are confusable
when their skeletons match: Unicode Technical Standard #39's skeleton (NFD, each
character mapped to its prototype in Unicode's confusables table, NFD again),
with combining marks set aside, of the name as written and of its case-folded
form. The table, bnomic/confusables.txt, is made from Unicode's
confusables.txt by scripts/make_confusables.py.
"""
from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from importlib import resources

from .context import Rejected

_EDGE_PUNCT = re.compile(r"^[\s\"'“”‘’`(\[<*_]++|(?<![\s\"'“”‘’`)\]>*_.,;:!?])[\s\"'“”‘’`)\]>*_.,;:!?]++$")
_QUOTES = str.maketrans({"’": "'", "‘": "'", "`": "'", "“": '"', "”": '"'})


def clean_name(text: str) -> str:
    """A name as written, without surrounding quotes and punctuation, one space between words."""
    return re.sub(r"\s+", " ", _EDGE_PUNCT.sub("", text.translate(_QUOTES))).strip()


# Characters that show nothing: format characters (Cf: zero-width spaces and
# joiners, bidi controls, soft hyphen, tags, ...) and the other default-ignorable
# code points of Unicode that are letters or marks by category (Hangul fillers,
# variation selectors, the combining grapheme joiner), and the Braille blank.
_IGNORABLE_OTHERS = frozenset(
    [0x034F, 0x115F, 0x1160, 0x17B4, 0x17B5, 0x180B, 0x180C, 0x180D, 0x180E, 0x180F,
     0x2800, 0x3164, 0xFFA0]
    + list(range(0xFE00, 0xFE10)) + list(range(0xE0100, 0xE01F0)))

# The most combining marks one letter may carry (more is "Zalgo" text).
MAX_MARKS = 2


def invisible(c: str) -> bool:
    return unicodedata.category(c) == "Cf" or ord(c) in _IGNORABLE_OTHERS


def normalise(text: str) -> str:
    """NFKC, without invisible characters, white space runs one space, trimmed."""
    text = unicodedata.normalize("NFKC", text)
    text = "".join(c for c in text if not invisible(c))
    return " ".join(text.split())


def problem(name: str) -> str | None:
    """Why a (normalised) name cannot be used, or None."""
    marks = 0
    for c in unicodedata.normalize("NFD", name):     # marks counted decomposed
        cat = unicodedata.category(c)
        if cat == "Cc":
            return f"it holds the control character U+{ord(c):04X}"
        if cat in ("Co", "Cn", "Cs"):
            return f"it holds U+{ord(c):04X}, which is not an assigned character"
        marks = marks + 1 if cat in ("Mn", "Me") else 0
        if marks > MAX_MARKS:
            return f"it piles more than {MAX_MARKS} combining marks on one letter"
    return None


@lru_cache(maxsize=1)
def _prototypes() -> dict[str, str]:
    table = {}
    text = resources.files("bnomic").joinpath("confusables.txt").read_text("utf-8")
    for line in text.splitlines():
        if line and not line.startswith("#"):
            source, target = line.split(";")
            table[chr(int(source, 16))] = "".join(chr(int(t, 16)) for t in target.split())
    return table


def _bare(text: str) -> str:
    """NFD without combining marks."""
    return "".join(c for c in unicodedata.normalize("NFD", text)
                   if unicodedata.category(c) not in ("Mn", "Me"))


def skeleton(text: str) -> str:
    """UTS #39 skeleton, combining marks set aside: NFD, prototypes, NFD."""
    table = _prototypes()
    return _bare("".join(table.get(c, c) for c in _bare(normalise(text))))


@lru_cache(maxsize=4096)
def keys(name: str) -> frozenset[str]:
    """The skeletons two names are compared by, without spaces ("TheBeast" is
    "The Beast"): as written, and case-folded (names are case-blind, and "I"
    looks like "l" only in capitals)."""
    return frozenset("".join(k.split()) for k in (
        skeleton(name), skeleton(skeleton(name).casefold()), skeleton(normalise(name).casefold())))


def confusable(a: str, b: str) -> bool:
    """The two names look alike."""
    return bool(keys(a) & keys(b))


def one_line(text: str) -> str:
    """A one-line field (a title): normalised as a name is, control characters
    and invisible ones removed."""
    text = "".join(" " if unicodedata.category(c) in ("Cc", "Zl", "Zp") else c
                   for c in unicodedata.normalize("NFKC", text or ""))
    return normalise(text)


def title(config, text: str | None, what: str, rule: str) -> str:
    """A title a player wrote (a proposal's, a Rule's): one line, at most
    `limits.title_length` characters, or Rejected. A game made before the limit
    existed lacks it, and keeps its titles as written (so its log replays)."""
    longest = config.get("limits.title_length")
    if longest is None or not text:
        return text or ""
    text = one_line(text)
    if len(text) > int(longest):
        raise Rejected(f"the {what} is {len(text)} characters long; a title is one line of at "
                       f"most {longest} characters (limits.title_length)", rule=rule)
    return text
