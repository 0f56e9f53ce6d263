"""Typed tokens: a clause's words resolved against the game's vocabulary (Rule 4E7).

A clause becomes a list of `Tok`s. Each has the words it spans and its senses: the
typed things it may be (a Player, a Ministry, an amount, a proposal number, a vote
word...). A word may have several senses ("for" is a vote word and a marker; "the
Chairman" is a Ministry and the Player holding it); the frame that reads the clause
picks the sense its roles want. Recognition is one left-to-right pass, trying the
longest phrase first, so its cost is linear in the clause.
"""
from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from functools import lru_cache

from .vocabulary import Vocabulary, default, words

# one token: a quoted string, an e-mail address, a word (with inner apostrophes,
# digits, dots in "4E9"/"no."), or one punctuation mark. Each alternative is linear.
_TOKEN = re.compile(r'"[^"\n]{0,400}+"|“[^”\n]{0,400}+”|[^\s@<>(),;:"\[\]]++@[\w.-]++'
                    r"|[#]?\w++(?:['’.\-]\w++)*+|[^\w\s]")
_QUOTES = str.maketrans({"’": "'", "‘": "'", "`": "'", "“": '"', "”": '"'})

Sense = tuple  # (kind, value)


@dataclass
class Tok:
    text: str                   # as written
    low: str                    # folded
    senses: list = field(default_factory=list)     # typed senses, most specific first
    start: int = 0              # character offsets in the clause
    end: int = 0
    possessive: bool = False    # "Wooble's"

    def has(self, kind: str) -> bool:
        return any(s[0] == kind for s in self.senses)

    def sense(self, kind: str):
        return next((s[1] for s in self.senses if s[0] == kind), None)

    @property
    def word(self) -> bool:
        return not self.senses


def fold(text: str) -> str:
    """Lower case, straight quotes, no accents: "Kurt Gödel" is "kurt godel" (Rule 4E7)."""
    low = text.translate(_QUOTES).casefold()
    if low.isascii():
        return low
    return "".join(c for c in unicodedata.normalize("NFKD", low) if not unicodedata.combining(c))


def raw_tokens(text: str) -> list[Tok]:
    out = []
    for m in _TOKEN.finditer(text):
        t = m.group()
        low = fold(t)
        if low in ("i'll", "i'm", "i'd", "i've"):         # "I'll give" is "I will give"
            out.append(Tok("I", "i", start=m.start(), end=m.start() + 1))
            out.append(Tok(t[2:], {"ll": "will", "m": "am", "d": "would", "ve": "have"}[low[2:]],
                           start=m.start() + 1, end=m.end()))
            continue
        out.append(Tok(t, low, start=m.start(), end=m.end()))
    return out


# --------------------------------------------------------------- fixed words

W = words()
VOTES = {w: w.upper() for w in W["votes"]["words"]}
NUMBER_WORDS = {k: v for k, v in W["numbers"].items() if k not in ("a", "an")}
COUNT_WORDS = dict(W["numbers"])
REF_WORDS: dict[tuple[str, ...], str] = {}
for kind, names in W["references"].items():
    if kind == "this":
        continue
    for n in names:
        REF_WORDS[tuple(n.split())] = kind
THIS_WORDS = {tuple(n.split()) for n in W["references"]["this"]}
CURRENCY = {"m": "m", "mackerel": "m", "mackerels": "m", "macks": "m", "mack": "m", "macs": "m",
            "mac": "m", "mk": "m"}
_AMOUNT_ONE = re.compile(r"m-?\d++|\d++m")
_RULE_ID = re.compile(r"\d++e\d++")
_P_REF = re.compile(r"p\d++|#\d++")
_BEAST = ("the beast", "beast", "the ocb", "ocb", "the operantly conditioned beast",
          "operantly conditioned beast", "the operantly-conditioned beast")


def number_of(low: str) -> int | None:
    if low.isdigit():
        return int(low)
    return NUMBER_WORDS.get(low)


# ------------------------------------------------------------ the vocabulary

@lru_cache(maxsize=64)
def _phrases(vocab: Vocabulary) -> dict[tuple[str, ...], list[Sense]]:
    """Every name in the vocabulary, as folded word tuples -> senses."""
    table: dict[tuple[str, ...], list[Sense]] = {}

    def add(name: str, sense: Sense):
        key = tuple(t.low for t in raw_tokens(name) if t.low not in (".", "'"))
        if key and sense not in table.setdefault(key, []):
            table[key].append(sense)

    for p in vocab.players:
        add(p, ("player", p))
    if vocab.beast:
        for b in _BEAST:
            add(b, ("player", vocab.beast))
    titles = {}
    for alias, ministry in vocab.ministries.items():
        add(alias, ("ministry", ministry))
        if not alias.startswith("ministry"):
            titles[alias] = ministry
    for alias, ministry in titles.items():       # "the Chairman" is also the Player holding it
        holder = vocab.holders.get(ministry)
        if holder:
            add(alias, ("player", holder))
    if vocab.actor:
        for me in ("me", "myself"):
            add(me, ("player", vocab.actor))
    return table


def _max_len(table) -> int:
    return max((len(k) for k in table), default=1)


def lex(text: str, vocab: Vocabulary | None = None) -> list[Tok]:
    """The clause's typed tokens (docs/reader.md, pass 2)."""
    vocab = vocab if vocab is not None else default()
    raw = raw_tokens(text)
    table = _phrases(vocab)
    longest = min(_max_len(table), 8)
    out: list[Tok] = []
    i = 0
    while i < len(raw):
        n, senses = _typed(raw, i, table, longest, vocab)
        if n:
            toks = raw[i:i + n]
            tok = Tok(text[toks[0].start:toks[-1].end], " ".join(t.low for t in toks), senses,
                      toks[0].start, toks[-1].end)
            if toks[-1].low.endswith(("'s", "'")) and any(s[0] == "player" for s in senses):
                tok.possessive = True
            out.append(tok)
            i += n
            continue
        out.append(raw[i])
        i += 1
    return out


def _typed(raw: list[Tok], i: int, table, longest: int, vocab: Vocabulary) -> tuple[int, list]:
    """The longest typed thing starting at raw[i]: (tokens it spans, senses)."""
    low = raw[i].low
    nxt = raw[i + 1].low if i + 1 < len(raw) else ""
    # a quoted string is text as written
    if low[:1] == '"' and len(low) > 1:
        return 1, [("text", raw[i].text[1:-1].strip())]
    if "@" in low and not low.startswith("@"):
        return 1, [("email", raw[i].text)]
    # names from the vocabulary, longest first ("Wooble's" is Wooble's)
    for n in range(min(longest, len(raw) - i), 0, -1):
        key = tuple(t.low for t in raw[i:i + n])
        last = key[-1]
        stripped = None
        if last.endswith("'s"):
            stripped = key[:-1] + (last[:-2],)
        elif n > 1 and last == "'s":
            continue
        found = table.get(key) or (table.get(stripped) if stripped else None)
        if found:
            if n + i < len(raw) and raw[i + n].low in ("'s", "'"):
                return n + 1, list(found)
            return n, list(found)
    # amounts: m10, 10m, m 10, 10 mackerel, ten macks
    if _AMOUNT_ONE.fullmatch(low):
        return 1, [("amount", "m" + low.strip("m"))]
    if low == "m" and nxt.isdigit():
        return 2, [("amount", "m" + nxt)]
    n0 = number_of(low)
    if n0 is not None:
        if nxt in CURRENCY and nxt != "m" or nxt == "m":
            return 2, [("amount", f"m{n0}")]
        if nxt in ("point", "points", "pts", "pt"):
            return 2, [("points", n0)]
        if nxt in ("time", "times"):
            return 2, [("times", n0)]
        if low in ("once", "twice", "thrice"):
            return 1, [("times", n0)]
        return 1, [("num", n0)]
    if low in ("once", "twice", "thrice"):
        return 1, [("times", COUNT_WORDS[low])]
    # references: "proposal 12", "prop. #12", "P12", "#12", "Rule 4E9", "intent 3"
    # (and their possessives: "P12's", "Rule 4E9's title")
    base = low[:-2] if low.endswith("'s") else low
    if _P_REF.fullmatch(base):
        kind = "proposal" if base[0] == "p" else None
        return 1, [("ref", (kind, int(base[1:]))), ("num", int(base[1:]))]
    if _RULE_ID.fullmatch(base):
        return 1, [("ref", ("rule", base.upper()))]
    for n in (3, 2, 1):
        key = tuple(t.low for t in raw[i:i + n])
        kind = REF_WORDS.get(key)
        if kind is None:
            continue
        j = i + n
        while j < len(raw) and raw[j].low in ("#", "no", "no.", "number", "num", "nr", "."):
            j += 1
        if j < len(raw):
            target = raw[j].low.lstrip("#").removesuffix("'s")
            if kind == "rule" and _RULE_ID.fullmatch(target):
                return j + 1 - i, [("ref", ("rule", target.upper()))]
            if target.isdigit():
                return j + 1 - i, [("ref", (kind, int(target)))]
        if len(key[0]) > 1:
            return n, [("kind", kind)]
    if low in VOTES:
        return 1, [("vote", VOTES[low])]
    return 0, []
